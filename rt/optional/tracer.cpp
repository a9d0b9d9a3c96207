//===- tracer.cpp - The atomic tracer -------------------------------------===//

#include "optional/tracer.h"

#include "core/access.h"
#include "core/log.h"
#include "core/mapped.h"
#include "core/options.h"
#include "core/outline.h"
#include "core/registry.h"
#include "optional/data.h"
#include "optional/data_report.h"
#include "optional/describe.h"
#include "optional/fault.h"
#include "optional/module_list.h"
#include "optional/race.h"
#include "optional/report.h"
#include "optional/rows.h"
#include "optional/stacks.h"
#include "optional/symbolizer.h"
#include "optional/wait.h"
#include "platform/hooks.h"
#include "platform/platform.h"

#include "pcmap/TraceDump.h"
#include "pcmap/pcmap.h"

#include <errno.h>
#include <signal.h>
#include <string.h>

namespace pcmap {
namespace rt {

namespace {

constexpr int kSampleCookie = 0x5043; // "PC"

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
  /// Samples in code without tables whose nearest covered caller this is.
  uint64_t UncoveredCallees;
};

/// Which chunks of kChunkSlots slots of a table of N slots hold a slot in
/// use, or did: a report reads and copies only those. A page of a table
/// that no slot of was claimed is never touched: reading one costs a fault
/// (the zero page's), and a forked worker's report at its exit paid one for
/// every page of the tables and of their snapshot.
template <unsigned N> struct SlotChunks {
  static constexpr unsigned kChunkSlots = 64;
  static constexpr unsigned kWords = (N / kChunkSlots + 63) / 64;
  uint64_t Bits[kWords];
  /// Async-signal-safe, lock-free.
  void mark(unsigned Slot) {
    unsigned Chunk = Slot / kChunkSlots;
    __atomic_fetch_or(&Bits[Chunk / 64], uint64_t(1) << (Chunk % 64),
                      __ATOMIC_RELAXED);
  }
  void add(const SlotChunks &Other) {
    for (unsigned W = 0; W < kWords; ++W)
      Bits[W] |= __atomic_load_n(&Other.Bits[W], __ATOMIC_RELAXED);
  }
};

/// Calls F(I) for every slot I of the chunks marked in Chunks.
template <unsigned N, class Fn>
void forEachSlot(const SlotChunks<N> &Chunks, Fn F) {
  constexpr unsigned K = SlotChunks<N>::kChunkSlots;
  for (unsigned W = 0; W < SlotChunks<N>::kWords; ++W)
    for (uint64_t B = Chunks.Bits[W]; B; B &= B - 1) {
      unsigned First = (W * 64 + unsigned(__builtin_ctzll(B))) * K;
      for (unsigned I = First; I < First + K && I < N; ++I)
        F(I);
    }
}

/// The tables samples are recorded in, mapped when sampling first starts
/// (startSampling), before any timer is armed: a process that never traces
/// keeps no static data for them (a conservative garbage collector scans
/// .bss as roots).
struct SampleTables {
  SlotChunks<kSiteSlots> SiteChunks;
  SlotChunks<kFunctionSlots> FunctionChunks;
  SiteSlot Sites[kSiteSlots];
  FunctionSlot Functions[kFunctionSlots];
};
Mapped<SampleTables> Tables;

struct SampleCounts {
  uint64_t Samples, Atomic, Covered, Uncovered, Dropped;
  uint64_t Signals; // the observations: one per signal that charged periods
  uint64_t EventSignals; // those of them that clock events sent
  // With KernelEvents: the CPU time outside the events' clock (the ends of
  // context switches), which no sample stands for (eventPeriods).
  uint64_t LeftOutNanos;
  // With KernelEvents (dutyWindow): the windows opened, those whose sample
  // came, the periods those samples charged, and the timer signals that
  // drew them.
  uint64_t Windows, WindowSamples, WindowPeriods, WindowDraws;
};
SampleCounts Counts;
/// Each sample's call stack, when trace_stack_depth is not 0.
StackTable Stacks;
/// Each sample's memory access, when trace_data.
DataTable Data;

inline void add(uint64_t &Counter, uint64_t N = 1) {
  __atomic_fetch_add(&Counter, N, __ATOMIC_RELAXED);
}

inline unsigned hashKey(uintptr_t Key, unsigned Mask) {
  return unsigned((Key * 0x9e3779b97f4a7c15ull) >> 40) & Mask;
}

/// The slot of Key, claimed (and its chunk marked) if new; null when the
/// probes are exhausted.
template <class Slot, unsigned N>
Slot *slotFor(Slot (&Table)[N], SlotChunks<N> &Chunks,
              uintptr_t Slot::*KeyField, uintptr_t Key) {
  unsigned I = hashKey(Key, N - 1);
  for (unsigned Probe = 0; Probe < kMaxProbes; ++Probe, I = (I + 1) & (N - 1)) {
    uintptr_t *K = &(Table[I].*KeyField);
    uintptr_t Seen = __atomic_load_n(K, __ATOMIC_RELAXED);
    if (Seen == Key)
      return &Table[I];
    if (Seen == 0) {
      uintptr_t Expected = 0;
      if (__atomic_compare_exchange_n(K, &Expected, Key, false,
                                      __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
        Chunks.mark(I);
        return &Table[I];
      }
      if (Expected == Key)
        return &Table[I];
    }
  }
  return nullptr;
}

/// A sample in code without tables is also its nearest covered caller's
/// (the function that called into the C library's mutex code, say). Not
/// inlined: its lookup's structure stays off the stack while the signal
/// handler walks the stack (test/rt/stack-bounds.c holds that to 2 KiB).
__attribute__((noinline)) FunctionSlot *
chargeNearestCoveredCaller(SampleTables &T, const uintptr_t *Frames,
                           unsigned Depth, uint64_t Weight) {
  for (unsigned I = 1; I < Depth; ++I) {
    pcmap_function F;
    if (!pcmap_lookup_function(Frames[I], &F))
      continue;
    FunctionSlot *S =
        slotFor(T.Functions, T.FunctionChunks, &FunctionSlot::Start, F.entry);
    if (S)
      add(S->UncoveredCallees, Weight);
    return S;
  }
  return nullptr;
}

/// Entry: the function's first fragment's start (a fragment's samples are
/// its function's).
void recordFunction(SampleTables &T, uintptr_t Entry, uint64_t Weight,
                    bool Hit) {
  add(Counts.Covered, Weight);
  if (FunctionSlot *S =
          slotFor(T.Functions, T.FunctionChunks, &FunctionSlot::Start, Entry)) {
    add(S->Samples, Weight);
    if (Hit)
      add(S->AtomicSamples, Weight);
  } else {
    add(Counts.Dropped, Weight);
  }
}

/// Records a sample of Weight timer periods at PC, with the stack of the
/// signal Context; without one (periods charged at a thread's end), with
/// the stack of the thread's last sample.
void record(uintptr_t PC, uint64_t Weight, const void *Context);

//===----------------------------------------------------------------------===//
// Timers
//===----------------------------------------------------------------------===//

// Each thread has a timer on its own CPU clock, which advances only while
// the thread runs: a thread is interrupted only while it runs, and its
// samples are its CPU time times the rate. A thread started with
// pthread_create gets its timer first thing (Event::ThreadStart) and
// deletes it when it ends; threads started otherwise (a raw clone, or any
// thread when a sanitizer's interceptor starts them) are found by a scan of
// /proc/self/task every kScanPeriods periods of the process's CPU time,
// then, while scans find no new thread, twice as rarely each time, up to
// every kMaxScanPeriods (a scan that finds one goes back to kScanPeriods).
// The scan runs in a service thread of the runtime's, which a process
// CPU-time timer directed at it wakes (it waits for the signal with every
// signal blocked), so that no timer ever interrupts a program's thread
// that sleeps or waits; it runs in the batch scheduling class, so that its
// wake-ups preempt no thread that runs (scanLoop).
//
// That thread starts with the program's second thread (Event::ThreadCreate),
// not with the tracer: a thread makes the C library take the process for a
// multi-threaded one for good, and a single-threaded program (a forking
// server's worker) would pay for it in every cancellable system call, every
// stdio lock and every libstdc++ reference count (4 % of a forking test
// server's throughput). It starts with the tracer only where threads may
// already exist or start unseen (a sanitizer's interceptor starts them).
// Without it, a sampled thread's handler scans (every kScanEvery samples,
// and at the first sample after the C library has gone multi-threaded
// behind the interceptor's back): a thread started by a raw clone or the C
// library's own (a SIGEV_THREAD timer's) is found while some known thread
// runs.
//
// The kernel checks CPU-time timers at its clock tick only. Where it allows
// (perf_event_paranoid), a thread that runs also has a perf task-clock
// event (platform's openThreadClockEvent), driven by a high-resolution
// timer, which signals every period that ends in user mode: the rate asked
// for, not the tick's. Both send the tracer's signal; periodsToCharge
// charges each period once. An enabled per-thread event costs the kernel
// some microseconds at every context switch of its thread (a forking
// server's worker, which switches at every request, lost a third of its
// throughput), so each thread decides for itself, at its timer's signals
// (reviewClockEvent): its event is opened and enabled while it runs long
// stretches (it blocks at most kQuietSwitchesPerMs times per millisecond
// of its CPU time), and disabled while it blocks often (kBusy...), where
// the tick samples it. A thread that runs less than kReviewNanos never has
// one (a forked child that serves one request pays no perf_event_open).
// The events' descriptors are the only resource of the program's the
// tracer takes: placed high, close-on-exec, at most clockEventBudget of
// them, closed only while still the tracer's.

constexpr unsigned kMaxThreads = 4096;
constexpr uint64_t kScanEvery = 100;
constexpr long kScanPeriods = 10;
constexpr long kMaxScanPeriods = 16 * kScanPeriods;
struct ThreadSlot {
  int Tid; // 0: free
  int Timer;
  ClockEvent Event; // Fd -1: none
  bool EventOn;     // enabled while sampling runs (the thread's choice)
  bool Closed;      // its event was closed between windows (dutyWindow)
};
/// The thread table, mapped when sampling first starts: a process that
/// never traces keeps no static data for it (a range: empty until then).
struct ThreadTable {
  ThreadSlot *Slots;
  ThreadSlot *begin() const { return Slots; }
  ThreadSlot *end() const { return Slots ? Slots + kMaxThreads : Slots; }
};
ThreadTable Threads;
/// Threads given a timer, and threads that had samples: the report's count
/// (a thread the scan finds may never run the handler: a sanitizer's own,
/// whose signals are blocked).
uint64_t ThreadsSeen, ThreadsSampled;
/// The threads sampled by a clock event too, and how many may be
/// (clockEventBudget, when sampling starts; 0: trace_high_resolution=0).
unsigned ClockEvents, ClockEventBudget;
/// The clock events sample kernel mode too (trace_kernel_events, where the
/// kernel allows it; decided when sampling first starts).
bool KernelEvents;
/// With KernelEvents, once a process of one thread starts another
/// (startProcessEvent): one clock event for the process
/// (openProcessClockEvent), which every thread started since holds a copy
/// of, and no timer nor event of each thread's. Its signal stands for one
/// period of the process's CPU time, wherever it comes, as perf's samples
/// do. (A process of one thread keeps its own event and timer: it gains
/// nothing by a copy, as it switches with other processes' threads only;
/// the duty windows bound that cost.)
bool ProcessEvents;
ClockEvent ProcessEvent = {-1, 0};
/// Held while the thread table changes: taken by spinning outside signal
/// handlers (a thread's start and end) and only tried in them (a scan),
/// so that a handler never waits for the code it interrupted.
int TableBusy;
uint64_t SamplesSinceScan;
/// The service thread that scans, 0 if none.
int ScanThreadTid;
/// Set once the scan thread has been started (or tried): by the first
/// ThreadCreate, or when sampling starts in a process that may have
/// threads already.
bool ScanThreadStarted;
/// Set by the first sample that finds the C library multi-threaded.
bool SawOtherThreads;
constexpr int kScanCookie = 0x5053; // "PS"
/// The thread that writes dumps (never sampled), 0 if none.
int DumpThreadTid;
bool Running;
/// The real-time signal the timers send (trace_signal); set when the
/// tracer starts, and changed when the program takes it (moveSignal).
int TraceSignal;
/// With detect_races: the periods between a thread's race checks, and
/// whether the tracer runs for the races alone (its report is theirs).
uint64_t RacePeriods = 1;
bool RacesOnly;
/// Set when the program took the tracer's signal: sampling is over.
bool SteppedAside;

long intervalNanos() {
  int Hz = Flags.trace_hz;
  return 1000000000L / Hz;
}

bool tryLockTable() {
  return !__atomic_exchange_n(&TableBusy, 1, __ATOMIC_ACQUIRE);
}
void lockTable() {
  while (!tryLockTable())
    yieldThread();
}
void unlockTable() { __atomic_store_n(&TableBusy, 0, __ATOMIC_RELEASE); }

/// Gives thread Tid a sampling timer if it has none. Async-signal-safe;
/// the table is locked.
void ensureThreadTimer(int Tid) {
  if (ProcessEvents)
    return; // the thread holds a copy of the process's event
  ThreadSlot *Free = nullptr;
  for (ThreadSlot &T : Threads) {
    if (T.Tid == Tid)
      return;
    if (!T.Tid && !Free)
      Free = &T;
  }
  if (!Free || __atomic_load_n(&SteppedAside, __ATOMIC_RELAXED))
    return;
  int Timer = createThreadCPUTimer(Tid, TraceSignal, kSampleCookie);
  if (Timer < 0)
    return;
  Free->Timer = Timer;
  Free->Event = {-1, 0};
  Free->EventOn = false;
  Free->Closed = false;
  __atomic_store_n(&Free->Tid, Tid, __ATOMIC_RELEASE);
  add(ThreadsSeen);
  if (__atomic_load_n(&Running, __ATOMIC_RELAXED))
    armTimer(Timer, intervalNanos());
}

/// Ends slot T's sampling and frees it; the table is locked.
void freeThreadSlot(ThreadSlot &T) {
  deleteTimer(T.Timer);
  if (T.Event.Fd >= 0) {
    closeClockEvent(T.Event);
    --ClockEvents;
  }
  __atomic_store_n(&T.Tid, 0, __ATOMIC_RELEASE);
}

/// Deletes thread Tid's timer, if it has one; the table is locked.
void deleteThreadTimer(int Tid) {
  for (ThreadSlot &T : Threads)
    if (T.Tid == Tid) {
      freeThreadSlot(T);
      return;
    }
}

/// What the tracer knows of the calling thread, where its timer started in
/// the thread itself: initial-exec TLS, which a handler reads without a
/// call.
struct ThreadSampling {
  uint64_t CPUAtStart; // the thread's CPU time when its timer started
  uint64_t Periods;    // the periods its samples stood for
  uintptr_t LastPC;    // its last sample's PC
  bool Timed;
  bool EventOn; // its clock event is enabled (its slot's EventOn)
  uint64_t ReviewCPU;                 // at its last reviewClockEvent
  ContextSwitches ReviewSwitches;     // the same
  ThreadSlot *Slot;                   // its slot, once looked up
  StackBounds Bounds; // its stack, where its frames are read
  // Where its last sample's stack went: the periods it runs after that
  // sample and no signal reports are charged to the same stack and caller.
  int LastStack;                   // the stack table's slot, or -1
  FunctionSlot *LastCoveredCaller; // charged for the last uncovered sample
  uint32_t Tid;                    // its thread id, once looked up
  uint64_t NextRaceCheck;          // Periods at its next race check
  // Its CPU time at its last timer signal (periodsToCharge), less what of
  // it is not a whole period yet; 0 before the first.
  uint64_t TickCPU;
  bool Sampled; // counted in ThreadsSampled
  // The CPU time its handler's runs took (the tracer's own: charged at the
  // next tick, never held back as the kernel's).
  uint64_t OwnNanos;
  // With its clock event on: its CPU time and its kernel time at its last
  // timer signal (kernelTick); 0: not known.
  uint64_t TimerCPU, TimerSystem;
  // With KernelEvents: its event's count at its last event signal (0: none
  // since its event was turned on; eventPeriods), and the CPU time no
  // sample stands for (noteTimeOutsideEvent), which its count of periods
  // leaves out.
  uint64_t EventCount, LeftOutNanos;
  // With KernelEvents and its event on: its CPU time and its event's count
  // at its last timer signal (TickEventCount 0: not known).
  uint64_t TickThreadCPU, TickEventCount;
  // In handleSample: a clock event's SIGTRAP, which no signal mask holds
  // back while the handler runs, is then not taken.
  bool InHandler;
  // With KernelEvents (dutyWindow): 1 in how many of its timer's intervals
  // its event runs (1: all), the weight of the periods its event signals
  // now (1 outside duty windows; in them, that of the window waiting for
  // its sample, 0 if none), whether any interval weighed more than 1 since
  // its count was last balanced, and its random state.
  uint32_t DutyWeight, WindowWeight;
  bool Weighted;
  uint32_t Random;
  // With duty windows: the intervals its timer was armed to skip, drawn
  // ahead (skipToWindow), and whether the last of them is a window's.
  uint64_t Skipped;
  bool WindowAfterSkip;
};
__thread ThreadSampling Self __attribute__((tls_model("initial-exec")));

/// The calling thread's sampling state, from its first sample on.
void startSelf() {
  StackBounds B = {0, 0};
  if (!currentThreadStack(B.Lo, B.Hi))
    B = {0, 0};
  bool Sampled = Self.Sampled, InHandler = Self.InHandler;
  Self = ThreadSampling();
  Self.CPUAtStart = threadCPUNanos();
  Self.Timed = true;
  Self.Bounds = B;
  Self.LastStack = -1;
  Self.Sampled = Sampled;
  Self.InHandler = InHandler;
  Self.DutyWeight = Self.WindowWeight = 1;
}

/// What a sampled PC is: the atomic site it is charged to and the function
/// that holds it. Not inlined: the lookups' structures leave the stack
/// before the stack walk's buffer takes it (the handler may run on a
/// fiber's small stack).
struct Attribution {
  uintptr_t Site;          // the atomic's PC, if Hit
  uintptr_t FunctionEntry; // if HasFunction
  bool Hit, Exact, HasFunction;
};
__attribute__((noinline)) Attribution attribute(uintptr_t PC) {
  Attribution R = {0, 0, false, false, false};
  pcmap_function F;
  R.HasFunction = pcmap_lookup_function(PC, &F);
  pcmap_atomic A;
  R.Exact = pcmap_lookup_atomic(PC, &A);
  R.Hit = R.Exact;
  if (!R.Hit && Flags.trace_skid > 0 && R.HasFunction)
    R.Hit = pcmap_lookup_atomic_before(PC, unsigned(Flags.trace_skid), &A) &&
            A.has_function && A.function.start == F.start;
  R.Site = R.Hit ? A.pc : 0;
  R.FunctionEntry = R.HasFunction ? F.entry : 0;
  return R;
}

/// Walks the stack of the signal Context from Top (the sampled PC, or the
/// site it is charged to) into a buffer off the thread's stack, records
/// it, and charges a sample in code without tables to its nearest covered
/// caller.
__attribute__((noinline)) void recordStack(SampleTables &T, const void *Context,
                                           uintptr_t Top, uint64_t Weight,
                                           uint64_t AtomicWeight,
                                           bool Uncovered) {
  Self.LastStack = -1;
  Self.LastCoveredCaller = nullptr;
  unsigned Buffer;
  uintptr_t *Frames = claimFrameBuffer(Buffer);
  if (!Frames) {
    Stacks.drop(Weight);
    return;
  }
  unsigned Depth =
      captureStack(Context, Top, Self.Bounds, Frames, Stacks.depth());
  Self.LastStack = Stacks.record(Frames, Depth, Weight, AtomicWeight);
  if (Flags.trace_wait) {
    if (!Self.Tid)
      Self.Tid = uint32_t(currentThreadId());
    noteSampledStack(int(Self.Tid), Self.LastStack);
  }
  if (Uncovered)
    Self.LastCoveredCaller =
        chargeNearestCoveredCaller(T, Frames, Depth, Weight);
  releaseFrameBuffer(Buffer);
}

/// Periods charged without a signal (a thread's last, which no tick
/// reported) go where its last sample went: its stack and, for code
/// without tables, the covered function that called it.
void recordAtLastStack(uint64_t Weight, uint64_t AtomicWeight, bool Uncovered) {
  Stacks.addToSlot(Self.LastStack, Weight, AtomicWeight);
  if (Uncovered && Self.LastCoveredCaller)
    add(Self.LastCoveredCaller->UncoveredCallees, Weight);
}

/// The access of the sample at Context (charged to the atomic Site, or 0),
/// if it has one the tracer can name. Not inlined: the decoder's registers
/// leave the stack before the stack walk's buffer takes it.
__attribute__((noinline)) bool accessOfSample(const void *Context,
                                              uintptr_t Site, DataAccess &A) {
  if (!Data.ready() || !sampledAccess(Context, Site, A))
    return false;
  if (!Self.Tid)
    Self.Tid = uint32_t(currentThreadId());
  A.Tid = Self.Tid;
  if (A.Address >= Self.Bounds.Lo && A.Address < Self.Bounds.Hi)
    A.Flags |= DF_OwnStack;
  return true;
}

void record(uintptr_t PC, uint64_t Weight, const void *Context) {
  add(Counts.Samples, Weight);
  // Mapped before any timer is armed; never null while sampling runs.
  SampleTables *T = Tables.peek();
  if (!T) {
    add(Counts.Dropped, Weight);
    return;
  }
  Attribution At = attribute(PC);
  if (At.Hit) {
    add(Counts.Atomic, Weight);
    if (SiteSlot *S = slotFor(T->Sites, T->SiteChunks, &SiteSlot::PC, At.Site))
      add(At.Exact ? S->Exact : S->Skid, Weight);
    else
      add(Counts.Dropped, Weight);
  }
  DataAccess A;
  bool HasAccess = Context && accessOfSample(Context, At.Hit ? At.Site : 0, A);
  if (Context && Stacks.ready())
    recordStack(*T, Context, At.Hit ? At.Site : PC, Weight, At.Hit ? Weight : 0,
                !At.HasFunction);
  else if (Stacks.ready())
    recordAtLastStack(Weight, At.Hit ? Weight : 0, !At.HasFunction);
  if (HasAccess) {
    A.Stack = Stacks.ready() ? Self.LastStack : -1;
    Data.record(A, Weight);
  }
  if (At.HasFunction)
    recordFunction(*T, At.FunctionEntry, Weight, At.Hit);
  else
    add(Counts.Uncovered, Weight);
}

/// A thread started with pthread_create: its timer, before its first
/// instruction of the program's.
void startThreadTimer() {
  if (!__atomic_load_n(&Running, __ATOMIC_RELAXED))
    return;
  startSelf();
  if (__atomic_load_n(&ProcessEvents, __ATOMIC_ACQUIRE)) {
    // Its samples come from its copy of the process's event: no count of
    // its own to keep.
    Self.Timed = false;
    return;
  }
  lockTable();
  ensureThreadTimer(currentThreadId());
  unlockTable();
}

/// Counts the calling thread in ThreadsSampled at its first samples.
void noteThreadSampled() {
  if (!Self.Sampled) {
    Self.Sampled = true;
    add(ThreadsSampled);
  }
}

/// The kernel checks CPU-time timers at its tick (every 1 to 10 ms), and
/// only when the tick finds the thread running: the periods a thread ran
/// since the last check are never signalled if it ends before the next one,
/// which would lose a few milliseconds of every short-lived thread (all of
/// one that a loaded machine never ran at a tick). They are charged to its
/// last sample, as a signal's overrun is, or, if it had none, counted
/// "elsewhere" (PC 0: no function): the totals stay the CPU time.
void chargeUnsignalledPeriods() {
  // Weighted intervals' samples stand for the thread's time already.
  if (!Self.Timed || Self.Weighted ||
      !__atomic_load_n(&Running, __ATOMIC_RELAXED))
    return;
  uint64_t Due = (threadCPUNanos() - Self.CPUAtStart - Self.LeftOutNanos) /
                 uint64_t(intervalNanos());
  if (Due > Self.Periods) {
    record(Self.LastPC, Due - Self.Periods, nullptr);
    noteThreadSampled();
  }
}

void stopThreadTimer() {
  if (!Flags.trace_atomics)
    return;
  lockTable();
  deleteThreadTimer(currentThreadId());
  unlockTable();
  chargeUnsignalledPeriods();
  Self.Timed = false;
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
  if (!isServiceThreadOfTracer(Tid))
    ensureThreadTimer(Tid);
}

/// Gives every thread of the process a timer and frees the slots of threads
/// that are gone. Async-signal-safe; the table is locked. Its buffers take
/// some 16 KiB of stack: not inlined into the signal handler, whose frame
/// stays small.
__attribute__((noinline)) void discoverThreadsLocked() {
  LiveThreads Live;
  if (forEachThread(noteLiveThread, &Live) && Live.Count < kMaxThreads) {
    for (ThreadSlot &T : Threads) {
      if (!T.Tid)
        continue;
      bool Alive = false;
      for (unsigned J = 0; J < Live.Count && !Alive; ++J)
        Alive = Live.Tid[J] == T.Tid;
      if (!Alive)
        freeThreadSlot(T);
    }
  }
}

/// The same, skipped if the table is busy.
void discoverThreads() {
  if (!tryLockTable())
    return;
  discoverThreadsLocked();
  unlockTable();
}

/// Where a signal handler scans until the scan thread runs (or if it cannot
/// start): a thread's own stack may be a fiber's 16 KiB. Reserved when
/// sampling starts; one handler scans at a time (the table's lock).
constexpr size_t kFallbackScanStackBytes = 64 * 1024;
char *FallbackScanStack;

void scanOnFallbackStack(void *) { discoverThreadsLocked(); }

/// True at the first sample after the C library went multi-threaded: a
/// thread started without the interceptor (its own, a raw clone's) is
/// looked for at once, not a hundred samples later.
bool wentMultiThreaded() {
  if (__atomic_load_n(&SawOtherThreads, __ATOMIC_RELAXED) ||
      !mayHaveOtherThreads())
    return false;
  return !__atomic_exchange_n(&SawOtherThreads, true, __ATOMIC_RELAXED);
}

/// The calling thread's slot; the table is locked.
ThreadSlot *ownSlot() {
  int Tid = currentThreadId();
  if (Self.Slot && Self.Slot->Tid == Tid)
    return Self.Slot;
  Self.Slot = nullptr;
  for (ThreadSlot &T : Threads)
    if (T.Tid == Tid)
      return Self.Slot = &T;
  return nullptr;
}

/// Turns the calling thread's clock event on (opening it if it has none)
/// or off, if the table is free (else at a later review); with Close, off
/// by closing it (dutyWindow): a disabled event still costs its thread at
/// every context switch (the kernel switches the thread's perf context:
/// 0.3 microseconds a switch here; two threads that block every 4 us of
/// CPU time ran 13 % slower traced with their events disabled between
/// windows, 5 % with them closed). Async-signal-safe.
__attribute__((noinline)) void switchOwnClockEvent(bool On,
                                                   bool Close = false) {
  if (!tryLockTable())
    return;
  ThreadSlot *T = ownSlot();
  if (T && On && T->Event.Fd < 0 && ClockEvents < ClockEventBudget) {
    if (openThreadClockEvent(T->Tid, TraceSignal, KernelEvents, T->Event))
      ++ClockEvents;
    else if (!T->Closed)
      // Refused (an emulator, seccomp): no thread tries again. (One that
      // closed its own tries again at its next window.)
      __atomic_store_n(&ClockEventBudget, 0u, __ATOMIC_RELAXED);
  }
  if (T && !On && Close && T->Event.Fd >= 0) {
    closeClockEvent(T->Event);
    --ClockEvents;
    T->Closed = true;
    T->EventOn = Self.EventOn = false;
  }
  if (T && T->Event.Fd >= 0) {
    T->EventOn = Self.EventOn = On;
    Self.TimerCPU = Self.TimerSystem = 0;
    Self.EventCount = Self.TickEventCount = 0;
    bool IsRunning = __atomic_load_n(&Running, __ATOMIC_RELAXED);
    armClockEvent(T->Event, On && IsRunning ? intervalNanos() : 0);
  }
  unlockTable();
}

/// Every kReviewNanos of its CPU time, a thread with a CPU clock count
/// (Self.Timed) chooses whether its clock event runs, by how often it
/// switched out per millisecond of CPU time since the last review (each
/// switch of a thread with an enabled event costs some microseconds): on at
/// most kQuietSwitchesPerMs, off at kBusySwitchesPerMs or more (between
/// them, as it was). Counted are the times it blocked (voluntary context
/// switches) and its preemptions beyond kSlicePreemptionsPerMs. Up to that,
/// preemptions are what any busy thread of a loaded machine takes whatever
/// it runs: the scheduler's time slices (0.75 ms and up) and the wake-ups of
/// other programs' threads on its core (a spinning thread beside the
/// forking test server with 8 connections: 3.2 a millisecond; counting
/// them made the resolution depend on the load, and a busy thread of a
/// test run beside others lost its event). More come from its own
/// hand-overs: a thread that wakes its partner on its own core is
/// preempted at each (the forking test server's workers with 2 connections
/// on 2 cores, about 30 a millisecond, blocked some 0.4; their events,
/// always on, made the server 40 % slower).
constexpr uint64_t kReviewNanos = 10000000; // 10 ms
constexpr uint64_t kSlicePreemptionsPerMs = 4;
constexpr uint64_t kQuietSwitchesPerMs = 1, kBusySwitchesPerMs = 3;
/// With KernelEvents: the context switches a second of CPU time whose cost
/// a thread's event may add (dutyWindow), and the largest weight. An
/// enabled event costs its thread some 10 microseconds a context switch on
/// a virtual machine (the kernel reprograms its timer at each), so 1000
/// cost about 1 % of the CPU time. Windows that each last until their
/// sample, at 2000, made the forking test server 14 % slower where 1000
/// made it 10 % (11 rounds; the untraced server's throughput moves by 10 %
/// between runs on that machine); LevelDB's db_bench stayed 1.2 to 4.0
/// points off perf (2.1 to 4.0 at 2000).
constexpr uint64_t kDutySwitchesPerSecond = 1000;
constexpr uint32_t kMaxDutyWeight = 64;
__attribute__((noinline)) void reviewClockEvent(uint64_t Now) {
  if (!__atomic_load_n(&ClockEventBudget, __ATOMIC_RELAXED) ||
      Now - Self.ReviewCPU < kReviewNanos)
    return;
  ContextSwitches Switches = threadContextSwitches();
  uint64_t Ms = (Now - Self.ReviewCPU) / 1000000;
  uint64_t Blocked = Switches.Voluntary - Self.ReviewSwitches.Voluntary;
  uint64_t Preempted = Switches.Involuntary - Self.ReviewSwitches.Involuntary;
  uint64_t Slices = kSlicePreemptionsPerMs * (Ms ? Ms : 1);
  uint64_t N = Blocked + (Preempted > Slices ? Preempted - Slices : 0);
  bool First = !Self.ReviewCPU;
  Self.ReviewCPU = Now;
  Self.ReviewSwitches = Switches;
  if (First)
    return;
  if (KernelEvents) {
    // A thread that blocks often samples part of its time (dutyWindow).
    uint64_t Affordable = kDutySwitchesPerSecond * (Ms ? Ms : 1) / 1000;
    uint64_t W = Affordable ? (N + Affordable - 1) / Affordable : 1;
    Self.DutyWeight = uint32_t(W < 1                ? 1
                               : W > kMaxDutyWeight ? kMaxDutyWeight
                                                    : W);
    if (Self.DutyWeight == 1 && !Self.EventOn)
      switchOwnClockEvent(true);
    return;
  }
  if (!Self.EventOn && N <= kQuietSwitchesPerMs * Ms)
    switchOwnClockEvent(true);
  else if (Self.EventOn && N >= kBusySwitchesPerMs * Ms)
    switchOwnClockEvent(false);
}

/// Whether the next of the thread's intervals is a window's: true 1 in
/// DutyWeight times (xorshift32).
bool drawWindow() {
  if (!Self.Random)
    Self.Random = uint32_t(currentThreadId()) * 2654435761u | 1;
  Self.Random ^= Self.Random << 13;
  Self.Random ^= Self.Random >> 17;
  Self.Random ^= Self.Random << 5;
  return Self.Random % Self.DutyWeight == 0;
}

/// The timer's signals between windows draw nothing: the thread's timer is
/// armed to its next window's interval, drawn ahead (each interval a
/// window's 1 in DutyWeight times, as dutyWindow would draw it), or to
/// kMaxSkipped intervals, after which the draws go on (they are
/// independent: those not reached yet are drawn again). The forking test
/// server's workers, which block every 30 us of CPU time, took some 50
/// signals a second each that charged nothing. Not while the table is busy or
/// sampling is paused (setRunning arms every timer).
constexpr uint64_t kMaxSkipped = 128;
void skipToWindow() {
  uint64_t N = 1;
  bool Window;
  while (!(Window = drawWindow()) && N < kMaxSkipped)
    ++N;
  if (N == 1 && Window) {
    // The next interval is a window's: the timer's next signal opens it.
    Self.Skipped = 1;
    Self.WindowAfterSkip = true;
    return;
  }
  // Else, with the table busy, the next signal draws its intervals.
  if (!tryLockTable())
    return;
  ThreadSlot *T = ownSlot();
  if (T && __atomic_load_n(&Running, __ATOMIC_RELAXED)) {
    armTimer(T->Timer, intervalNanos(), intervalNanos() * long(N));
    Self.Skipped = N;
    Self.WindowAfterSkip = Window;
  }
  unlockTable();
}

/// With KernelEvents, the events of a thread that blocks often would cost
/// it dearly (some microseconds a context switch), and the tick would
/// charge its blocking calls' time to later ones (the end of a switch,
/// with interrupts off, is where no tick lands). Such a thread samples
/// with its event alone, in windows: each of its timer's intervals (Slots
/// of them since its last timer signal) is, at random, 1 in DutyWeight
/// (its context switches per second of CPU time over
/// kDutySwitchesPerSecond, rounded up) a window's, and weighs DutyWeight.
/// A window opens the event at a timer signal and lasts until the event's
/// first signal, one period later, which charges the window's weight and
/// closes it (windowSampled); intervals drawn while a window waits for its
/// sample add their weight to it. So every interval drawn is sampled once,
/// each sample charged as perf would charge it: the samples stand for the
/// thread's CPU time in expectation, and its events cost about what
/// kDutySwitchesPerSecond switches a second would always on. (Windows that
/// lasted until the next timer signal held their event open half as long
/// again, and lost their sample when that signal came first.) The timer's
/// signal then only draws the windows. Returns whether the thread samples
/// so.
bool dutyWindow(uint64_t Slots) {
  if (Self.DutyWeight <= 1) {
    Self.WindowWeight = 1;
    Self.Skipped = 0;
    return false;
  }
  if (!Self.Weighted)
    Self.WindowWeight = 0;
  Self.Weighted = true;
  add(Counts.WindowDraws);
  // The intervals drawn ahead: those that passed were no window's but the
  // last. (Fewer passed if the timer was armed again meanwhile.)
  uint64_t Drawn = Self.Skipped < Slots ? Self.Skipped : Slots;
  if (Self.Skipped && Slots >= Self.Skipped && Self.WindowAfterSkip)
    Self.WindowWeight += Self.DutyWeight;
  Self.Skipped = 0;
  // Bounded: a signal stands for a few intervals (the tick's), more only
  // after the thread was stopped.
  constexpr uint64_t kMaxDraws = 1024;
  for (uint64_t I = Drawn; I < Slots && I < kMaxDraws; ++I)
    if (drawWindow())
      Self.WindowWeight += Self.DutyWeight;
  // A window that could not open or close (the table was busy) does at
  // the next; an event left on from before the duty windows closes.
  if (Self.WindowWeight && !Self.EventOn) {
    switchOwnClockEvent(true);
    if (Self.EventOn)
      add(Counts.Windows);
  } else if (!Self.WindowWeight && Self.EventOn)
    switchOwnClockEvent(false, /*Close=*/true);
  if (!Self.WindowWeight)
    skipToWindow();
  return true;
}

/// A duty window's sample has been charged: its event closes until the
/// next window.
void windowSampled() {
  Self.WindowWeight = 0;
  switchOwnClockEvent(false, /*Close=*/true);
}

/// The periods a signal at PC charges. A thread is charged by its CPU
/// clock, each period once (Self.Periods of them so far, since
/// Self.CPUAtStart). Without a clock event, a timer's signal charges the
/// periods not charged yet, where the tick found the thread (the kernel
/// checks CPU-time timers at its clock tick: above the tick's rate, one
/// signal stands for several periods). With one, the event's signal comes
/// at the end of each period the thread ran in user mode, exactly: it
/// charges that period. The rest of its CPU time, in the kernel, no event
/// signal reports; those periods wait, all but the last (whose event
/// signal may be on its way), and the timer's signals charge them:
/// - A tick that found the thread in a system call (the signal comes where
///   the kernel returns to, after the call) charges the periods since the
///   last tick, at most those waiting: ticks fall into system calls in
///   proportion to their time, so that each call is charged its own in
///   expectation, as a sampler at the tick would (tickPeriods).
/// - A tick that found the thread in the kernel outside a system call (a
///   page fault, an interrupt: the signal comes where the kernel returns
///   to, the instruction that faulted or the one the interrupt stopped,
///   where perf charges that time) charges the same (kernelTick).
/// - The kernel's time that no tick classed as such (a kernel that does
///   not say, an interval above the tick's) makes the waiting periods grow
///   beyond what those ticks charge: a
///   tick elsewhere (in user mode, or returning from a fault or an
///   interrupt) charges what waits beyond kMaxPendingNanos, where it found
///   the thread, if the instruction there may access memory (a fault's
///   does, and comes again after it; an interrupt's time goes to the
///   memory accesses of the code it stopped) or more than four times the
///   margin wait. The margin keeps what the calls' next ticks will
///   charge. (The calls were charged it all before: a program that
///   faults or takes interrupts often had that time moved to its system
///   calls.)
/// At most kMaxPendingNanos and one period are left at a thread's end,
/// which chargeUnsignalledPeriods charges.
constexpr uint64_t kMaxPendingNanos = 50000000; // 50 ms

/// The whole periods of CPU time since the thread's last timer signal (the
/// time a tick's sample stands for), the rest carried to the next.
uint64_t tickPeriods(uint64_t Now, uint64_t Interval) {
  if (!Self.TickCPU || Now < Self.TickCPU) {
    Self.TickCPU = Now;
    return 1;
  }
  uint64_t N = (Now - Self.TickCPU) / Interval;
  Self.TickCPU += N * Interval;
  return N;
}

/// Whether the tick that sent this timer signal found the thread in the
/// kernel: the thread's kernel time, as the kernel accounts it at its tick
/// (threadSystemNanos), grew by at least half its CPU time since the last
/// timer signal. With the timer's interval below the tick's (one signal a
/// tick) that is this tick's mode; above it, the mode of most of the
/// ticks since the last signal. Kept for the next signal.
bool kernelTick(uint64_t Now) {
  uint64_t System = threadSystemNanos();
  bool Kernel = Self.TimerCPU && Now > Self.TimerCPU &&
                System >= Self.TimerSystem &&
                System - Self.TimerSystem >= (Now - Self.TimerCPU) / 2;
  Self.TimerCPU = Now;
  Self.TimerSystem = System;
  return Kernel;
}

/// The calling thread's clock event's count (readClockEvent), if the table
/// is free (the other threads close and open events with it held).
bool readOwnClockEvent(uint64_t &Count) {
  if (!tryLockTable())
    return false;
  ThreadSlot *T = ownSlot();
  bool Read = T && T->Event.Fd >= 0 && readClockEvent(T->Event, Count);
  unlockTable();
  return Read;
}

/// With KernelEvents, each period of the event's clock ends in an event
/// signal, in the kernel too; but the kernel holds one at a time until the
/// thread returns to user mode, so that the periods that end in a long
/// system call come in one signal, where the call returns. An event signal
/// charges the periods the event counted since those charged so far,
/// rounded (at least one: Self.EventCount is where the charged periods end,
/// so that a late signal's extra period is taken off the next). The count
/// is the event's own (readOwnClockEvent): the thread's
/// CPU clock, read in each signal, brought the scheduler's account of the
/// thread up to date between its ticks, which then ended time slices early
/// (four threads sharing a core switched twice as often, and the demo on
/// one core cost 4 % where perf record's events cost 2 %). Where the count
/// cannot be read (the table busy), one period, and the next count charges
/// the rest.
uint64_t eventPeriods(uint64_t Interval) {
  uint64_t Count = 0, N = 1;
  if (!readOwnClockEvent(Count)) {
    if (Self.EventCount)
      Self.EventCount += Interval;
    return 1;
  }
  if (!Self.EventCount) {
    // The first since the event was turned on: its period ends here.
    Self.EventCount = Count;
    return 1;
  }
  if (Count > Self.EventCount)
    N = (Count - Self.EventCount + Interval / 2) / Interval;
  if (!N)
    N = 1;
  Self.EventCount += N * Interval;
  return N;
}

/// With KernelEvents, the thread's CPU clock counts more than its event's:
/// the ends of its context switches, after the kernel has switched its
/// events out, which the events themselves make dearer (some microseconds
/// each). perf's profile has no sample there either. At each timer signal,
/// what the clock counted beyond the event since the last is left out
/// (Self.LeftOutNanos, counted in the report), or a thread that blocks
/// often would have the events' own cost charged to its calls by the
/// timer's signals. More than half the time outside the event is not the
/// switches' (sampling was paused): the count starts again.
void noteTimeOutsideEvent(uint64_t Now) {
  uint64_t Count = 0;
  if (!Self.EventOn || Self.Weighted || !readOwnClockEvent(Count)) {
    Self.TickEventCount = 0;
    return;
  }
  if (Self.TickEventCount && Count >= Self.TickEventCount &&
      Now > Self.TickThreadCPU) {
    uint64_t CPU = Now - Self.TickThreadCPU;
    uint64_t Counted = Count - Self.TickEventCount;
    if (Counted < CPU && CPU - Counted <= CPU / 2) {
      Self.LeftOutNanos += CPU - Counted;
      add(Counts.LeftOutNanos, CPU - Counted);
    }
  }
  Self.TickThreadCPU = Now;
  Self.TickEventCount = Count;
}

/// With KernelEvents, the periods a timer's signal leaves to the event
/// signals on their way.
constexpr uint64_t kEventSlack = 2;

/// Whether the instruction at a signal's PC may access memory (the
/// decoder does not say it accesses none).
bool mayAccessMemory(const void *Context) {
  AccessForm Form;
  uintptr_t Address = 0;
  return accessAtSignalContext(Context, Form, Address) != AD_NoMemory;
}

__attribute__((noinline)) uint64_t
periodsToCharge(const siginfo_t *Info, bool FromEvent, const void *Context) {
  // The process's event: one period of the process's CPU time.
  if (FromEvent && isProcessClockEventTrap(Info))
    return 1;
  uintptr_t PC = signalContextPC(Context);
  uint64_t Interval = uint64_t(intervalNanos());
  if (!Self.Timed) {
    uint64_t Now = threadCPUNanos();
    // A thread the sampler found (not started through pthread_create)
    // starts its count here, with this signal's periods.
    int Overrun = Info->si_overrun;
    uint64_t Periods =
        1 +
        uint64_t(!FromEvent && Overrun > 0 && Overrun < 1000000 ? Overrun : 0);
    if (Now < Periods * Interval)
      return Periods;
    Self.CPUAtStart = Now - Periods * Interval;
    Self.Periods = 0;
    Self.Timed = true;
  }
  if (FromEvent) {
    // One that was on its way when the thread turned its event off is
    // charged by the timer. (No CPU clock is read for an event's signal:
    // eventPeriods.)
    if (!Self.EventOn)
      return 0;
    if (!KernelEvents)
      return 1;
    if (Self.Weighted) {
      // A duty window's: its sample, the first since its event opened
      // (one period of the window's weight), then the window closes. (A
      // signal after it, the close having waited for the table, charges
      // nothing.)
      uint64_t Periods = Self.WindowWeight;
      if (Periods) {
        add(Counts.WindowSamples);
        add(Counts.WindowPeriods, Periods);
      }
      windowSampled();
      return Periods;
    }
    return eventPeriods(Interval);
  }
  uint64_t Now = threadCPUNanos();
  if (KernelEvents)
    noteTimeOutsideEvent(Now);
  uint64_t Due = (Now - Self.CPUAtStart - Self.LeftOutNanos) / Interval;
  Due = Due > Self.Periods ? Due - Self.Periods : 0;
  reviewClockEvent(Now);
  uint64_t Tick = tickPeriods(Now, Interval);
  uint64_t Own = Self.OwnNanos / Interval;
  Self.OwnNanos -= Own * Interval;
  if (KernelEvents && dutyWindow(Tick))
    return 0;
  // After weighted intervals, whose samples stand for the thread's time in
  // expectation, its count starts again from here.
  if (Self.Weighted) {
    Self.Weighted = false;
    Self.WindowWeight = 1;
    Self.Periods = (Now - Self.CPUAtStart - Self.LeftOutNanos) / Interval;
    Self.OwnNanos = 0;
    return 0;
  }
  if (!Self.EventOn)
    return Due;
  if (KernelEvents) {
    // The events charge every period, the handler's own time in the next
    // one's; the timer only what they leave.
    Self.OwnNanos = 0;
    return Due > kEventSlack ? Due - kEventSlack : 0;
  }
  // The handler's own time is charged here, where the tick found the
  // thread; what waits beyond it is the kernel's.
  uint64_t Waiting = Due > 1 ? Due - 1 : 0;
  Own = Own < Waiting ? Own : Waiting;
  Waiting -= Own;
  // In a call: after one, or at one the kernel restarts after this
  // handler. kernelTick runs first, at every signal, to keep its figures
  // for the next.
  bool InCall = followsSystemCall(PC) || atSystemCall(PC);
  if (kernelTick(Now) || InCall)
    return Own + (Waiting < Tick ? Waiting : Tick);
  uint64_t Margin = kMaxPendingNanos / Interval;
  if (Waiting <= Margin || (Waiting <= 4 * Margin && !mayAccessMemory(Context)))
    return Own;
  return Own + Waiting - Margin;
}

/// A race check of the access the sampled thread is about to make (not the
/// atomic a sample is charged to), with the stack its sample recorded.
__attribute__((noinline)) void checkRaceAtSample(const void *Context) {
  uintptr_t PC = signalContextPC(Context);
  uintptr_t Frames[16];
  unsigned Depth = 0;
  if (Stacks.ready() && Self.LastStack >= 0) {
    StackTable::Entry E = Stacks.entry(unsigned(Self.LastStack));
    for (; Depth < E.Depth && Depth < 16; ++Depth)
      Frames[Depth] = E.Frames[Depth];
  }
  // The sample's stack starts at the atomic it was charged to, if any.
  if (!Depth)
    Depth = 1;
  Frames[0] = PC;
  checkForRace(Context, PC, Frames, Depth, Self.Bounds.Lo, Self.Bounds.Hi);
}

void handleSample(int Signal, siginfo_t *Info, void *Context) {
  bool FromEvent = isClockEventSignal(Info);
  if (!FromEvent &&
      (Info->si_code != SI_TIMER || Info->si_value.sival_int != kSampleCookie))
    return;
  // A clock event's SIGTRAP inside this handler (no mask holds it back):
  // its period is charged with the next.
  if (Self.InHandler)
    return;
  Self.InHandler = true;
  int SavedErrno = errno;
  // With user-mode events, the handler's own time (OwnNanos), by the
  // monotonic clock: the thread's CPU clock would end its time slices
  // early (readClockEvent), and the handler does not block.
  uint64_t Start = KernelEvents ? 0 : monotonicNanos();
  if (uint64_t Periods = periodsToCharge(Info, FromEvent, Context)) {
    uintptr_t PC = attributedPC(Context);
    add(Counts.Signals);
    if (FromEvent)
      add(Counts.EventSignals);
    record(PC, Periods, Context);
    Self.Periods += Periods;
    Self.LastPC = PC;
    noteThreadSampled();
    if (Flags.detect_races && Self.Periods >= Self.NextRaceCheck) {
      Self.NextRaceCheck = Self.Periods + RacePeriods;
      checkRaceAtSample(Context);
    }
  }
  if (!__atomic_load_n(&ScanThreadTid, __ATOMIC_RELAXED) &&
      (__atomic_add_fetch(&SamplesSinceScan, 1, __ATOMIC_RELAXED) %
               kScanEvery ==
           0 ||
       wentMultiThreaded()) &&
      FallbackScanStack && tryLockTable()) {
    callOnStack(FallbackScanStack + kFallbackScanStackBytes,
                scanOnFallbackStack, nullptr);
    unlockTable();
  }
  // With KernelEvents, OwnNanos is not used (periodsToCharge).
  if (Self.Timed && Self.EventOn && !KernelEvents)
    Self.OwnNanos += monotonicNanos() - Start;
  Self.InHandler = false;
  errno = SavedErrno;
}

void setRunning(bool On) {
  if (__atomic_load_n(&SteppedAside, __ATOMIC_RELAXED))
    return;
  __atomic_store_n(&Running, On, __ATOMIC_RELAXED);
  long Nanos = On ? intervalNanos() : 0;
  if (ProcessEvents)
    switchProcessClockEvent(ProcessEvent, On);
  lockTable();
  for (const ThreadSlot &T : Threads)
    if (T.Tid) {
      armTimer(T.Timer, Nanos);
      if (T.EventOn)
        armClockEvent(T.Event, Nanos);
    }
  unlockTable();
}

//===----------------------------------------------------------------------===//
// The report
//===----------------------------------------------------------------------===//

constexpr unsigned kMaxTop = 1000;

/// What a report shows: the tables and counts, copied with the timers
/// stopped (the copy takes microseconds; writing the report may take a
/// while, and sampling goes on meanwhile). Written under the writer lock,
/// in ReportMemory.
struct Snapshot {
  // The chunks copied into so far (copyTables).
  SlotChunks<kSiteSlots> SiteChunks;
  SlotChunks<kFunctionSlots> FunctionChunks;
  SiteSlot Sites[kSiteSlots];
  FunctionSlot Functions[kFunctionSlots];
  SampleCounts Counts;
  uint64_t Threads;
  uint64_t CPUNanos;
};
StackTable SnapStacks;
DataTable SnapData;

/// This process's run: a random id (a forked child gets a new one and
/// names its parent's), and the dumps written so far.
uint64_t RunId, ParentRunId;
uint64_t Dumps;
/// Set once the final report (exit or fatal signal) is written.
bool Finished;

template <class Slot, unsigned N, class Key>
unsigned topSlots(const Slot (&Table)[N], const SlotChunks<N> &Chunks,
                  Key Weight, unsigned Want, unsigned *Out) {
  unsigned Count = 0;
  forEachSlot(Chunks, [&](unsigned I) {
    uint64_t W = Weight(Table[I]);
    if (!W)
      return;
    unsigned Pos = Count < Want ? Count++ : Want;
    if (Pos == Want && W <= Weight(Table[Out[Want - 1]]))
      return;
    if (Pos == Want)
      Pos = Want - 1;
    while (Pos > 0 && Weight(Table[Out[Pos - 1]]) < W) {
      Out[Pos] = Out[Pos - 1];
      --Pos;
    }
    Out[Pos] = I;
  });
  return Count;
}

uint64_t siteSamples(const SiteSlot &S) { return S.PC ? S.Exact + S.Skid : 0; }
/// A function's rank: its own samples and those of the uncovered code it
/// called (a function whose time all went to the C library's mutex code is
/// listed too).
/// How the text and CSV reports rank the covered functions (trace_sort).
enum class FunctionRanking { Self, WithUncoveredCallees, Cumulative };
FunctionRanking functionRanking() {
  const char *S = Flags.trace_sort;
  if (S && !strcmp(S, "self"))
    return FunctionRanking::Self;
  if (S && !strcmp(S, "cumulative"))
    return FunctionRanking::Cumulative;
  return FunctionRanking::WithUncoveredCallees;
}

uint64_t functionSamples(const FunctionSlot &S);
/// Its own samples alone (trace_sort=self).
uint64_t functionSelfSamples(const FunctionSlot &S) {
  return S.Start ? S.Samples : 0;
}
uint64_t functionSamples(const FunctionSlot &S) {
  return S.Start ? S.Samples + S.UncoveredCallees : 0;
}

double share(uint64_t Part, uint64_t Whole) {
  return Whole ? double(Part) / double(Whole) : 0.0;
}

/// What the report says about the whole run.
struct Summary {
  ReportFormat Format;
  DumpReason Reason;
  const Snapshot &S;
  uint64_t Total;
  uint64_t DistinctSites, DistinctFunctions;
};

const char *reasonName(DumpReason R) {
  switch (R) {
  case DumpReason::Exit:
    return "exit";
  case DumpReason::Api:
    return "api";
  case DumpReason::Signal:
    return "signal";
  case DumpReason::Interval:
    return "interval";
  case DumpReason::Fatal:
    return "fatal";
  }
  return "";
}

bool isFinal(DumpReason R) {
  return R == DumpReason::Exit || R == DumpReason::Fatal;
}

/// A 64-bit id as 16 hex digits, "" for 0.
void runIdText(ReportWriter &W, uint64_t Id) {
  static const char Digits[] = "0123456789abcdef";
  char Text[17];
  for (int I = 0; I < 16; ++I)
    Text[I] = Digits[(Id >> (60 - 4 * I)) & 15];
  Text[16] = '\0';
  W << (Id ? Text : "");
}

void writeTextHeader(ReportWriter &W, const Summary &Sum, unsigned NumSites) {
  const SampleCounts &C = Sum.S.Counts;
  W << "pcmap: atomic tracer";
  if (Sum.Reason != DumpReason::Exit)
    W << " (dump " << Dumps << ", " << reasonName(Sum.Reason) << ")";
  W << ": " << Sum.Total << " samples at " << uint64_t(Flags.trace_hz)
    << " Hz in " << Sum.S.Threads
    << (Sum.S.Threads == 1 ? " thread; " : " threads; ") << C.Atomic << " (";
  W.fixed(100 * share(C.Atomic, Sum.Total), 1)
      << "%) on atomics, " << C.Covered << " in covered functions, "
      << C.Uncovered << " elsewhere, " << C.Dropped << " dropped\n";
  W << "pcmap: top " << uint64_t(NumSites) << " of " << Sum.DistinctSites
    << " atomic sites by samples:\n";
}

/// What the shares rest on: the sampling signals (observations), the CPU
/// time each stands for, and a share's standard error, which is at most
/// 50 / sqrt(observations) points. The kernel checks CPU-time timers at its
/// clock tick: above its rate (250 Hz on many kernels), a timer's signal
/// stands for several periods, and the samples count periods, not
/// observations; a task-clock event signals each period that ends in user
/// mode.
void writeResolution(ReportWriter &W, const Summary &Sum) {
  uint64_t Signals = Sum.S.Counts.Signals;
  if (!Signals)
    return;
  double MsPerSignal = double(Sum.S.CPUNanos) / 1e6 / double(Signals);
  double Root = double(Signals); // its square root, by Newton's method
  for (int I = 0; I < 64; ++I)
    Root = (Root + double(Signals) / Root) / 2;
  double Bound = 50.0 / Root;
  W << "pcmap: resolution: " << Signals << " sampling signals for " << Sum.Total
    << " samples, one per ";
  W.fixed(MsPerSignal, 1) << " ms of CPU time";
  if (trace::sampledByEvents(Signals, Sum.S.Counts.EventSignals))
    W << " (task-clock events)";
  else if (double(Sum.Total) > 1.25 * double(Signals))
    W << " (the kernel's clock tick)";
  W << "; a share's standard error is at most ";
  W.fixed(Bound, 1) << " points\n";
  if (KernelEvents && Sum.S.Counts.EventSignals) {
    // With the process's event, each signal stands for a period: what the
    // samples leave of the CPU time (each thread's last period too).
    uint64_t Sampled = Sum.Total * uint64_t(intervalNanos());
    uint64_t LeftOut = !ProcessEvents             ? Sum.S.Counts.LeftOutNanos
                       : Sum.S.CPUNanos > Sampled ? Sum.S.CPUNanos - Sampled
                                                  : 0;
    W << "pcmap: the task-clock events sampled kernel mode too; ";
    W.fixed(100.0 * double(LeftOut) /
                double(Sum.S.CPUNanos ? Sum.S.CPUNanos : 1),
            1)
        << "% of the CPU time (ends of context switches, outside their "
           "clock) is in no sample, as with perf\n";
  }
  if (const SampleCounts &C = Sum.S.Counts; C.Windows) {
    W << "pcmap: duty windows (threads that switch often): " << C.Windows
      << " opened at " << C.WindowDraws << " timer signals, " << C.WindowSamples
      << " sampled, ";
    W.fixed(double(C.WindowPeriods) /
                double(C.WindowSamples ? C.WindowSamples : 1),
            1)
        << " periods a sample on average\n";
  }
}

/// The JSON report is one line (JSON Lines: a process appends one per
/// dump); docs/Tracer.md, "Output formats", describes its fields.
/// Writes ", \"Key\": " (no comma First): a key of the dump
/// (pcmap/TraceDump.h, the one list of them, which pcmap-report reads).
Writer &key(Writer &W, const char *Key, bool First = false) {
  return W << (First ? "\"" : ", \"") << Key << "\": ";
}

void writeJSONHeader(ReportWriter &W, const Summary &Sum) {
  const SampleCounts &C = Sum.S.Counts;
  key(W << "{", trace::kReportKey, /*First=*/true)
      << "\"" << trace::kReportName << "\"";
  key(W, trace::kVersionKey) << uint64_t(trace::kVersion);
  key(W, trace::kPidKey) << uint64_t(currentProcessId());
  key(W, trace::kPpidKey) << uint64_t(parentProcessId());
  key(W, trace::kRunKey) << "\"";
  runIdText(W, RunId);
  key(W << "\"", trace::kParentRunKey) << "\"";
  runIdText(W, ParentRunId);
  key(W << "\"", trace::kDumpKey) << Dumps;
  key(W, trace::kReasonKey) << "\"" << reasonName(Sum.Reason) << "\"";
  key(W, trace::kFinalKey) << (isFinal(Sum.Reason) ? "true" : "false");
  key(W, trace::kHzKey) << uint64_t(Flags.trace_hz);
  key(W, trace::kThreadsKey) << Sum.S.Threads;
  key(W, trace::kCpuNsKey) << Sum.S.CPUNanos;
  key(W, trace::kSamplesKey) << Sum.Total;
  key(W, trace::kObservationsKey) << C.Signals;
  key(W, trace::kEventObservationsKey) << C.EventSignals;
  key(W, trace::kAtomicSamplesKey) << C.Atomic;
  key(W, trace::kCoveredSamplesKey) << C.Covered;
  key(W, trace::kUncoveredSamplesKey) << C.Uncovered;
  key(W, trace::kDroppedSamplesKey) << C.Dropped;
  key(W, trace::kDistinctSitesKey) << Sum.DistinctSites;
  key(W, trace::kDistinctFunctionsKey) << Sum.DistinctFunctions;
  key(W, trace::kStackDepthKey) << uint64_t(SnapStacks.depth());
  key(W, trace::kStackSamplesDroppedKey) << SnapStacks.dropped();
  key(W, trace::kSitesKey) << "[";
}

void writeHeader(ReportWriter &W, const Summary &Sum, unsigned NumSites) {
  if (Sum.Format == ReportFormat::Text)
    writeTextHeader(W, Sum, NumSites);
  else if (Sum.Format == ReportFormat::JSON)
    writeJSONHeader(W, Sum);
}

/// Whether a report row names PC itself. A JSON report is read by
/// pcmap-report trace, which names a module with a build ID offline from
/// its file (the build ID says it is the traced one): the process does
/// not start an llvm-symbolizer for it at every dump (some 40 ms of CPU
/// for each worker of a forking server), unless trace_symbolize_json.
bool namedInProcess(ReportFormat Format, uintptr_t PC) {
  if (Format != ReportFormat::JSON || Flags.trace_symbolize_json)
    return true;
  uint8_t Id[32];
  return moduleBuildId(PC, Id, sizeof(Id)) == 0;
}

/// A sampled PC, symbolized if Named, where the report's rows need it.
struct Place {
  SymbolizedPC Sy;
  char Module[512];
  uintptr_t Bias;

  void clear() {
    Sy.Function[0] = Sy.Location[0] = '\0';
    Sy.NumFrames = 0;
  }
  Place(Symbolizer &Sym, uintptr_t PC, bool Named = true) {
    Module[0] = '\0';
    Bias = 0;
    clear();
    if (moduleOf(PC, Module, sizeof(Module), Bias) && Named)
      Sym.symbolize(PC, Module, PC - Bias, Sy);
  }
};

/// A build ID in hex digits, as the JSON gives it.
void buildIdText(const uint8_t *Id, unsigned N, char (&Out)[65]) {
  static const char Digits[] = "0123456789abcdef";
  unsigned I = 0;
  for (; I < N && I < 32; ++I) {
    Out[2 * I] = Digits[Id[I] >> 4];
    Out[2 * I + 1] = Digits[Id[I] & 15];
  }
  Out[2 * I] = '\0';
}

//===----------------------------------------------------------------------===//
// Callers (text) and stacks (JSON)
//===----------------------------------------------------------------------===//

/// The frames above a site or a function in one or more stacks.
struct Chain {
  const uintptr_t *Frames;
  unsigned Depth;
  uint64_t Samples;
};
constexpr unsigned kMaxChains = 256;

/// Whose callers a report shows: a site's, a function's own samples' (its
/// stacks whose first covered frame it is), or every stack it is in
/// (trace_sort=cumulative).
enum class CallersOf { Site, Function, FunctionAnywhere };

/// Where a stack's frames above Key begin: after frame 0 if it is the site
/// Key; after its first covered frame if that frame is in the function
/// whose entry is Key (anywhere: after its innermost frame in it). -1 if
/// the stack does not go through Key.
int callersStart(const StackTable::Entry &E, uintptr_t Key, CallersOf Of) {
  if (Of == CallersOf::Site)
    return E.Frames[0] == Key ? 1 : -1;
  for (unsigned I = 0; I < E.Depth; ++I) {
    pcmap_function F;
    if (!pcmap_lookup_function(E.Frames[I], &F))
      continue;
    if (F.entry == Key)
      return int(I) + 1;
    if (Of == CallersOf::Function)
      return -1;
  }
  return -1;
}

/// The stacks through any of the NumKeys Keys grouped by their frames
/// above it, most samples first: their number (at most kMaxChains; the
/// rest are left out).
unsigned collectChains(const uintptr_t *Keys, unsigned NumKeys, CallersOf Of,
                       Chain *Out) {
  unsigned Count = 0;
  for (unsigned K = 0; K < SnapStacks.size(); ++K) {
    StackTable::Entry E = SnapStacks.entry(SnapStacks.slotAt(K));
    int From = -1;
    for (unsigned I = 0; I < NumKeys && From < 0 && E.Depth; ++I)
      From = callersStart(E, Keys[I], Of);
    if (From < 0)
      continue;
    Chain C = {E.Frames + From, E.Depth - unsigned(From), E.Samples};
    unsigned J = 0;
    while (J < Count &&
           (Out[J].Depth != C.Depth ||
            memcmp(Out[J].Frames, C.Frames, C.Depth * sizeof(uintptr_t))))
      ++J;
    if (J < Count)
      Out[J].Samples += C.Samples;
    else if (Count < kMaxChains)
      Out[Count++] = C;
  }
  for (unsigned I = 1; I < Count; ++I)
    for (unsigned J = I; J > 0 && Out[J - 1].Samples < Out[J].Samples; --J) {
      Chain T = Out[J];
      Out[J] = Out[J - 1];
      Out[J - 1] = T;
    }
  return Count;
}

/// Where code was inlined at a site: " [inlined: helper ring.c:27:5 <
/// worker ring.c:44:3]", innermost first; nothing where it was not.
void shortName(const char *Name, char *Out, size_t Size);

void writeInlined(Writer &W, const SymbolizedPC &Sy) {
  if (Sy.NumFrames < 2)
    return;
  W << " [inlined: ";
  for (unsigned I = 0; I < Sy.NumFrames; ++I) {
    const SymbolizedFrame &F = Sy.Frames[I];
    char Short[256];
    shortName(F.Function[0] ? F.Function : "??", Short, sizeof(Short));
    W << (I ? " < " : "") << Short;
    if (F.Location[0])
      W << " " << baseName(F.Location);
  }
  W << "]";
}

/// A C++ name as a caller chain shows it: template arguments, parameter
/// lists and a leading return type left out ("std::thread::_State_impl<>::
/// _M_run()" for the whole signature); the reports' rows keep it whole.
void shortName(const char *Name, char *Out, size_t Size) {
  static const char kAnonymous[] = "(anonymous namespace)";
  size_t N = 0, NameStart = 0;
  auto Put = [&](const char *S, size_t Len) {
    for (size_t I = 0; I < Len && N + 1 < Size; ++I)
      Out[N++] = S[I];
  };
  for (const char *P = Name; *P;) {
    if (!strncmp(P, kAnonymous, sizeof(kAnonymous) - 1)) {
      Put(kAnonymous, sizeof(kAnonymous) - 1);
      P += sizeof(kAnonymous) - 1;
      continue;
    }
    bool AfterOperator = P - Name >= 8 && !strncmp(P - 8, "operator", 8);
    char Open = *P, Close = Open == '(' ? ')' : Open == '<' ? '>' : 0;
    if (Close && !AfterOperator) {
      for (int Depth = 0; *P && (Depth += *P == Open    ? 1
                                          : *P == Close ? -1
                                                        : 0) > 0;)
        ++P;
      if (*P)
        ++P;
      Put(Open == '(' ? "()" : "<>", 2);
      continue;
    }
    if (*P == ' ' && !strncmp(P + 1, "const", 5))
      break; // a const member function's qualifier
    if (*P == ' ' && N && Out[N - 1] != ',')
      NameStart = N + 1; // what came before was a return type
    Put(P++, 1);
  }
  Out[N] = '\0';
  if (NameStart && NameStart < N)
    memmove(Out, Out + NameStart, N - NameStart + 1);
}

/// "worker ring.c:44:3", or "libc.so.6+0x8a9f" where nothing is known.
void writeFrame(Writer &W, Symbolizer &Sym, uintptr_t PC) {
  Place At(Sym, PC);
  // Inlined calls: each its own frame, innermost first; short names and
  // file names, so that a C++ chain stays readable.
  unsigned N = At.Sy.Function[0] ? At.Sy.NumFrames : 0;
  for (unsigned I = 0; I < N; ++I) {
    const SymbolizedFrame &F = At.Sy.Frames[I];
    char Short[256];
    shortName(F.Function[0] ? F.Function : "??", Short, sizeof(Short));
    W << (I ? " < " : "") << Short;
    if (F.Location[0])
      W << " " << baseName(F.Location);
  }
  if (N)
    return;
  W << (At.Module[0] ? baseName(At.Module) : "?") << "+";
  W.hex(PC - At.Bias);
}

/// The samples of Chains[0..Count) whose frames From.. start with those of
/// Chains[I] From..From+Len, and whether the first such chain is I.
uint64_t branchSamples(const Chain *Chains, unsigned Count, unsigned I,
                       unsigned From, unsigned Len, bool &First) {
  uint64_t N = 0;
  First = true;
  for (unsigned J = 0; J < Count; ++J) {
    const Chain &A = Chains[I], &B = Chains[J];
    if (B.Depth < From + Len ||
        memcmp(A.Frames + From, B.Frames + From, Len * sizeof(uintptr_t)))
      continue;
    if (J < I)
      First = false;
    N += B.Samples;
  }
  return N;
}

/// " < f < g ...": chain C's frames from From on.
void writeFramesFrom(ReportWriter &W, Symbolizer &Sym, const Chain &C,
                     unsigned From) {
  for (unsigned F = From; F < C.Depth; ++F) {
    W << " < ";
    writeFrame(W, Sym, C.Frames[F]);
  }
}

/// Under a site's or a function's row: its callers as a short tree, to the
/// thread's entry (or as deep as trace_stack_depth). The trace_callers
/// heaviest direct callers (call sites), each with its share and the
/// frames all its stacks share on one line; where they part, the two
/// heaviest ways on, the same way:
///   from 600 (60.0%): reader_loop prog.c:30 < start_thread ... < clone3
///   from 400 (40.0%): helper prog.c:41 < middle prog.c:9
///      < 300 (30.0%): writer prog.c:70 < start_thread ... < clone3
///      < 100 (10.0%): writer prog.c:72 < start_thread ... < clone3
/// Chains: room for kMaxChains.
void writeCallers(ReportWriter &W, Symbolizer &Sym, Chain *Chains,
                  const uintptr_t *Keys, unsigned NumKeys, CallersOf Of,
                  uint64_t Total) {
  if (Flags.trace_callers <= 0 || !SnapStacks.ready())
    return;
  unsigned Count = collectChains(Keys, NumKeys, Of, Chains);
  unsigned Shown = 0;
  for (unsigned I = 0; I < Count && Shown < unsigned(Flags.trace_callers);
       ++I) {
    const Chain &C = Chains[I];
    bool First;
    // A direct caller once, at its heaviest chain (chains come heaviest
    // first).
    uint64_t Caller =
        C.Depth ? branchSamples(Chains, Count, I, 0, 1, First) : C.Samples;
    if (C.Depth && !First)
      continue;
    ++Shown;
    W << "                    from ";
    W.padNumber(Caller, 1) << " (";
    W.fixed(100 * share(Caller, Total), 1) << "%): ";
    if (!C.Depth) {
      W << "(no frames above)\n";
      continue;
    }
    // The frames the caller's chains share with its heaviest: up to the
    // first where one of them parts (or ends).
    unsigned Common = C.Depth;
    for (unsigned J = I + 1; J < Count; ++J) {
      const Chain &D = Chains[J];
      if (!D.Depth || D.Frames[0] != C.Frames[0])
        continue;
      unsigned K = 1;
      while (K < Common && K < D.Depth && D.Frames[K] == C.Frames[K])
        ++K;
      Common = K;
    }
    writeFrame(W, Sym, C.Frames[0]);
    for (unsigned F = 1; F < Common; ++F) {
      W << " < ";
      writeFrame(W, Sym, C.Frames[F]);
    }
    W << "\n";
    if (Common == C.Depth && Caller == C.Samples)
      continue;
    // The two heaviest ways on from there.
    unsigned Sub = 0;
    for (unsigned J = I; J < Count && Sub < 2; ++J) {
      const Chain &D = Chains[J];
      if (D.Depth <= Common ||
          memcmp(D.Frames, C.Frames, Common * sizeof(uintptr_t)))
        continue;
      uint64_t N = branchSamples(Chains, Count, J, 0, Common + 1, First);
      if (!First)
        continue;
      ++Sub;
      W << "                       < ";
      W.padNumber(N, 1) << " (";
      W.fixed(100 * share(N, Total), 1) << "%): ";
      writeFrame(W, Sym, D.Frames[Common]);
      writeFramesFrom(W, Sym, D, Common + 1);
      W << "\n";
    }
  }
}

/// "modules" and "stacks" (include/pcmap/TraceDump.h).
void writeJSONStacks(ReportWriter &W) {
  static LoadedObject *Store;
  if (!Store)
    Store = static_cast<LoadedObject *>(
        reserveAddressSpace((ModuleList::kMax + 1) * sizeof(LoadedObject)));
  ModuleList Modules(Store);
  for (unsigned K = 0; K < SnapStacks.size(); ++K) {
    StackTable::Entry E = SnapStacks.entry(SnapStacks.slotAt(K));
    for (unsigned F = 0; F < E.Depth; ++F)
      Modules.collect(E.Frames[F]);
  }
  collectDataModules(SnapData, Modules);
  collectWaitModules(Modules);
  collectRaceModules(Modules);
  key(W, trace::kModulesKey) << "[";
  for (unsigned I = 0; I < Modules.size(); ++I) {
    key(W << (I ? ", {" : "{"), trace::kPathKey, /*First=*/true);
    char Id[65];
    buildIdText(Modules[I].BuildId, Modules[I].BuildIdSize, Id);
    key(W.json(Modules[I].Path), trace::kBuildIdKey) << "\"" << Id << "\"}";
  }
  key(W << "]", trace::kStacksKey) << "[";
  bool First = true;
  for (unsigned K = 0; K < SnapStacks.size(); ++K) {
    StackTable::Entry E = SnapStacks.entry(SnapStacks.slotAt(K));
    if (!E.Depth)
      continue;
    key(W << (First ? "{" : ", {"), trace::kSamplesKey, /*First=*/true)
        << E.Samples;
    key(W, trace::kAtomicSamplesKey) << E.AtomicSamples;
    key(W, trace::kFramesKey) << "[";
    First = false;
    for (unsigned F = 0; F < E.Depth; ++F) {
      int M = Modules.indexOf(E.Frames[F]);
      uintptr_t Offset =
          M < 0 ? E.Frames[F] : E.Frames[F] - Modules[unsigned(M)].Bias;
      W << (F ? ", [" : "[");
      if (M < 0)
        W << "-1";
      else
        W << uint64_t(M);
      W << ", \"";
      W.hex(Offset) << "\"]";
    }
    W << "]}";
  }
  W << "]";
  writeJSONAccesses(W, SnapData, Modules, SnapStacks);
  writeJSONWaits(W, Modules);
  writeJSONRaces(W, Modules);
}

//===----------------------------------------------------------------------===//
// Rows: the atomic sites and the covered functions
//===----------------------------------------------------------------------===//

/// The sites' columns, in CSV's and JSON's order, then the text's own.
/// Their CSV columns are the CSV header, which the functions' rows share:
/// atomic_samples and uncovered_callee_samples are the functions'.
enum : unsigned {
  SiteSection,
  SitePC,
  SiteModule,
  SiteModuleOffset,
  SiteBuildId,
  SiteFunction,
  SiteFunctionStart,
  SiteFunctionOffset,
  SiteLocation,
  SiteKind,
  SiteOp,
  SiteSize,
  SiteOrder,
  SiteFailureOrder,
  SiteSamples,
  SiteExactSamples,
  SiteSkidSamples,
  SiteAtomicSamples,
  SiteShare,
  SiteUncoveredCallees,
  SiteAtomic,
  SitePlace,
  NumSiteColumns
};
/// The columns the sites and the functions share.
constexpr Column SectionColumn =
    dataColumn("section", ColumnKind::String, InCSV);
constexpr Column ModuleColumn =
    dataColumn(trace::kModuleKey, ColumnKind::String);
constexpr Column ModuleOffsetColumn =
    dataColumn(trace::kModuleOffsetKey, ColumnKind::Hex);
constexpr Column BuildIdColumn =
    dataColumn(trace::kBuildIdKey, ColumnKind::String, InJSON);
constexpr Column FunctionNameColumn =
    dataColumn(trace::kFunctionKey, ColumnKind::String);
const Column SiteColumns[NumSiteColumns] = {
    SectionColumn,
    dataColumn(trace::kPcKey, ColumnKind::Hex),
    ModuleColumn,
    ModuleOffsetColumn,
    BuildIdColumn,
    FunctionNameColumn,
    dataColumn(trace::kFunctionStartKey, ColumnKind::Hex),
    dataColumn(trace::kFunctionOffsetKey, ColumnKind::Number),
    dataColumn(trace::kLocationKey, ColumnKind::String),
    dataColumn(trace::kKindKey, ColumnKind::String),
    dataColumn(trace::kOpKey, ColumnKind::String),
    dataColumn(trace::kSizeKey, ColumnKind::Number),
    dataColumn(trace::kOrderKey, ColumnKind::String),
    dataColumn(trace::kFailureOrderKey, ColumnKind::String),
    {trace::kSamplesKey, ColumnKind::Number, InAll, 0, 10, true, nullptr},
    dataColumn(trace::kExactSamplesKey, ColumnKind::Number),
    dataColumn(trace::kSkidSamplesKey, ColumnKind::Number),
    dataColumn(trace::kAtomicSamplesKey, ColumnKind::Number, InCSV),
    {trace::kShareKey, ColumnKind::Share, InAll, 2, 6, true, nullptr},
    dataColumn(trace::kUncoveredCalleeSamplesKey, ColumnKind::Number, InCSV),
    {"atomic", ColumnKind::String, InText, 2, 40, false, nullptr},
    {"site", ColumnKind::String, InText, 2, 0, false, nullptr},
};
const Table SiteTable = {SiteColumns, NumSiteColumns, nullptr, 0};
static_assert(NumSiteColumns <= Row::kMaxColumns, "a row has no room for them");

/// The functions' columns: JSON names the entry "start", the CSV header
/// "pc" and "function_start"; the text and JSON give the share of the
/// function's own samples on atomics, CSV that of all samples.
enum : unsigned {
  FnSection,
  FnStart,
  FnPC,
  FnModule,
  FnModuleOffset,
  FnBuildId,
  FnFunction,
  FnFunctionStart,
  FnFunctionOffset,
  FnLocation,
  FnSamples,
  FnAtomicSamples,
  FnShare,
  FnAtomicShare,
  FnUncoveredCallees,
  FnPlace,
  FnCumulative, // text, with trace_sort=cumulative
  NumFunctionColumns
};
const Column FunctionColumns[NumFunctionColumns] = {
    SectionColumn,
    dataColumn(trace::kStartKey, ColumnKind::Hex, InJSON),
    dataColumn(trace::kPcKey, ColumnKind::Hex, InCSV),
    ModuleColumn,
    ModuleOffsetColumn,
    BuildIdColumn,
    FunctionNameColumn,
    dataColumn(trace::kFunctionStartKey, ColumnKind::Hex, InCSV),
    dataColumn(trace::kFunctionOffsetKey, ColumnKind::Number, InCSV),
    dataColumn(trace::kLocationKey, ColumnKind::String, InCSV),
    {trace::kSamplesKey, ColumnKind::Number, InAll, 0, 10, true, nullptr},
    dataColumn(trace::kAtomicSamplesKey, ColumnKind::Number),
    {trace::kShareKey, ColumnKind::Share, InText | InCSV, 2, 6, true, nullptr},
    {trace::kAtomicShareKey, ColumnKind::Share, InText | InJSON, 2, 11, true,
     "on atomics"},
    {trace::kUncoveredCalleeSamplesKey, ColumnKind::Number, InAll, 2, 20, true,
     "in uncovered callees"},
    {"place", ColumnKind::String, InText, 2, 0, false, "function"},
    {"cumulative", ColumnKind::Number, InText, 0, 10, true, nullptr},
};
/// The text's columns: without the cumulative samples, and with them
/// (trace_sort=cumulative).
const uint8_t FunctionTextOrder[] = {FnSamples, FnShare, FnAtomicShare,
                                     FnUncoveredCallees, FnPlace};
const uint8_t CumulativeTextOrder[] = {FnCumulative,       FnShare,
                                       FnSamples,          FnAtomicShare,
                                       FnUncoveredCallees, FnPlace};
const Table FunctionTable = {FunctionColumns, NumFunctionColumns,
                             FunctionTextOrder, sizeof(FunctionTextOrder)};
const Table CumulativeFunctionTable = {FunctionColumns, NumFunctionColumns,
                                       CumulativeTextOrder,
                                       sizeof(CumulativeTextOrder)};
static_assert(NumFunctionColumns <= Row::kMaxColumns,
              "a row has no room for them");

/// The columns both the sites and the functions fill alike.
void fillPlace(Row &Out, const Place &At, uintptr_t PC, bool JSON,
               char (&BuildId)[65], const unsigned (&Cols)[4]) {
  Out.set(Cols[0], At.Module).number(Cols[1], PC - At.Bias);
  Out.set(Cols[3], At.Sy.Function);
  BuildId[0] = '\0';
  if (JSON) {
    uint8_t Id[32];
    buildIdText(Id, moduleBuildId(PC, Id, sizeof(Id)), BuildId);
    Out.set(Cols[2], BuildId);
  }
}

/// "0x4011a6 worker+22 ring.c:27:5 [inlined: ...] (prog+0x11a6)".
void siteText(Writer &T, const Place &At, uintptr_t PC, uint64_t FnOffset) {
  T.hex(PC) << " ";
  if (At.Sy.Function[0])
    T << At.Sy.Function << "+" << FnOffset;
  if (At.Sy.Location[0])
    T << " " << At.Sy.Location;
  writeInlined(T, At.Sy);
  T << " (" << baseName(At.Module) << "+";
  T.hex(PC - At.Bias) << ")";
}

/// A row of the atomic sites: one site, or in text the sites of one
/// function, one kind of atomic and one source line (an unrolled loop's
/// copies of one statement): Sites[0..N), heaviest first.
constexpr unsigned kMaxMergedSites = 32;
struct SiteRow {
  const SiteSlot *const *Sites;
  unsigned N;
  uint64_t Samples;
};

/// A covered function's samples in the call stacks: those of every stack
/// it is in, once per stack.
struct CumulativeSlot {
  uintptr_t Start; // 0: free
  uint64_t Samples;
};

/// The arrays a report's tables are ranked and written in.
struct ReportScratch {
  unsigned TopSites[kSiteSlots], TopFunctions[kFunctionSlots];
  unsigned Candidates[kMaxTop * 4];
  SiteRow Rows[kMaxTop];
  CumulativeSlot Top[kMaxTop];
  Chain Chains[kMaxChains]; // a row's callers (writeCallers)
  char PlaceText[8192];     // a site's place: inlined frames make it long
};

/// What a report takes: the snapshot it shows and its scratch arrays.
/// Mapped at the first report, not static: a process that never reports
/// keeps no data for them (a conservative garbage collector scans .bss as
/// roots). Used under the writer lock.
struct ReportMemory {
  Snapshot Snap;
  ReportScratch Scratch;
};
Mapped<ReportMemory> Report;

/// One row of the atomic sites, and in text its callers under it.
void writeSite(ReportWriter &W, RowSink &Sink, const Summary &Sum,
               Symbolizer &Sym, ReportScratch &X, const SiteRow &R) {
  const SiteSlot &S = *R.Sites[0];
  uint64_t N = 0, Exact = 0, Skid = 0;
  for (unsigned I = 0; I < R.N; ++I) {
    Exact += R.Sites[I]->Exact;
    Skid += R.Sites[I]->Skid;
  }
  N = Exact + Skid;
  pcmap_atomic A;
  memset(&A, 0, sizeof(A));
  bool Known = pcmap_lookup_atomic(S.PC, &A);
  uintptr_t FnStart = Known && A.has_function ? A.function.start : 0;
  uint64_t FnOffset = FnStart ? S.PC - FnStart : 0;
  Place At(Sym, S.PC, namedInProcess(Sum.Format, S.PC));
  Row Out(SiteTable);
  char BuildId[65], Desc[160];
  fillPlace(Out, At, S.PC, Sum.Format == ReportFormat::JSON, BuildId,
            {SiteModule, SiteModuleOffset, SiteBuildId, SiteFunction});
  Out.set(SiteSection, "site").number(SitePC, S.PC);
  Out.number(SiteFunctionStart, FnStart).number(SiteFunctionOffset, FnOffset);
  Out.set(SiteLocation, At.Sy.Location).set(SiteKind, kindName(A.kind));
  Out.set(SiteOp, A.kind == PCMAP_KIND_RMW ? rmwOpName(A.rmw_op) : "");
  Out.number(SiteSize, A.size).set(SiteOrder, orderName(A.order));
  Out.set(SiteFailureOrder,
          A.kind == PCMAP_KIND_CMPXCHG ? orderName(A.failure_order) : "");
  Out.number(SiteSamples, N).number(SiteExactSamples, Exact);
  Out.number(SiteSkidSamples, Skid).share(SiteShare, share(N, Sum.Total));
  // The text's own columns.
  uintptr_t Keys[kMaxMergedSites];
  for (unsigned I = 0; I < R.N; ++I)
    Keys[I] = R.Sites[I]->PC;
  if (Sum.Format == ReportFormat::Text) {
    Text D(Desc, sizeof(Desc));
    if (Known)
      describeAtomic(A, D);
    else
      D << "(module unloaded)";
    Text T(X.PlaceText, sizeof(X.PlaceText));
    siteText(T, At, S.PC, FnOffset);
    if (R.N > 1) {
      T << "; " << uint64_t(R.N - 1) << " more PC" << (R.N > 2 ? "s" : "")
        << " on the line:";
      for (unsigned I = 1; I < R.N; ++I) {
        T << " +";
        T.hex(FnStart ? Keys[I] - FnStart : Keys[I]);
      }
    }
    Out.set(SiteAtomic, Desc).set(SitePlace, X.PlaceText);
  }
  Sink.row(Out);
  if (Sum.Format == ReportFormat::Text)
    writeCallers(W, Sym, X.Chains, Keys, R.N, CallersOf::Site, N);
}

/// What a site's text row is merged by: its function, its atomic and its
/// source line (the location without its column), hashed; 0 (merged with
/// nothing) where the site has no function or no line.
uint64_t siteLineKey(Symbolizer &Sym, uintptr_t PC) {
  pcmap_atomic A;
  memset(&A, 0, sizeof(A));
  if (!pcmap_lookup_atomic(PC, &A) || !A.has_function)
    return 0;
  Place At(Sym, PC);
  const char *Location = At.Sy.Location;
  if (!Location[0])
    return 0;
  // "file:line:col" up to the line: the last colon ends it when there are
  // two after the file's name.
  size_t End = strlen(Location), Colons = 0, LastColon = End;
  for (size_t I = 0; I < End; ++I)
    if (Location[I] == ':') {
      ++Colons;
      LastColon = I;
    }
  if (Colons >= 2)
    End = LastColon;
  // FNV-1a over the function, the atomic's fields and "file:line".
  uint64_t H = 0xcbf29ce484222325ull;
  auto Byte = [&H](uint8_t B) {
    H ^= B;
    H *= 0x100000001b3ull;
  };
  uint64_t Fields[2] = {A.function.start,
                        uint64_t(A.kind) | uint64_t(A.rmw_op) << 8 |
                            uint64_t(A.size) << 16 | uint64_t(A.order) << 32 |
                            uint64_t(A.failure_order) << 40};
  for (uint64_t F : Fields)
    for (int I = 0; I < 8; ++I, F >>= 8)
      Byte(uint8_t(F));
  for (size_t I = 0; I < End; ++I)
    Byte(uint8_t(Location[I]));
  return H | 1;
}

/// The text report's site rows: the NumTop heaviest sites (Top, heaviest
/// first) grouped by siteLineKey, the Want heaviest groups, heaviest first.
/// Its arrays are reserved at the first text report (a process that never
/// writes one keeps its static data small).
unsigned mergeSiteRows(Symbolizer &Sym, const Snapshot &Snap,
                       const unsigned *Top, unsigned NumTop, SiteRow *Rows,
                       unsigned Want) {
  struct Group {
    uint64_t Key, Samples;
    unsigned N;
    const SiteSlot *Sites[kMaxMergedSites];
  };
  static Group *Groups;
  if (!Groups)
    Groups =
        static_cast<Group *>(reserveAddressSpace(kMaxTop * 4 * sizeof(Group)));
  if (!Groups)
    return 0;
  unsigned NumGroups = 0;
  for (unsigned I = 0; I < NumTop && I < kMaxTop * 4; ++I) {
    const SiteSlot &S = Snap.Sites[Top[I]];
    uint64_t Key = siteLineKey(Sym, S.PC);
    unsigned G = 0;
    while (G < NumGroups && !(Key && Groups[G].Key == Key))
      ++G;
    if (G == NumGroups) {
      Groups[NumGroups].Key = Key;
      Groups[NumGroups].Samples = 0;
      Groups[NumGroups++].N = 0;
    }
    if (Groups[G].N < kMaxMergedSites) {
      Groups[G].Sites[Groups[G].N++] = &S;
      Groups[G].Samples += siteSamples(S);
    }
  }
  // Heaviest first: at most Want passes of a selection.
  unsigned N = 0;
  for (; N < Want && N < NumGroups; ++N) {
    unsigned Best = N;
    for (unsigned G = N + 1; G < NumGroups; ++G)
      if (Groups[G].Samples > Groups[Best].Samples)
        Best = G;
    if (Best != N) {
      Group T = Groups[N];
      Groups[N] = Groups[Best];
      Groups[Best] = T;
    }
    Rows[N] = {Groups[N].Sites, Groups[N].N, Groups[N].Samples};
  }
  return N;
}

/// Between the sites and the functions.
void writeFunctionsHeader(ReportWriter &W, RowSink &Sink, const Summary &Sum,
                          unsigned NumFunctions, uint64_t Distinct,
                          const Table &T = FunctionTable) {
  if (Sum.Format == ReportFormat::Text)
    W << "pcmap: top " << uint64_t(NumFunctions) << " of " << Distinct
      << " covered functions by "
      << (functionRanking() == FunctionRanking::Self ? "samples"
          : functionRanking() == FunctionRanking::Cumulative
              ? "cumulative samples (the stacks they are in)"
              : "samples with their uncovered callees'")
      << ", and the share spent on atomics:\n";
  else if (Sum.Format == ReportFormat::JSON)
    key(W << "]", trace::kFunctionsKey) << "[";
  Sink.header(T);
}

/// One row of the covered functions, and in text its callers under it.
void writeFunction(ReportWriter &W, RowSink &Sink, const Summary &Sum,
                   Symbolizer &Sym, ReportScratch &X, const FunctionSlot &S,
                   const uint64_t *Cumulative = nullptr) {
  Place At(Sym, S.Start, namedInProcess(Sum.Format, S.Start));
  Row Out(Cumulative ? CumulativeFunctionTable : FunctionTable);
  char BuildId[65];
  fillPlace(Out, At, S.Start, Sum.Format == ReportFormat::JSON, BuildId,
            {FnModule, FnModuleOffset, FnBuildId, FnFunction});
  Out.set(FnSection, "function").number(FnStart, S.Start);
  Out.number(FnPC, S.Start).number(FnFunctionStart, S.Start);
  Out.number(FnFunctionOffset, 0).set(FnLocation, At.Sy.Location);
  Out.number(FnSamples, S.Samples).number(FnAtomicSamples, S.AtomicSamples);
  Out.share(FnShare, share(S.Samples, Sum.Total));
  Out.share(FnAtomicShare, share(S.AtomicSamples, S.Samples));
  Out.number(FnUncoveredCallees, S.UncoveredCallees);
  char PlaceText[sizeof(At.Module) + sizeof(At.Sy.Function) + 32];
  Text T(PlaceText, sizeof(PlaceText));
  T.hex(S.Start) << " " << (At.Sy.Function[0] ? At.Sy.Function : "?") << " ("
                 << baseName(At.Module) << ")";
  Out.set(FnPlace, PlaceText);
  if (Cumulative)
    Out.number(FnCumulative, *Cumulative)
        .share(FnShare, share(*Cumulative, Sum.Total));
  Sink.row(Out);
  if (Sum.Format == ReportFormat::Text)
    writeCallers(W, Sym, X.Chains, &S.Start, 1,
                 Cumulative ? CallersOf::FunctionAnywhere : CallersOf::Function,
                 Cumulative ? *Cumulative : S.Samples + S.UncoveredCallees);
}

/// Snap's slot of the function that starts at Start, or null.
const FunctionSlot *snapFunction(const Snapshot &Snap, uintptr_t Start) {
  unsigned I = hashKey(Start, kFunctionSlots - 1);
  for (unsigned Probe = 0; Probe < kMaxProbes;
       ++Probe, I = (I + 1) & (kFunctionSlots - 1)) {
    if (Snap.Functions[I].Start == Start)
      return &Snap.Functions[I];
    if (!Snap.Functions[I].Start)
      return nullptr;
  }
  return nullptr;
}

/// Every covered function of Snap's stacks with its cumulative samples,
/// in a table reserved at the first such report; the heaviest Want in
/// Out (most first): their number.
unsigned topCumulative(unsigned Want, CumulativeSlot *Out, unsigned &Distinct) {
  // The table is cleared slot by slot after each use (Used), not written
  // whole: a forked worker's report at exit would fault in every page.
  static CumulativeSlot *Table;
  static unsigned *Used;
  if (!Table) {
    Table = static_cast<CumulativeSlot *>(
        reserveAddressSpace(kFunctionSlots * sizeof(CumulativeSlot)));
    Used = static_cast<unsigned *>(
        reserveAddressSpace(kFunctionSlots * sizeof(unsigned)));
  }
  if (!Table || !Used)
    return 0;
  unsigned NumUsed = 0;
  for (unsigned K = 0; K < SnapStacks.size(); ++K) {
    StackTable::Entry E = SnapStacks.entry(SnapStacks.slotAt(K));
    uintptr_t Seen[trace::kMaxStackDepth];
    unsigned NumSeen = 0;
    for (unsigned F = 0; F < E.Depth; ++F) {
      pcmap_function Fn;
      if (!pcmap_lookup_function(E.Frames[F], &Fn))
        continue;
      bool Again = false;
      for (unsigned J = 0; J < NumSeen && !Again; ++J)
        Again = Seen[J] == Fn.entry;
      if (Again)
        continue;
      Seen[NumSeen++] = Fn.entry;
      unsigned I = hashKey(Fn.entry, kFunctionSlots - 1);
      for (unsigned Probe = 0; Probe < kMaxProbes;
           ++Probe, I = (I + 1) & (kFunctionSlots - 1))
        if (Table[I].Start == Fn.entry || !Table[I].Start) {
          if (!Table[I].Start)
            Used[NumUsed++] = I;
          Table[I].Start = Fn.entry;
          Table[I].Samples += E.Samples;
          break;
        }
    }
  }
  unsigned Count = 0;
  Distinct = NumUsed;
  for (unsigned K = 0; K < NumUsed; ++K) {
    unsigned I = Used[K];
    unsigned Pos = Count < Want ? Count++ : Want;
    if (Pos == Want && Table[I].Samples <= Out[Want - 1].Samples)
      continue;
    if (Pos == Want)
      Pos = Want - 1;
    while (Pos > 0 && Out[Pos - 1].Samples < Table[I].Samples) {
      Out[Pos] = Out[Pos - 1];
      --Pos;
    }
    Out[Pos] = Table[I];
  }
  for (unsigned K = 0; K < NumUsed; ++K)
    Table[Used[K]] = CumulativeSlot{0, 0};
  return Count;
}

/// Copies the sites' and functions' tables into Snap: the chunks of slots
/// in use, now or at an earlier snapshot (a forked child's tables start
/// empty; its snapshot may hold its parent's), so that the copy reads and
/// writes (and so faults in) only their pages.
void copyTables(const SampleTables &T, Snapshot &Snap) {
  Snap.SiteChunks.add(T.SiteChunks);
  forEachSlot(Snap.SiteChunks, [&](unsigned I) {
    const SiteSlot &S = T.Sites[I];
    Snap.Sites[I].PC = __atomic_load_n(&S.PC, __ATOMIC_RELAXED);
    Snap.Sites[I].Exact = __atomic_load_n(&S.Exact, __ATOMIC_RELAXED);
    Snap.Sites[I].Skid = __atomic_load_n(&S.Skid, __ATOMIC_RELAXED);
  });
  Snap.FunctionChunks.add(T.FunctionChunks);
  forEachSlot(Snap.FunctionChunks, [&](unsigned I) {
    const FunctionSlot &From = T.Functions[I];
    FunctionSlot &F = Snap.Functions[I];
    F.Start = __atomic_load_n(&From.Start, __ATOMIC_RELAXED);
    F.Samples = __atomic_load_n(&From.Samples, __ATOMIC_RELAXED);
    F.AtomicSamples = __atomic_load_n(&From.AtomicSamples, __ATOMIC_RELAXED);
    F.UncoveredCallees =
        __atomic_load_n(&From.UncoveredCallees, __ATOMIC_RELAXED);
  });
}

/// Copies the tables and counts into Snap, with the timers stopped; they
/// run again afterwards unless Final.
void takeSnapshot(Snapshot &Snap, bool Final) {
  setRunning(false);
  if (const SampleTables *T = Tables.peek())
    copyTables(*T, Snap);
  SnapStacks.copyFrom(Stacks);
  SnapData.copyFrom(Data);
  Snap.Counts = Counts;
  Snap.Threads = __atomic_load_n(&ThreadsSampled, __ATOMIC_RELAXED);
  Snap.CPUNanos = processCPUNanos();
  if (!Final)
    setRunning(true);
}

/// The atomic sites' table: the Want heaviest (in text, of one source line
/// each: the rows come from four times as many of the heaviest sites).
void writeSiteTable(ReportWriter &W, RowSink &Sink, const Summary &Sum,
                    Symbolizer &Sym, ReportScratch &X, unsigned Want) {
  if (Sum.Format == ReportFormat::Text) {
    unsigned NumCandidates = topSlots(Sum.S.Sites, Sum.S.SiteChunks,
                                      siteSamples, Want * 4, X.Candidates);
    unsigned NumRows =
        mergeSiteRows(Sym, Sum.S, X.Candidates, NumCandidates, X.Rows, Want);
    writeHeader(W, Sum, NumRows);
    Sink.header(SiteTable);
    for (unsigned R = 0; R < NumRows; ++R)
      writeSite(W, Sink, Sum, Sym, X, X.Rows[R]);
    return;
  }
  unsigned NumSites =
      topSlots(Sum.S.Sites, Sum.S.SiteChunks, siteSamples, Want, X.TopSites);
  writeHeader(W, Sum, NumSites);
  Sink.header(SiteTable);
  for (unsigned R = 0; R < NumSites; ++R) {
    const SiteSlot *Site = &Sum.S.Sites[X.TopSites[R]];
    writeSite(W, Sink, Sum, Sym, X, {&Site, 1, siteSamples(*Site)});
  }
}

/// The covered functions' table: the Want heaviest by trace_sort (JSON:
/// all, by their own samples and their uncovered callees').
void writeFunctionTable(ReportWriter &W, RowSink &Sink, const Summary &Sum,
                        Symbolizer &Sym, ReportScratch &X, unsigned Want) {
  FunctionRanking Ranking = Sum.Format == ReportFormat::JSON
                                ? FunctionRanking::WithUncoveredCallees
                                : functionRanking();
  if (Sum.Format == ReportFormat::Text &&
      Ranking == FunctionRanking::Cumulative && SnapStacks.ready()) {
    unsigned Distinct = 0;
    unsigned N = topCumulative(Want, X.Top, Distinct);
    writeFunctionsHeader(W, Sink, Sum, N, Distinct, CumulativeFunctionTable);
    for (unsigned R = 0; R < N; ++R) {
      const FunctionSlot *S = snapFunction(Sum.S, X.Top[R].Start);
      FunctionSlot None = {X.Top[R].Start, 0, 0, 0};
      writeFunction(W, Sink, Sum, Sym, X, S ? *S : None, &X.Top[R].Samples);
    }
    return;
  }
  unsigned N = topSlots(Sum.S.Functions, Sum.S.FunctionChunks,
                        Ranking == FunctionRanking::Self ? functionSelfSamples
                                                         : functionSamples,
                        Want, X.TopFunctions);
  writeFunctionsHeader(W, Sink, Sum, N, Sum.DistinctFunctions);
  for (unsigned R = 0; R < N; ++R)
    writeFunction(W, Sink, Sum, Sym, X, Sum.S.Functions[X.TopFunctions[R]]);
}

/// The report: a summary, the top atomic sites and the top covered
/// functions by samples (in JSON, every one), in the format of
/// report_format.
void writeReport(DumpReason Reason) {
  ++Dumps;
  Finished = isFinal(Reason);
  if (Finished)
    stopWaitSampler();
  if (RacesOnly && reportFormat() == ReportFormat::Text) {
    // The report is the races': no snapshot of the tables (a copy of them
    // at every exit of every process, a forked worker's included).
    if (Finished)
      setRunning(false);
    ReportWriter W;
    Symbolizer Sym;
    writeTextRaces(W, Sym);
    W.flush();
    return;
  }
  ReportMemory *Memory = Report.get();
  if (!Memory) {
    if (Finished)
      setRunning(false); // as the snapshot would have
    Message M;
    M << "warning: no memory for the tracer's report";
    M.emit();
    return;
  }
  takeSnapshot(Memory->Snap, Finished);
  const Snapshot &Snap = Memory->Snap;
  ReportFormat Fmt = reportFormat();
  unsigned Want = Fmt == ReportFormat::JSON ? kSiteSlots
                  : Flags.trace_top < 1     ? 1
                  : unsigned(Flags.trace_top) > kMaxTop
                      ? kMaxTop
                      : unsigned(Flags.trace_top);
  Summary Sum = {Fmt, Reason, Snap, Snap.Counts.Samples, 0, 0};
  forEachSlot(Snap.SiteChunks, [&](unsigned I) {
    Sum.DistinctSites += siteSamples(Snap.Sites[I]) != 0;
  });
  forEachSlot(Snap.FunctionChunks, [&](unsigned I) {
    Sum.DistinctFunctions += functionSamples(Snap.Functions[I]) != 0;
  });

  bool WithData = SnapData.ready() && prepareDataReport();
  ReportWriter W;
  Symbolizer Sym;
  RowSink Sink(W, Fmt);
  writeSiteTable(W, Sink, Sum, Sym, Memory->Scratch, Want);
  writeFunctionTable(W, Sink, Sum, Sym, Memory->Scratch, Want);
  if (Sum.Format == ReportFormat::JSON) {
    W << "]";
    writeJSONStacks(W);
    W << "}\n";
  } else if (Sum.Format == ReportFormat::Text) {
    if (WithData && SnapData.samples())
      writeTextData(W, Sym, SnapData, Sum.Total, Want);
    if (Flags.trace_wait)
      writeTextWaits(W, Sym, Want);
    if (Flags.detect_races)
      writeTextRaces(W, Sym);
    writeResolution(W, Sum);
  }
  W.flush();
}

//===----------------------------------------------------------------------===//
// Dumps and fork
//===----------------------------------------------------------------------===//

/// The service thread's wake-up pipe.
int DumpPipe[2] = {-1, -1};

void handleDumpSignal(int) {
  int SavedErrno = errno;
  if (DumpPipe[1] >= 0)
    writeToPipe(DumpPipe[1], "s", 1); // a full pipe: a dump is pending
  errno = SavedErrno;
}

/// Writes a dump when the signal wakes it, and every trace_dump_interval
/// seconds.
void *dumpLoop(void *) {
  __atomic_store_n(&DumpThreadTid, currentThreadId(), __ATOMIC_RELEASE);
  int IntervalMs =
      Flags.trace_dump_interval > 0 ? Flags.trace_dump_interval * 1000 : -1;
  for (;;) {
    int R = waitReadable(DumpPipe[0], IntervalMs);
    if (R < 0)
      return nullptr;
    if (R > 0) {
      char Drain[64];
      while (readWithTimeout(DumpPipe[0], Drain, sizeof(Drain), 0) > 0) {
      }
    }
    writeTraceReport(R > 0 ? DumpReason::Signal : DumpReason::Interval);
  }
}

/// Starts the service thread that writes dumps, if an option asks for
/// them.
void startDumps() {
  if (Flags.trace_dump_signal <= 0 && Flags.trace_dump_interval <= 0)
    return;
  if (!makeWakeupPipe(DumpPipe) || !startServiceThread(dumpLoop, nullptr)) {
    Message M;
    M << "warning: cannot start the tracer's dump thread; no dumps";
    M.emit();
  }
}

/// Installs the dump signal's handler; false (with a warning) for a signal
/// the tracer or the fault reporter needs, or one that cannot be caught.
bool installDumpSignal() {
  int Signal = Flags.trace_dump_signal;
  if (Signal <= 0)
    return true;
  if (Signal == TraceSignal || Signal == SIGKILL || Signal == SIGSTOP ||
      Signal == SIGSEGV || Signal == SIGBUS || Signal == SIGILL ||
      Signal == SIGFPE || Signal == SIGTRAP || Signal >= 65) {
    Message M;
    M << "warning: trace_dump_signal=" << uint64_t(Signal)
      << " cannot be the dump signal (use SIGUSR1, 10, or SIGUSR2, 12); no "
         "dumps on a signal";
    M.emit();
    Flags.trace_dump_signal = 0;
    return false;
  }
  installSimpleSignalHandler(Signal, handleDumpSignal, SA_RESTART);
  return true;
}

/// The program uses SIGTRAP itself (keepTrapUnblocked: it blocks it, or
/// waits for it, apart from other signals): the clock events sample user
/// mode from then on, each made again so (their SIGTRAPs would wait in its
/// masks, for its waits to take). Said once. Async-signal-safe.
void giveUpKernelEvents() {
  lockTable();
  __atomic_store_n(&KernelEvents, false, __ATOMIC_RELEASE);
  int Signal = __atomic_load_n(&TraceSignal, __ATOMIC_ACQUIRE);
  bool IsRunning = __atomic_load_n(&Running, __ATOMIC_RELAXED);
  if (ProcessEvents) {
    // Each thread gets its timer (and its own user-mode event) instead.
    closeClockEvent(ProcessEvent);
    __atomic_store_n(&ProcessEvents, false, __ATOMIC_RELEASE);
    discoverThreadsLocked();
  }
  for (ThreadSlot &T : Threads) {
    if (!T.Tid || T.Event.Fd < 0)
      continue;
    closeClockEvent(T.Event);
    --ClockEvents;
    if (openThreadClockEvent(T.Tid, Signal, false, T.Event))
      ++ClockEvents;
    if (IsRunning && T.EventOn)
      armClockEvent(T.Event, intervalNanos());
  }
  unlockTable();
  Message M;
  M << "tracer: the program blocks or waits for SIGTRAP on its own; the "
       "task-clock events sample user mode from now on (trace_kernel_events)";
  M.emit();
}

/// Whether the clock events sample kernel mode (trace_kernel_events): once,
/// when sampling first starts. Where the kernel or a debugger refuses, the
/// events sample user mode, as with trace_kernel_events=0; the report's
/// resolution says which.
void chooseKernelEvents() {
  static bool Chosen;
  if (Chosen || !Flags.trace_kernel_events || !ClockEventBudget)
    return;
  Chosen = true;
  if (!kernelClockEventsAllowed())
    return;
  routeClockEventTraps(handleSample);
  KernelEvents = true;
  keepTrapUnblocked(giveUpKernelEvents);
}

/// The scanning service thread: woken by its process CPU-time timer.
void *scanLoop(void *) {
  // Woken every few milliseconds of the process's CPU time, it must not
  // preempt the program's threads: on a loaded machine, a worker preempted
  // while it holds a spinlock leaves the others spinning for a time slice.
  // In the batch class its wake-ups preempt nobody; it runs at the next
  // tick or when a CPU falls idle. Not the idle class: there, on cores
  // that the program's threads keep busy, a woken scan waited for most of
  // a second, and threads that only the scan finds (every thread under a
  // sanitizer) went unsampled that long.
  setCurrentThreadBackground();
  int Tid = currentThreadId();
  int Signal = __atomic_load_n(&TraceSignal, __ATOMIC_ACQUIRE);
  int Timer = createProcessCPUTimer(Tid, Signal, kScanCookie);
  if (Timer < 0)
    return nullptr;
  __atomic_store_n(&ScanThreadTid, Tid, __ATOMIC_RELEASE);
  long Periods = kScanPeriods;
  armTimer(Timer, intervalNanos() * Periods);
  for (;;) {
    int Cookie = waitForSignal(Signal);
    if (Cookie < 0 || __atomic_load_n(&SteppedAside, __ATOMIC_RELAXED))
      break;
    if (int Now = __atomic_load_n(&TraceSignal, __ATOMIC_ACQUIRE);
        Now != Signal) {
      // The tracer moved to another signal (moveSignal woke this thread).
      deleteTimer(Timer);
      Timer = createProcessCPUTimer(Tid, Signal = Now, kScanCookie);
      if (Timer < 0)
        break;
      armTimer(Timer, intervalNanos() * Periods);
      continue;
    }
    if (Cookie != kScanCookie)
      continue;
    uint64_t Seen = __atomic_load_n(&ThreadsSeen, __ATOMIC_RELAXED);
    discoverThreads();
    if (Data.ready())
      noteDataRegions(Data);
    long Next = __atomic_load_n(&ThreadsSeen, __ATOMIC_RELAXED) != Seen
                    ? kScanPeriods
                : 2 * Periods < kMaxScanPeriods ? 2 * Periods
                                                : kMaxScanPeriods;
    if (Next != Periods)
      armTimer(Timer, intervalNanos() * (Periods = Next));
  }
  if (Timer >= 0)
    deleteTimer(Timer);
  __atomic_store_n(&ScanThreadTid, 0, __ATOMIC_RELEASE);
  return nullptr;
}

/// Starts the scan thread unless it was started (or tried) already.
void ensureScanThread() {
  if (!__atomic_exchange_n(&ScanThreadStarted, true, __ATOMIC_ACQ_REL))
    startServiceThread(scanLoop, nullptr);
}

/// Gives every thread of the process a timer and starts sampling; the scan
/// thread too if the process may have threads that the interceptor did not
/// see start (MayHaveThreads), or its threads may start unseen. False (with
/// a warning) if the kernel gives no timer.
bool startSampling(bool MayHaveThreads) {
  int Probe =
      createThreadCPUTimer(currentThreadId(), TraceSignal, kSampleCookie);
  if (Probe < 0) {
    Message M;
    M << "warning: cannot create CPU-time timers; the atomic tracer is off";
    M.emit();
    Flags.trace_atomics = false;
    return false;
  }
  deleteTimer(Probe);
  if (!Threads.Slots)
    Threads.Slots = static_cast<ThreadSlot *>(
        reserveAddressSpace(kMaxThreads * sizeof(ThreadSlot)));
  if (!Threads.Slots) {
    Message M;
    M << "warning: no memory for the tracer's thread table; the atomic "
         "tracer is off";
    M.emit();
    Flags.trace_atomics = false;
    return false;
  }
  // The sites' and functions' tables: mapped here, before any timer is
  // armed, so that a sample's handler always finds them.
  if (!Tables.get()) {
    Message M;
    M << "warning: no memory for the tracer's tables; the atomic tracer is "
         "off";
    M.emit();
    Flags.trace_atomics = false;
    return false;
  }
  ClockEventBudget = Flags.trace_high_resolution ? clockEventBudget() : 0;
  chooseKernelEvents();
  if (!FallbackScanStack)
    FallbackScanStack =
        static_cast<char *>(reserveStack(kFallbackScanStackBytes));
  if (Flags.trace_stack_depth > 0 &&
      (!Stacks.init(unsigned(Flags.trace_stack_depth)) ||
       !SnapStacks.init(unsigned(Flags.trace_stack_depth)) ||
       !mapFrameBuffers())) {
    Message M;
    M << "warning: no memory for the tracer's call stacks; samples without "
         "stacks";
    M.emit();
  }
  if (Stacks.ready())
    noteUnwindIndexes();
  if (Flags.trace_data && (!Data.init() || !SnapData.init())) {
    Message M;
    M << "warning: no memory for the tracer's data table; samples without "
         "data";
    M.emit();
  }
  startSelf();
  __atomic_store_n(&Running, true, __ATOMIC_RELAXED);
  discoverThreads();
  setRunning(true);
  if (MayHaveThreads || threadStartsMayBeUnseen())
    ensureScanThread();
  return true;
}

void countProgramThread(int Tid, void *Data) {
  if (!isServiceThreadOfTracer(Tid))
    ++*static_cast<unsigned *>(Data);
}

/// Tried once a process: set at its first thread start.
bool ProcessEventTried;

/// With KernelEvents, the first time a process whose only thread (but the
/// tracer's own) starts another: the process's clock event is opened on
/// that thread, which gives up its own timer and event, and the threads it
/// starts from now on hold copies (ProcessEvents). Before the clone, in
/// the thread that makes it.
void startProcessEvent() {
  if (__atomic_exchange_n(&ProcessEventTried, true, __ATOMIC_ACQ_REL) ||
      !KernelEvents || !ClockEventBudget || !Flags.trace_process_event ||
      __atomic_load_n(&SteppedAside, __ATOMIC_RELAXED))
    return;
  unsigned N = 0;
  if (!forEachThread(countProgramThread, &N) || N != 1)
    return;
  ClockEvent E;
  if (!openProcessClockEvent(intervalNanos(), E))
    return;
  // No signal of the thread's own timer or event between its last count
  // and the event's first period.
  sigset_t Old;
  holdAllSignals(Old);
  lockTable();
  if (ThreadSlot *T = ownSlot())
    freeThreadSlot(*T); // its pending timer signal goes with its timer
  Self.EventOn = false;
  ProcessEvent = E;
  __atomic_store_n(&ProcessEvents, true, __ATOMIC_RELEASE);
  if (__atomic_load_n(&Running, __ATOMIC_RELAXED))
    switchProcessClockEvent(ProcessEvent, true);
  unlockTable();
  // Its periods not charged yet, as at its end.
  chargeUnsignalledPeriods();
  Self.Timed = false;
  restoreSignals(Old);
}

/// The program is about to start a thread (pthread_create): from now on
/// threads may also start unseen, and the scan thread costs the program
/// nothing more.
void onThreadCreate() {
  if (!__atomic_load_n(&Running, __ATOMIC_RELAXED))
    return;
  startProcessEvent();
  ensureScanThread();
}

/// In a forked child: the parent's samples, timers (which the kernel does
/// not copy), threads and dump thread are not the child's. It starts
/// afresh, as a new run whose parent is the forking process's. The tables
/// are cleared by giving their pages back, not written: a server that
/// forks a worker per connection pays a fault for each page written.
void restartInChild() {
  if (!Flags.trace_atomics || __atomic_load_n(&SteppedAside, __ATOMIC_RELAXED))
    return;
  __atomic_store_n(&Running, false, __ATOMIC_RELAXED);
  Tables.release();
  memset(&Counts, 0, sizeof(Counts));
  Stacks.clear();
  Data.clear();
  resetDataRegions();
  // The parent's clock events are its threads'; their descriptors are
  // closed here, the timers are not the child's (the kernel copies none).
  for (ThreadSlot &T : Threads)
    if (T.Tid && T.Event.Fd >= 0)
      closeClockEvent(T.Event);
  ClockEvents = 0;
  // The process's event is the parent's (the child holds no copy): its
  // descriptor is closed here, and the child opens its own.
  if (ProcessEvents)
    closeClockEvent(ProcessEvent);
  ProcessEvents = false;
  ProcessEventTried = false;
  for (ThreadSlot &T : Threads)
    if (T.Tid)
      memset(static_cast<void *>(&T), 0, sizeof(T));
  ThreadsSeen = 0;
  ThreadsSampled = 0;
  Self.Sampled = false;
  TableBusy = 0;
  SamplesSinceScan = 0;
  ParentRunId = RunId;
  RunId = randomBits() | 1;
  Dumps = 0;
  Finished = false;
  if (DumpPipe[0] >= 0) {
    closeFd(DumpPipe[0]);
    closeFd(DumpPipe[1]);
    DumpPipe[0] = DumpPipe[1] = -1;
  }
  DumpThreadTid = 0;
  ScanThreadTid = 0;
  ScanThreadStarted = false;
  SawOtherThreads = false;
  // The child has one thread, whatever the C library's flag still says
  // (glibc does not set it back in a multi-threaded process's child).
  resetWaitSampler();
  resetRaceDetector();
  if (startSampling(/*MayHaveThreads=*/false)) {
    startDumps();
    startWaitSampler();
  }
}

/// The highest real-time signal the program leaves alone that a CPU-time
/// timer can send (an emulator, qemu-user, keeps the top ones for itself);
/// 0 if none.
int freeTimerSignal() {
  for (int Signal = unusedRealTimeSignal(SIGRTMAX + 1); Signal;
       Signal = unusedRealTimeSignal(Signal)) {
    int Probe = createThreadCPUTimer(currentThreadId(), Signal, kSampleCookie);
    if (Probe >= 0) {
      deleteTimer(Probe);
      return Signal;
    }
  }
  return 0;
}

/// The signal to sample with: trace_signal if the program has no handler
/// for it, else the highest real-time signal it has none for. 0 (with a
/// warning) if there is none.
int chooseSignal() {
  int Signal = Flags.trace_signal;
  if (Signal) {
    struct sigaction Action;
    currentSignalAction(Signal, Action);
    bool Free = Signal >= SIGRTMIN && Signal <= SIGRTMAX &&
                !(Action.sa_flags & SA_SIGINFO) && Action.sa_handler == SIG_DFL;
    if (Free)
      return Signal;
    Message M;
    M << "warning: trace_signal=" << uint64_t(Signal)
      << " is not a real-time signal the program leaves alone (SIGRTMIN "
      << uint64_t(SIGRTMIN) << " to SIGRTMAX " << uint64_t(SIGRTMAX)
      << "); the atomic tracer is off";
    M.emit();
    return 0;
  }
  if ((Signal = freeTimerSignal()))
    return Signal;
  Message M;
  M << "warning: no real-time signal the program leaves alone can be sent "
       "by a CPU-time timer; the atomic tracer is off";
  M.emit();
  return 0;
}

/// No signal is left: every timer is deleted, and the report at exit has
/// the samples taken until now.
void stepAside() {
  __atomic_store_n(&SteppedAside, true, __ATOMIC_RELAXED);
  __atomic_store_n(&Running, false, __ATOMIC_RELAXED);
  if (ProcessEvents)
    switchProcessClockEvent(ProcessEvent, false);
  lockTable();
  for (ThreadSlot &T : Threads)
    if (T.Tid)
      freeThreadSlot(T);
  unlockTable();
  Message M;
  M << "warning: the program uses signal " << uint64_t(TraceSignal)
    << ", the atomic tracer's, and leaves no other real-time signal free; "
       "the tracer stops (trace_signal chooses one)";
  M.emit();
}

/// The program installed a handler for the tracer's signal (platform's
/// reserveSignal), which is the program's from now on: the tracer moves to
/// another signal the program leaves alone, before the program's handler
/// takes over. Each thread's timer is made again for the new signal (a
/// deleted timer's pending signal is discarded with it), the scan thread
/// is woken to do the same with its own, and the move is said once.
/// Without a free signal, the tracer stops (stepAside).
void moveSignal() {
  int Old = __atomic_load_n(&TraceSignal, __ATOMIC_ACQUIRE);
  int New = freeTimerSignal();
  if (!New) {
    stepAside();
    return;
  }
  installSamplingHandler(New, handleSample);
  lockTable();
  __atomic_store_n(&TraceSignal, New, __ATOMIC_RELEASE);
  bool IsRunning = __atomic_load_n(&Running, __ATOMIC_RELAXED);
  for (ThreadSlot &T : Threads) {
    if (!T.Tid)
      continue;
    deleteTimer(T.Timer);
    // A clock event is made again too: its signals queued on the old signal
    // before it closes are the only ones the program's handler could see
    // (one that came while its thread was in this handler).
    bool HadEvent = T.Event.Fd >= 0;
    if (HadEvent) {
      closeClockEvent(T.Event);
      --ClockEvents;
    }
    int Timer = createThreadCPUTimer(T.Tid, New, kSampleCookie);
    if (Timer < 0) {
      __atomic_store_n(&T.Tid, 0, __ATOMIC_RELEASE);
      continue;
    }
    T.Timer = Timer;
    if (HadEvent && openThreadClockEvent(T.Tid, New, KernelEvents, T.Event))
      ++ClockEvents;
    if (IsRunning) {
      armTimer(Timer, intervalNanos());
      if (T.EventOn)
        armClockEvent(T.Event, intervalNanos());
    }
  }
  unlockTable();
  reserveSignal(New, handleSample, moveSignal);
  if (int Scan = __atomic_load_n(&ScanThreadTid, __ATOMIC_ACQUIRE))
    signalThread(Scan, Old);
  static bool Said;
  if (__atomic_exchange_n(&Said, true, __ATOMIC_RELAXED))
    return;
  Message M;
  M << "the program installs a handler for signal " << uint64_t(Old)
    << ", the atomic tracer's; the tracer samples with signal " << uint64_t(New)
    << " from now on (trace_signal chooses one)";
  M.emit();
}

} // namespace

/// detect_races: its options checked, its tables mapped, and the tracer on
/// (at race_hz, reporting only the races, unless trace_atomics asked for
/// more).
PCMAP_STARTUP_CODE void configureRaces() {
  if (Flags.race_hz < 1 || Flags.race_hz > 100000) {
    Message M;
    M << "warning: race_hz must be 1 to 100000; using 100";
    M.emit();
    Flags.race_hz = 100;
  }
  if (Flags.race_delay_us < 1 || Flags.race_delay_us > 1000) {
    Message M;
    M << "warning: race_delay_us must be 1 to 1000; using 30";
    M.emit();
    Flags.race_delay_us = 30;
  }
  if (!prepareRaceDetector()) {
    Message M;
    M << "warning: no memory for the race detector; no race checks";
    M.emit();
    Flags.detect_races = false;
    return;
  }
  if (!Flags.trace_atomics) {
    RacesOnly = true;
    Flags.trace_atomics = true;
    Flags.trace_hz = Flags.race_hz;
    Flags.trace_data = false;
  }
  int Hz =
      Flags.trace_hz >= 1 && Flags.trace_hz <= 100000 ? Flags.trace_hz : 1000;
  RacePeriods = Hz > Flags.race_hz ? uint64_t(Hz / Flags.race_hz) : 1;
}

PCMAP_STARTUP_CODE void initTracer() {
  if (Flags.trace_wait)
    Flags.trace_atomics = true; // the wait table is the tracer's
  if (Flags.detect_races)
    configureRaces();
  if (!Flags.trace_atomics)
    return;
  if (Flags.trace_hz < 1 || Flags.trace_hz > 100000) {
    Message M;
    M << "warning: trace_hz must be 1 to 100000; using 1000";
    M.emit();
    Flags.trace_hz = 1000;
  }
  if (Flags.trace_stack_depth < 0 ||
      Flags.trace_stack_depth > int(trace::kMaxStackDepth)) {
    Message M;
    M << "warning: trace_stack_depth must be 0 to "
      << uint64_t(trace::kMaxStackDepth) << "; using "
      << uint64_t(trace::kDefaultStackDepth);
    M.emit();
    Flags.trace_stack_depth = int(trace::kDefaultStackDepth);
  }
  TraceSignal = chooseSignal();
  if (!TraceSignal) {
    Flags.trace_atomics = false;
    return;
  }
  // A forked child starts its own run (restartInChild).
  ensureForkHandlers();
  // Samples query from the first one, in handlers on the program's stacks:
  // tables are built as modules register, never in a handler.
  buildTablesAtRegistration();
  installSamplingHandler(TraceSignal, handleSample);
  reserveSignal(TraceSignal, handleSample, moveSignal);
  RunId = randomBits() | 1;
  // Threads a constructor started before the runtime initialised, or an
  // object loaded into a running process, are found by a scan.
  if (!startSampling(mayHaveOtherThreads()))
    return;
  installDumpSignal();
  startDumps();
  setSampledStacks(&Stacks);
  startWaitSampler();
}

void writeTraceReport(DumpReason Reason) {
  if (!Flags.trace_atomics)
    return;
  if (Reason == DumpReason::Fatal) {
    // In a fault handler: the writer lock may be held by the thread that
    // faulted. The process is about to end; write without it then.
    bool Locked = tryLockWriters();
    if (!Finished)
      writeReport(Reason);
    if (Locked)
      unlockWriters();
    return;
  }
  lockWriters();
  if (Reason == DumpReason::Exit && !Finished)
    chargeUnsignalledPeriods(); // the exiting thread's, as at a thread's end
  if (!Finished)
    writeReport(Reason);
  unlockWriters();
}

bool isServiceThreadOfTracer(int Tid) {
  return Tid && (Tid == __atomic_load_n(&DumpThreadTid, __ATOMIC_ACQUIRE) ||
                 Tid == __atomic_load_n(&ScanThreadTid, __ATOMIC_ACQUIRE) ||
                 isWaitSamplerThread(Tid) || isRaceReporterThread(Tid));
}

void writeStackText(Writer &W, Symbolizer &Sym, const uintptr_t *Frames,
                    unsigned Depth) {
  for (unsigned F = 0; F < Depth; ++F) {
    if (F)
      W << " < ";
    writeFrame(W, Sym, Frames[F]);
  }
}

const char *stackWaitKind(Symbolizer &Sym, const uintptr_t *Frames,
                          unsigned Depth) {
  // The rule of kWaitKinds: from the innermost frame that matches, the run
  // of matching frames outward; its outermost frame's kind.
  const char *Kind = nullptr;
  for (unsigned F = 0; F < Depth; ++F) {
    Place At(Sym, Frames[F]);
    unsigned N = At.Sy.Function[0] ? At.Sy.NumFrames : 0;
    if (!N && Kind)
      return Kind;
    for (unsigned I = 0; I < N; ++I) {
      const char *K = trace::waitKindOfFunction(At.Sy.Frames[I].Function);
      if (K)
        Kind = K;
      else if (Kind)
        return Kind;
    }
  }
  return Kind;
}

namespace {
/// Every process runs it at exit: the flag is checked here, so that a
/// process without the tracer does not touch the report's code.
PCMAP_STARTUP_CODE void writeFinalTraceReport() {
  if (Flags.trace_atomics)
    writeTraceReport(DumpReason::Exit);
}
/// In a fault handler, before a signal's default action ends the process:
/// no exit handler will run.
void writeFatalTraceReport() { writeTraceReport(DumpReason::Fatal); }

PCMAP_SUBSCRIBE(TracerHooks, 35,
                {{Event::Initialize, initTracer},
                 {Event::ThreadStart, startThreadTimer},
                 {Event::ThreadExit, stopThreadTimer},
                 {Event::ThreadCreate, onThreadCreate},
                 {Event::ForkChild, restartInChild},
                 {Event::Exit, writeFinalTraceReport},
                 {Event::Fatal, writeFatalTraceReport}});
} // namespace

} // namespace rt
} // namespace pcmap

#pragma GCC visibility push(default)
extern "C" void pcmap_trace_dump(void) {
  pcmap::rt::writeTraceReport(pcmap::rt::DumpReason::Api);
}
#pragma GCC visibility pop
