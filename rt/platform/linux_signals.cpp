//===- platform/linux_signals.cpp - A signal the program does not see ----===//
//
// The tracer samples with a signal of its own (reserveSignal, platform.h):
// a real-time signal the program has no handler for. For the program to
// keep receiving exactly the signals it would without pcmap, that signal
// must never reach the program's code, which the C library's signal calls
// would let happen in two ways:
//
// - Masks and waits. A program that blocks every signal (sigfillset, then
//   pthread_sigmask) and takes them with sigwait, sigwaitinfo, sigtimedwait
//   or a signalfd would block the tracer's signal too, and then take it as
//   its own. A set that names every real-time signal is such a set: the
//   reserved one is left out of it, so that a thread never blocks it (the
//   tracer's handler runs when the thread's own CPU-time timer fires, only
//   while the thread runs) and never waits for it.
// - Masks that name it alone. A program's mask never blocks it: a handler
//   that saves the mask inside the tracer's handler (which blocks it while
//   it runs) and restores it later (gperftools' profiler, any SIGPROF or
//   SIGALRM handler that restores its mask) names it by accident. The
//   signal stays blocked or unblocked as it is in the thread.
// - Dispositions. Setting it to SIG_DFL or SIG_IGN (a program that resets
//   every signal) is kept in a shadow action that sigaction reports back,
//   as the kernel would have; the runtime's handler stays.
// - Handlers. A program that installs a handler for that very signal (it
//   uses it), or names it alone in a wait or a signalfd, is given the
//   signal: the owner's callback runs once (the tracer moves to another
//   signal and says so) and the call goes through unchanged.
//
// While the tracer's clock events sample kernel mode, they signal with a
// SIGTRAP (platform.h, openThreadClockEvent), which must reach the
// runtime's handler at once: a mask that names every signal leaves SIGTRAP
// unblocked (the kernel unblocks it anyway for a trap the thread causes),
// a wait or a signalfd on every signal leaves it out, and a program that
// names SIGTRAP apart (it uses it: another process sends it) is given it,
// the events sampling user mode from then on (keepTrapUnblocked).
//
// The fault reporter's signals are the program's own, and the program must
// see their actions as without pcmap (a garbage collector, a crash handler
// or a language runtime asks "was a handler there before me?" and chains to
// it): their actions are hidden (hideSignalAction). The kernel keeps the
// runtime's handler; the program's sigaction and signal calls set and read
// a shadow action, which the runtime's handler takes in its turn, as the
// kernel would have: so a handler the program installs at any time runs
// first, and the runtime's report comes with the default action, when the
// program's handler returns to a fault it did not repair, or resets the
// default and raises the signal again.
//
// The interceptors are weak aliases, as pthread_create's and dlopen's are,
// so that a program that links a sanitizer's interceptors too still links;
// the sanitizer's then win, and this filtering is off
// (docs/design/Runtime.md, "The tracer's signal").
//
//===----------------------------------------------------------------------===//

#include "platform/linux_signals.h"

#include "platform/platform.h"

#include <dlfcn.h>
#include <errno.h>
#include <sched.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <unistd.h>

extern "C" int __sigaction(int, const struct sigaction *, struct sigaction *);

extern "C" {
int __pcmap_sigaction(int, const struct sigaction *, struct sigaction *);
sighandler_t __pcmap_signal(int, sighandler_t);
int __pcmap_sigprocmask(int, const sigset_t *, sigset_t *);
int __pcmap_pthread_sigmask(int, const sigset_t *, sigset_t *);
int __pcmap_sigwait(const sigset_t *, int *);
int __pcmap_sigwaitinfo(const sigset_t *, siginfo_t *);
int __pcmap_sigtimedwait(const sigset_t *, siginfo_t *,
                         const struct timespec *);
int __pcmap_signalfd(int, const sigset_t *, int);
}

namespace pcmap {
namespace rt {

namespace {

//===----------------------------------------------------------------------===//
// The definitions the program's calls would reach without pcmap
//===----------------------------------------------------------------------===//

using SigactionFn = int (*)(int, const struct sigaction *, struct sigaction *);
using SignalFn = sighandler_t (*)(int, sighandler_t);
using SigmaskFn = int (*)(int, const sigset_t *, sigset_t *);
using SigwaitFn = int (*)(const sigset_t *, int *);
using SigwaitinfoFn = int (*)(const sigset_t *, siginfo_t *);
using SigtimedwaitFn = int (*)(const sigset_t *, siginfo_t *,
                               const struct timespec *);
using SignalfdFn = int (*)(int, const sigset_t *, int);

/// Next: the definitions after this file's interceptors (the C library's),
/// which they pass calls on to. Program: the ones the program's calls
/// reach, for the runtime's own calls (sigaction, pthread_sigmask,
/// sigwaitinfo, sigtimedwait; null for the others); a sanitizer's
/// interceptor, when it won (and reaches this file's as its "real"
/// function, which passes on to Next), else Next.
struct NextFunctions {
  SigactionFn Sigaction;
  SignalFn Signal;
  SigmaskFn Sigprocmask, PthreadSigmask;
  SigwaitFn Sigwait;
  SigwaitinfoFn Sigwaitinfo;
  SigtimedwaitFn Sigtimedwait;
  SignalfdFn Signalfd;
};
PCMAP_STARTUP_STATE NextFunctions Next, Program;
PCMAP_STARTUP_STATE bool Resolved;

/// Next's definition of Name. Null in a static executable.
template <class Fn> void resolve(Fn &NextOut, const char *Name) {
  NextOut = reinterpret_cast<Fn>(dlsym(RTLD_NEXT, Name));
}
/// Next's and Program's definition of Name (Ours: this file's
/// interceptor), for the functions the runtime calls itself; the others
/// need no Program (each dlsym costs about a microsecond at start-up).
template <class Fn>
void resolve(Fn &NextOut, Fn &ProgramOut, const char *Name, Fn Ours) {
  void *Default = dlsym(RTLD_DEFAULT, Name);
  resolve(NextOut, Name);
  ProgramOut = Default && Default != reinterpret_cast<void *>(Ours)
                   ? reinterpret_cast<Fn>(Default)
                   : NextOut;
}

/// Looks every definition up, once, before any signal handler of the
/// runtime's can run (dlsym is not async-signal-safe): at the first call
/// of any of them, and from a constructor that runs before the program's.
PCMAP_STARTUP_CODE void resolveAll() {
  if (__atomic_load_n(&Resolved, __ATOMIC_ACQUIRE))
    return;
  NextFunctions N, P = {};
  resolve(N.Sigaction, P.Sigaction, "sigaction", &__pcmap_sigaction);
  resolve(N.Signal, "signal");
  resolve(N.Sigprocmask, "sigprocmask");
  resolve(N.PthreadSigmask, P.PthreadSigmask, "pthread_sigmask",
          &__pcmap_pthread_sigmask);
  resolve(N.Sigwait, "sigwait");
  resolve(N.Sigwaitinfo, P.Sigwaitinfo, "sigwaitinfo", &__pcmap_sigwaitinfo);
  resolve(N.Sigtimedwait, P.Sigtimedwait, "sigtimedwait",
          &__pcmap_sigtimedwait);
  resolve(N.Signalfd, "signalfd");
  if (!N.Sigaction)
    N.Sigaction = __sigaction; // a static executable
  if (!P.Sigaction)
    P.Sigaction = N.Sigaction;
  Next = N;
  Program = P;
  __atomic_store_n(&Resolved, true, __ATOMIC_RELEASE);
}

PCMAP_STARTUP_CODE __attribute__((constructor(101))) void resolveEarly() {
  resolveAll();
}

/// The C library's own real-time signals (thread cancellation and set*id):
/// a raw system call must not block them.
void removeLibcSignals(sigset_t &Set) {
  for (int S = 32; S < SIGRTMIN; ++S)
    sigdelset(&Set, S);
}

int rawSigmask(int How, const sigset_t *Set, sigset_t *Old) {
  sigset_t Copy;
  if (Set) {
    Copy = *Set;
    removeLibcSignals(Copy);
  }
  if (syscall(SYS_rt_sigprocmask, How, Set ? &Copy : nullptr, Old, _NSIG / 8))
    return errno;
  return 0;
}

int rawSigtimedwait(const sigset_t *Set, siginfo_t *Info,
                    const struct timespec *Timeout) {
  return int(syscall(SYS_rt_sigtimedwait, Set, Info, Timeout, _NSIG / 8));
}

//===----------------------------------------------------------------------===//
// The reserved signal
//===----------------------------------------------------------------------===//

int Reserved;
void (*ReservedOwner)();
SignalHandler ReservedHandler;
/// The action the program set for the reserved signal and would see
/// (SIG_DFL or SIG_IGN): what sigaction reports for it.
struct sigaction ShadowAction;

/// The program uses the reserved signal: it is the program's from now on.
void giveToProgram() {
  int Signal = __atomic_exchange_n(&Reserved, 0, __ATOMIC_ACQ_REL);
  if (Signal && ReservedOwner)
    ReservedOwner();
}

/// What a program's signal set means for the reserved signal.
enum class SetUse { Untouched, EveryRealTime, Named };

SetUse classify(const sigset_t *Set) {
  int Signal = __atomic_load_n(&Reserved, __ATOMIC_ACQUIRE);
  if (!Signal || !Set || sigismember(Set, Signal) != 1)
    return SetUse::Untouched;
  for (int S = SIGRTMIN; S <= SIGRTMAX; ++S)
    if (sigismember(Set, S) != 1)
      return SetUse::Named;
  return SetUse::EveryRealTime;
}

/// The mask to pass on for How: Set, or a copy in which the reserved
/// signal is blocked exactly when it is blocked now (a mask saved in the
/// tracer's handler and restored outside it, or a full mask, leaves it as
/// it is in the thread).
const sigset_t *filteredMask(int How, const sigset_t *Set, sigset_t &Copy) {
  int Signal = __atomic_load_n(&Reserved, __ATOMIC_ACQUIRE);
  if (!Signal || !Set || sigismember(Set, Signal) != 1 ||
      (How != SIG_BLOCK && How != SIG_SETMASK))
    return Set;
  Copy = *Set;
  sigset_t Now;
  if (How == SIG_BLOCK || rawSigmask(SIG_BLOCK, nullptr, &Now) != 0 ||
      sigismember(&Now, Signal) != 1)
    sigdelset(&Copy, Signal);
  return &Copy;
}

/// The set to pass on to a wait or a signalfd: Set, or a copy without the
/// reserved signal when Set names every real-time signal. A set that names
/// the reserved signal on its own gives it to the program.
const sigset_t *filtered(const sigset_t *Set, sigset_t &Copy) {
  switch (classify(Set)) {
  case SetUse::Untouched:
    return Set;
  case SetUse::EveryRealTime:
    Copy = *Set;
    sigdelset(&Copy, __atomic_load_n(&Reserved, __ATOMIC_ACQUIRE));
    return &Copy;
  case SetUse::Named:
    giveToProgram();
    return Set;
  }
  return Set;
}

//===----------------------------------------------------------------------===//
// SIGTRAP, while the tracer's clock events send it
//===----------------------------------------------------------------------===//

/// keepTrapUnblocked's state: SIGTRAP is kept unblocked, and who to tell
/// when the program takes it.
bool TrapKept;
void (*TrapOwner)();

/// What a program's signal set means for SIGTRAP: a set that names every
/// signal but those no program blocks or waits for (SIGKILL, SIGSTOP) and
/// the synchronous faults, which some leave out of a full set (SIGSEGV,
/// SIGBUS, SIGILL, SIGFPE, SIGSYS), names SIGTRAP by the way.
enum class TrapUse { Untouched, EverySignal, Named };

TrapUse classifyTrap(const sigset_t *Set) {
  if (!__atomic_load_n(&TrapKept, __ATOMIC_ACQUIRE) || !Set ||
      sigismember(Set, SIGTRAP) != 1)
    return TrapUse::Untouched;
  for (int S = 1; S < 32; ++S) {
    bool Optional = S == SIGKILL || S == SIGSTOP || S == SIGSEGV ||
                    S == SIGBUS || S == SIGILL || S == SIGFPE || S == SIGSYS;
    if (!Optional && sigismember(Set, S) != 1)
      return TrapUse::Named;
  }
  return TrapUse::EverySignal;
}

/// The program uses SIGTRAP (sent by kill, blocked or waited for on its
/// own): it is the program's from now on.
void giveTrapToProgram() {
  if (__atomic_exchange_n(&TrapKept, false, __ATOMIC_ACQ_REL) && TrapOwner)
    TrapOwner();
}

/// Set, or Copy (a copy of Set, or Set already copied there) without
/// SIGTRAP when Set names every signal. Named apart, SIGTRAP goes to the
/// program.
const sigset_t *withoutTrap(const sigset_t *Set, sigset_t &Copy) {
  switch (classifyTrap(Set)) {
  case TrapUse::Untouched:
    return Set;
  case TrapUse::EverySignal:
    if (Set != &Copy)
      Copy = *Set;
    sigdelset(&Copy, SIGTRAP);
    return &Copy;
  case TrapUse::Named:
    giveTrapToProgram();
    return Set;
  }
  return Set;
}

int filteredSigmask(SigmaskFn Fn, int How, const sigset_t *Set, sigset_t *Old) {
  sigset_t Copy;
  const sigset_t *Pass = filteredMask(How, Set, Copy);
  if (How == SIG_BLOCK || How == SIG_SETMASK)
    Pass = withoutTrap(Pass, Copy);
  return Fn ? Fn(How, Pass, Old) : rawSigmask(How, Pass, Old);
}

//===----------------------------------------------------------------------===//
// Hidden actions
//===----------------------------------------------------------------------===//

/// A signal whose action the program sees in a shadow: two copies and a
/// generation, as publication.h's indexes (a handler reads it while a
/// thread of the program may be setting it; it never waits).
struct HiddenAction {
  int Signal; // 0: none
  SignalHandler Handler;
  uint32_t Generation;
  struct sigaction Shadow[2];
};
constexpr unsigned kMaxHiddenSignals = 5;
HiddenAction Hidden[kMaxHiddenSignals];
/// Serialises the writers of Hidden, each with every signal blocked, so
/// that no handler on the same thread waits for it.
int HiddenBusy;
/// Set while the runtime calls sigaction itself (callSigaction): through a
/// sanitizer's interceptor, its calls come back to pcmap's.
__thread bool InRuntimeCall __attribute__((tls_model("initial-exec")));

HiddenAction *hiddenAction(int Signal) {
  for (HiddenAction &H : Hidden)
    if (__atomic_load_n(&H.Signal, __ATOMIC_ACQUIRE) == Signal && Signal)
      return &H;
  return nullptr;
}

void readShadow(const HiddenAction &H, struct sigaction &Out) {
  for (;;) {
    uint32_t G = __atomic_load_n(&H.Generation, __ATOMIC_ACQUIRE);
    memcpy(&Out, &H.Shadow[G & 1], sizeof(Out));
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    if (__atomic_load_n(&H.Generation, __ATOMIC_RELAXED) == G)
      return;
  }
}

/// Runs Update(HiddenAction &) as the one writer, with every signal
/// blocked.
template <class Fn> void updateHidden(HiddenAction &H, Fn Update) {
  sigset_t All, Old;
  sigfillset(&All);
  rawSigmask(SIG_SETMASK, &All, &Old);
  while (__atomic_exchange_n(&HiddenBusy, 1, __ATOMIC_ACQUIRE))
    sched_yield();
  Update(H);
  __atomic_store_n(&HiddenBusy, 0, __ATOMIC_RELEASE);
  rawSigmask(SIG_SETMASK, &Old, nullptr);
}

void writeShadow(HiddenAction &H, const struct sigaction &Action) {
  uint32_t G = H.Generation;
  memcpy(&H.Shadow[(G + 1) & 1], &Action, sizeof(Action));
  __atomic_store_n(&H.Generation, G + 1, __ATOMIC_RELEASE);
}

/// Action as the kernel would report it back once set, given Installed, an
/// action the C library set: the C library's restorer added (x86-64), and
/// no SIGKILL or SIGSTOP in the mask.
struct sigaction asKernelKeeps(const struct sigaction &Action,
                               const struct sigaction &Installed) {
  // Linux's SA_RESTORER, which the C library sets and does not export.
  constexpr int kRestorer = 0x04000000;
  struct sigaction K = Action;
  if (Installed.sa_flags & kRestorer) {
    K.sa_flags |= kRestorer;
    K.sa_restorer = Installed.sa_restorer;
  }
  sigdelset(&K.sa_mask, SIGKILL);
  sigdelset(&K.sa_mask, SIGSTOP);
  return K;
}

bool isHandler(const struct sigaction &A, SignalHandler Handler) {
  return (A.sa_flags & SA_SIGINFO) && A.sa_sigaction == Handler;
}

/// What signal(Signal, Handler) sets: BSD semantics, as the C library's.
struct sigaction bsdSignalAction(int Signal, sighandler_t Handler) {
  struct sigaction Action;
  memset(&Action, 0, sizeof(Action));
  Action.sa_handler = Handler;
  sigemptyset(&Action.sa_mask);
  sigaddset(&Action.sa_mask, Signal);
  Action.sa_flags = SA_RESTART;
  return Action;
}

/// The program's sigaction on a hidden signal.
int shadowSigaction(HiddenAction &H, const struct sigaction *Action,
                    struct sigaction *Old) {
  struct sigaction New;
  bool Set = Action && !isHandler(*Action, H.Handler);
  if (Set) {
    // Read before anything changes (Old may be Action).
    struct sigaction Installed;
    Next.Sigaction(H.Signal, nullptr, &Installed);
    New = asKernelKeeps(*Action, Installed);
  }
  updateHidden(H, [&](HiddenAction &W) {
    if (Old)
      readShadow(W, *Old);
    if (Set)
      writeShadow(W, New);
  });
  return 0;
}

} // namespace

//===----------------------------------------------------------------------===//
// For the rest of platform/ (linux_signals.h)
//===----------------------------------------------------------------------===//

int callSigaction(int Signal, const struct sigaction *Action,
                  struct sigaction *Old) {
  resolveAll();
  bool Was = InRuntimeCall;
  InRuntimeCall = true;
  int R = Program.Sigaction(Signal, Action, Old);
  InRuntimeCall = Was;
  return R;
}

int callPthreadSigmask(int How, const sigset_t *Set, sigset_t *Old) {
  resolveAll();
  return Program.PthreadSigmask ? Program.PthreadSigmask(How, Set, Old)
                                : rawSigmask(How, Set, Old);
}

void holdAllSignals(sigset_t &Old) {
  sigset_t All;
  sigfillset(&All);
  callPthreadSigmask(SIG_SETMASK, &All, &Old);
}

void restoreSignals(const sigset_t &Old) {
  callPthreadSigmask(SIG_SETMASK, &Old, nullptr);
}

int callSigwaitinfo(const sigset_t *Set, siginfo_t *Info) {
  resolveAll();
  return Program.Sigwaitinfo ? Program.Sigwaitinfo(Set, Info)
                             : rawSigtimedwait(Set, Info, nullptr);
}

int callSigtimedwait(const sigset_t *Set, siginfo_t *Info,
                     const struct timespec *Timeout) {
  resolveAll();
  return Program.Sigtimedwait ? Program.Sigtimedwait(Set, Info, Timeout)
                              : rawSigtimedwait(Set, Info, Timeout);
}

//===----------------------------------------------------------------------===//
// platform.h
//===----------------------------------------------------------------------===//

int unusedRealTimeSignal(int Below) {
  for (int S = Below - 1 < SIGRTMAX ? Below - 1 : SIGRTMAX; S >= SIGRTMIN;
       --S) {
    struct sigaction Action;
    if (callSigaction(S, nullptr, &Action) == 0 &&
        !(Action.sa_flags & SA_SIGINFO) && Action.sa_handler == SIG_DFL)
      return S;
  }
  return 0;
}

void reserveSignal(int Signal, SignalHandler Handler, void (*Owner)()) {
  resolveAll();
  ReservedOwner = Owner;
  ReservedHandler = Handler;
  memset(&ShadowAction, 0, sizeof(ShadowAction));
  ShadowAction.sa_handler = SIG_DFL;
  __atomic_store_n(&Reserved, Signal, __ATOMIC_RELEASE);
}

int reservedSignal() { return __atomic_load_n(&Reserved, __ATOMIC_ACQUIRE); }

void keepTrapUnblocked(void (*Owner)()) {
  resolveAll();
  TrapOwner = Owner;
  __atomic_store_n(&TrapKept, true, __ATOMIC_RELEASE);
}

void hideSignalAction(int Signal, SignalHandler Handler,
                      const struct sigaction &Previous) {
  resolveAll();
  if (HiddenAction *H = hiddenAction(Signal)) {
    H->Handler = Handler;
    return;
  }
  for (HiddenAction &H : Hidden)
    if (!H.Signal) {
      H.Handler = Handler;
      H.Generation = 0;
      H.Shadow[0] = Previous;
      __atomic_store_n(&H.Signal, Signal, __ATOMIC_RELEASE);
      return;
    }
}

bool programSignalAction(int Signal, struct sigaction &Out) {
  HiddenAction *H = hiddenAction(Signal);
  if (!H)
    return false;
  readShadow(*H, Out);
  return true;
}

void setProgramSignalAction(int Signal, const struct sigaction &Action) {
  if (HiddenAction *H = hiddenAction(Signal))
    updateHidden(*H, [&](HiddenAction &W) { writeShadow(W, Action); });
}

} // namespace rt
} // namespace pcmap

//===----------------------------------------------------------------------===//
// The interceptors
//===----------------------------------------------------------------------===//

using namespace pcmap::rt;

int __pcmap_sigaction(int Signal, const struct sigaction *Action,
                      struct sigaction *Old) {
  resolveAll();
  if (HiddenAction *H = hiddenAction(Signal))
    if (!InRuntimeCall)
      return shadowSigaction(*H, Action, Old);
  if (Signal == __atomic_load_n(&Reserved, __ATOMIC_ACQUIRE)) {
    // The program sees the action it set, SIG_DFL at first; the runtime's
    // handler stays unless the program installs one of its own. Setting
    // the runtime's own handler again (a program that saved every action
    // and restores them) sets nothing.
    bool Handler = Action && (Action->sa_flags & SA_SIGINFO
                                  ? Action->sa_sigaction != ReservedHandler
                                  : Action->sa_handler != SIG_DFL &&
                                        Action->sa_handler != SIG_IGN);
    if (!Handler) {
      if (Old)
        *Old = ShadowAction;
      if (Action && !(Action->sa_flags & SA_SIGINFO))
        ShadowAction = *Action;
      return 0;
    }
    giveToProgram();
  }
  return Next.Sigaction(Signal, Action, Old);
}

sighandler_t __pcmap_signal(int Signal, sighandler_t Handler) {
  resolveAll();
  if (HiddenAction *H = hiddenAction(Signal)) {
    if (Handler == SIG_ERR) {
      errno = EINVAL;
      return SIG_ERR;
    }
    struct sigaction Action = bsdSignalAction(Signal, Handler), Old;
    shadowSigaction(*H, &Action, &Old);
    return Old.sa_handler;
  }
  if (Signal == __atomic_load_n(&Reserved, __ATOMIC_ACQUIRE)) {
    if (Handler == SIG_DFL || Handler == SIG_IGN) {
      sighandler_t Previous = ShadowAction.sa_handler;
      ShadowAction.sa_handler = Handler;
      return Previous;
    }
    giveToProgram();
  }
  if (Next.Signal)
    return Next.Signal(Signal, Handler);
  // A static executable.
  struct sigaction Action = bsdSignalAction(Signal, Handler), Old;
  return Next.Sigaction(Signal, &Action, &Old) ? SIG_ERR : Old.sa_handler;
}

int __pcmap_sigprocmask(int How, const sigset_t *Set, sigset_t *Old) {
  resolveAll();
  int Error = filteredSigmask(Next.Sigprocmask, How, Set, Old);
  if (Next.Sigprocmask)
    return Error; // already -1 with errno
  if (Error) {
    errno = Error;
    return -1;
  }
  return 0;
}

int __pcmap_pthread_sigmask(int How, const sigset_t *Set, sigset_t *Old) {
  resolveAll();
  return filteredSigmask(Next.PthreadSigmask, How, Set, Old);
}

int __pcmap_sigwait(const sigset_t *Set, int *Signal) {
  resolveAll();
  sigset_t Copy;
  const sigset_t *Pass = withoutTrap(filtered(Set, Copy), Copy);
  if (Next.Sigwait)
    return Next.Sigwait(Pass, Signal);
  int S;
  while ((S = rawSigtimedwait(Pass, nullptr, nullptr)) < 0 && errno == EINTR) {
  }
  if (S < 0)
    return errno;
  *Signal = S;
  return 0;
}

int __pcmap_sigwaitinfo(const sigset_t *Set, siginfo_t *Info) {
  resolveAll();
  sigset_t Copy;
  const sigset_t *Pass = withoutTrap(filtered(Set, Copy), Copy);
  return Next.Sigwaitinfo ? Next.Sigwaitinfo(Pass, Info)
                          : rawSigtimedwait(Pass, Info, nullptr);
}

int __pcmap_sigtimedwait(const sigset_t *Set, siginfo_t *Info,
                         const struct timespec *Timeout) {
  resolveAll();
  sigset_t Copy;
  const sigset_t *Pass = withoutTrap(filtered(Set, Copy), Copy);
  return Next.Sigtimedwait ? Next.Sigtimedwait(Pass, Info, Timeout)
                           : rawSigtimedwait(Pass, Info, Timeout);
}

int __pcmap_signalfd(int Fd, const sigset_t *Set, int Flags) {
  resolveAll();
  sigset_t Copy;
  const sigset_t *Pass = withoutTrap(filtered(Set, Copy), Copy);
  if (Next.Signalfd)
    return Next.Signalfd(Fd, Pass, Flags);
  return int(syscall(SYS_signalfd4, Fd, Pass, _NSIG / 8, Flags));
}

#pragma GCC visibility push(default)
extern "C" {
__attribute__((weak, alias("__pcmap_sigaction"))) int
sigaction(int, const struct sigaction *, struct sigaction *);
__attribute__((weak, alias("__pcmap_signal"))) sighandler_t
signal(int, sighandler_t);
__attribute__((weak, alias("__pcmap_sigprocmask"))) int
sigprocmask(int, const sigset_t *, sigset_t *);
__attribute__((weak, alias("__pcmap_pthread_sigmask"))) int
pthread_sigmask(int, const sigset_t *, sigset_t *);
__attribute__((weak, alias("__pcmap_sigwait"))) int sigwait(const sigset_t *,
                                                            int *);
__attribute__((weak, alias("__pcmap_sigwaitinfo"))) int
sigwaitinfo(const sigset_t *, siginfo_t *);
__attribute__((weak, alias("__pcmap_sigtimedwait"))) int
sigtimedwait(const sigset_t *, siginfo_t *, const struct timespec *);
__attribute__((weak, alias("__pcmap_signalfd"))) int
signalfd(int, const sigset_t *, int);
}
#pragma GCC visibility pop
