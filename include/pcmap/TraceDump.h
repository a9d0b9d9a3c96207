//===- pcmap/TraceDump.h - The atomic tracer's JSON dumps -------*- C++ -*-===//
//
// The one definition, in this project, of the tracer's JSON Lines dumps:
// the runtime writes them (rt/optional/tracer.cpp), `pcmap-report trace`
// reads them (tools/pcmap-report/trace/). docs/Tracer.md ("Output
// formats") is the prose version, field by field; keep the two in step. It
// depends on nothing, so that the runtime (no libc++, no LLVM) includes it.
//
// A dump is one line, one JSON object. Version 3 adds call stacks to
// version 2:
//
//   "stack_depth": 32,            the most frames a stack keeps
//   "stack_samples_dropped": 0,   samples whose stack the table had no room
//                                 for (they are in every other count)
//   "modules": [{"path": "/usr/bin/prog", "build_id": "ab12..."}, ...],
//                                 every module a frame lies in
//   "stacks": [{"samples": 120, "atomic_samples": 100,
//               "frames": [[0, "0x1a2b"], [0, "0x1890"], [2, "0x29d8f"]]},
//              ...]
//
// Each stack's frames are innermost first, each a module's index in
// "modules" and the offset in that module (the address less its load bias;
// -1 and the absolute address for code in no module: JIT code). Frame 0 is
// the sampled instruction: for a sample charged to an atomic site (exactly
// or within trace_skid), the site's own address; frames after it are return
// addresses less one, so that they lie inside the call instruction and a
// symbolizer gives the call's line. "functions" rows add
// "uncovered_callee_samples": samples taken in code without pcmap tables
// (the C library, the dynamic loader) whose nearest covered frame in the
// stack is this function.
//
// Version 4 adds the data each sample touched (docs/Tracer.md, "Data"):
//
//   "line_size": 64,              the cache line size lines are keyed by
//   "data_samples": 900,          samples whose access was decoded (at an
//                                 instruction that touches memory)
//   "data_samples_dropped": 0,    of them, samples the table had no room for
//   "accesses": [{"samples": 12, "thread": 4242, "kind": "write",
//                 "size": 8, "address": "0x55d0c0a04040",
//                 "atomic": true, "site": [0, "0x1180"], "stack": 3,
//                 "region": "module", "module": 0, "offset": "0x4040"},
//                ...]
//
// One row per distinct (address, size, kind, thread, site, stack): the
// thread is its id (gettid), the site the accessing instruction (module
// index and offset, as a frame), "atomic" whether the tables call it an
// atomic, "stack" the index in "stacks" of the sample's stack (-1: none).
// "kind" is "read", "write" or "rmw"; "size" 0 when not known. "region"
// says where the address lies, and names it:
// - "module": a loaded object's static data; "module" and "offset" (the
//   address less the module's load bias: a symbol's value);
// - "tls": a module's static thread-local storage; "tp_offset", the
//   address less the thread pointer (signed), and where the runtime found
//   the module, "module" and "offset" (in the module's TLS block: an
//   STT_TLS symbol's value);
// - "stack": a thread's stack, "stack_owner" the id of the thread whose it
//   is: the sampled thread's own, or the main thread's (its id is the
//   process's) for the process's initial stack;
// - "shared": a shared mapping (MAP_SHARED), named by "file" (as
//   /proc/self/maps shows it), "inode" and "offset" (the file offset):
//   the same bytes in every process that maps them;
// - "heap": the C library's heap and private anonymous memory;
// - "unknown": unmapped when the dump was written.
//
// Version 5 adds wait time (docs/Tracer.md, "Wait time"): the threads
// blocked in a system call, observed by wall clock without being touched
// (option trace_wait):
//
//   "wait_hz": 100,               observations of each thread per second of
//                                 wall time (0: wait sampling was off)
//   "wait_observations": 5000,    threads observed, blocked or not
//   "wait_samples": 4200,         of them, blocked in a system call
//   "wait_samples_dropped": 0,    of them, the table had no room for
//   "wait_stacks": [{"frames": [[0, "0x1a2b"], [2, "0x29d8f"]]}, ...],
//                                 stacks of blocked threads, frames as in
//                                 "stacks" (frame 0: the instruction after
//                                 the system call)
//   "waits": [{"thread": 4243, "syscall": "futex", "syscall_nr": 202,
//              "samples": 12, "wait_ns": 120000000, "stack": 2,
//              "address": "0x55d0c0a04040", "region": "module",
//              "module": 0, "offset": "0x4040",
//              "holder": 4242, "holder_stack": 5},
//             {"thread": 4244, "syscall": "read", "syscall_nr": 0,
//              "samples": 3, "wait_ns": 30000000, "stack": 4,
//              "fd": 3, "file": "pipe:[123456]"}, ...]
//
// Every key of these is optional: a dump without them has no waits (and
// "wait_hz" 0 says the sampling was off). One row per distinct (thread,
// system call, object, stack, holder, holder stack). "wait_ns" is the wall time
// the row's samples stand for (each observation of a thread stands for the time
// since its previous one); "samples" counts them. "stack" and "holder_stack"
// index "wait_stacks"
// (-1: none). The object:
// - a futex word (futex's first argument): "address", with "region" and
//   its fields as an access has them;
// - a file descriptor (read, write, poll of one descriptor, epoll_wait,
//   accept, recv..., send...): "fd", and "file" as /proc/self/fd names it
//   ("pipe:[123456]", "socket:[7890]", a path) when it was read;
// - none (nanosleep, select, wait4, ...).
// "holder" (futex only; 0: none) is the thread id in the word's owner field
// where the word has a glibc mutex's layout (an int at byte 8 that is a
// live thread of the process, the word nonzero); "holder_stack" is that
// thread's stack at that moment where it was read: blocked (as above) or
// its last tracer sample while it runs. The kind of the object (mutex,
// condition variable, ...) is not written: readers take it from the
// waiting stack's functions (kWaitKinds).
//
// Version 6 adds the data races of detect_races (docs/Races.md):
//
//   "race_checks": 113,           plain accesses checked
//   "race_detections": 18,        races seen, each repeat counted
//   "races_dropped": 0,           of them, the table had no room for
//   "races_suppressed": 1,        races the process's suppressions matched
//                                 (left out of "races")
//   "races": [{"count": 7, "address": "0x55d0c0a04040",
//              "address_name": "global_counter",
//              "before": "0xbe5e902", "after": "0xbe7c945",
//              "other_known": false,
//              "access": {"kind": "rmw", "size": 8, "thread": 4243,
//                         "frames": [[0, "0x74d7"], [0, "0x76f8"]]}},
//             {"count": 2, ..., "other_known": true,
//              "access": {...}, "other": {...}}, ...]
//
// Every key of these is optional: a dump without them found no races (or
// did not look). One row per pair of sites (the access's PC, and the other
// side's when known) seen in the process; "count" is how often. "access"
// is the side whose check saw the race, "other" the concurrent access of
// another thread's check (only when "other_known"); each has its "kind"
// (as an access's), "size" in bytes, "thread" (gettid) and "frames" as
// a stack's, frame 0 the accessing instruction. "address_name" is what the
// runtime calls the location (a global's symbol, "heap", "stack of thread
// N", ...: the text report's "Location is"); "before" and "after" the
// values read around the wait (equal when the other side was seen).
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_TRACEDUMP_H
#define PCMAP_TRACEDUMP_H

namespace pcmap {
namespace trace {

/// The version the runtime writes; pcmap-report reads it and every version
/// from kMinReadVersion on (version 2 has no stacks).
constexpr unsigned kVersion = 6;
constexpr unsigned kMinReadVersion = 2;

/// The "report" field of every dump.
constexpr const char kReportName[] = "pcmap-trace";

/// The keys of version 2. A dump: its process and run, why it was
/// written, its counts and its rows.
constexpr const char kReportKey[] = "report";
constexpr const char kVersionKey[] = "version";
constexpr const char kPidKey[] = "pid";
constexpr const char kPpidKey[] = "ppid";
constexpr const char kRunKey[] = "run";
constexpr const char kParentRunKey[] = "parent_run";
constexpr const char kDumpKey[] = "dump";
constexpr const char kReasonKey[] = "reason";
constexpr const char kFinalKey[] = "final";
constexpr const char kHzKey[] = "hz";
constexpr const char kThreadsKey[] = "threads";
constexpr const char kCpuNsKey[] = "cpu_ns";
constexpr const char kSamplesKey[] = "samples";
/// The timer signals the samples came in (version 3 dumps may lack it): one
/// signal stands for several periods where the kernel's clock tick is
/// slower than the rate, so that the shares rest on this many
/// observations, not on "samples".
constexpr const char kObservationsKey[] = "observations";
/// Of the observations, those a task-clock event sent (dumps before it do
/// not say): where they are most, a signal that stands for several samples
/// is a duty window's, weighted, not the kernel's clock tick's.
constexpr const char kEventObservationsKey[] = "event_observations";
/// Whether the resolution a report states is the task-clock events': they
/// sent most of its sampling signals (the runtime's report at exit and
/// pcmap-report's merged trace say so alike).
constexpr bool sampledByEvents(unsigned long long Observations,
                               unsigned long long EventObservations) {
  return 2 * EventObservations > Observations;
}
constexpr const char kAtomicSamplesKey[] = "atomic_samples";
constexpr const char kCoveredSamplesKey[] = "covered_samples";
constexpr const char kUncoveredSamplesKey[] = "uncovered_samples";
constexpr const char kDroppedSamplesKey[] = "dropped_samples";
constexpr const char kDistinctSitesKey[] = "distinct_sites";
constexpr const char kDistinctFunctionsKey[] = "distinct_functions";
constexpr const char kSitesKey[] = "sites";
constexpr const char kFunctionsKey[] = "functions";
/// A row of "sites" or "functions": where it is, what it is, its
/// samples ("samples", "atomic_samples" as above).
constexpr const char kModuleKey[] = "module";
constexpr const char kModuleOffsetKey[] = "module_offset";
constexpr const char kBuildIdKey[] = "build_id";
constexpr const char kFunctionKey[] = "function";
constexpr const char kLocationKey[] = "location";
constexpr const char kPcKey[] = "pc";
constexpr const char kFunctionStartKey[] = "function_start";
constexpr const char kFunctionOffsetKey[] = "function_offset";
constexpr const char kKindKey[] = "kind";
constexpr const char kOpKey[] = "op";
constexpr const char kSizeKey[] = "size";
constexpr const char kOrderKey[] = "order";
constexpr const char kFailureOrderKey[] = "failure_order";
constexpr const char kExactSamplesKey[] = "exact_samples";
constexpr const char kSkidSamplesKey[] = "skid_samples";
constexpr const char kStartKey[] = "start";
constexpr const char kShareKey[] = "share";
constexpr const char kAtomicShareKey[] = "atomic_share";
/// A module of "modules" (version 3): its path (and "build_id").
constexpr const char kPathKey[] = "path";

/// Keys that version 3 adds.
constexpr const char kStackDepthKey[] = "stack_depth";
constexpr const char kStackSamplesDroppedKey[] = "stack_samples_dropped";
constexpr const char kModulesKey[] = "modules";
constexpr const char kStacksKey[] = "stacks";
constexpr const char kFramesKey[] = "frames";
constexpr const char kUncoveredCalleeSamplesKey[] = "uncovered_callee_samples";

/// Keys that version 4 adds.
constexpr const char kLineSizeKey[] = "line_size";
constexpr const char kDataSamplesKey[] = "data_samples";
constexpr const char kDataSamplesDroppedKey[] = "data_samples_dropped";
constexpr const char kAccessesKey[] = "accesses";
constexpr const char kThreadKey[] = "thread";
constexpr const char kAddressKey[] = "address";
constexpr const char kAtomicKey[] = "atomic";
constexpr const char kSiteKey[] = "site";
constexpr const char kStackKey[] = "stack";
constexpr const char kRegionKey[] = "region";
constexpr const char kOffsetKey[] = "offset";
constexpr const char kTpOffsetKey[] = "tp_offset";
constexpr const char kFileKey[] = "file";
constexpr const char kInodeKey[] = "inode";
constexpr const char kStackOwnerKey[] = "stack_owner";

/// Keys that version 5 adds (and "thread", "samples", "stack", "address",
/// "region" and its fields, "file" of the earlier versions).
constexpr const char kWaitHzKey[] = "wait_hz";
constexpr const char kWaitObservationsKey[] = "wait_observations";
constexpr const char kWaitSamplesKey[] = "wait_samples";
constexpr const char kWaitSamplesDroppedKey[] = "wait_samples_dropped";
constexpr const char kWaitStacksKey[] = "wait_stacks";
constexpr const char kWaitsKey[] = "waits";
constexpr const char kSyscallKey[] = "syscall";
constexpr const char kSyscallNrKey[] = "syscall_nr";
constexpr const char kWaitNsKey[] = "wait_ns";
constexpr const char kFdKey[] = "fd";
constexpr const char kHolderKey[] = "holder";
constexpr const char kHolderStackKey[] = "holder_stack";

/// Keys that version 6 adds (and "kind", "size", "thread", "address",
/// "frames" of the earlier versions).
constexpr const char kRaceChecksKey[] = "race_checks";
constexpr const char kRaceDetectionsKey[] = "race_detections";
constexpr const char kRacesDroppedKey[] = "races_dropped";
constexpr const char kRacesSuppressedKey[] = "races_suppressed";
constexpr const char kRacesKey[] = "races";
constexpr const char kCountKey[] = "count";
constexpr const char kAddressNameKey[] = "address_name";
constexpr const char kBeforeKey[] = "before";
constexpr const char kAfterKey[] = "after";
constexpr const char kOtherKnownKey[] = "other_known";
constexpr const char kRaceAccessKey[] = "access";
constexpr const char kRaceOtherKey[] = "other";

/// What a futex wait waits on, by the functions of the waiting stack
/// (inlined frames included). A frame matches an entry when its function's
/// name, without leading underscores and glibc's internal prefix `__GI_`,
/// and up to its parameters, starts with the entry's Function. From the
/// innermost frame that matches, the run of consecutive matching frames
/// outward gives the kind: its outermost frame's entry's (std::mutex::lock
/// over pthread_mutex_lock over __lll_lock_wait: a std::mutex; the
/// program's own code ends the run). The runtime's report and pcmap-report
/// both name kinds by this table.
struct WaitKind {
  const char *Function;
  const char *Kind;
};
constexpr WaitKind kWaitKinds[] = {
    {"std::mutex::lock", "std::mutex"},
    {"gthread_mutex_lock", "mutex"},
    {"gthread_recursive_mutex_lock", "mutex"},
    {"std::recursive_mutex::lock", "std::recursive_mutex"},
    {"std::timed_mutex", "std::timed_mutex"},
    {"std::shared_mutex", "std::shared_mutex"},
    {"std::condition_variable::wait", "std::condition_variable"},
    {"std::condition_variable::__wait_until_impl", "std::condition_variable"},
    {"std::condition_variable_any::wait", "std::condition_variable_any"},
    {"std::__atomic_futex_unsigned_base", "std::future"},
    {"pthread_mutex_lock", "mutex"},
    {"pthread_mutex_timedlock", "mutex"},
    {"pthread_mutex_clocklock", "mutex"},
    {"lll_lock_wait", "mutex"},
    {"lll_mutex_lock_optimized", "mutex"}, // glibc 2.35+, inlined
    {"pthread_cond_wait", "condition variable"},
    {"pthread_cond_timedwait", "condition variable"},
    {"pthread_cond_clockwait", "condition variable"},
    {"pthread_rwlock_rdlock", "rwlock"},
    {"pthread_rwlock_wrlock", "rwlock"},
    {"pthread_rwlock_timedrdlock", "rwlock"},
    {"pthread_rwlock_timedwrlock", "rwlock"},
    {"pthread_rwlock_clockrdlock", "rwlock"},
    {"pthread_rwlock_clockwrlock", "rwlock"},
    {"pthread_barrier_wait", "barrier"},
    {"pthread_join", "thread join"},
    {"pthread_clockjoin", "thread join"},
    {"pthread_timedjoin_np", "thread join"},
    {"sem_wait", "semaphore"},
    {"sem_timedwait", "semaphore"},
    {"sem_clockwait", "semaphore"},
    {"pthread_once", "once"},
    {"pthread_spin_lock", "spinlock"},
};

/// Whether the function Name, from its start, matches the entry Function.
inline bool waitFunctionMatchesAt(const char *Name, const char *Function) {
  while (*Name == '_')
    ++Name;
  if (Name[0] == 'G' && Name[1] == 'I' && Name[2] == '_')
    for (Name += 3; *Name == '_';)
      ++Name;
  for (; *Function; ++Function, ++Name)
    if (*Name != *Function)
      return false;
  return true;
}

/// Whether the function Name matches the entry Function, by the rule above.
/// A function template's demangled name starts with its return type ("void
/// std::condition_variable::wait<F>(...)"): the name after a space outside
/// angle brackets, before the parameters, matches too.
inline bool waitFunctionMatches(const char *Name, const char *Function) {
  if (waitFunctionMatchesAt(Name, Function))
    return true;
  int Depth = 0;
  for (const char *P = Name; *P && *P != '('; ++P) {
    if (*P == '<')
      ++Depth;
    else if (*P == '>')
      --Depth;
    else if (*P == ' ' && Depth == 0 && waitFunctionMatchesAt(P + 1, Function))
      return true;
  }
  return false;
}

/// The kind of the entry Name matches, or null.
inline const char *waitKindOfFunction(const char *Name) {
  for (const WaitKind &K : kWaitKinds)
    if (waitFunctionMatches(Name, K.Function))
      return K.Kind;
  return nullptr;
}

/// Whether Kind (a kWaitKinds kind) is a condition variable's, whose wait
/// blocks on the variable's word and, when it wakes, on its mutex's.
inline bool isConditionWaitKind(const char *Kind) {
  static const char *const kConditionKinds[] = {"condition variable",
                                                "std::condition_variable",
                                                "std::condition_variable_any"};
  for (const char *C : kConditionKinds) {
    const char *A = Kind, *B = C;
    while (*A && *A == *B)
      ++A, ++B;
    if (!*A && !*B)
      return true;
  }
  return false;
}

/// The kind of a wait whose stack has the functions Names[0..N), innermost
/// first (null entries: frames without a name), by the rule above; null if
/// no frame matches.
inline const char *waitKind(const char *const *Names, unsigned N) {
  const char *Kind = nullptr;
  for (unsigned I = 0; I < N; ++I) {
    const char *K = Names[I] ? waitKindOfFunction(Names[I]) : nullptr;
    if (K)
      Kind = K;
    else if (Kind)
      break;
  }
  return Kind;
}

/// An access's "kind".
constexpr const char kAccessRead[] = "read";
constexpr const char kAccessWrite[] = "write";
constexpr const char kAccessReadWrite[] = "rmw";

/// An access's "region".
constexpr const char kRegionModule[] = "module";
constexpr const char kRegionTLS[] = "tls";
constexpr const char kRegionStack[] = "stack";
constexpr const char kRegionShared[] = "shared";
constexpr const char kRegionHeap[] = "heap";
constexpr const char kRegionUnknown[] = "unknown";

/// The default cache line size (option trace_line_size: 64 or 128).
constexpr unsigned kDefaultLineSize = 64;

/// A frame's module index when it lies in no module.
constexpr int kNoModule = -1;

/// The default and the largest stack depth (option trace_stack_depth).
constexpr unsigned kDefaultStackDepth = 32;
constexpr unsigned kMaxStackDepth = 64;

} // namespace trace
} // namespace pcmap

#endif // PCMAP_TRACEDUMP_H
