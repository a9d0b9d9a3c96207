//===- tracer.cpp - The atomic tracer -------------------------------------===//

#include "optional/tracer.h"

#include "core/log.h"
#include "core/options.h"
#include "core/outline.h"
#include "optional/describe.h"
#include "optional/fault.h"
#include "optional/report.h"
#include "optional/symbolizer.h"
#include "platform/platform.h"

#include "pcmap/pcmap.h"

#include <errno.h>
#include <signal.h>
#include <string.h>

namespace pcmap {
namespace rt {

namespace {

constexpr int kSampleCookie = 0x5043; // "PC"
constexpr int kDiscoveryCookie = 0x5044;

//===----------------------------------------------------------------------===//
// Lock-free recording
//===----------------------------------------------------------------------===//

constexpr unsigned kSiteSlots = 1u << 13;
constexpr unsigned kFunctionSlots = 1u << 13;
constexpr unsigned kMaxProbes = 64;

struct SiteSlot {
  uintptr_t PC; // 0: free
  uint64_t Exact, Skid;
};
struct FunctionSlot {
  uintptr_t Start; // 0: free
  uint64_t Samples, AtomicSamples;
};

SiteSlot Sites[kSiteSlots];
FunctionSlot Functions[kFunctionSlots];

struct {
  uint64_t Samples, Atomic, Covered, Uncovered, Dropped;
} Counts;

inline void add(uint64_t &Counter, uint64_t N = 1) {
  __atomic_fetch_add(&Counter, N, __ATOMIC_RELAXED);
}

inline unsigned hashKey(uintptr_t Key, unsigned Mask) {
  return unsigned((Key * 0x9e3779b97f4a7c15ull) >> 40) & Mask;
}

/// The slot of Key, claimed if new; null when the probes are exhausted.
template <class Slot, unsigned N>
Slot *slotFor(Slot (&Table)[N], uintptr_t Slot::*KeyField, uintptr_t Key) {
  unsigned I = hashKey(Key, N - 1);
  for (unsigned Probe = 0; Probe < kMaxProbes; ++Probe, I = (I + 1) & (N - 1)) {
    uintptr_t *K = &(Table[I].*KeyField);
    uintptr_t Seen = __atomic_load_n(K, __ATOMIC_RELAXED);
    if (Seen == Key)
      return &Table[I];
    if (Seen == 0) {
      uintptr_t Expected = 0;
      if (__atomic_compare_exchange_n(K, &Expected, Key, false,
                                      __ATOMIC_RELAXED, __ATOMIC_RELAXED) ||
          Expected == Key)
        return &Table[I];
    }
  }
  return nullptr;
}

/// Records a sample of Weight timer periods at PC.
void record(uintptr_t PC, uint64_t Weight) {
  add(Counts.Samples, Weight);
  pcmap_function F;
  bool HasFunction = pcmap_lookup_function(PC, &F);
  pcmap_atomic A;
  bool Exact = pcmap_lookup_atomic(PC, &A);
  bool Hit = Exact;
  if (!Hit && Flags.trace_skid > 0 && HasFunction)
    Hit = pcmap_lookup_atomic_before(PC, unsigned(Flags.trace_skid), &A) &&
          A.has_function && A.function.start == F.start;
  if (Hit) {
    add(Counts.Atomic, Weight);
    if (SiteSlot *S = slotFor(Sites, &SiteSlot::PC, A.pc))
      add(Exact ? S->Exact : S->Skid, Weight);
    else
      add(Counts.Dropped, Weight);
  }
  if (!HasFunction) {
    add(Counts.Uncovered, Weight);
    return;
  }
  add(Counts.Covered, Weight);
  if (FunctionSlot *S = slotFor(Functions, &FunctionSlot::Start, F.start)) {
    add(S->Samples, Weight);
    if (Hit)
      add(S->AtomicSamples, Weight);
  } else {
    add(Counts.Dropped, Weight);
  }
}

//===----------------------------------------------------------------------===//
// Timers
//===----------------------------------------------------------------------===//

constexpr unsigned kMaxThreads = 4096;
struct ThreadSlot {
  int Tid; // 0: free
  int Timer;
};
ThreadSlot Threads[kMaxThreads];
uint64_t ThreadsSeen;
int DiscoveryTimer = -1;
bool Running;
int Scanning;
struct sigaction PreviousProf;

long intervalNanos() {
  int Hz = Flags.trace_hz;
  return 1000000000L / Hz;
}

/// Gives thread Tid a sampling timer if it has none. Async-signal-safe.
void ensureThreadTimer(int Tid) {
  for (unsigned I = 0; I < kMaxThreads; ++I)
    if (__atomic_load_n(&Threads[I].Tid, __ATOMIC_ACQUIRE) == Tid)
      return;
  for (unsigned I = 0; I < kMaxThreads; ++I) {
    int Expected = 0;
    if (!__atomic_compare_exchange_n(&Threads[I].Tid, &Expected, -1, false,
                                     __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
      continue;
    int Timer = createCPUTimer(Tid, SIGPROF, kSampleCookie);
    if (Timer < 0) {
      __atomic_store_n(&Threads[I].Tid, 0, __ATOMIC_RELEASE);
      return;
    }
    Threads[I].Timer = Timer;
    __atomic_store_n(&Threads[I].Tid, Tid, __ATOMIC_RELEASE);
    add(ThreadsSeen);
    if (__atomic_load_n(&Running, __ATOMIC_RELAXED))
      armTimer(Timer, intervalNanos());
    return;
  }
}

/// The threads a scan of the process found.
struct LiveThreads {
  int Tid[kMaxThreads];
  unsigned Count = 0;
};

void noteLiveThread(int Tid, void *Data) {
  auto &Live = *static_cast<LiveThreads *>(Data);
  if (Live.Count < kMaxThreads)
    Live.Tid[Live.Count++] = Tid;
  ensureThreadTimer(Tid);
}

/// Gives every thread of the process a timer and frees the slots of threads
/// that are gone. Async-signal-safe.
void discoverThreads() {
  if (__atomic_exchange_n(&Scanning, 1, __ATOMIC_ACQUIRE))
    return; // another thread is scanning
  LiveThreads Live;
  if (forEachThread(noteLiveThread, &Live)) {
    for (unsigned I = 0; I < kMaxThreads; ++I) {
      int Tid = __atomic_load_n(&Threads[I].Tid, __ATOMIC_ACQUIRE);
      if (Tid <= 0)
        continue;
      bool Alive = false;
      for (unsigned J = 0; J < Live.Count && !Alive; ++J)
        Alive = Live.Tid[J] == Tid;
      if (Alive || Live.Count == kMaxThreads)
        continue;
      deleteTimer(Threads[I].Timer);
      __atomic_store_n(&Threads[I].Tid, 0, __ATOMIC_RELEASE);
    }
  }
  __atomic_store_n(&Scanning, 0, __ATOMIC_RELEASE);
}

void handleProf(int Signal, siginfo_t *Info, void *Context) {
  if (Info->si_code != SI_TIMER)
    return;
  int SavedErrno = errno;
  if (Info->si_value.sival_int == kSampleCookie) {
    // The kernel checks CPU-time timers at its clock tick: at rates above
    // the tick, one signal stands for several periods (the overrun).
    int Overrun = Info->si_overrun;
    record(attributedPC(Context),
           1 + uint64_t(Overrun > 0 && Overrun < 1000000 ? Overrun : 0));
  } else if (Info->si_value.sival_int == kDiscoveryCookie)
    discoverThreads();
  errno = SavedErrno;
}

void setRunning(bool On) {
  __atomic_store_n(&Running, On, __ATOMIC_RELAXED);
  long Nanos = On ? intervalNanos() : 0;
  if (DiscoveryTimer >= 0)
    armTimer(DiscoveryTimer, On ? Nanos * 10 : 0);
  for (unsigned I = 0; I < kMaxThreads; ++I)
    if (__atomic_load_n(&Threads[I].Tid, __ATOMIC_ACQUIRE) > 0)
      armTimer(Threads[I].Timer, Nanos);
}

//===----------------------------------------------------------------------===//
// The report
//===----------------------------------------------------------------------===//

constexpr unsigned kMaxTop = 1000;

template <class Slot, unsigned N, class Key>
unsigned topSlots(Slot (&Table)[N], Key Weight, unsigned Want, unsigned *Out) {
  unsigned Count = 0;
  for (unsigned I = 0; I < N; ++I) {
    uint64_t W = Weight(Table[I]);
    if (!W)
      continue;
    unsigned Pos = Count < Want ? Count++ : Want;
    if (Pos == Want && W <= Weight(Table[Out[Want - 1]]))
      continue;
    if (Pos == Want)
      Pos = Want - 1;
    while (Pos > 0 && Weight(Table[Out[Pos - 1]]) < W) {
      Out[Pos] = Out[Pos - 1];
      --Pos;
    }
    Out[Pos] = I;
  }
  return Count;
}

uint64_t siteSamples(const SiteSlot &S) { return S.PC ? S.Exact + S.Skid : 0; }
uint64_t functionSamples(const FunctionSlot &S) {
  return S.Start ? S.Samples : 0;
}

double share(uint64_t Part, uint64_t Whole) {
  return Whole ? double(Part) / double(Whole) : 0.0;
}

void symbolizeAt(Symbolizer &Sym, uintptr_t PC, SymbolizedPC &S, char *Module,
                 size_t ModuleSize, uintptr_t &Bias) {
  Module[0] = '\0';
  Bias = 0;
  if (moduleOf(PC, Module, ModuleSize, Bias))
    Sym.symbolize(PC, Module, PC - Bias, S);
  else
    S.Function[0] = S.Location[0] = '\0';
}

/// "  5.0%  " (right-aligned in 6 columns, then two spaces).
void percent(ReportWriter &W, double Share) {
  double P = 100 * Share;
  W.pad("", P < 10 ? 2 : P < 100 ? 1 : 0);
  W.fixed(P, 1) << "%  ";
}

void writeReport() {
  unsigned Want = Flags.trace_top < 1 ? 1
                  : unsigned(Flags.trace_top) > kMaxTop
                      ? kMaxTop
                      : unsigned(Flags.trace_top);
  static unsigned TopSites[kMaxTop], TopFunctions[kMaxTop];
  unsigned NumSites = topSlots(Sites, siteSamples, Want, TopSites);
  unsigned NumFunctions =
      topSlots(Functions, functionSamples, Want, TopFunctions);
  uint64_t DistinctSites = 0, DistinctFunctions = 0;
  for (const SiteSlot &S : Sites)
    DistinctSites += siteSamples(S) != 0;
  for (const FunctionSlot &S : Functions)
    DistinctFunctions += functionSamples(S) != 0;

  uint64_t Total = Counts.Samples;
  ReportWriter W;
  ReportFormat Fmt = reportFormat();
  Symbolizer Sym;
  if (Fmt == ReportFormat::Text) {
    W << "pcmap: atomic tracer: " << Total << " samples at "
      << uint64_t(Flags.trace_hz) << " Hz in " << ThreadsSeen << " threads; "
      << Counts.Atomic << " (";
    W.fixed(100 * share(Counts.Atomic, Total), 1)
        << "%) on atomics, " << Counts.Covered << " in covered functions, "
        << Counts.Uncovered << " elsewhere, " << Counts.Dropped << " dropped\n";
    W << "pcmap: top " << uint64_t(NumSites) << " of " << DistinctSites
      << " atomic sites by samples:\n";
    W << "   samples   share  atomic                                    "
         "site\n";
  } else if (Fmt == ReportFormat::CSV) {
    W << "section,pc,module,module_offset,function,function_start,"
         "function_offset,location,kind,op,size,order,failure_order,samples,"
         "exact_samples,skid_samples,atomic_samples,share\n";
  } else {
    W << "{\"report\": \"pcmap-trace\", \"version\": 1, \"pid\": "
      << uint64_t(currentProcessId())
      << ", \"hz\": " << uint64_t(Flags.trace_hz)
      << ", \"threads\": " << ThreadsSeen << ", \"samples\": " << Total
      << ", \"atomic_samples\": " << Counts.Atomic
      << ", \"covered_samples\": " << Counts.Covered
      << ", \"uncovered_samples\": " << Counts.Uncovered
      << ", \"dropped_samples\": " << Counts.Dropped
      << ", \"distinct_sites\": " << DistinctSites
      << ", \"distinct_functions\": " << DistinctFunctions << ", \"sites\": [";
  }
  for (unsigned R = 0; R < NumSites; ++R) {
    const SiteSlot &S = Sites[TopSites[R]];
    uint64_t N = S.Exact + S.Skid;
    pcmap_atomic A;
    memset(&A, 0, sizeof(A));
    bool Known = pcmap_lookup_atomic(S.PC, &A);
    char Desc[160];
    Text D(Desc, sizeof(Desc));
    if (Known)
      describeAtomic(A, D);
    else
      D << "(module unloaded)";
    SymbolizedPC Sy;
    char Module[512];
    uintptr_t Bias;
    symbolizeAt(Sym, S.PC, Sy, Module, sizeof(Module), Bias);
    uint64_t FnOffset = Known && A.has_function ? S.PC - A.function.start : 0;
    if (Fmt == ReportFormat::Text) {
      W.padNumber(N, 10) << "  ";
      percent(W, share(N, Total));
      W.pad(Desc, 40) << "  ";
      W.hex(S.PC) << " ";
      if (Sy.Function[0])
        W << Sy.Function << "+" << FnOffset;
      if (Sy.Location[0])
        W << " " << Sy.Location;
      W << " (" << baseName(Module) << "+";
      W.hex(S.PC - Bias) << ")\n";
    } else if (Fmt == ReportFormat::CSV) {
      W << "site,";
      W.hex(S.PC) << ",";
      W.csv(Module) << ",";
      W.hex(S.PC - Bias) << ",";
      W.csv(Sy.Function) << ",";
      W.hex(Known && A.has_function ? A.function.start : 0)
          << "," << FnOffset << ",";
      W.csv(Sy.Location)
          << "," << kindName(A.kind) << ","
          << (A.kind == PCMAP_KIND_RMW ? rmwOpName(A.rmw_op) : "") << ","
          << uint64_t(A.size) << "," << orderName(A.order) << ","
          << (A.kind == PCMAP_KIND_CMPXCHG ? orderName(A.failure_order) : "")
          << "," << N << "," << S.Exact << "," << S.Skid << ",,";
      W.fixed(share(N, Total), 4) << "\n";
    } else {
      W << (R ? ",\n  " : "\n  ") << "{\"pc\": \"";
      W.hex(S.PC) << "\", \"module\": ";
      W.json(Module) << ", \"module_offset\": \"";
      W.hex(S.PC - Bias) << "\", \"function\": ";
      W.json(Sy.Function) << ", \"function_start\": \"";
      W.hex(Known && A.has_function ? A.function.start : 0)
          << "\", \"function_offset\": " << FnOffset << ", \"location\": ";
      W.json(Sy.Location)
          << ", \"kind\": \"" << kindName(A.kind) << "\", \"op\": \""
          << (A.kind == PCMAP_KIND_RMW ? rmwOpName(A.rmw_op) : "")
          << "\", \"size\": " << uint64_t(A.size) << ", \"order\": \""
          << orderName(A.order) << "\", \"failure_order\": \""
          << (A.kind == PCMAP_KIND_CMPXCHG ? orderName(A.failure_order) : "")
          << "\", \"samples\": " << N << ", \"exact_samples\": " << S.Exact
          << ", \"skid_samples\": " << S.Skid << ", \"share\": ";
      W.fixed(share(N, Total), 4) << "}";
    }
  }
  if (Fmt == ReportFormat::Text) {
    W << "pcmap: top " << uint64_t(NumFunctions) << " of " << DistinctFunctions
      << " covered functions by samples, with the share spent on atomics:\n";
    W << "   samples   share  on atomics  function\n";
  } else if (Fmt == ReportFormat::JSON) {
    W << "\n], \"functions\": [";
  }
  for (unsigned R = 0; R < NumFunctions; ++R) {
    const FunctionSlot &S = Functions[TopFunctions[R]];
    SymbolizedPC Sy;
    char Module[512];
    uintptr_t Bias;
    symbolizeAt(Sym, S.Start, Sy, Module, sizeof(Module), Bias);
    if (Fmt == ReportFormat::Text) {
      W.padNumber(S.Samples, 10) << "  ";
      percent(W, share(S.Samples, Total));
      W.pad("", 5);
      percent(W, share(S.AtomicSamples, S.Samples));
      W.hex(S.Start) << " " << (Sy.Function[0] ? Sy.Function : "?") << " ("
                     << baseName(Module) << ")\n";
    } else if (Fmt == ReportFormat::CSV) {
      W << "function,";
      W.hex(S.Start) << ",";
      W.csv(Module) << ",";
      W.hex(S.Start - Bias) << ",";
      W.csv(Sy.Function) << ",";
      W.hex(S.Start) << ",0,";
      W.csv(Sy.Location) << ",,,,,," << S.Samples << ",,," << S.AtomicSamples
                         << ",";
      W.fixed(share(S.Samples, Total), 4) << "\n";
    } else {
      W << (R ? ",\n  " : "\n  ") << "{\"start\": \"";
      W.hex(S.Start) << "\", \"module\": ";
      W.json(Module) << ", \"function\": ";
      W.json(Sy.Function) << ", \"samples\": " << S.Samples
                          << ", \"atomic_samples\": " << S.AtomicSamples
                          << ", \"atomic_share\": ";
      W.fixed(share(S.AtomicSamples, S.Samples), 4) << "}";
    }
  }
  if (Fmt == ReportFormat::JSON)
    W << "\n]}\n";
  W.flush();
}

} // namespace

void initTracer() {
  if (!Flags.trace_atomics)
    return;
  if (Flags.trace_hz < 1 || Flags.trace_hz > 100000) {
    Message M;
    M << "warning: trace_hz must be 1 to 100000; using 1000";
    M.emit();
    Flags.trace_hz = 1000;
  }
  struct sigaction Action;
  memset(&Action, 0, sizeof(Action));
  Action.sa_sigaction = handleProf;
  Action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&Action.sa_mask);
  sigaction(SIGPROF, nullptr, &PreviousProf);
  if ((PreviousProf.sa_flags & SA_SIGINFO) ||
      (PreviousProf.sa_handler != SIG_DFL &&
       PreviousProf.sa_handler != SIG_IGN)) {
    Message M;
    M << "warning: the program handles SIGPROF; the atomic tracer is off";
    M.emit();
    Flags.trace_atomics = false;
    return;
  }
  sigaction(SIGPROF, &Action, nullptr);
  DiscoveryTimer = createCPUTimer(/*Tid=*/0, SIGPROF, kDiscoveryCookie);
  if (DiscoveryTimer < 0) {
    Message M;
    M << "warning: cannot create CPU-time timers; the atomic tracer is off";
    M.emit();
    Flags.trace_atomics = false;
    return;
  }
  ensureThreadTimer(currentThreadId());
  setRunning(true);
}

void writeTraceReport(bool Final) {
  if (!Flags.trace_atomics)
    return;
  setRunning(false);
  lockWriters();
  writeReport();
  unlockWriters();
  if (!Final)
    setRunning(true);
}

} // namespace rt
} // namespace pcmap

#pragma GCC visibility push(default)
extern "C" void pcmap_trace_dump(void) {
  pcmap::rt::writeTraceReport(/*Final=*/false);
}
#pragma GCC visibility pop
