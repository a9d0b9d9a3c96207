//===- bench/pcmap_layout_bench.cpp - Queries on real layouts -----------===//
//
// The runtime's queries on the tables of real programs (issue 20; see
// bench/README.md): each object named on the command line is dlopened
// (alone, and unloaded after it is measured; with --together all of them
// first), so that its constructors register its tables through the real
// path, and its
// table is then read back through the public API (pcmap_module_at,
// pcmap_function_at, pcmap_atomic_at). From it come the layout (atomics and
// function starts per 256-byte stretch of code), the queries (half at atomic
// PCs, half at random PCs inside covered functions, fixed seed, shuffled)
// and the baselines' arrays. Every answer is checked before anything is
// timed; a wrong answer is reported and the exit status is 1.
//
// Timed, per object, on the same queries: the median and the range of
// --reps repetitions, each repetition running every method in turn so that
// a change of the machine's load hits them alike:
//   is_atomic:   pcmap_is_atomic_pc, std::upper_bound over the sorted atomic
//                PCs, and a GWPSan-style two-level search (the covering
//                function, then its atomics);
//   function:    pcmap_lookup_function, libgcc's _Unwind_Find_FDE, dladdr;
//   registration: __pcmap_sections_del, then __pcmap_sections_add, of the
//                object's own sections (the bounds its constructor passes),
//                per atomic and per function.
//
// Self-timed rather than Google Benchmark: the tables are only known at run
// time, one per object, and what is reported is the spread of repetitions of
// a fixed query set, which a loop of clock reads gives directly.
//
//===----------------------------------------------------------------------===//

#include "pcmap/Format.h"
#include "pcmap/pcmap.h"
#include "pcmap_testing.h"
#include "unwind_fde.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <time.h>

#include <algorithm>
#include <cinttypes>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace fmt = pcmap::format;

// Weak: an index without the notion of a described stretch may drop the
// hook; the share is then not reported.
extern "C" int __pcmap_testing_stretch_described(uintptr_t pc)
    __attribute__((weak));

namespace {

constexpr uint64_t kSeed = 0x5d1c0ffee2a4b3c7ull;
/// A stretch of code, as the issue counts layouts (and as the index that
/// this benchmark was written against cuts the code).
constexpr unsigned kStretchBytes = 256;
/// The layout thresholds of the issue: more than 16 atomics in a stretch,
/// more than two function starts in a stretch.
constexpr unsigned kDenseAtomics = 16;
constexpr unsigned kManyStarts = 2;
/// glibc's dladdr scans the object's symbols one by one (a third of a
/// millisecond per query among 100,000 functions): it is timed on the first
/// queries only.
constexpr size_t kDladdrQueries = 1000;

struct Options {
  unsigned reps = 7;
  size_t queries = 1000000;
  bool checkOnly = false;
  /// All objects loaded at once (pcmap then finds each query's module among
  /// all of theirs), instead of one after the other, each alone with its
  /// dependencies, as in a program that uses only it.
  bool together = false;
};

std::string format(const char *f, ...) __attribute__((format(printf, 1, 2)));
std::string format(const char *f, ...) {
  char buf[2048];
  va_list ap;
  va_start(ap, f);
  vsnprintf(buf, sizeof buf, f, ap);
  va_end(ap);
  return buf;
}

uint64_t cpuNanoseconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return uint64_t(ts.tv_sec) * 1000000000u + uint64_t(ts.tv_nsec);
}

//===----------------------------------------------------------------------===//
// The object's own pcmap sections, as its constructor registers them
//===----------------------------------------------------------------------===//

struct SectionPair {
  const char *atomicsStart = nullptr, *atomicsStop = nullptr;
  const char *functionsStart = nullptr, *functionsStop = nullptr;
};

/// The pcmap sections of an ELF file by version, at their addresses in the
/// loaded object (bias + sh_addr): the __start_/__stop_ bounds that its
/// registration constructor passes.
bool findSections(const std::string &path, uintptr_t bias,
                  std::map<uint32_t, SectionPair> &out, std::string &error) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> file((std::istreambuf_iterator<char>(in)),
                         std::istreambuf_iterator<char>());
  if (file.size() < sizeof(Elf64_Ehdr) ||
      memcmp(file.data(), ELFMAG, SELFMAG) || file[EI_CLASS] != ELFCLASS64) {
    error = "not a 64-bit ELF file";
    return false;
  }
  Elf64_Ehdr eh;
  memcpy(&eh, file.data(), sizeof eh);
  if (eh.e_shoff + size_t(eh.e_shnum) * sizeof(Elf64_Shdr) > file.size() ||
      eh.e_shstrndx >= eh.e_shnum) {
    error = "truncated section headers";
    return false;
  }
  std::vector<Elf64_Shdr> sh(eh.e_shnum);
  memcpy(sh.data(), file.data() + eh.e_shoff, sh.size() * sizeof(Elf64_Shdr));
  const Elf64_Shdr &strtab = sh[eh.e_shstrndx];
  auto versionOf = [](const char *name, const char *base, uint32_t &v) {
    size_t n = strlen(base);
    if (strncmp(name, base, n) || !name[n])
      return false;
    char *end;
    unsigned long x = strtoul(name + n, &end, 10);
    v = uint32_t(x);
    return *end == 0;
  };
  for (const Elf64_Shdr &s : sh) {
    if (s.sh_name >= strtab.sh_size || !(s.sh_flags & SHF_ALLOC))
      continue;
    const char *name = file.data() + strtab.sh_offset + s.sh_name;
    const char *start = reinterpret_cast<const char *>(bias + s.sh_addr);
    uint32_t v;
    if (versionOf(name, fmt::kAtomicsSectionBase, v)) {
      out[v].atomicsStart = start;
      out[v].atomicsStop = start + s.sh_size;
    } else if (versionOf(name, fmt::kFunctionsSectionBase, v)) {
      out[v].functionsStart = start;
      out[v].functionsStop = start + s.sh_size;
    }
  }
  if (out.empty()) {
    error = "no pcmap sections";
    return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// A loaded object's table, read back through the public API
//===----------------------------------------------------------------------===//

struct Percentiles {
  uint64_t p50 = 0, p90 = 0, p99 = 0, max = 0;
  double over = 0; // share of the values above the threshold
};

Percentiles percentiles(std::vector<uint64_t> v, uint64_t threshold) {
  Percentiles p;
  if (v.empty())
    return p;
  std::sort(v.begin(), v.end());
  auto at = [&](double q) { return v[size_t(q * double(v.size() - 1) + 0.5)]; };
  p.p50 = at(0.5);
  p.p90 = at(0.9);
  p.p99 = at(0.99);
  p.max = v.back();
  p.over = double(std::count_if(v.begin(), v.end(),
                                [&](uint64_t x) { return x > threshold; })) /
           double(v.size());
  return p;
}

struct Spread {
  double median = 0, min = 0, max = 0;
  bool valid = false;
};

Spread spread(std::vector<double> v) {
  Spread s;
  if (v.empty())
    return s;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  s.median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  s.min = v.front();
  s.max = v.back();
  s.valid = true;
  return s;
}

struct Layout {
  std::string label, path;
  void *handle = nullptr;
  pcmap_module module{};
  std::map<uint32_t, SectionPair> sections;

  // From the public API, in address order.
  std::vector<pcmap_function> functions;
  std::vector<uintptr_t> pcs;            // every atomic PC, sorted
  std::vector<uintptr_t> fstart, fend;   // two-level: function ranges
  std::vector<uint32_t> fatom;           // two-level: first atomic, + end
  std::vector<uint8_t> fcomplete;        // PCMAP_FEATURE_ATOMICS
  std::vector<uintptr_t> queries;        // half atomics, half other PCs
  std::vector<int8_t> expected;          // PCMAP_YES/NO/UNKNOWN
  std::vector<int32_t> expectedFunction; // index, or -1

  // Layout.
  uint64_t coveredBytes = 0, coveredStretches = 0;
  Percentiles atomicsPerStretch, startsPerStretch;
  double queriesDenseAtomics = 0, queriesManyStarts = 0;
  double queriesDescribed = -1; // -1: the hook is absent
  size_t fdeDisagree = 0, fdeChecked = 0;
  size_t modules = 0;    // pcmap modules registered while it was measured
  size_t tableBytes = 0; // their tables' memory (pcmap_stats.table_bytes)

  // Results (ns per query; ns per registration).
  std::map<std::string, Spread> timing;
  std::string error;

  // -1: not in a covered function; else the function's index.
  int64_t functionOf(uintptr_t pc) const {
    auto it = std::upper_bound(fstart.begin(), fstart.end(), pc);
    if (it == fstart.begin())
      return -1;
    size_t f = size_t(it - fstart.begin()) - 1;
    return pc < fend[f] ? int64_t(f) : -1;
  }
  bool upperBound(uintptr_t pc) const {
    auto it = std::upper_bound(pcs.begin(), pcs.end(), pc);
    return it != pcs.begin() && it[-1] == pc;
  }
  // The GWPSan-style search: PCMAP_UNKNOWN outside a covered function (or
  // in one whose atomics are not all recorded), else YES or NO.
  int twoLevel(uintptr_t pc) const {
    auto fi = std::upper_bound(fstart.begin(), fstart.end(), pc);
    if (fi == fstart.begin())
      return PCMAP_UNKNOWN;
    size_t f = size_t(fi - fstart.begin()) - 1;
    if (pc >= fend[f])
      return PCMAP_UNKNOWN;
    const uintptr_t *b = pcs.data() + fatom[f], *e = pcs.data() + fatom[f + 1];
    const uintptr_t *it = std::upper_bound(b, e, pc);
    if (it != b && it[-1] == pc)
      return PCMAP_YES;
    return fcomplete[f] ? PCMAP_NO : PCMAP_UNKNOWN;
  }
};

/// Opens the object (a library it needs is found as the program would find
/// it: libtool's build trees, the corpus's liburcu, set a RUNPATH); its
/// constructors register its tables.
void openObject(Layout &l) {
  l.handle = dlopen(l.path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!l.handle)
    l.error = format("dlopen: %s", dlerror());
}

bool loadObject(Layout &l) {
  if (!l.handle)
    return false;
  l.error.clear();
  link_map *lm = nullptr;
  if (dlinfo(l.handle, RTLD_DI_LINKMAP, &lm) || !lm) {
    l.error = "dlinfo failed";
    return false;
  }
  bool found = false;
  pcmap_module m;
  for (size_t i = 0; pcmap_module_at(i, &m); ++i)
    if (m.bias == uintptr_t(lm->l_addr)) {
      l.module = m;
      found = true;
    }
  if (!found) {
    l.error = "no pcmap module after dlopen (is it instrumented?)";
    return false;
  }
  return findSections(l.path, uintptr_t(lm->l_addr), l.sections, l.error);
}

void readTable(Layout &l) {
  const uintptr_t text = l.module.text_start;
  pcmap_function f;
  for (size_t i = 0; pcmap_function_at(text, i, &f); ++i)
    l.functions.push_back(f);
  pcmap_atomic a;
  for (size_t i = 0; pcmap_atomic_at(text, i, &a); ++i)
    l.pcs.push_back(a.pc);
  std::sort(l.pcs.begin(), l.pcs.end());
  l.pcs.erase(std::unique(l.pcs.begin(), l.pcs.end()), l.pcs.end());
  std::sort(l.functions.begin(), l.functions.end(),
            [](const pcmap_function &x, const pcmap_function &y) {
              return x.start < y.start;
            });
  for (const pcmap_function &fn : l.functions) {
    l.fstart.push_back(fn.start);
    l.fend.push_back(fn.start + fn.size);
    l.fatom.push_back(
        uint32_t(std::lower_bound(l.pcs.begin(), l.pcs.end(), fn.start) -
                 l.pcs.begin()));
    l.fcomplete.push_back((fn.features & PCMAP_FEATURE_ATOMICS) != 0);
    l.coveredBytes += fn.size;
  }
  l.fatom.push_back(uint32_t(l.pcs.size()));
}

void measureLayout(Layout &l) {
  const uintptr_t text = l.module.text_start;
  const uint64_t stretches =
      (l.module.text_end - text + kStretchBytes - 1) / kStretchBytes;
  std::vector<uint32_t> atomics(stretches + 1), starts(stretches + 1);
  std::vector<uint8_t> covered(stretches + 1);
  for (uintptr_t pc : l.pcs)
    if (pc >= text && pc < l.module.text_end)
      ++atomics[(pc - text) / kStretchBytes];
  for (const pcmap_function &fn : l.functions) {
    if (fn.start < text || fn.start >= l.module.text_end || !fn.size)
      continue;
    ++starts[(fn.start - text) / kStretchBytes];
    uintptr_t last =
        std::min<uintptr_t>(fn.start + fn.size - 1, l.module.text_end - 1);
    for (uint64_t s = (fn.start - text) / kStretchBytes;
         s <= (last - text) / kStretchBytes; ++s)
      covered[s] = 1;
  }
  std::vector<uint64_t> a, f;
  for (uint64_t s = 0; s < stretches; ++s)
    if (covered[s]) {
      a.push_back(atomics[s]);
      f.push_back(starts[s]);
    }
  l.coveredStretches = a.size();
  l.atomicsPerStretch = percentiles(a, kDenseAtomics);
  l.startsPerStretch = percentiles(f, kManyStarts);
  size_t dense = 0, many = 0, described = 0;
  for (uintptr_t pc : l.queries) {
    if (pc < text || pc >= l.module.text_end)
      continue;
    uint64_t s = (pc - text) / kStretchBytes;
    dense += atomics[s] > kDenseAtomics;
    many += starts[s] > kManyStarts;
    if (__pcmap_testing_stretch_described)
      described += __pcmap_testing_stretch_described(pc) == 1;
  }
  double n = double(l.queries.size());
  l.queriesDenseAtomics = dense / n;
  l.queriesManyStarts = many / n;
  if (__pcmap_testing_stretch_described)
    l.queriesDescribed = described / n;
}

/// Half of the queries at atomic PCs, half at random PCs inside covered
/// functions (a random function, a random byte of it), then shuffled.
void makeQueries(Layout &l, size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<size_t> sized;
  for (size_t i = 0; i < l.functions.size(); ++i)
    if (l.functions[i].size)
      sized.push_back(i);
  l.queries.clear();
  for (size_t i = 0; i < n; ++i) {
    if (i % 2 == 0 && !l.pcs.empty()) {
      l.queries.push_back(l.pcs[rng() % l.pcs.size()]);
    } else if (!sized.empty()) {
      const pcmap_function &fn = l.functions[sized[rng() % sized.size()]];
      l.queries.push_back(fn.start + rng() % fn.size);
    }
  }
  std::shuffle(l.queries.begin(), l.queries.end(), rng);
  l.expected.resize(l.queries.size());
  l.expectedFunction.resize(l.queries.size());
  for (size_t i = 0; i < l.queries.size(); ++i) {
    uintptr_t pc = l.queries[i];
    int64_t f = l.functionOf(pc);
    l.expectedFunction[i] = int32_t(f);
    l.expected[i] = std::binary_search(l.pcs.begin(), l.pcs.end(), pc)
                        ? PCMAP_YES
                    : f >= 0 && l.fcomplete[size_t(f)] ? PCMAP_NO
                                                       : PCMAP_UNKNOWN;
  }
}

//===----------------------------------------------------------------------===//
// Checks: every query, every atomic and every function, before any timing
//===----------------------------------------------------------------------===//

const char *answerName(int v) {
  return v == PCMAP_YES ? "yes" : v == PCMAP_NO ? "no" : "unknown";
}

struct Checker {
  const Layout &l;
  size_t failures = 0, checked = 0;
  std::string first;
  void fail(const std::string &msg) {
    if (failures++ < 5)
      first += "\n    " + msg;
  }
  bool finish(std::string &error) {
    if (!failures)
      return true;
    error = format("%zu of %zu checks failed:", failures, checked) + first;
    fprintf(stderr, "pcmap_layout_bench: WRONG ANSWER: %s: %s\n",
            l.label.c_str(), error.c_str());
    return false;
  }
};

bool checkAnswers(Layout &l, const char *when) {
  Checker c{l};
  for (size_t i = 0; i < l.queries.size(); ++i) {
    uintptr_t pc = l.queries[i];
    int want = l.expected[i];
    ++c.checked;
    int got = pcmap_is_atomic_pc(pc);
    if (got != want)
      c.fail(format("%s: pcmap_is_atomic_pc(%#" PRIxPTR ") = %s, want %s", when,
                    pc, answerName(got), answerName(want)));
    // The two-level search knows nothing outside covered functions.
    if (l.upperBound(pc) != (want == PCMAP_YES) ||
        (l.expectedFunction[i] >= 0 && l.twoLevel(pc) != want))
      c.fail(format("%s: a baseline disagrees at %#" PRIxPTR " (benchmark bug)",
                    when, pc));
    pcmap_function fn;
    int32_t wantF = l.expectedFunction[i];
    int ok = pcmap_lookup_function(pc, &fn);
    if (wantF >= 0 ? !ok || fn.start != l.fstart[size_t(wantF)] : ok)
      c.fail(format("%s: pcmap_lookup_function(%#" PRIxPTR ") = %s%#" PRIxPTR
                    ", want %s%#" PRIxPTR,
                    when, pc, ok ? "" : "none ", ok ? fn.start : 0,
                    wantF >= 0 ? "" : "none ",
                    wantF >= 0 ? l.fstart[size_t(wantF)] : 0));
  }
  for (uintptr_t pc : l.pcs) {
    ++c.checked;
    if (pcmap_is_atomic_pc(pc) != PCMAP_YES)
      c.fail(format("%s: pcmap_is_atomic_pc(%#" PRIxPTR ") is not yes for an "
                    "atomic",
                    when, pc));
  }
  for (size_t i = 0; i < l.functions.size(); ++i) {
    if (!l.functions[i].size)
      continue;
    for (uintptr_t pc : {l.fstart[i], l.fend[i] - 1}) {
      ++c.checked;
      pcmap_function fn;
      if (!pcmap_lookup_function(pc, &fn) || fn.start != l.fstart[i])
        c.fail(format("%s: pcmap_lookup_function(%#" PRIxPTR
                      ") misses the function at %#" PRIxPTR,
                      when, pc, l.fstart[i]));
    }
  }
  return c.finish(l.error);
}

/// The unwinder's idea of the functions: reported, not required (a
/// function's FDE may start elsewhere, e.g. a split cold part).
void checkUnwinder(Layout &l) {
  for (size_t i = 0; i < l.queries.size(); i += 16) {
    if (l.expectedFunction[i] < 0)
      continue;
    ++l.fdeChecked;
    dwarf_eh_bases bases{};
    if (!_Unwind_Find_FDE(reinterpret_cast<void *>(l.queries[i]), &bases) ||
        uintptr_t(bases.func) != l.fstart[size_t(l.expectedFunction[i])])
      ++l.fdeDisagree;
  }
}

//===----------------------------------------------------------------------===//
// Timing
//===----------------------------------------------------------------------===//

volatile uintptr_t g_sink;

/// ns per query over the first n queries.
template <class F>
double nsPerQuery(const std::vector<uintptr_t> &q, F f, size_t n = SIZE_MAX) {
  n = std::min(n, q.size());
  uintptr_t acc = 0;
  uint64_t t0 = cpuNanoseconds();
  for (size_t i = 0; i < n; ++i)
    acc += f(q[i]);
  uint64_t t1 = cpuNanoseconds();
  g_sink = acc;
  return double(t1 - t0) / double(n);
}

void timeQueries(Layout &l, unsigned reps) {
  std::map<std::string, std::vector<double>> runs;
  const std::vector<uintptr_t> &q = l.queries;
  for (unsigned r = 0; r < reps; ++r) {
    runs["is_atomic/pcmap"].push_back(nsPerQuery(
        q, [](uintptr_t pc) { return uintptr_t(pcmap_is_atomic_pc(pc)); }));
    runs["is_atomic/upper_bound"].push_back(nsPerQuery(
        q, [&](uintptr_t pc) { return uintptr_t(l.upperBound(pc)); }));
    runs["is_atomic/two_level"].push_back(
        nsPerQuery(q, [&](uintptr_t pc) { return uintptr_t(l.twoLevel(pc)); }));
    runs["function/pcmap"].push_back(nsPerQuery(q, [](uintptr_t pc) {
      pcmap_function f;
      return pcmap_lookup_function(pc, &f) ? f.start : 0;
    }));
    runs["function/unwind_find_fde"].push_back(nsPerQuery(q, [](uintptr_t pc) {
      dwarf_eh_bases bases;
      return _Unwind_Find_FDE(reinterpret_cast<void *>(pc), &bases)
                 ? uintptr_t(bases.func)
                 : 0;
    }));
    runs["function/dladdr"].push_back(nsPerQuery(
        q,
        [](uintptr_t pc) {
          Dl_info info;
          return dladdr(reinterpret_cast<void *>(pc), &info)
                     ? uintptr_t(info.dli_saddr)
                     : 0;
        },
        kDladdrQueries));
  }
  for (auto &r : runs)
    l.timing[r.first] = spread(r.second);
}

/// Unregisters and registers the object's sections again, as its
/// destructor and constructor do, and times both (ns per call).
void timeRegistration(Layout &l, unsigned reps) {
  std::vector<double> add, del;
  for (unsigned r = 0; r < reps; ++r) {
    uint64_t t0 = cpuNanoseconds();
    for (auto &s : l.sections)
      __pcmap_sections_del(s.first, s.second.atomicsStart, s.second.atomicsStop,
                           s.second.functionsStart, s.second.functionsStop);
    uint64_t t1 = cpuNanoseconds();
    for (auto &s : l.sections)
      __pcmap_sections_add(s.first, s.second.atomicsStart, s.second.atomicsStop,
                           s.second.functionsStart, s.second.functionsStop);
    uint64_t t2 = cpuNanoseconds();
    del.push_back(double(t1 - t0));
    add.push_back(double(t2 - t1));
  }
  l.timing["register/add"] = spread(add);
  l.timing["register/del"] = spread(del);
}

//===----------------------------------------------------------------------===//
// Report
//===----------------------------------------------------------------------===//

std::string cell(const Spread &s, double scale = 1, int digits = 1) {
  if (!s.valid)
    return "-";
  return format("%.*f (%.*f–%.*f)", digits, s.median * scale, digits,
                s.min * scale, digits, s.max * scale);
}

std::string ratioCell(const Spread &slow, const Spread &fast, double target) {
  if (!slow.valid || !fast.valid || fast.median <= 0)
    return "-";
  double r = slow.median / fast.median;
  return format("%.2fx %s", r, r >= target ? "✓" : "✗");
}

std::string percentCell(double share) {
  return share < 0 ? "-" : format("%.0f%%", 100 * share);
}

std::string distCell(const Percentiles &p, double queryShare) {
  return format("%" PRIu64 " / %" PRIu64 " / %" PRIu64 " / %" PRIu64
                " (%.1f%%; q %.0f%%)",
                p.p50, p.p90, p.p99, p.max, 100 * p.over, 100 * queryShare);
}

void printLayoutTable(const std::vector<Layout> &ls) {
  printf("\n#### Layouts\n\n");
  printf("Per 256-byte stretch of code that overlaps a covered function: "
         "p50 / p90 / p99 / max, (share of stretches over the threshold; "
         "q: share of the queries that fall in them). Tables: the memory of "
         "the tables of the modules registered while it was measured "
         "(pcmap_stats.table_bytes).\n\n");
  printf("| object | functions | atomics | text KiB | covered stretches | "
         "atomics per stretch (> %u) | function starts per stretch (> %u) | "
         "queries in described stretches | tables KiB |\n",
         kDenseAtomics, kManyStarts);
  printf("| --- | ---: | ---: | ---: | ---: | --- | --- | ---: | ---: |\n");
  for (const Layout &l : ls) {
    if (!l.error.empty() && l.functions.empty())
      continue;
    printf("| %s | %zu | %zu | %.0f | %" PRIu64 " | %s | %s | %s | %.1f |\n",
           l.label.c_str(), l.functions.size(), l.pcs.size(),
           double(l.module.text_end - l.module.text_start) / 1024,
           l.coveredStretches,
           distCell(l.atomicsPerStretch, l.queriesDenseAtomics).c_str(),
           distCell(l.startsPerStretch, l.queriesManyStarts).c_str(),
           percentCell(l.queriesDescribed).c_str(),
           double(l.tableBytes) / 1024);
  }
}

void printTimingTables(const std::vector<Layout> &ls, unsigned reps,
                       size_t queries) {
  printf("\n#### `pcmap_is_atomic_pc`, ns per query: median (min–max) of %u "
         "repetitions of %zu queries\n\n",
         reps, queries);
  printf("| object | pcmap modules | pcmap | `std::upper_bound` | two-level | "
         "upper_bound / pcmap (≥ 2x) | two-level / pcmap (≥ 3x) |\n");
  printf("| --- | ---: | --- | --- | --- | --- | --- |\n");
  for (const Layout &l : ls) {
    if (!l.error.empty())
      continue;
    auto t = [&](const char *k) { return l.timing.at(k); };
    printf(
        "| %s | %zu | %s | %s | %s | %s | %s |\n", l.label.c_str(), l.modules,
        cell(t("is_atomic/pcmap")).c_str(),
        cell(t("is_atomic/upper_bound")).c_str(),
        cell(t("is_atomic/two_level")).c_str(),
        ratioCell(t("is_atomic/upper_bound"), t("is_atomic/pcmap"), 2).c_str(),
        ratioCell(t("is_atomic/two_level"), t("is_atomic/pcmap"), 3).c_str());
  }
  printf("\n#### `pcmap_lookup_function`, ns per query (same queries)\n\n");
  printf("| object | pcmap | `_Unwind_Find_FDE` | `dladdr` (first %zu) | "
         "FDE / pcmap (≥ 5x) | FDE agrees |\n",
         kDladdrQueries);
  printf("| --- | --- | --- | --- | --- | ---: |\n");
  for (const Layout &l : ls) {
    if (!l.error.empty())
      continue;
    auto t = [&](const char *k) { return l.timing.at(k); };
    printf("| %s | %s | %s | %s | %s | %s |\n", l.label.c_str(),
           cell(t("function/pcmap")).c_str(),
           cell(t("function/unwind_find_fde")).c_str(),
           cell(t("function/dladdr"), 1, 0).c_str(),
           ratioCell(t("function/unwind_find_fde"), t("function/pcmap"), 5)
               .c_str(),
           percentCell(l.fdeChecked
                           ? 1 - double(l.fdeDisagree) / double(l.fdeChecked)
                           : -1)
               .c_str());
  }
  printf("\n#### Registration of the object's sections "
         "(`__pcmap_sections_add`), median (min–max) of %u\n\n",
         reps);
  printf("| object | functions | atomics | add, µs | ns per atomic | "
         "ns per function | removal, µs |\n");
  printf("| --- | ---: | ---: | --- | --- | --- | --- |\n");
  for (const Layout &l : ls) {
    if (!l.error.empty())
      continue;
    const Spread &add = l.timing.at("register/add");
    const Spread &del = l.timing.at("register/del");
    printf("| %s | %zu | %zu | %s | %s | %s | %s |\n", l.label.c_str(),
           l.functions.size(), l.pcs.size(), cell(add, 1e-3).c_str(),
           l.pcs.empty() ? "-" : cell(add, 1.0 / double(l.pcs.size())).c_str(),
           l.functions.empty()
               ? "-"
               : cell(add, 1.0 / double(l.functions.size())).c_str(),
           cell(del, 1e-3).c_str());
  }
}

/// Checks and times one loaded object; returns the exit status it asks for
/// (0, 1: a wrong answer, 2: an empty table).
int measureObject(Layout &l, const Options &o, uint64_t seed) {
  readTable(l);
  if (l.functions.empty() && l.pcs.empty()) {
    l.error = "an empty table";
    return 2;
  }
  pcmap_stats stats;
  pcmap_get_stats(&stats);
  l.modules = stats.modules;
  l.tableBytes = stats.table_bytes;
  makeQueries(l, o.queries, seed);
  measureLayout(l);
  bool ok = checkAnswers(l, "after dlopen");
  if (ok) {
    // Registration once more (the real callbacks, the object's own
    // sections), then the same checks: a table rebuilt must answer alike.
    timeRegistration(l, o.checkOnly ? 1 : o.reps);
    ok = checkAnswers(l, "after re-registration");
  }
  if (!ok)
    return 1;
  checkUnwinder(l);
  fprintf(stderr,
          "pcmap_layout_bench: %s: %zu functions, %zu atomics, %zu "
          "queries: answers checked\n",
          l.label.c_str(), l.functions.size(), l.pcs.size(), l.queries.size());
  if (!o.checkOnly)
    timeQueries(l, o.reps);
  return 0;
}

[[noreturn]] void usage(int status) {
  fprintf(status ? stderr : stdout,
          "usage: pcmap_layout_bench [--reps N] [--queries N] [--check-only] "
          "[--together] [LABEL=]OBJECT...\n"
          "  Each OBJECT (an instrumented shared object) is dlopened; its "
          "table's\n"
          "  answers are checked, then timed (bench/README.md).\n"
          "  --check-only: check the answers (and a re-registration), time "
          "nothing.\n"
          "  --together: load all objects first (default: each alone, "
          "unloaded after).\n"
          "Exit status: 0; 1 if pcmap gave a wrong answer; 2 if an object "
          "could not be used.\n");
  exit(status);
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  std::vector<Layout> layouts;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> const char * {
      if (i + 1 >= argc)
        usage(2);
      return argv[++i];
    };
    if (a == "--reps")
      o.reps = unsigned(std::max(1l, strtol(value(), nullptr, 10)));
    else if (a == "--queries")
      o.queries = size_t(std::max(2l, strtol(value(), nullptr, 10)));
    else if (a == "--check-only")
      o.checkOnly = true;
    else if (a == "--together")
      o.together = true;
    else if (a == "-h" || a == "--help")
      usage(0);
    else if (a.size() > 1 && a[0] == '-')
      usage(2);
    else {
      Layout l;
      size_t eq = a.find('=');
      l.path = eq == std::string::npos ? a : a.substr(eq + 1);
      l.label = eq == std::string::npos ? a.substr(a.rfind('/') + 1)
                                        : a.substr(0, eq);
      layouts.push_back(std::move(l));
    }
  }
  if (layouts.empty())
    usage(2);

  int status = 0;
  if (o.together)
    for (Layout &l : layouts)
      openObject(l);
  uint64_t seed = kSeed;
  for (Layout &l : layouts) {
    if (!o.together)
      openObject(l);
    if (!loadObject(l)) {
      fprintf(stderr, "pcmap_layout_bench: %s (%s): %s\n", l.label.c_str(),
              l.path.c_str(), l.error.c_str());
      status = std::max(status, 2);
      if (l.handle && !o.together)
        dlclose(l.handle);
      continue;
    }
    int s = measureObject(l, o, seed++);
    status = s == 1 ? 1 : std::max(status, s);
    if (!o.together) {
      l.queries = {};
      l.expected = {};
      l.expectedFunction = {};
      dlclose(l.handle); // its destructors unregister its tables
      l.handle = nullptr;
    }
  }

  if (!o.checkOnly) {
    double load[3] = {0, 0, 0};
    getloadavg(load, 3);
    printf("### pcmap on real layouts (bench/pcmap_layout_bench)\n\n"
           "%s. Load average at the end of the run: %.2f, %.2f, %.2f. CPU "
           "time of the querying thread.\n",
           o.together ? "All objects loaded together"
                      : "Each object loaded alone (with the libraries it "
                        "needs), measured, unloaded",
           load[0], load[1], load[2]);
    printLayoutTable(layouts);
    printTimingTables(layouts, o.reps, o.queries);
  } else {
    printLayoutTable(layouts);
  }
  for (const Layout &l : layouts)
    if (!l.error.empty())
      printf("\nERROR %s: %s\n", l.label.c_str(), l.error.c_str());
  return status;
}
