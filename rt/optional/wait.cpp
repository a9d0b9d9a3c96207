//===- wait.cpp - Wait time: where threads block, and on what -------------===//

#include "optional/wait.h"

#include "optional/data_report.h"
#include "optional/tracer.h"
#include "optional/stacks.h"
#include "optional/unwind.h"

#include "core/algorithm.h"
#include "core/log.h"
#include "core/mapped.h"
#include "core/options.h"

#include "platform/hooks.h"
#include "platform/platform.h"

#include "pcmap/TraceDump.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <string.h>
#include <sys/syscall.h> // the SYS_ numbers of blocked calls
#include <time.h>
#include <unistd.h>

namespace pcmap {
namespace rt {

namespace {

/// Threads the sampler follows (beyond them, a thread is not observed).
constexpr unsigned kMaxWaitThreads = 1024;
/// The sampler's budget: at most this many threads read per period on
/// average. With more threads blocked, each is read less often than each
/// period, and its observations stand for the longer time.
constexpr unsigned kReadsPerPeriod = 16;
/// Threads read at one wake-up, at most: with many threads, the sampler
/// wakes less often and reads more threads each time (a wake-up costs more
/// than a read).
constexpr unsigned kMaxReadsPerWake = 128;
/// The time between two listings of /proc/self/task when no thread was seen
/// to start (a thread started by a raw clone, or before the runtime ran, is
/// found by these); a start the runtime sees lists them at the next wake-up.
constexpr uint64_t kRescanNanos = 1000000000;
/// Distinct (thread, call, object, stack, holder, holder stack) rows.
constexpr unsigned kWaitRows = 4096;
/// Pages of a stopped thread's stack a walk may copy.
constexpr unsigned kWalkPages = 8;
constexpr uintptr_t kPage = 4096;
/// How far above its stack pointer a stopped thread's frames may lie.
constexpr uintptr_t kWalkReach = 1 << 20;

enum ObjectKind : uint8_t { OK_None, OK_Futex, OK_Fd };

/// What a blocked thread was found doing.
struct BlockedCall {
  long Nr;
  uintptr_t Args[6];
  uintptr_t SP, PC;
};

struct WaitThread {
  int Tid; // 0: free
  int SyscallFd, SchedFd;
  bool Seen;         // listed by the latest scan
  bool Blocked;      // its last observation found it blocked, and Stack
                     // and B are still right unless it was scheduled in
  uint64_t LastNs;   // the monotonic time of its last observation; 0: none
  uint64_t Switches; // schedstat's count of times it was scheduled in
  BlockedCall B;
  int Stack; // in WaitStacks, -1: none
  bool LockWord; // B's futex word had a holder when B was read
  int Word;      // B's futex word's value when B was read
};

struct WaitRow {
  uint32_t Used; // published (release) once the key is written
  int32_t Tid;
  int32_t Nr;
  uint8_t Object;
  uintptr_t Address; // OK_Futex: the word; OK_Fd: the descriptor
  int32_t Stack, Holder, HolderStack;
  int32_t Word; // OK_Futex: the word's value at the row's first sample
                // (not part of the key): a joined thread's id
  uint64_t Samples, WaitNs;
  char File[96]; // OK_Fd: what /proc/self/fd names
};

struct WaitState {
  WaitThread Threads[kMaxWaitThreads]; // [0, NumThreads) followed
  unsigned NumThreads;
  WaitRow Rows[kWaitRows];
  uintptr_t Frames[trace::kMaxStackDepth];
  // A stopped thread's stack pages, copied for the walk.
  uintptr_t PageAddress[kWalkPages];
  bool PageValid[kWalkPages];
  unsigned NumPages;
  alignas(8) char Pages[kWalkPages][kPage];
  uintptr_t WalkLo, WalkHi;
};
Mapped<WaitState> State;
StackTable WaitStacks;

struct SampledNote {
  int Tid;
  int Slot;
};
constexpr unsigned kNotes = 4096;
MappedArray<SampledNote, kNotes> Notes;
const StackTable *SampledStacks;

int SamplerTid;
bool Stopped;
uint64_t Observations, Samples, Dropped;
/// Blocked threads whose PC /proc showed in the program's code, and outside
/// it: an emulator (qemu-user) shows its own registers there, never the
/// program's.
uint64_t InProgram, Foreign;
/// Foreign PCs, none in the program: the sampler stops.
constexpr uint64_t kForeignLimit = 16;
uint64_t LastRescan; // monotonic ns; 0: never
unsigned NextRead; // round robin over Threads
/// Bumped at each thread start and end the runtime sees; the sampler lists
/// the threads again when it changed.
unsigned ThreadsChanged, ThreadsListed;

uint64_t periodNanos() {
  return 1000000000 / uint64_t(Flags.trace_wait_hz);
}

template <class T> void addRelaxed(T &Counter, T V) {
  __atomic_store_n(&Counter, __atomic_load_n(&Counter, __ATOMIC_RELAXED) + V,
                   __ATOMIC_RELAXED);
}

//===----------------------------------------------------------------------===//
// Reading /proc
//===----------------------------------------------------------------------===//

int openTaskFile(int Tid, const char *Name) {
  return openThreadProcFile(Tid, Name);
}

/// Reads a small /proc file from its start; its length, or -1.
long readSmallFile(int Fd, char *Buffer, size_t Size) {
  long N = pread(Fd, Buffer, Size - 1, 0);
  if (N < 0)
    return -1;
  Buffer[N] = 0;
  return N;
}

const char *parseNumber(const char *P, uint64_t &V, bool Hex) {
  while (*P == ' ')
    ++P;
  if (Hex && P[0] == '0' && P[1] == 'x')
    P += 2;
  const char *Start = P;
  V = 0;
  for (;; ++P) {
    unsigned D;
    if (*P >= '0' && *P <= '9')
      D = unsigned(*P - '0');
    else if (Hex && *P >= 'a' && *P <= 'f')
      D = unsigned(*P - 'a' + 10);
    else
      break;
    V = V * (Hex ? 16 : 10) + D;
  }
  return P == Start ? nullptr : P;
}

/// The number of times the thread was scheduled in (schedstat's third
/// field); false if not known.
bool readSwitches(const WaitThread &T, uint64_t &Switches) {
  char Buf[128];
  if (T.SchedFd < 0 || readSmallFile(T.SchedFd, Buf, sizeof(Buf)) <= 0)
    return false;
  const char *P = Buf;
  uint64_t V = 0;
  for (int I = 0; I < 3 && P; ++I)
    P = parseNumber(P, V, /*Hex=*/false);
  Switches = V;
  return P != nullptr;
}

enum class Syscall { Gone, Running, Blocked, Other };

/// /proc/self/task/TID/syscall: "running", "-1 SP PC" (blocked outside a
/// system call), or "NR A1 ... A6 SP PC".
Syscall readSyscall(const WaitThread &T, BlockedCall &B) {
  char Buf[256];
  long N = readSmallFile(T.SyscallFd, Buf, sizeof(Buf));
  if (N <= 0)
    return Syscall::Gone;
  if (Buf[0] == 'r')
    return Syscall::Running;
  if (Buf[0] == '-')
    return Syscall::Other;
  uint64_t V[9];
  const char *P = parseNumber(Buf, V[0], /*Hex=*/false);
  for (int I = 1; I < 9 && P; ++I)
    P = parseNumber(P, V[I], /*Hex=*/true);
  if (!P)
    return Syscall::Other;
  B.Nr = long(V[0]);
  for (int I = 0; I < 6; ++I)
    B.Args[I] = uintptr_t(V[1 + I]);
  B.SP = uintptr_t(V[7]);
  B.PC = uintptr_t(V[8]);
  return Syscall::Blocked;
}

//===----------------------------------------------------------------------===//
// A stopped thread's stack
//===----------------------------------------------------------------------===//

/// Reads a word of the stopped thread's stack from a copy of its page,
/// copied at the first read (process_vm_readv: an unmapped page is a
/// failed read, not a fault).
bool readStoppedWord(void *Data, uintptr_t Address, uintptr_t &Value) {
  WaitState &S = *static_cast<WaitState *>(Data);
  if (Address & 7 || Address < S.WalkLo || Address + 8 > S.WalkHi)
    return false;
  uintptr_t Page = Address & ~(kPage - 1);
  unsigned I = 0;
  while (I < S.NumPages && S.PageAddress[I] != Page)
    ++I;
  if (I == S.NumPages) {
    if (S.NumPages == kWalkPages)
      return false;
    S.PageAddress[I] = Page;
    S.PageValid[I] = copyMemorySafely(Page, S.Pages[I], kPage) == kPage;
    ++S.NumPages;
  }
  if (!S.PageValid[I])
    return false;
  memcpy(&Value, S.Pages[I] + (Address - Page), sizeof(Value));
  return true;
}

/// The stack of a blocked thread: its slot in WaitStacks, or -1.
int walkStopped(WaitState &S, const BlockedCall &B) {
  if (!WaitStacks.ready())
    return -1;
  S.NumPages = 0;
  S.WalkLo = B.SP;
  S.WalkHi = B.SP + kWalkReach < B.SP ? ~uintptr_t(0) : B.SP + kWalkReach;
  StackMemory Memory{readStoppedWord, &S};
  unsigned Depth =
      captureStoppedStack(B.PC, B.SP, Memory, S.Frames, WaitStacks.depth());
  return Depth ? WaitStacks.record(S.Frames, Depth, 1, 0) : -1;
}

/// The stack of the tracer's last sample of thread Tid, copied into
/// WaitStacks; -1 if none.
int sampledStackOf(int Tid) {
  SampledNote *N = Notes.peek();
  if (!N || !SampledStacks || !WaitStacks.ready())
    return -1;
  for (unsigned I = 0; I < 16; ++I) {
    SampledNote &E = N[(unsigned(Tid) * 2654435761u + I) % kNotes];
    int T = __atomic_load_n(&E.Tid, __ATOMIC_ACQUIRE);
    if (!T)
      return -1;
    if (T != Tid)
      continue;
    int Slot = __atomic_load_n(&E.Slot, __ATOMIC_RELAXED);
    if (Slot < 0)
      return -1;
    StackTable::Entry En = SampledStacks->entry(unsigned(Slot));
    if (!En.Depth)
      return -1;
    return WaitStacks.record(En.Frames, En.Depth, 1, 0);
  }
  return -1;
}

//===----------------------------------------------------------------------===//
// Objects and rows
//===----------------------------------------------------------------------===//

/// The descriptor a blocking call waits on, or -1.
long descriptorOf(const BlockedCall &B) {
  switch (B.Nr) {
  case SYS_read:
  case SYS_write:
  case SYS_readv:
  case SYS_writev:
  case SYS_pread64:
  case SYS_pwrite64:
  case SYS_recvfrom:
  case SYS_recvmsg:
  case SYS_sendto:
  case SYS_sendmsg:
  case SYS_accept4:
  case SYS_connect:
  case SYS_epoll_pwait:
  case SYS_flock:
  case SYS_fsync:
  case SYS_fdatasync:
#ifdef SYS_accept
  case SYS_accept:
#endif
#ifdef SYS_epoll_wait
  case SYS_epoll_wait:
#endif
    return long(B.Args[0]);
  case SYS_ppoll:
#ifdef SYS_poll
  case SYS_poll:
#endif
  {
    // One descriptor polled: the first of the array.
    int Fd;
    if (B.Args[1] == 1 && copyMemorySafely(B.Args[0], &Fd, sizeof(Fd)) ==
                              sizeof(Fd))
      return Fd;
    return -1;
  }
  default:
    return -1;
  }
}

/// The thread that holds the futex word at Address, where the word has a
/// glibc mutex's layout; 0 if none. Word: the word's value (0 if unread).
int holderOf(const WaitState &S, const BlockedCall &B, int Waiter, int &Word) {
  unsigned Op = unsigned(B.Args[1]) & FUTEX_CMD_MASK;
  int Words[3];
  Word = 0;
  if (copyMemorySafely(B.Args[0], Words, sizeof(Words)) != sizeof(Words))
    return 0;
  Word = Words[0];
  int Owner = 0;
  if (Op == FUTEX_LOCK_PI || Op == 13 /* FUTEX_LOCK_PI2 */)
    Owner = Words[0] & FUTEX_TID_MASK;
  else if (Op == FUTEX_WAIT || Op == FUTEX_WAIT_BITSET)
    Owner = Words[0] ? Words[2] : 0;
  if (Owner <= 0 || Owner == Waiter)
    return 0;
  for (unsigned I = 0; I < S.NumThreads; ++I)
    if (S.Threads[I].Tid == Owner)
      return Owner;
  return 0;
}

void nameDescriptor(long Fd, char *Out, size_t Size) {
  descriptorTarget(Fd, Out, Size);
}

uint64_t hashRow(const WaitRow &K) {
  uint64_t H = 0xcbf29ce484222325ull;
  uint64_t Parts[] = {uint64_t(uint32_t(K.Tid)), uint64_t(uint32_t(K.Nr)),
                      K.Object,
                      K.Address,
                      uint64_t(uint32_t(K.Stack)),
                      uint64_t(uint32_t(K.Holder)),
                      uint64_t(uint32_t(K.HolderStack))};
  for (uint64_t P : Parts) {
    H ^= P;
    H *= 0x100000001b3ull;
    H ^= H >> 29;
  }
  return H;
}

bool sameKey(const WaitRow &A, const WaitRow &B) {
  return A.Tid == B.Tid && A.Nr == B.Nr && A.Object == B.Object &&
         A.Address == B.Address && A.Stack == B.Stack &&
         A.Holder == B.Holder && A.HolderStack == B.HolderStack;
}

/// Adds one sample of Ns to the row of Key, claiming it if new.
void addToRow(WaitState &S, const WaitRow &Key, uint64_t Ns) {
  uint64_t H = hashRow(Key);
  for (unsigned I = 0; I < kWaitRows; ++I) {
    WaitRow &R = S.Rows[(H + I) % kWaitRows];
    if (!__atomic_load_n(&R.Used, __ATOMIC_ACQUIRE)) {
      uint32_t Used = 1;
      R.Tid = Key.Tid;
      R.Nr = Key.Nr;
      R.Object = Key.Object;
      R.Address = Key.Address;
      R.Stack = Key.Stack;
      R.Holder = Key.Holder;
      R.HolderStack = Key.HolderStack;
      R.Word = Key.Word;
      R.File[0] = 0;
      if (Key.Object == OK_Fd)
        nameDescriptor(long(Key.Address), R.File, sizeof(R.File));
      __atomic_store_n(&R.Used, Used, __ATOMIC_RELEASE);
    } else if (!sameKey(R, Key)) {
      continue;
    }
    addRelaxed(R.Samples, uint64_t(1));
    addRelaxed(R.WaitNs, Ns);
    return;
  }
  addRelaxed(Dropped, uint64_t(1));
}

//===----------------------------------------------------------------------===//
// The sampler
//===----------------------------------------------------------------------===//

WaitThread *findThread(WaitState &S, int Tid) {
  for (unsigned I = 0; I < S.NumThreads; ++I)
    if (S.Threads[I].Tid == Tid)
      return &S.Threads[I];
  return nullptr;
}

/// Closes T's descriptors and marks it free; compactThreads drops it.
void forgetThread(WaitThread &T) {
  if (T.SyscallFd >= 0)
    close(T.SyscallFd);
  if (T.SchedFd >= 0)
    close(T.SchedFd);
  memset(&T, 0, sizeof(T));
}

/// Keeps the followed threads in [0, NumThreads): a free slot takes the
/// last thread.
void compactThreads(WaitState &S) {
  for (unsigned I = 0; I < S.NumThreads;) {
    if (S.Threads[I].Tid) {
      ++I;
      continue;
    }
    S.Threads[I] = S.Threads[--S.NumThreads];
    memset(&S.Threads[S.NumThreads], 0, sizeof(WaitThread));
  }
}

void noteListedThread(int Tid, void *Data) {
  WaitState &S = *static_cast<WaitState *>(Data);
  if (Tid == SamplerTid || isServiceThreadOfTracer(Tid))
    return;
  if (WaitThread *T = findThread(S, Tid)) {
    T->Seen = true;
    return;
  }
  if (S.NumThreads == kMaxWaitThreads)
    return;
  int Fd = openTaskFile(Tid, "syscall");
  if (Fd < 0)
    return;
  WaitThread &New = S.Threads[S.NumThreads++];
  New = {};
  New.Tid = Tid;
  New.SyscallFd = Fd;
  New.SchedFd = openTaskFile(Tid, "schedstat");
  New.Seen = true;
  New.Stack = -1;
}

/// Lists the process's threads: new ones are followed, gone ones dropped.
void rescan(WaitState &S) {
  for (unsigned I = 0; I < S.NumThreads; ++I)
    S.Threads[I].Seen = false;
  if (!forEachThread(noteListedThread, &S))
    return;
  for (unsigned I = 0; I < S.NumThreads; ++I)
    if (!S.Threads[I].Seen)
      forgetThread(S.Threads[I]);
  compactThreads(S);
}

/// The stack of the thread H that holds a lock, now: where it is blocked
/// (its stack is walked unless it was not scheduled in since its last
/// walk), else its last tracer sample's. -1 if not known.
int holderStack(WaitState &S, int Tid) {
  WaitThread *H = findThread(S, Tid);
  if (!H)
    return -1;
  uint64_t Switches = 0;
  if (!readSwitches(*H, Switches))
    return sampledStackOf(Tid);
  if (H->Blocked && Switches == H->Switches)
    return H->Stack;
  BlockedCall B;
  if (readSyscall(*H, B) != Syscall::Blocked)
    return sampledStackOf(Tid);
  int Stack = walkStopped(S, B);
  uint64_t After = 0;
  if (!readSwitches(*H, After) || After != Switches)
    return -1;
  // What the holder's own next observation may reuse.
  H->B = B;
  H->Stack = Stack;
  H->Switches = Switches;
  H->Blocked = Stack >= 0;
  return Stack;
}

/// Whether PC is in an executable segment of an object the program loaded:
/// where a system call's PC is, unless /proc shows another machine's.
bool inProgramCode(uintptr_t PC) {
  LoadedObject O;
  bool In = false;
  if (findLoadedObject(PC, O))
    for (unsigned I = 0; I < O.NumSegments && !In; ++I)
      In = PC >= O.SegmentBegin[I] && PC < O.SegmentEnd[I];
  addRelaxed(In ? InProgram : Foreign, uint64_t(1));
  if (!In && !InProgram && Foreign >= kForeignLimit)
    __atomic_store_n(&Stopped, true, __ATOMIC_RELEASE);
  return In;
}

/// Observes thread T: whether it is blocked, in what, on what; a sample of
/// the wall time since its previous observation if it is.
void observe(WaitState &S, WaitThread &T, uint64_t Now, uint64_t Stride) {
  uint64_t Ns = T.LastNs ? Now - T.LastNs : Stride;
  T.LastNs = Now;
  addRelaxed(Observations, uint64_t(1));
  uint64_t Switches = 0;
  bool KnowSwitches = readSwitches(T, Switches);
  // Not scheduled in since it was found blocked: still blocked, the same way.
  bool Same = T.Blocked && KnowSwitches && Switches == T.Switches;
  if (!Same) {
    T.Blocked = false;
    BlockedCall B;
    Syscall State = readSyscall(T, B);
    if (State == Syscall::Gone) {
      forgetThread(T);
      return;
    }
    if (State != Syscall::Blocked || !inProgramCode(B.PC))
      return;
    T.B = B;
    T.Stack = walkStopped(S, B);
    uint64_t After = 0;
    // The walk read a stack that did not change: the thread was not
    // scheduled in from the read of its system call to now.
    if (!KnowSwitches || !readSwitches(T, After) || After != Switches)
      T.Stack = -1;
    T.Switches = Switches;
    T.Blocked = KnowSwitches && T.Stack >= 0;
  }
  addRelaxed(Samples, uint64_t(1));
  WaitRow Key = {};
  Key.Tid = T.Tid;
  Key.Nr = int32_t(T.B.Nr);
  Key.Stack = T.Stack;
  Key.HolderStack = -1;
  if (T.B.Nr == SYS_futex) {
    Key.Object = OK_Futex;
    Key.Address = T.B.Args[0];
    // A word that had no holder when the thread blocked on it (a condition
    // variable's, a semaphore's) is not read again while it sleeps.
    if (!Same || T.LockWord)
      Key.Holder = holderOf(S, T.B, T.Tid, T.Word);
    if (!Same)
      T.LockWord = Key.Holder != 0;
    Key.Word = T.Word;
  } else if (long Fd = descriptorOf(T.B); Fd >= 0) {
    Key.Object = OK_Fd;
    Key.Address = uintptr_t(Fd);
  }
  if (Key.Holder)
    Key.HolderStack = holderStack(S, Key.Holder);
  addToRow(S, Key, Ns);
}

/// One wake-up: observes the next threads in turn. Returns the time to the
/// next wake-up: a period, or a few periods when many threads are followed,
/// so that the reads stay within kReadsPerPeriod per period.
uint64_t sampleThreads(WaitState &S) {
  uint64_t Now = monotonicNanos();
  unsigned Changed = __atomic_load_n(&ThreadsChanged, __ATOMIC_RELAXED);
  if (!LastRescan || Now - LastRescan >= kRescanNanos ||
      Changed != ThreadsListed) {
    ThreadsListed = Changed;
    LastRescan = Now;
    rescan(S);
  }
  unsigned N = S.NumThreads;
  if (!N)
    return periodNanos();
  unsigned Reads = N < kMaxReadsPerWake ? N : kMaxReadsPerWake;
  uint64_t Interval =
      periodNanos() * ((Reads + kReadsPerPeriod - 1) / kReadsPerPeriod);
  // How often each thread is read: its first observation's weight.
  uint64_t Stride = Interval * ((N + Reads - 1) / Reads);
  for (unsigned I = 0; I < Reads; ++I)
    observe(S, S.Threads[(NextRead + I) % N], Now, Stride);
  NextRead = (NextRead + Reads) % N;
  compactThreads(S);
  return Interval;
}

void *waitLoop(void *) {
  setCurrentThreadBackground();
  __atomic_store_n(&SamplerTid, currentThreadId(), __ATOMIC_RELEASE);
  WaitState *S = State.peek();
  uint64_t Next = monotonicNanos();
  while (!__atomic_load_n(&Stopped, __ATOMIC_ACQUIRE)) {
    Next += sampleThreads(*S);
    uint64_t Now = monotonicNanos();
    if (Next < Now)
      Next = Now; // late (a busy machine): no burst to catch up
    struct timespec T = {time_t(Next / 1000000000), long(Next % 1000000000)};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &T, nullptr) ==
           EINTR) {
    }
  }
  return nullptr;
}

} // namespace

bool isWaitSamplerThread(int Tid) {
  return Tid && Tid == __atomic_load_n(&SamplerTid, __ATOMIC_ACQUIRE);
}

void setSampledStacks(const StackTable *Stacks) { SampledStacks = Stacks; }

void noteSampledStack(int Tid, int Slot) {
  SampledNote *N = Notes.peek();
  if (!N || Tid <= 0)
    return;
  for (unsigned I = 0; I < 16; ++I) {
    SampledNote &E = N[(unsigned(Tid) * 2654435761u + I) % kNotes];
    int T = __atomic_load_n(&E.Tid, __ATOMIC_ACQUIRE);
    if (!T) {
      int Zero = 0;
      if (!__atomic_compare_exchange_n(&E.Tid, &Zero, Tid, false,
                                       __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE) &&
          Zero != Tid)
        continue;
      T = Tid;
    }
    if (T == Tid) {
      __atomic_store_n(&E.Slot, Slot, __ATOMIC_RELAXED);
      return;
    }
  }
}

void startWaitSampler() {
  if (!Flags.trace_wait)
    return;
  if (Flags.trace_wait_hz < 1 || Flags.trace_wait_hz > 1000) {
    Message M;
    M << "warning: trace_wait_hz must be 1 to 1000; using 100";
    M.emit();
    Flags.trace_wait_hz = 100;
  }
  if (!State.get() || !Notes.get() ||
      (!WaitStacks.ready() &&
       !WaitStacks.init(Flags.trace_stack_depth > 0
                            ? unsigned(Flags.trace_stack_depth)
                            : trace::kDefaultStackDepth))) {
    Message M;
    M << "warning: no memory for the wait sampler; no wait time";
    M.emit();
    return;
  }
  __atomic_store_n(&Stopped, false, __ATOMIC_RELEASE);
  if (!startServiceThread(waitLoop, nullptr)) {
    Message M;
    M << "warning: cannot start the wait sampler's thread; no wait time";
    M.emit();
  }
}

void resetWaitSampler() {
  // The parent's descriptors are the child's too (not its threads).
  if (WaitState *S = State.peek()) {
    for (unsigned I = 0; I < S->NumThreads; ++I)
      forgetThread(S->Threads[I]);
    S->NumThreads = 0;
    memset(S->Rows, 0, sizeof(S->Rows));
  }
  if (SampledNote *N = Notes.peek())
    memset(N, 0, kNotes * sizeof(SampledNote));
  WaitStacks.clear();
  SamplerTid = 0;
  Observations = Samples = Dropped = 0;
  InProgram = Foreign = 0;
  LastRescan = 0;
  NextRead = 0;
  ThreadsListed = __atomic_load_n(&ThreadsChanged, __ATOMIC_RELAXED);
}

void stopWaitSampler() { __atomic_store_n(&Stopped, true, __ATOMIC_RELEASE); }

namespace {
/// A thread starts (in the new thread): the sampler lists the threads at its
/// next period instead of its next periodic listing.
void noteThreadStart() {
  if (Flags.trace_wait)
    __atomic_add_fetch(&ThreadsChanged, 1, __ATOMIC_RELAXED);
}

PCMAP_SUBSCRIBE(WaitHooks, 36, {{Event::ThreadStart, noteThreadStart}});
} // namespace

//===----------------------------------------------------------------------===//
// Reports
//===----------------------------------------------------------------------===//

namespace {

/// The system calls threads block in, by number, with their names.
struct SyscallNameEntry {
  long Nr;
  const char *Name;
};
constexpr SyscallNameEntry kSyscallNames[] = {
    {SYS_futex, "futex"},
    {SYS_read, "read"},
    {SYS_write, "write"},
    {SYS_readv, "readv"},
    {SYS_writev, "writev"},
    {SYS_pread64, "pread64"},
    {SYS_pwrite64, "pwrite64"},
    {SYS_recvfrom, "recvfrom"},
    {SYS_recvmsg, "recvmsg"},
    {SYS_sendto, "sendto"},
    {SYS_sendmsg, "sendmsg"},
    {SYS_accept4, "accept4"},
    {SYS_connect, "connect"},
    {SYS_epoll_pwait, "epoll_pwait"},
    {SYS_ppoll, "ppoll"},
    {SYS_pselect6, "pselect6"},
    {SYS_nanosleep, "nanosleep"},
    {SYS_clock_nanosleep, "clock_nanosleep"},
    {SYS_wait4, "wait4"},
    {SYS_waitid, "waitid"},
    {SYS_flock, "flock"},
    {SYS_fsync, "fsync"},
    {SYS_fdatasync, "fdatasync"},
    {SYS_fcntl, "fcntl"},
    {SYS_rt_sigtimedwait, "rt_sigtimedwait"},
    {SYS_rt_sigsuspend, "rt_sigsuspend"},
    {SYS_io_getevents, "io_getevents"},
    {SYS_io_uring_enter, "io_uring_enter"},
    {SYS_msgrcv, "msgrcv"},
    {SYS_semtimedop, "semtimedop"},
    // The file system's calls, which block on its locks, its journal and
    // the disk (LevelDB's unlink of a compacted table, say).
    {SYS_openat, "openat"},
    {SYS_close, "close"},
    {SYS_unlinkat, "unlinkat"},
    {SYS_renameat, "renameat"},
    {SYS_renameat2, "renameat2"},
    {SYS_mkdirat, "mkdirat"},
    {SYS_newfstatat, "newfstatat"},
    {SYS_fstat, "fstat"},
    {SYS_statx, "statx"},
    {SYS_getdents64, "getdents64"},
    {SYS_ftruncate, "ftruncate"},
    {SYS_fallocate, "fallocate"},
    {SYS_sync, "sync"},
    {SYS_syncfs, "syncfs"},
    {SYS_sync_file_range, "sync_file_range"},
    {SYS_msync, "msync"},
    {SYS_mmap, "mmap"},
    {SYS_munmap, "munmap"},
    {SYS_mprotect, "mprotect"},
    {SYS_madvise, "madvise"},
    {SYS_ioctl, "ioctl"},
    {SYS_sendfile, "sendfile"},
    {SYS_splice, "splice"},
    {SYS_copy_file_range, "copy_file_range"},
    {SYS_preadv, "preadv"},
    {SYS_pwritev, "pwritev"},
    {SYS_epoll_ctl, "epoll_ctl"},
    {SYS_sched_yield, "sched_yield"},
#ifdef SYS_open
    {SYS_open, "open"},
#endif
#ifdef SYS_unlink
    {SYS_unlink, "unlink"},
#endif
#ifdef SYS_rename
    {SYS_rename, "rename"},
#endif
#ifdef SYS_mkdir
    {SYS_mkdir, "mkdir"},
#endif
#ifdef SYS_rmdir
    {SYS_rmdir, "rmdir"},
#endif
#ifdef SYS_stat
    {SYS_stat, "stat"},
#endif
#ifdef SYS_truncate
    {SYS_truncate, "truncate"},
#endif
#ifdef SYS_poll
    {SYS_poll, "poll"},
#endif
#ifdef SYS_select
    {SYS_select, "select"},
#endif
#ifdef SYS_epoll_wait
    {SYS_epoll_wait, "epoll_wait"},
#endif
#ifdef SYS_accept
    {SYS_accept, "accept"},
#endif
#ifdef SYS_pause
    {SYS_pause, "pause"},
#endif
};

/// The name of system call Nr, if the table has it; null for the others.
const char *syscallName(long Nr) {
  for (const SyscallNameEntry &E : kSyscallNames)
    if (E.Nr == Nr)
      return E.Name;
  return nullptr;
}

Writer &key(Writer &W, const char *Key, bool First = false) {
  return W << (First ? "\"" : ", \"") << Key << "\": ";
}

Writer &signedNumber(Writer &W, int64_t V) {
  if (V < 0)
    return W << "-" << uint64_t(-(V + 1)) + 1;
  return W << uint64_t(V);
}

/// The index of each wait stack's slot in the dump's "wait_stacks": mapped
/// with the first report (a program that never reports keeps no data).
MappedArray<int32_t, StackTable::kSlots> StackIndexes;

void writeJSONWaitStacks(Writer &W, ModuleList &Modules) {
  key(W, trace::kWaitStacksKey) << "[";
  int32_t *StackIndex = StackIndexes.get();
  if (!StackIndex) {
    W << "]";
    return;
  }
  for (unsigned I = 0; I < StackTable::kSlots; ++I)
    StackIndex[I] = -1;
  int32_t Written = 0;
  for (unsigned K = 0; K < WaitStacks.size(); ++K) {
    unsigned Slot = WaitStacks.slotAt(K);
    StackTable::Entry E = WaitStacks.entry(Slot);
    if (Slot >= StackTable::kSlots || !E.Depth)
      continue;
    StackIndex[Slot] = Written++;
    key(W << (Written > 1 ? ", {" : "{"), trace::kFramesKey, true) << "[";
    for (unsigned F = 0; F < E.Depth; ++F)
      writeModuleAddress(F ? W << ", " : W, Modules, E.Frames[F]);
    W << "]}";
  }
  W << "]";
}

int32_t stackIndex(int32_t Slot) {
  int32_t *StackIndex = StackIndexes.peek();
  return StackIndex && Slot >= 0 && unsigned(Slot) < StackTable::kSlots
             ? StackIndex[Slot]
             : -1;
}

void writeJSONWaitRow(Writer &W, ModuleList &Modules, const WaitRow &R,
                      bool First) {
  key(W << (First ? "{" : ", {"), trace::kThreadKey, true)
      << uint64_t(R.Tid);
  // A call the table does not name is "syscall NR" (never empty: the
  // readers of the dump take a name).
  if (const char *Name = syscallName(R.Nr))
    key(W, trace::kSyscallKey).json(Name);
  else
    key(W, trace::kSyscallKey) << "\"syscall " << uint64_t(R.Nr) << "\"";
  key(W, trace::kSyscallNrKey) << uint64_t(R.Nr);
  key(W, trace::kSamplesKey) << __atomic_load_n(&R.Samples, __ATOMIC_RELAXED);
  key(W, trace::kWaitNsKey) << __atomic_load_n(&R.WaitNs, __ATOMIC_RELAXED);
  signedNumber(key(W, trace::kStackKey), stackIndex(R.Stack));
  if (R.Object == OK_Futex) {
    key(W, trace::kAddressKey) << "\"";
    W.hex(R.Address) << "\"";
    writeJSONAddressPlace(W, Modules, R.Address);
    key(W, trace::kHolderKey) << uint64_t(R.Holder);
    signedNumber(key(W, trace::kHolderStackKey), stackIndex(R.HolderStack));
  } else if (R.Object == OK_Fd) {
    key(W, trace::kFdKey) << uint64_t(R.Address);
    if (R.File[0])
      key(W, trace::kFileKey).json(R.File);
  }
  W << "}";
}

} // namespace

void collectWaitModules(ModuleList &Modules) {
  WaitState *S = State.peek();
  if (!S)
    return;
  for (unsigned K = 0; K < WaitStacks.size(); ++K) {
    StackTable::Entry E = WaitStacks.entry(WaitStacks.slotAt(K));
    for (unsigned F = 0; F < E.Depth; ++F)
      Modules.collect(E.Frames[F]);
  }
  for (const WaitRow &R : S->Rows)
    if (__atomic_load_n(&R.Used, __ATOMIC_ACQUIRE) && R.Object == OK_Futex)
      Modules.collect(R.Address);
}

void writeJSONWaits(Writer &W, ModuleList &Modules) {
  WaitState *S = State.peek();
  key(W, trace::kWaitHzKey) << uint64_t(S ? Flags.trace_wait_hz : 0);
  key(W, trace::kWaitObservationsKey)
      << __atomic_load_n(&Observations, __ATOMIC_RELAXED);
  key(W, trace::kWaitSamplesKey) << __atomic_load_n(&Samples, __ATOMIC_RELAXED);
  key(W, trace::kWaitSamplesDroppedKey)
      << __atomic_load_n(&Dropped, __ATOMIC_RELAXED);
  writeJSONWaitStacks(W, Modules);
  key(W, trace::kWaitsKey) << "[";
  bool First = true;
  if (S)
    for (const WaitRow &R : S->Rows)
      if (__atomic_load_n(&R.Used, __ATOMIC_ACQUIRE)) {
        writeJSONWaitRow(W, Modules, R, First);
        First = false;
      }
  W << "]";
}

namespace {

constexpr unsigned kMaxObjects = 256;
constexpr unsigned kMaxObjectStacks = 64;

/// A lock object (or descriptor, or system call without one) of the text
/// report, with its rows' totals.
struct WaitObject {
  uint8_t Object;
  uintptr_t Address; // OK_None: the system call
  uint64_t WaitNs, Samples;
  uint32_t Tids[64];
  unsigned NumTids;
  const WaitRow *AnyRow;
};

struct StackShare {
  int32_t Slot;
  uint64_t Ns;
};

struct WaitReportMemory {
  WaitObject Objects[kMaxObjects];
  unsigned NumObjects;
  StackShare Stacks[kMaxObjectStacks];
  LoadedObject ModuleStore[ModuleList::kMax + 1];
};
Mapped<WaitReportMemory> ReportMemory;

uintptr_t objectKey(const WaitRow &R) {
  return R.Object == OK_None ? uintptr_t(R.Nr) : R.Address;
}

void addToObject(WaitReportMemory &M, const WaitRow &R) {
  uint64_t Ns = __atomic_load_n(&R.WaitNs, __ATOMIC_RELAXED);
  uint64_t N = __atomic_load_n(&R.Samples, __ATOMIC_RELAXED);
  WaitObject *O = nullptr;
  for (unsigned I = 0; I < M.NumObjects && !O; ++I)
    if (M.Objects[I].Object == R.Object &&
        M.Objects[I].Address == objectKey(R))
      O = &M.Objects[I];
  if (!O) {
    if (M.NumObjects == kMaxObjects)
      return;
    O = &M.Objects[M.NumObjects++];
    *O = {};
    O->Object = R.Object;
    O->Address = objectKey(R);
    O->AnyRow = &R;
  }
  O->WaitNs += Ns;
  O->Samples += N;
  bool Known = false;
  for (unsigned I = 0; I < O->NumTids && !Known; ++I)
    Known = O->Tids[I] == uint32_t(R.Tid);
  if (!Known && O->NumTids < 64)
    O->Tids[O->NumTids++] = uint32_t(R.Tid);
}

/// The stacks (waiting, or holding if Holders) of object O's rows, by wait
/// time, heaviest first; their number.
unsigned objectStacks(WaitReportMemory &M, const WaitState &S,
                      const WaitObject &O, bool Holders) {
  unsigned N = 0;
  for (const WaitRow &R : S.Rows) {
    if (!__atomic_load_n(&R.Used, __ATOMIC_ACQUIRE) || R.Object != O.Object ||
        objectKey(R) != O.Address)
      continue;
    int32_t Slot = Holders ? R.HolderStack : R.Stack;
    if (Slot < 0 || (Holders && !R.Holder))
      continue;
    unsigned I = 0;
    while (I < N && M.Stacks[I].Slot != Slot)
      ++I;
    if (I == N) {
      if (N == kMaxObjectStacks)
        continue;
      M.Stacks[N++] = {Slot, 0};
    }
    M.Stacks[I].Ns += __atomic_load_n(&R.WaitNs, __ATOMIC_RELAXED);
  }
  heapSort(M.Stacks, N, [](const StackShare &A, const StackShare &B) {
    return A.Ns > B.Ns;
  });
  return N;
}

void writeSeconds(Writer &W, uint64_t Ns) {
  W.fixed(double(Ns) / 1e9, 3) << " s";
}

void writeShare(Writer &W, uint64_t Part, uint64_t Whole) {
  W.fixed(Whole ? 100.0 * double(Part) / double(Whole) : 0, 1) << "%";
}

/// The kind of O (mutex, condition variable, ...) from its heaviest
/// waiting stack, or its system call's name.
const char *objectKind(Symbolizer &Sym, WaitReportMemory &M,
                       const WaitState &S, const WaitObject &O) {
  const char *Call = syscallName(O.AnyRow->Nr);
  if (O.Object != OK_Futex)
    return Call ? Call : "system call";
  if (objectStacks(M, S, O, /*Holders=*/false)) {
    StackTable::Entry E = WaitStacks.entry(unsigned(M.Stacks[0].Slot));
    if (const char *K = stackWaitKind(Sym, E.Frames, E.Depth))
      return K;
  }
  return "futex";
}

void writeObjectName(Writer &W, Symbolizer &Sym, ModuleList &Modules,
                     const WaitObject &O, const char *Kind) {
  // pthread_join sleeps on the joined thread's id, in glibc's thread
  // descriptor: the thread names the object.
  if (O.Object == OK_Futex && !strcmp(Kind, "thread join") &&
      O.AnyRow->Word > 0) {
    W << "thread " << uint64_t(O.AnyRow->Word);
    return;
  }
  if (O.Object == OK_Futex) {
    Modules.collect(O.Address);
    writeAddressName(W, Sym, Modules, O.Address);
    return;
  }
  if (O.Object == OK_Fd) {
    W << "fd " << uint64_t(O.Address);
    if (O.AnyRow->File[0])
      W << " (" << O.AnyRow->File << ")";
    return;
  }
  W << "(no object)";
}

/// Under an object's row: its Max heaviest waiting (or holding) stacks.
void writeObjectStacks(Writer &W, Symbolizer &Sym, WaitReportMemory &M,
                       const WaitState &S, const WaitObject &O, bool Holders,
                       unsigned Max) {
  unsigned N = objectStacks(M, S, O, Holders);
  for (unsigned I = 0; I < N && I < Max; ++I) {
    StackTable::Entry E = WaitStacks.entry(unsigned(M.Stacks[I].Slot));
    W << (Holders ? "                    holding " : "                    waiting ");
    writeSeconds(W, M.Stacks[I].Ns);
    W << " (";
    writeShare(W, M.Stacks[I].Ns, O.WaitNs);
    W << "): ";
    writeStackText(W, Sym, E.Frames, E.Depth);
    W << "\n";
  }
}

} // namespace

void writeTextWaits(Writer &W, Symbolizer &Sym, unsigned Top) {
  WaitState *S = State.peek();
  WaitReportMemory *M = ReportMemory.get();
  if (!S || !M)
    return;
  M->NumObjects = 0;
  uint64_t Total = 0;
  for (const WaitRow &R : S->Rows)
    if (__atomic_load_n(&R.Used, __ATOMIC_ACQUIRE)) {
      addToObject(*M, R);
      Total += __atomic_load_n(&R.WaitNs, __ATOMIC_RELAXED);
    }
  heapSort(M->Objects, M->NumObjects,
           [](const WaitObject &A, const WaitObject &B) {
             return A.WaitNs > B.WaitNs;
           });
  unsigned Shown = M->NumObjects < Top ? M->NumObjects : Top;
  if (__atomic_load_n(&Foreign, __ATOMIC_RELAXED) &&
      !__atomic_load_n(&InProgram, __ATOMIC_RELAXED)) {
    W << "pcmap: wait: none: the registers /proc/self/task/TID/syscall "
         "shows are outside the program's code (an emulator such as "
         "qemu-user runs it)\n";
    return;
  }
  W << "pcmap: wait: " << __atomic_load_n(&Samples, __ATOMIC_RELAXED)
    << " samples of threads blocked in system calls (";
  writeSeconds(W, Total);
  W << " of wall time; " << __atomic_load_n(&Observations, __ATOMIC_RELAXED)
    << " observations, each thread's up to " << uint64_t(Flags.trace_wait_hz)
    << " a second, " << __atomic_load_n(&Dropped, __ATOMIC_RELAXED)
    << " dropped), on " << uint64_t(M->NumObjects) << " objects; the top "
    << uint64_t(Shown) << " by wait time:\n";
  if (!Shown)
    return;
  prepareDataReport();
  ModuleList Modules(M->ModuleStore);
  W << "         wait   share  samples  threads  kind                      "
       "object\n";
  for (unsigned I = 0; I < Shown; ++I) {
    const WaitObject &O = M->Objects[I];
    W << "  ";
    char Num[32];
    Text T(Num, sizeof(Num));
    writeSeconds(T, O.WaitNs);
    W.pad(Num, 11, /*Right=*/true) << "  ";
    Text Sh(Num, sizeof(Num));
    writeShare(Sh, O.WaitNs, Total);
    W.pad(Num, 6, true) << "  ";
    W.padNumber(O.Samples, 7) << "  ";
    W.padNumber(O.NumTids, 7) << "  ";
    const char *Kind = objectKind(Sym, *M, *S, O);
    W.pad(Kind, 24) << "  ";
    writeObjectName(W, Sym, Modules, O, Kind);
    W << "\n";
    writeObjectStacks(W, Sym, *M, *S, O, /*Holders=*/false, 2);
    writeObjectStacks(W, Sym, *M, *S, O, /*Holders=*/true, 2);
  }
}

} // namespace rt
} // namespace pcmap
