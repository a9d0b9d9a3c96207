//===- bench/pcmap_rt_bench.cpp - Runtime benchmarks --------------------===//
//
// Benchmarks of the pcmap runtime, each against its baselines in the same
// run (bench/README.md explains each one):
//
//   is_atomic/{pcmap,upper_bound,two_level}/N
//       pcmap_is_atomic_pc on synthetic tables of N atomics, against
//       std::upper_bound over the sorted atomic PCs and a GWPSan-style
//       two-level search (functions, then the function's atomics).
//   register/{sorted,shuffled}/N
//       registering (and, as a counter, unregistering) the sections of a
//       synthetic table of N atomics.
//   lookup_function/{pcmap,unwind_find_fde,dladdr}
//       random PCs in the instrumented functions of this binary
//       (bench_functions.cpp, compiled with pcmap-clang++).
//   throughput/churn:{none,fake,dlopen}/threads:T
//       pcmap_is_atomic_pc from T threads on the 10^6 table while another
//       thread registers and unregisters a fake module, or dlopens and
//       dlcloses an instrumented DSO, in a loop.
//
// Synthetic tables are encoded with the real format (pcmap/Format.h) and
// registered through the real callbacks, for a fake module
// (rt/testing/pcmap_testing.h) whose text is address space reserved with
// PROT_NONE. Before a table is measured, the runtime's answers are checked
// against the generator's; wrong answers fail the benchmark (and the exit
// status) instead of being measured.
//
//===----------------------------------------------------------------------===//

#include "pcmap/Format.h"
#include "pcmap/pcmap.h"
#include "pcmap_testing.h"
#include "unwind_fde.h"

#include <benchmark/benchmark.h>

#include <dlfcn.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace fmt = pcmap::format;

// bench_functions.cpp (instrumented).
extern "C" const void *const pcmap_bench_functions[];
extern "C" const unsigned pcmap_bench_num_functions;

namespace {

constexpr uint64_t kSeed = 0x9c3a5e17d2b4f681ull;
constexpr size_t kNumQueries = size_t(1) << 20; // a power of two
constexpr size_t kQueryMask = kNumQueries - 1;
constexpr size_t kThroughputAtomics = 1000000;
constexpr size_t kChurnAtomics = 10000;
// Features of every synthetic function entry, as the compiler emits them for
// a function with atomics: kFeatureAtomics (bit 0, the function's atomics are
// all in the table) and bit 1, "the function has at least one atomic"
// (kFeatureHasAtomics in docs/FORMAT.md; written as a number so that this
// builds with headers from before that bit: readers ignore unknown bits).
constexpr uint64_t kSyntheticFeatures = fmt::kFeatureAtomics | (1u << 1);

//===----------------------------------------------------------------------===//
// Errors: collected, printed again at the end, and the exit status.
//===----------------------------------------------------------------------===//

std::vector<std::string> g_errors;

std::string format(const char *f, ...) __attribute__((format(printf, 1, 2)));
std::string format(const char *f, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, f);
  vsnprintf(buf, sizeof buf, f, ap);
  va_end(ap);
  return buf;
}

[[noreturn]] void die(const std::string &msg) {
  fprintf(stderr, "pcmap_rt_bench: fatal: %s\n", msg.c_str());
  exit(2);
}

// Records a wrong answer; reports at most a few per check.
struct Checker {
  std::string what;
  size_t failures = 0;
  std::string first;
  void fail(const std::string &msg) {
    if (failures++ < 5)
      first += "\n    " + msg;
  }
  // Returns the error message, or "" if every check passed.
  std::string finish(size_t checked) {
    if (!failures)
      return "";
    std::string msg = format("%s: %zu of %zu checks failed:", what.c_str(),
                             failures, checked) +
                      first;
    fprintf(stderr, "pcmap_rt_bench: WRONG ANSWER: %s\n", msg.c_str());
    g_errors.push_back(msg);
    return msg;
  }
};

//===----------------------------------------------------------------------===//
// Synthetic tables
//===----------------------------------------------------------------------===//

// Descriptors of the synthetic atomics: a realistic mix.
struct DescriptorSpec {
  fmt::AtomicDescriptor D;
  uint64_t encoded;
};

std::vector<DescriptorSpec> makeDescriptors() {
  using D = fmt::AtomicDescriptor;
  auto mk = [](fmt::AtomicKind k, uint32_t log2, fmt::AtomicOrder o) {
    D d;
    d.Kind = k;
    d.SizeLog2 = log2;
    d.Order = o;
    return d;
  };
  std::vector<D> ds;
  ds.push_back(mk(fmt::AK_Load, 2, fmt::AO_Acquire));
  ds.push_back(mk(fmt::AK_Load, 3, fmt::AO_Relaxed));
  ds.push_back(mk(fmt::AK_Load, 3, fmt::AO_SeqCst));
  ds.push_back(mk(fmt::AK_Load, 0, fmt::AO_Acquire));
  ds.push_back(mk(fmt::AK_Store, 2, fmt::AO_Release));
  ds.push_back(mk(fmt::AK_Store, 3, fmt::AO_Relaxed));
  ds.push_back(mk(fmt::AK_Store, 0, fmt::AO_SeqCst));
  D rmw = mk(fmt::AK_RMW, 3, fmt::AO_SeqCst);
  rmw.Op = fmt::RMW_Add;
  ds.push_back(rmw);
  rmw = mk(fmt::AK_RMW, 2, fmt::AO_AcqRel);
  rmw.Op = fmt::RMW_Sub;
  ds.push_back(rmw);
  rmw = mk(fmt::AK_RMW, 3, fmt::AO_SeqCst);
  rmw.Op = fmt::RMW_Xchg;
  ds.push_back(rmw);
  rmw = mk(fmt::AK_RMW, 2, fmt::AO_Release);
  rmw.Op = fmt::RMW_Or;
  ds.push_back(rmw);
  D cx = mk(fmt::AK_CmpXchg, 3, fmt::AO_SeqCst);
  cx.FailureOrder = fmt::AO_Relaxed;
  ds.push_back(cx);
  cx = mk(fmt::AK_CmpXchg, 3, fmt::AO_AcqRel);
  cx.FailureOrder = fmt::AO_Acquire;
  cx.Weak = true;
  ds.push_back(cx);
  ds.push_back(mk(fmt::AK_Fence, 0, fmt::AO_SeqCst));
  ds.push_back(mk(fmt::AK_Fence, 0, fmt::AO_Acquire));
  D vol = mk(fmt::AK_Load, 3, fmt::AO_Acquire);
  vol.Volatile = true;
  ds.push_back(vol);
  std::vector<DescriptorSpec> out;
  for (const D &d : ds)
    out.push_back({d, fmt::encodeDescriptor(d)});
  return out;
}

const std::vector<DescriptorSpec> &descriptors() {
  static const std::vector<DescriptorSpec> ds = makeDescriptors();
  return ds;
}

// Little-endian writer with bounds checks.
struct Writer {
  uint8_t *p, *end;
  void need(size_t n) {
    if (size_t(end - p) < n)
      die("section buffer overflow (generator bug)");
  }
  void relativePC(uintptr_t pc) {
    need(4);
    int64_t d = int64_t(pc) - int64_t(uintptr_t(p));
    if (d == 0 || d < INT32_MIN || d > INT32_MAX)
      die(format("relative PC out of range: pc %#" PRIxPTR " field %p", pc,
                 static_cast<void *>(p)));
    uint32_t v = uint32_t(int32_t(d));
    for (int i = 0; i < 4; ++i)
      *p++ = uint8_t(v >> (8 * i));
  }
  void zeroWord() {
    need(4);
    for (int i = 0; i < 4; ++i)
      *p++ = 0;
  }
  void uleb(uint64_t v) {
    need(fmt::sizeOfULEB128(v));
    do {
      uint8_t b = v & 0x7f;
      v >>= 7;
      if (v)
        b |= 0x80;
      *p++ = b;
    } while (v);
  }
};

// One encoded copy of a table's two sections, contiguous: the atomics
// section, then the functions section. [begin, end) is the fake module.
struct Encoded {
  uint8_t *begin = nullptr, *end = nullptr;
  uint8_t *atomicsBegin = nullptr, *atomicsEnd = nullptr;
  uint8_t *functionsBegin = nullptr, *functionsEnd = nullptr;
};

struct Function {
  uintptr_t start, size;
  uint32_t firstAtomic, numAtomics; // into SyntheticTable::pcs
};

class SyntheticTable {
public:
  SyntheticTable(size_t numAtomics, uint64_t seed, const char *tag);
  ~SyntheticTable();
  SyntheticTable(const SyntheticTable &) = delete;
  SyntheticTable &operator=(const SyntheticTable &) = delete;

  // Registers a copy through the real callbacks. Dies if the fake module
  // table is full.
  void registerCopy(const Encoded &e);
  void unregister();
  bool registered() const { return current_ != nullptr; }

  // Checks the runtime's answers for the registered copy against the
  // generator's; returns "" or the error. Full: every query; otherwise a
  // sample.
  std::string verify(bool full);
  // Checks that nothing of the table is known after unregister().
  std::string verifyGone();

  // The query answered by pcmap_is_atomic_pc, and by the baselines.
  bool upperBound(uintptr_t pc) const {
    auto it = std::upper_bound(pcs.begin(), pcs.end(), pc);
    return it != pcs.begin() && it[-1] == pc;
  }
  // -1: not in a function (unknown); 0/1: not an atomic / an atomic.
  int twoLevel(uintptr_t pc) const {
    auto fi = std::upper_bound(fstart.begin(), fstart.end(), pc);
    if (fi == fstart.begin())
      return -1;
    size_t f = size_t(fi - fstart.begin()) - 1;
    if (pc >= fend[f])
      return -1;
    const uintptr_t *b = pcs.data() + fatom[f], *e = pcs.data() + fatom[f + 1];
    const uintptr_t *it = std::upper_bound(b, e, pc);
    return it != b && it[-1] == pc;
  }

  size_t n;                            // atomics
  std::string name;                    // of the fake module
  std::vector<Function> functions;     // by address
  std::vector<uintptr_t> pcs;          // all atomic PCs, sorted
  std::vector<uint8_t> desc;           // descriptor index, parallel to pcs
  std::vector<uintptr_t> fstart, fend; // two-level: function ranges
  std::vector<uint32_t> fatom;         // two-level: first atomic, + end
  std::vector<uintptr_t> gaps;         // PCs between functions (uncovered)
  std::vector<uintptr_t> queries;      // half atomics, half other PCs
  std::vector<int8_t> expected;        // 1 atomic, 0 not
  uintptr_t textStart = 0, textEnd = 0;
  Encoded sorted, shuffled;
  size_t sectionBytes = 0; // one copy, atomics + functions
  size_t records = 0;
  bool verified = false, shuffledVerified = false, goneVerified = false;
  std::string error;

private:
  struct Record {
    uint32_t function;
    uint8_t desc;
  };
  void encode(Encoded &e, uint8_t *area, const std::vector<Record> &recs,
              const std::vector<uint32_t> &functionOrder);
  void *reservation_ = nullptr;
  size_t reservationSize_ = 0;
  const Encoded *current_ = nullptr;
};

size_t pageRound(size_t n) {
  size_t page = size_t(sysconf(_SC_PAGESIZE));
  return (n + page - 1) / page * page;
}

SyntheticTable::SyntheticTable(size_t numAtomics, uint64_t seed,
                               const char *tag)
    : n(numAtomics) {
  name = format("pcmap-bench-%s-%zu", tag, numAtomics);
  std::mt19937_64 rng(seed ^ (numAtomics * 0x9e3779b97f4a7c15ull));
  auto uniform = [&](uint64_t lo, uint64_t hi) { // inclusive
    return std::uniform_int_distribution<uint64_t>(lo, hi)(rng);
  };
  const auto &ds = descriptors();

  // 1. Functions (offsets from the text start): sizes log-uniform in
  //    [64, 2048] bytes, 16-byte aligned, now and then a gap of uncovered
  //    code; 1 to 7 atomics each at distinct random offsets, with 1 to 3
  //    distinct descriptors per function.
  std::uniform_real_distribution<double> logSize(std::log(64.0),
                                                 std::log(2049.0));
  uintptr_t cursor = 4096; // leave the first page uncovered
  std::vector<uint32_t> offs;
  pcs.reserve(n);
  desc.reserve(n);
  while (pcs.size() < n) {
    if (uniform(0, 15) == 0) {
      uintptr_t gapStart = cursor;
      cursor += uniform(64, 4096);
      gaps.push_back(gapStart + (cursor - gapStart) / 2);
    }
    cursor = (cursor + 15) & ~uintptr_t(15);
    uintptr_t size = uintptr_t(std::exp(logSize(rng)));
    size = std::min<uintptr_t>(std::max<uintptr_t>(size, 64), 2048);
    size_t k = std::min<size_t>(uniform(1, 7), n - pcs.size());
    offs.clear();
    while (offs.size() < k) {
      uint32_t o = uint32_t(uniform(0, size - 1));
      if (std::find(offs.begin(), offs.end(), o) == offs.end())
        offs.push_back(o);
    }
    std::sort(offs.begin(), offs.end());
    uint8_t fdesc[3];
    size_t nd = uniform(1, 3);
    for (size_t i = 0; i < nd; ++i)
      fdesc[i] = uint8_t(uniform(0, ds.size() - 1));
    Function f{cursor, size, uint32_t(pcs.size()), uint32_t(k)};
    functions.push_back(f);
    for (uint32_t o : offs) {
      pcs.push_back(cursor + o); // relative for now
      desc.push_back(fdesc[uniform(0, nd - 1)]);
    }
    if (size > 16 && uniform(0, 3) == 0) // padding after the function
      gaps.push_back(cursor + size + uniform(0, 15));
    cursor += size;
  }
  // Gaps that landed inside the next function (padding rounded away) are
  // not gaps; filtered below once the layout is final.
  size_t textBytes = pageRound(cursor + 4096);

  // 2. Records, in the order a compiler emits them: functions by address;
  //    in a function, one record per descriptor, in order of first PC.
  std::vector<Record> recs;
  for (uint32_t fi = 0; fi < functions.size(); ++fi) {
    const Function &f = functions[fi];
    uint8_t seen[8];
    size_t nseen = 0;
    for (uint32_t a = f.firstAtomic; a < f.firstAtomic + f.numAtomics; ++a) {
      if (std::find(seen, seen + nseen, desc[a]) == seen + nseen) {
        seen[nseen++] = desc[a];
        recs.push_back({fi, desc[a]});
      }
    }
  }
  records = recs.size();
  size_t atomicsBytes = n * 4 + records * 4;
  for (const Record &r : recs)
    atomicsBytes += fmt::sizeOfULEB128(ds[r.desc].encoded);
  size_t functionsBytes = 0;
  for (const Function &f : functions)
    functionsBytes +=
        4 + fmt::sizeOfULEB128(f.size) + fmt::sizeOfULEB128(kSyntheticFeatures);
  sectionBytes = atomicsBytes + functionsBytes;

  // 3. Address space: [shuffled copy][guard][text][guard][sorted copy], so
  //    that every relative PC fits in 32 bits (small code model).
  size_t page = size_t(sysconf(_SC_PAGESIZE));
  size_t area = pageRound(sectionBytes);
  reservationSize_ = area + page + textBytes + page + area;
  reservation_ = mmap(nullptr, reservationSize_, PROT_NONE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (reservation_ == MAP_FAILED)
    die(format("mmap of %zu bytes failed", reservationSize_));
  uint8_t *base = static_cast<uint8_t *>(reservation_);
  uint8_t *shuffledArea = base;
  textStart = uintptr_t(base + area + page);
  textEnd = textStart + textBytes;
  uint8_t *sortedArea = base + area + page + textBytes + page;
  if (area + page + textBytes > uint64_t(INT32_MAX))
    die(format("table of %zu atomics needs %zu bytes of text: too much for "
               "32-bit relative PCs",
               n, textBytes));
  if (mprotect(shuffledArea, area, PROT_READ | PROT_WRITE) ||
      mprotect(sortedArea, area, PROT_READ | PROT_WRITE))
    die("mprotect failed");

  for (Function &f : functions)
    f.start += textStart;
  for (uintptr_t &pc : pcs)
    pc += textStart;
  for (uintptr_t &g : gaps)
    g += textStart;

  // Two-level arrays.
  fstart.resize(functions.size());
  fend.resize(functions.size());
  fatom.resize(functions.size() + 1);
  for (size_t i = 0; i < functions.size(); ++i) {
    fstart[i] = functions[i].start;
    fend[i] = functions[i].start + functions[i].size;
    fatom[i] = functions[i].firstAtomic;
  }
  fatom[functions.size()] = uint32_t(pcs.size());
  gaps.erase(std::remove_if(gaps.begin(), gaps.end(),
                            [&](uintptr_t g) { return twoLevel(g) != -1; }),
             gaps.end());

  // 4. Encode both copies.
  std::vector<uint32_t> order(functions.size());
  for (uint32_t i = 0; i < order.size(); ++i)
    order[i] = i;
  encode(sorted, sortedArea, recs, order);
  std::mt19937_64 shuffleRng(seed + 1);
  std::shuffle(recs.begin(), recs.end(), shuffleRng);
  std::shuffle(order.begin(), order.end(), shuffleRng);
  encode(shuffled, shuffledArea, recs, order);

  // 5. Queries: half atomic PCs, half PCs of covered functions that are not
  //    atomics.
  queries.resize(kNumQueries);
  expected.resize(kNumQueries);
  for (size_t i = 0; i < kNumQueries; ++i) {
    if (i % 2 == 0) {
      queries[i] = pcs[uniform(0, pcs.size() - 1)];
      expected[i] = 1;
    } else {
      for (;;) {
        const Function &f = functions[uniform(0, functions.size() - 1)];
        uintptr_t pc = f.start + uniform(0, f.size - 1);
        if (!std::binary_search(pcs.begin() + f.firstAtomic,
                                pcs.begin() + f.firstAtomic + f.numAtomics,
                                pc)) {
          queries[i] = pc;
          expected[i] = 0;
          break;
        }
      }
    }
  }
  std::vector<size_t> perm(kNumQueries);
  for (size_t i = 0; i < kNumQueries; ++i)
    perm[i] = i;
  std::shuffle(perm.begin(), perm.end(), rng);
  std::vector<uintptr_t> q2(kNumQueries);
  std::vector<int8_t> e2(kNumQueries);
  for (size_t i = 0; i < kNumQueries; ++i) {
    q2[i] = queries[perm[i]];
    e2[i] = expected[perm[i]];
  }
  queries.swap(q2);
  expected.swap(e2);
}

void SyntheticTable::encode(Encoded &e, uint8_t *area,
                            const std::vector<Record> &recs,
                            const std::vector<uint32_t> &functionOrder) {
  const auto &ds = descriptors();
  Writer w{area, area + sectionBytes};
  e.begin = e.atomicsBegin = area;
  for (const Record &r : recs) {
    const Function &f = functions[r.function];
    for (uint32_t a = f.firstAtomic; a < f.firstAtomic + f.numAtomics; ++a)
      if (desc[a] == r.desc)
        w.relativePC(pcs[a]);
    w.zeroWord();
    w.uleb(ds[r.desc].encoded);
  }
  e.atomicsEnd = e.functionsBegin = w.p;
  for (uint32_t fi : functionOrder) {
    const Function &f = functions[fi];
    w.relativePC(f.start);
    w.uleb(f.size);
    w.uleb(kSyntheticFeatures);
  }
  e.functionsEnd = e.end = w.p;
  if (w.p != area + sectionBytes)
    die("section size mismatch (generator bug)");
}

SyntheticTable::~SyntheticTable() {
  if (current_)
    unregister();
  if (reservation_)
    munmap(reservation_, reservationSize_);
}

void SyntheticTable::registerCopy(const Encoded &e) {
  if (current_)
    die("table registered twice (benchmark bug)");
  if (!__pcmap_testing_add_fake_module(e.begin, e.end, textStart, textEnd,
                                       name.c_str()))
    die("__pcmap_testing_add_fake_module: the table of fake modules is full");
  // As a module's constructor does: both sections in one call.
  __pcmap_sections_add(1, reinterpret_cast<const char *>(e.atomicsBegin),
                       reinterpret_cast<const char *>(e.atomicsEnd),
                       reinterpret_cast<const char *>(e.functionsBegin),
                       reinterpret_cast<const char *>(e.functionsEnd));
  current_ = &e;
}

void SyntheticTable::unregister() {
  const Encoded &e = *current_;
  __pcmap_sections_del(1, reinterpret_cast<const char *>(e.atomicsBegin),
                       reinterpret_cast<const char *>(e.atomicsEnd),
                       reinterpret_cast<const char *>(e.functionsBegin),
                       reinterpret_cast<const char *>(e.functionsEnd));
  __pcmap_testing_remove_fake_module(e.begin);
  current_ = nullptr;
}

const char *kindName(int v) {
  static const char *names[] = {"no", "yes", "unknown"};
  return v == PCMAP_YES ? names[1] : v == PCMAP_NO ? names[0] : names[2];
}

std::string SyntheticTable::verify(bool full) {
  Checker c;
  c.what = format("%s (%s copy)", name.c_str(),
                  current_ == &sorted ? "sorted" : "shuffled");
  size_t checked = 0;
  size_t step = full ? 1 : 16;
  for (size_t i = 0; i < kNumQueries; i += step, ++checked) {
    int got = pcmap_is_atomic_pc(queries[i]);
    int want = expected[i] ? PCMAP_YES : PCMAP_NO;
    if (got != want)
      c.fail(format("pcmap_is_atomic_pc(%#" PRIxPTR ") = %s, want %s",
                    queries[i], kindName(got), kindName(want)));
  }
  // PCs between functions (alignment padding and uncovered code): at most
  // 20000, spread over the table.
  size_t gapStep = full ? 1 + gaps.size() / 20000 : 1 + gaps.size() / 2000;
  for (size_t gi = 0; gi < gaps.size(); gi += gapStep) {
    uintptr_t g = gaps[gi];
    ++checked;
    int got = pcmap_is_atomic_pc(g);
    if (got != PCMAP_UNKNOWN)
      c.fail(format("pcmap_is_atomic_pc(%#" PRIxPTR ") between functions = "
                    "%s, want unknown",
                    g, kindName(got)));
    pcmap_function fn;
    ++checked;
    if (pcmap_lookup_function(g, &fn))
      c.fail(format("pcmap_lookup_function(%#" PRIxPTR
                    ") between functions found [%#" PRIxPTR ", +%#" PRIxPTR ")",
                    g, fn.start, fn.size));
  }
  // Atomics: every field of a sample.
  const auto &ds = descriptors();
  std::mt19937_64 rng(12345);
  size_t samples = std::min<size_t>(pcs.size(), full ? 20000 : 2000);
  for (size_t s = 0; s < samples; ++s, ++checked) {
    size_t a = pcs.size() <= samples ? s : size_t(rng() % pcs.size());
    const fmt::AtomicDescriptor &d = ds[desc[a]].D;
    pcmap_atomic out;
    memset(&out, 0xab, sizeof out);
    if (!pcmap_lookup_atomic(pcs[a], &out)) {
      c.fail(
          format("pcmap_lookup_atomic(%#" PRIxPTR ") found nothing", pcs[a]));
      continue;
    }
    const Function &f = *std::prev(std::upper_bound(
        functions.begin(), functions.end(), pcs[a],
        [](uintptr_t pc, const Function &f) { return pc < f.start; }));
    uint32_t flags =
        (d.Volatile ? PCMAP_ATOMIC_VOLATILE : 0) |
        (d.Kind == fmt::AK_CmpXchg && d.Weak ? PCMAP_ATOMIC_WEAK : 0);
    bool ok =
        out.pc == pcs[a] && out.kind == d.Kind &&
        out.size == (d.Kind == fmt::AK_Fence ? 0 : d.sizeInBytes()) &&
        out.order == d.Order && out.flags == flags &&
        (d.Kind != fmt::AK_CmpXchg || out.failure_order == d.FailureOrder) &&
        (d.Kind != fmt::AK_RMW || out.rmw_op == d.Op) &&
        out.has_function == 1 && out.function.start == f.start &&
        out.function.size == f.size &&
        out.function.num_atomics == f.numAtomics &&
        (out.function.features & PCMAP_FEATURE_ATOMICS);
    if (!ok)
      c.fail(format(
          "pcmap_lookup_atomic(%#" PRIxPTR "): pc %#" PRIxPTR
          " kind %u size %u order %u "
          "failure %u op %u flags %#x function [%#" PRIxPTR ", +%#" PRIxPTR
          ") atomics %u has_function %d; want kind "
          "%u size %u order %u failure %u op %u flags %#x function "
          "[%#" PRIxPTR ", +%#" PRIxPTR ") atomics %u",
          pcs[a], out.pc, out.kind, out.size, out.order, out.failure_order,
          out.rmw_op, out.flags, out.function.start, out.function.size,
          out.function.num_atomics, out.has_function, d.Kind, d.sizeInBytes(),
          d.Order, d.FailureOrder, d.Op, flags, f.start, f.size, f.numAtomics));
  }
  // Functions: a sample, at a random PC inside each.
  samples = std::min<size_t>(functions.size(), full ? 20000 : 2000);
  for (size_t s = 0; s < samples; ++s, ++checked) {
    const Function &f = functions.size() <= samples
                            ? functions[s]
                            : functions[rng() % functions.size()];
    uintptr_t pc = f.start + rng() % f.size;
    pcmap_function out;
    if (!pcmap_lookup_function(pc, &out) || out.start != f.start ||
        out.size != f.size || out.num_atomics != f.numAtomics ||
        !(out.features & PCMAP_FEATURE_ATOMICS) ||
        !(out.source & PCMAP_SOURCE_PCMAP))
      c.fail(format("pcmap_lookup_function(%#" PRIxPTR ") wrong or missing, "
                    "want [%#" PRIxPTR ", +%#" PRIxPTR ") atomics %u",
                    pc, f.start, f.size, f.numAtomics));
  }
  // Just outside the text: the guard pages of the reservation.
  for (uintptr_t pc : {textStart - 1, textEnd}) {
    ++checked;
    if (pcmap_is_atomic_pc(pc) != PCMAP_UNKNOWN)
      c.fail(format("pcmap_is_atomic_pc(%#" PRIxPTR ") outside the text is "
                    "not unknown",
                    pc));
  }
  return c.finish(checked);
}

std::string SyntheticTable::verifyGone() {
  Checker c;
  c.what = name + " after unregistering";
  size_t checked = 0;
  for (size_t i = 0; i < kNumQueries; i += 64, ++checked) {
    int got = pcmap_is_atomic_pc(queries[i]);
    if (got != PCMAP_UNKNOWN)
      c.fail(format("pcmap_is_atomic_pc(%#" PRIxPTR ") = %s, want unknown",
                    queries[i], kindName(got)));
  }
  return c.finish(checked);
}

bool checkBaselines(SyntheticTable &t);

// One big table at a time (10^7 atomics take ~0.5 GB with the baselines).
std::unique_ptr<SyntheticTable> g_table;

enum class Want { Registered, Unregistered };

// The table of n atomics, registered (sorted copy, verified) or not. Returns
// null and sets state's error if the runtime gave a wrong answer.
SyntheticTable *getTable(size_t n, Want want, benchmark::State *state) {
  if (!g_table || g_table->n != n) {
    g_table.reset();
    g_table = std::make_unique<SyntheticTable>(n, kSeed, "synthetic");
  }
  SyntheticTable &t = *g_table;
  if (want == Want::Registered && !t.registered()) {
    pcmap_stats before, after;
    pcmap_get_stats(&before);
    t.registerCopy(t.sorted);
    pcmap_get_stats(&after);
    if (!t.verified) {
      t.verified = true;
      Checker c;
      c.what = t.name + " registration";
      if (after.sections_rejected != before.sections_rejected)
        c.fail(format("%zu section(s) rejected",
                      after.sections_rejected - before.sections_rejected));
      if (after.atomics - before.atomics != t.n)
        c.fail(format("stats.atomics grew by %zu, want %zu",
                      after.atomics - before.atomics, t.n));
      if (after.functions - before.functions != t.functions.size())
        c.fail(format("stats.functions grew by %zu, want %zu",
                      after.functions - before.functions, t.functions.size()));
      if (after.modules - before.modules != 1)
        c.fail(format("stats.modules grew by %zu, want 1",
                      after.modules - before.modules));
      std::string err = c.finish(4);
      if (err.empty())
        err = t.verify(/*full=*/true);
      if (!checkBaselines(t))
        die("the baselines disagree with the generator (benchmark bug)");
      t.error = err;
    }
  } else if (want == Want::Unregistered && t.registered()) {
    t.unregister();
  }
  if (!t.error.empty()) {
    if (state)
      state->SkipWithError(t.error.c_str());
    return nullptr;
  }
  return &t;
}

//===----------------------------------------------------------------------===//
// 1. pcmap_is_atomic_pc against std::upper_bound and a two-level search
//===----------------------------------------------------------------------===//

void BM_IsAtomicPcmap(benchmark::State &state) {
  SyntheticTable *t =
      getTable(size_t(state.range(0)), Want::Registered, &state);
  if (!t)
    return;
  const uintptr_t *q = t->queries.data();
  size_t i = 0;
  for (auto _ : state) {
    int r = pcmap_is_atomic_pc(q[i++ & kQueryMask]);
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(int64_t(state.iterations()));
}

void BM_IsAtomicUpperBound(benchmark::State &state) {
  SyntheticTable *t =
      getTable(size_t(state.range(0)), Want::Registered, &state);
  if (!t)
    return;
  const uintptr_t *q = t->queries.data();
  size_t i = 0;
  for (auto _ : state) {
    bool r = t->upperBound(q[i++ & kQueryMask]);
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(int64_t(state.iterations()));
}

void BM_IsAtomicTwoLevel(benchmark::State &state) {
  SyntheticTable *t =
      getTable(size_t(state.range(0)), Want::Registered, &state);
  if (!t)
    return;
  const uintptr_t *q = t->queries.data();
  size_t i = 0;
  for (auto _ : state) {
    int r = t->twoLevel(q[i++ & kQueryMask]);
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(int64_t(state.iterations()));
}

// The baselines answer the same questions: checked once per table.
bool checkBaselines(SyntheticTable &t) {
  size_t bad = 0;
  for (size_t i = 0; i < kNumQueries; i += 7)
    bad += t.upperBound(t.queries[i]) != bool(t.expected[i]) ||
           t.twoLevel(t.queries[i]) != t.expected[i];
  if (bad)
    fprintf(stderr, "pcmap_rt_bench: baseline bug: %zu wrong answers\n", bad);
  return bad == 0;
}

//===----------------------------------------------------------------------===//
// 2. Registration cost
//===----------------------------------------------------------------------===//

// The calling thread's CPU time, in seconds: registration is also reported
// in CPU time (add_cpu_ns_per_entry), which other processes on a shared
// machine disturb less than the wall time the benchmark is timed with.
double threadCpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

// Deferred: registration as at start-up, before a process's first query
// (lazy_tables): it records the sections, and the first query builds the
// table; add_ns_per_entry is the registration, first_query_ns_per_entry
// the first query after it (the build, and its answer, checked).
template <bool Shuffled, bool Deferred = false>
void BM_Register(benchmark::State &state) {
  size_t n = size_t(state.range(0));
  bool shuffled = Shuffled;
  SyntheticTable *t = getTable(n, Want::Unregistered, &state);
  if (!t)
    return;
  const Encoded &e = shuffled ? t->shuffled : t->sorted;
  if (shuffled && !t->shuffledVerified) {
    t->shuffledVerified = true;
    t->registerCopy(e);
    std::string err = t->verify(/*full=*/false);
    t->unregister();
    if (!err.empty()) {
      t->error = err;
      state.SkipWithError(err.c_str());
      return;
    }
  }
  if (!t->goneVerified) {
    t->goneVerified = true;
    std::string err = t->verifyGone();
    if (!err.empty()) {
      t->error = err;
      state.SkipWithError(err.c_str());
      return;
    }
  }
  double addSeconds = 0, delSeconds = 0, addCpu = 0, firstQuerySeconds = 0;
  for (auto _ : state) {
    if (Deferred)
      __pcmap_testing_defer_tables();
    double c0 = threadCpuSeconds();
    auto t0 = std::chrono::steady_clock::now();
    t->registerCopy(e);
    auto t1 = std::chrono::steady_clock::now();
    addCpu += threadCpuSeconds() - c0;
    double query = 0;
    if (Deferred) {
      int answer = pcmap_is_atomic_pc(t->pcs[0]);
      auto tq = std::chrono::steady_clock::now();
      query = std::chrono::duration<double>(tq - t1).count();
      if (answer != PCMAP_YES)
        die("the first query after a deferred registration did not answer "
            "YES at an atomic");
      t1 = tq;
    }
    t->unregister();
    auto t2 = std::chrono::steady_clock::now();
    double add = std::chrono::duration<double>(t1 - t0).count() - query;
    addSeconds += add;
    firstQuerySeconds += query;
    delSeconds += std::chrono::duration<double>(t2 - t1).count();
    // Deferred: the iteration's time is the registration and the build.
    state.SetIterationTime(add + query);
  }
  double iters = double(state.iterations());
  if (Deferred)
    state.counters["first_query_ns_per_entry"] =
        firstQuerySeconds * 1e9 / iters / double(n);
  state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(n));
  state.counters["add_ns_per_entry"] = addSeconds * 1e9 / iters / double(n);
  state.counters["del_ns_per_entry"] = delSeconds * 1e9 / iters / double(n);
  state.counters["add_cpu_ns_per_entry"] = addCpu * 1e9 / iters / double(n);
  state.counters["functions"] = double(t->functions.size());
  state.counters["section_bytes"] = double(t->sectionBytes);
}

// Baselines for registration, timed as it is and in its unit (ns per
// atomic, add_ns_per_entry), on the same table:
//   register/baseline_memcpy/N: a plain memcpy of the sorted copy's two
//     sections (all the bytes registration reads) to a buffer whose pages
//     are already there, as the arena's are when a table is built again.
//   register/baseline_std_sort/N: std::sort of the N atomics' 64-bit keys
//     (offset from the text << 32 | descriptor), in a fixed random order,
//     copied to a buffer whose pages are already there before each sort
//     (the copy is not timed).
enum class Baseline { Memcpy, StdSort };

template <Baseline Kind> void BM_RegisterBaseline(benchmark::State &state) {
  size_t n = size_t(state.range(0));
  SyntheticTable *t = getTable(n, Want::Unregistered, &state);
  if (!t)
    return;
  const Encoded &e = t->sorted;
  std::vector<uint64_t> keys;
  if (Kind == Baseline::StdSort) {
    keys.resize(n);
    for (size_t i = 0; i < n; ++i)
      keys[i] = uint64_t(t->pcs[i] - t->textStart) << 32 | t->desc[i];
    std::shuffle(keys.begin(), keys.end(), std::mt19937_64(kSeed));
  }
  size_t bytes =
      Kind == Baseline::Memcpy ? size_t(e.end - e.begin) : n * sizeof(uint64_t);
  // Written once here, so that its pages are there.
  std::vector<uint64_t> out(bytes / sizeof(uint64_t) + 1);
  benchmark::DoNotOptimize(out.data()); // escapes: the copy is kept
  double seconds = 0, cpu = 0;
  for (auto _ : state) {
    if (Kind == Baseline::StdSort)
      memcpy(out.data(), keys.data(), bytes);
    double c0 = threadCpuSeconds();
    auto t0 = std::chrono::steady_clock::now();
    if (Kind == Baseline::Memcpy) {
      memcpy(out.data(), e.begin, bytes);
    } else {
      std::sort(out.begin(), out.begin() + ptrdiff_t(n));
    }
    benchmark::ClobberMemory();
    auto t1 = std::chrono::steady_clock::now();
    cpu += threadCpuSeconds() - c0;
    double took = std::chrono::duration<double>(t1 - t0).count();
    seconds += took;
    state.SetIterationTime(took);
  }
  if (Kind == Baseline::StdSort &&
      !std::is_sorted(out.begin(), out.begin() + ptrdiff_t(n)))
    die("std::sort baseline left its keys unsorted (benchmark bug)");
  state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(n));
  state.counters["add_ns_per_entry"] =
      seconds * 1e9 / double(state.iterations()) / double(n);
  state.counters["add_cpu_ns_per_entry"] =
      cpu * 1e9 / double(state.iterations()) / double(n);
  state.counters["bytes_per_entry"] = double(bytes) / double(n);
}

//===----------------------------------------------------------------------===//
// 3. pcmap_lookup_function, _Unwind_Find_FDE and dladdr on this binary
//===----------------------------------------------------------------------===//

struct RealFunctions {
  std::vector<uintptr_t> queries;
  std::vector<uintptr_t> starts; // expected function start, per query
  std::string error;
  size_t functions = 0, minSize = 0, maxSize = 0;
  bool dladdrNames = false;
};

const RealFunctions &realFunctions() {
  static const RealFunctions r = [] {
    RealFunctions r;
    Checker c;
    c.what = "pcmap_lookup_function on the benchmark binary";
    size_t checked = 0;
    std::vector<uintptr_t> starts;
    for (unsigned i = 0; i < pcmap_bench_num_functions; ++i)
      starts.push_back(reinterpret_cast<uintptr_t>(pcmap_bench_functions[i]));
    std::sort(starts.begin(), starts.end());
    std::vector<uintptr_t> sizes;
    for (size_t i = 0; i < starts.size(); ++i, ++checked) {
      pcmap_function f;
      if (!pcmap_lookup_function(starts[i], &f) || f.start != starts[i] ||
          f.size == 0 ||
          (i + 1 < starts.size() && f.start + f.size > starts[i + 1]) ||
          !(f.features & PCMAP_FEATURE_ATOMICS)) {
        c.fail(format("pcmap_lookup_function(%#" PRIxPTR
                      ") (a function's first byte) wrong or missing",
                      starts[i]));
        sizes.push_back(0);
      } else {
        sizes.push_back(f.size);
      }
    }
    std::mt19937_64 rng(kSeed);
    r.queries.resize(kNumQueries);
    r.starts.resize(kNumQueries);
    size_t good = 0;
    for (uintptr_t s : sizes)
      good += s != 0;
    if (good == 0) {
      r.error = c.finish(checked);
      if (r.error.empty())
        r.error = "no instrumented functions";
      return r;
    }
    for (size_t i = 0; i < kNumQueries; ++i) {
      size_t f;
      do
        f = rng() % starts.size();
      while (!sizes[f]);
      r.queries[i] = starts[f] + rng() % sizes[f];
      r.starts[i] = starts[f];
    }
    r.functions = starts.size();
    r.minSize = *std::min_element(sizes.begin(), sizes.end());
    r.maxSize = *std::max_element(sizes.begin(), sizes.end());
    // Every query, with every method.
    size_t named = 0, fdeDisagree = 0;
    for (size_t i = 0; i < kNumQueries; i += 4) {
      uintptr_t pc = r.queries[i];
      pcmap_function f;
      ++checked;
      if (!pcmap_lookup_function(pc, &f) || f.start != r.starts[i])
        c.fail(format("pcmap_lookup_function(%#" PRIxPTR ") wrong or missing",
                      pc));
      dwarf_eh_bases bases{};
      if (!_Unwind_Find_FDE(reinterpret_cast<void *>(pc), &bases) ||
          uintptr_t(bases.func) != r.starts[i])
        ++fdeDisagree;
      Dl_info info;
      if (dladdr(reinterpret_cast<void *>(pc), &info) &&
          uintptr_t(info.dli_saddr) == r.starts[i])
        ++named;
    }
    r.dladdrNames = named == kNumQueries / 4;
    if (fdeDisagree)
      fprintf(stderr,
              "pcmap_rt_bench: warning: _Unwind_Find_FDE disagrees with the "
              "function table on %zu of %zu PCs\n",
              fdeDisagree, kNumQueries / 4);
    r.error = c.finish(checked);
    return r;
  }();
  return r;
}

void BM_LookupFunctionPcmap(benchmark::State &state) {
  const RealFunctions &r = realFunctions();
  if (!r.error.empty()) {
    state.SkipWithError(r.error.c_str());
    return;
  }
  const uintptr_t *q = r.queries.data();
  size_t i = 0;
  for (auto _ : state) {
    pcmap_function f;
    int ok = pcmap_lookup_function(q[i++ & kQueryMask], &f);
    benchmark::DoNotOptimize(ok);
    benchmark::DoNotOptimize(f);
  }
  state.SetItemsProcessed(int64_t(state.iterations()));
  state.counters["functions"] = double(r.functions);
}

void BM_LookupFunctionUnwindFindFDE(benchmark::State &state) {
  const RealFunctions &r = realFunctions();
  if (!r.error.empty()) {
    state.SkipWithError(r.error.c_str());
    return;
  }
  const uintptr_t *q = r.queries.data();
  size_t i = 0;
  for (auto _ : state) {
    dwarf_eh_bases bases;
    const void *fde =
        _Unwind_Find_FDE(reinterpret_cast<void *>(q[i++ & kQueryMask]), &bases);
    benchmark::DoNotOptimize(fde);
    benchmark::DoNotOptimize(bases);
  }
  state.SetItemsProcessed(int64_t(state.iterations()));
}

void BM_LookupFunctionDladdr(benchmark::State &state) {
  const RealFunctions &r = realFunctions();
  if (!r.error.empty()) {
    state.SkipWithError(r.error.c_str());
    return;
  }
  const uintptr_t *q = r.queries.data();
  size_t i = 0;
  for (auto _ : state) {
    Dl_info info;
    int ok = dladdr(reinterpret_cast<void *>(q[i++ & kQueryMask]), &info);
    benchmark::DoNotOptimize(ok);
    benchmark::DoNotOptimize(info);
  }
  state.SetItemsProcessed(int64_t(state.iterations()));
  state.counters["names_resolved"] = r.dladdrNames ? 1 : 0;
}

//===----------------------------------------------------------------------===//
// 4. Throughput with 1 and 2 threads, with and without churn
//===----------------------------------------------------------------------===//

enum ChurnKind { kChurnNone = 0, kChurnFake = 1, kChurnDlopen = 2 };

std::string dsoPath() {
  if (const char *p = getenv("PCMAP_BENCH_CHURN_DSO"))
    return p;
  char buf[4096];
  ssize_t len = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (len <= 0)
    return "libpcmap_bench_churn.so";
  buf[len] = 0;
  std::string dir(buf);
  dir.erase(dir.rfind('/') + 1);
  return dir + "libpcmap_bench_churn.so";
}

class Churn {
public:
  void start(ChurnKind kind) {
    stop();
    cycles_.store(0);
    stop_.store(false);
    kind_ = kind;
    if (kind == kChurnNone)
      return;
    if (kind == kChurnFake && !fake_) {
      fake_ =
          std::make_unique<SyntheticTable>(kChurnAtomics, kSeed + 7, "churn");
      fake_->registerCopy(fake_->sorted);
      fake_->verify(/*full=*/false); // reports a wrong answer, if any
      fake_->unregister();
    }
    begin_ = std::chrono::steady_clock::now();
    thread_ = std::thread([this] { run(); });
  }
  // Churn cycles per second since start(), 0 without churn.
  double rate() const {
    if (!thread_.joinable())
      return 0;
    double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - begin_)
            .count();
    return double(cycles_.load()) / secs;
  }
  void stop() {
    if (!thread_.joinable())
      return;
    stop_.store(true);
    thread_.join();
  }

private:
  void run() {
    std::string path = dsoPath();
    while (!stop_.load(std::memory_order_relaxed)) {
      if (kind_ == kChurnFake) {
        fake_->registerCopy(fake_->sorted);
        fake_->unregister();
      } else {
        void *h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!h)
          die(format("dlopen(%s): %s", path.c_str(), dlerror()));
        dlclose(h);
      }
      cycles_.fetch_add(1, std::memory_order_relaxed);
    }
  }
  ChurnKind kind_ = kChurnNone;
  std::unique_ptr<SyntheticTable> fake_;
  std::thread thread_;
  std::atomic<bool> stop_{false};
  std::atomic<uint64_t> cycles_{0};
  std::chrono::steady_clock::time_point begin_;
};

Churn g_churn;
SyntheticTable *g_throughputTable = nullptr;

std::atomic<size_t> g_wrongDuringChurn{0};

template <ChurnKind Kind> void throughputSetup(const benchmark::State &) {
  g_throughputTable = getTable(kThroughputAtomics, Want::Registered, nullptr);
  g_wrongDuringChurn.store(0);
  g_churn.start(Kind);
}

void throughputTeardown(const benchmark::State &state) {
  g_churn.stop();
  if (size_t wrong = g_wrongDuringChurn.load())
    g_errors.push_back(format("%zu wrong answers from pcmap_is_atomic_pc with "
                              "%d query thread(s) during churn",
                              wrong, state.threads()));
}

void BM_Throughput(benchmark::State &state) {
  SyntheticTable *t = g_throughputTable;
  if (!t) {
    state.SkipWithError("the throughput table failed its checks");
    return;
  }
  const uintptr_t *q = t->queries.data();
  const int8_t *want = t->expected.data();
  size_t i = size_t(state.thread_index()) * (kNumQueries / 2);
  size_t wrong = 0;
  for (auto _ : state) {
    size_t k = i++ & kQueryMask;
    int r = pcmap_is_atomic_pc(q[k]);
    // Checked, not just consumed: churn must never change an answer.
    wrong += r != want[k];
  }
  state.SetItemsProcessed(int64_t(state.iterations()));
  state.counters["wrong_answers"] = double(wrong);
  if (state.thread_index() == 0) // churn cycles (register + unregister)
    state.counters["churn_per_s"] = g_churn.rate();
  if (wrong) {
    g_wrongDuringChurn.fetch_add(wrong);
    state.SkipWithError("wrong answers during churn (see the end)");
  }
}

// Registers the churn DSO once, to check that dlopen registers its tables.
std::string checkChurnDso() {
  std::string path = dsoPath();
  pcmap_stats before, during, after;
  pcmap_get_stats(&before);
  void *h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h)
    return format("dlopen(%s): %s", path.c_str(), dlerror());
  pcmap_get_stats(&during);
  void *fn = dlsym(h, "pcmap_churn_fn_3");
  pcmap_function f;
  bool found = fn && pcmap_lookup_function(uintptr_t(fn), &f) &&
               f.start == uintptr_t(fn);
  dlclose(h);
  pcmap_get_stats(&after);
  std::string err;
  if (during.modules != before.modules + 1 || !found)
    err = format("dlopen of %s did not register its tables (modules %zu -> "
                 "%zu, function found: %d); is the runtime exported from the "
                 "executable?",
                 path.c_str(), before.modules, during.modules, int(found));
  else if (after.modules != before.modules)
    err = format("dlclose of %s did not unregister its tables", path.c_str());
  if (!err.empty()) {
    fprintf(stderr, "pcmap_rt_bench: %s\n", err.c_str());
    g_errors.push_back(err);
  }
  return err;
}

} // namespace

int main(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;

  const size_t sizes[] = {1000, 10000, 100000, 1000000, 10000000};
  for (size_t n : sizes) {
    bool big = n >= 10000000;
    // All benchmarks of one size in a row: the table is built once.
    benchmark::RegisterBenchmark("is_atomic/pcmap", BM_IsAtomicPcmap)
        ->Arg(int64_t(n));
    benchmark::RegisterBenchmark("is_atomic/upper_bound", BM_IsAtomicUpperBound)
        ->Arg(int64_t(n));
    benchmark::RegisterBenchmark("is_atomic/two_level", BM_IsAtomicTwoLevel)
        ->Arg(int64_t(n));
    for (int kind = 0; kind < 3; ++kind) {
      static const char *const names[] = {
          "register/sorted", "register/shuffled", "register/deferred"};
      auto *r = benchmark::RegisterBenchmark(
                    names[kind], kind == 0   ? BM_Register<false>
                                 : kind == 1 ? BM_Register<true>
                                             : BM_Register<false, true>)
                    ->Arg(int64_t(n))
                    ->UseManualTime()
                    ->Unit(benchmark::kMillisecond);
      if (big)
        r->Iterations(3);
      else if (n >= 1000000)
        r->Iterations(20);
    }
    // Registration's baselines, next to it (same table, same units).
    for (int sort = 0; sort < 2; ++sort) {
      auto *r =
          benchmark::RegisterBenchmark(
              sort ? "register/baseline_std_sort" : "register/baseline_memcpy",
              sort ? BM_RegisterBaseline<Baseline::StdSort>
                   : BM_RegisterBaseline<Baseline::Memcpy>)
              ->Arg(int64_t(n))
              ->UseManualTime()
              ->Unit(benchmark::kMillisecond);
      if (big)
        r->Iterations(3);
      else if (n >= 1000000)
        r->Iterations(20);
    }
  }
  benchmark::RegisterBenchmark("lookup_function/pcmap", BM_LookupFunctionPcmap);
  benchmark::RegisterBenchmark("lookup_function/unwind_find_fde",
                               BM_LookupFunctionUnwindFindFDE);
  benchmark::RegisterBenchmark("lookup_function/dladdr",
                               BM_LookupFunctionDladdr);
  struct {
    const char *name;
    void (*setup)(const benchmark::State &);
  } churns[] = {{"throughput/churn:none", throughputSetup<kChurnNone>},
                {"throughput/churn:fake", throughputSetup<kChurnFake>},
                {"throughput/churn:dlopen", throughputSetup<kChurnDlopen>}};
  for (const auto &c : churns)
    benchmark::RegisterBenchmark(c.name, BM_Throughput)
        ->Setup(c.setup)
        ->Teardown(throughputTeardown)
        ->Threads(1)
        ->Threads(2)
        ->UseRealTime();

  // Checks that do not depend on a benchmark being selected.
  {
    SyntheticTable small(1000, kSeed + 3, "selftest");
    small.registerCopy(small.sorted);
    small.verify(/*full=*/true); // reports wrong answers, if any
    small.unregister();
    if (!checkBaselines(small))
      die("the baselines disagree with the generator (benchmark bug)");
  }
  checkChurnDso();

  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  g_churn.stop();
  g_table.reset();

  if (!g_errors.empty()) {
    fprintf(stderr, "\npcmap_rt_bench: %zu problem(s) with the runtime:\n",
            g_errors.size());
    for (const std::string &e : g_errors)
      fprintf(stderr, "  - %s\n", e.c_str());
    return 1;
  }
  return 0;
}
