//===- platform/linux_threads.cpp - Thread start and stacks --------------===//
//
// The runtime learns that a thread starts by intercepting pthread_create, as
// the sanitizers do: the new thread first announces Event::ThreadStart (the
// fault reporter gives it an alternate signal stack, the tracer its timer),
// then runs the program's start routine; when it ends, a thread-specific
// data destructor announces Event::ThreadExit. The interceptor works before the
// runtime has initialised (a constructor that runs before the runtime's may
// start threads). Threads started otherwise (by a raw clone, or before a
// runtime loaded with dlopen was there) are not seen. The runtime's own service
// threads are started past the interceptor: nothing is announced for them.
//
//===----------------------------------------------------------------------===//

#include "platform/platform.h"

#include "platform/hooks.h"
#include "platform/linux_signals.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace pcmap {
namespace rt {

namespace {

/// Room for a fault report's buffers and the unwinder; reserved, and only
/// backed by memory where a handler touches it.
constexpr size_t kAltStackBytes = 256 * 1024;

/// The kernel's sigaltstack, past this file's interceptor. Async-signal-safe.
__attribute__((always_inline)) inline int rawSigaltstack(const stack_t *New,
                                                         stack_t *Old) {
  return int(syscall(SYS_sigaltstack, New, Old));
}

/// The alternate stacks the runtime gives threads come from chunks of
/// address space reserved kStacksPerChunk at a time, and go back to a free
/// list when their thread ends: a thread's start and end cost one
/// sigaltstack call each, no mmap or munmap (a program that starts
/// thousands of threads would otherwise pay three more system calls for
/// each). Taken outside signal handlers only.
constexpr size_t kStacksPerChunk = 64;
struct FreeStack {
  FreeStack *Next;
};
FreeStack *FreeStacks;
char *ChunkNext, *ChunkEnd;
int PoolBusy;

void lockPool() {
  while (__atomic_exchange_n(&PoolBusy, 1, __ATOMIC_ACQUIRE))
    sched_yield();
}
void unlockPool() { __atomic_store_n(&PoolBusy, 0, __ATOMIC_RELEASE); }

char *takeStack() {
  lockPool();
  char *S = nullptr;
  if (FreeStacks) {
    S = reinterpret_cast<char *>(FreeStacks);
    FreeStacks = FreeStacks->Next;
  } else {
    if (ChunkNext == ChunkEnd) {
      ChunkNext = static_cast<char *>(
          reserveAddressSpace(kStacksPerChunk * kAltStackBytes));
      ChunkEnd =
          ChunkNext ? ChunkNext + kStacksPerChunk * kAltStackBytes : nullptr;
    }
    if (ChunkNext) {
      S = ChunkNext;
      ChunkNext += kAltStackBytes;
    }
  }
  unlockPool();
  return S;
}

void giveBackStack(char *S) {
  lockPool();
  auto *F = reinterpret_cast<FreeStack *>(S);
  F->Next = FreeStacks;
  FreeStacks = F;
  unlockPool();
}

/// The calling thread's alternate stacks (initial-exec TLS, read in
/// handlers). Own: the runtime's, if it gave the thread one. OwnInKernel:
/// Own is the kernel's, and the program sees no stack (its sigaltstack
/// calls report SS_DISABLE); otherwise the kernel's stack, if any, is the
/// program's, and its calls go through. Started: the thread started
/// through the pthread_create interceptor (not the main thread).
struct SignalStacks {
  char *Own;
  bool OwnInKernel;
  bool Started;
};
__thread SignalStacks Stacks __attribute__((tls_model("initial-exec")));

/// Gives the thread's stack back when it exits.
pthread_key_t AltStackKey;
pthread_once_t AltStackKeyOnce = PTHREAD_ONCE_INIT;

void freeAltStack(void *) {
  if (!Stacks.Own)
    return;
  if (Stacks.OwnInKernel) {
    stack_t Off;
    memset(&Off, 0, sizeof(Off));
    Off.ss_flags = SS_DISABLE;
    rawSigaltstack(&Off, nullptr);
  }
  giveBackStack(Stacks.Own);
  Stacks.Own = nullptr;
  Stacks.OwnInKernel = false;
}

void createAltStackKey() { pthread_key_create(&AltStackKey, freeAltStack); }

/// Makes the runtime's stack the kernel's again. False if the kernel
/// refuses.
__attribute__((always_inline)) inline bool installOwnStack() {
  stack_t S;
  S.ss_sp = Stacks.Own;
  S.ss_size = kAltStackBytes;
  S.ss_flags = 0;
  if (rawSigaltstack(&S, nullptr) != 0)
    return false;
  Stacks.OwnInKernel = true;
  return true;
}

/// A key whose destructor announces a thread's end; only a thread that
/// started through the interceptor sets it.
pthread_key_t ExitKey;
pthread_once_t ExitKeyOnce = PTHREAD_ONCE_INIT;
bool HaveExitKey;

void announceThreadExit(void *) { announce(Event::ThreadExit); }
void createExitKey() {
  HaveExitKey = pthread_key_create(&ExitKey, announceThreadExit) == 0;
}

struct StartRoutine {
  void *(*Fn)(void *);
  void *Arg;
};

void *startThread(void *P) {
  StartRoutine Start = *static_cast<StartRoutine *>(P);
  free(P);
  pthread_once(&ExitKeyOnce, createExitKey);
  if (HaveExitKey)
    pthread_setspecific(ExitKey, &ExitKey); // any value but null
  Stacks.Started = true;
  announce(Event::ThreadStart);
  return Start.Fn(Start.Arg);
}

using PthreadCreateFn = int (*)(pthread_t *, const pthread_attr_t *,
                                void *(*)(void *), void *);

} // namespace

PCMAP_STARTUP_CODE void ensureAlternateSignalStack() {
  if (Stacks.Own)
    return;
  // A new thread has no alternate stack (the kernel gives none to a thread
  // that shares its creator's memory); another (the main thread) may have
  // the program's already, which serves.
  stack_t Current;
  if (!Stacks.Started && rawSigaltstack(nullptr, &Current) == 0 &&
      !(Current.ss_flags & SS_DISABLE))
    return;
  Stacks.Own = takeStack();
  if (!Stacks.Own)
    return;
  if (!installOwnStack()) {
    giveBackStack(Stacks.Own);
    Stacks.Own = nullptr;
    return;
  }
  // The main thread's lasts as long as the process; another's goes back
  // when it exits.
  if (Stacks.Started || !isMainThread()) {
    pthread_once(&AltStackKeyOnce, createAltStackKey);
    pthread_setspecific(AltStackKey, Stacks.Own);
  }
}

bool programHasSignalStack() { return !Stacks.OwnInKernel; }

bool replaceSignalStack(const stack_t &New, stack_t &Old) {
  return rawSigaltstack(&New, &Old) == 0;
}

bool useStackForSignals(void *Lo, size_t Size, stack_t &Old) {
  stack_t S;
  S.ss_sp = Lo;
  S.ss_size = Size;
  S.ss_flags = 0;
  return replaceSignalStack(S, Old);
}

bool currentSignalStack(uintptr_t &Lo, size_t &Size, bool &OnIt) {
  stack_t S;
  if (rawSigaltstack(nullptr, &S) != 0 || (S.ss_flags & SS_DISABLE))
    return false;
  Lo = reinterpret_cast<uintptr_t>(S.ss_sp);
  Size = S.ss_size;
  OnIt = S.ss_flags & SS_ONSTACK;
  return true;
}

void restoreSignalStack(const stack_t &Old) {
  stack_t S = Old;
  // What sigaltstack reported is not what it takes back: SS_ONSTACK is an
  // output only.
  S.ss_flags &= SS_DISABLE;
  rawSigaltstack(&S, nullptr);
}

void *reserveStack(size_t Size) {
  size_t Guard = size_t(pageSize());
  char *P = static_cast<char *>(reserveAddressSpace(Size + Guard));
  if (!P)
    return nullptr;
  mprotect(P, Guard, PROT_NONE);
  return P + Guard;
}

// The main thread's stack, as pthread_getattr_np gives it, without reading
// /proc/self/maps (which pthread_getattr_np does for the main thread): the
// kernel puts the executable's name (AT_EXECFN) at the top of the stack's
// mapping, below one null pointer, and the stack may grow to RLIMIT_STACK
// below its top.
bool mainThreadStack(uintptr_t &Lo, uintptr_t &Hi) {
  uintptr_t Name = getauxval(AT_EXECFN);
  uintptr_t Page = pageSize();
  struct rlimit Limit;
  if (!Name || getrlimit(RLIMIT_STACK, &Limit) != 0 ||
      Limit.rlim_cur == RLIM_INFINITY)
    return false;
  uintptr_t End = Name + strlen(reinterpret_cast<const char *>(Name)) + 1;
  uintptr_t Top = (End + sizeof(void *) + Page - 1) & ~(Page - 1);
  uintptr_t Size = uintptr_t(Limit.rlim_cur) & ~(Page - 1);
  // The top's page is mapped and the next one is not (mincore fails with
  // ENOMEM for a page that is not mapped).
  unsigned char Resident;
  int SavedErrno = errno;
  bool Laid = syscall(SYS_mincore, Top - Page, Page, &Resident) == 0 &&
              syscall(SYS_mincore, Top, Page, &Resident) != 0 &&
              errno == ENOMEM && Size < Top;
  errno = SavedErrno;
  if (!Laid)
    return false;
  Lo = Top - Size;
  Hi = Top;
  return true;
}

bool isMainThread() { return getpid() == pid_t(syscall(SYS_gettid)); }

bool currentThreadStack(uintptr_t &Lo, uintptr_t &Hi) {
  if (isMainThread() && mainThreadStack(Lo, Hi))
    return true;
  pthread_attr_t Attr;
  if (pthread_getattr_np(pthread_self(), &Attr) != 0)
    return false;
  void *Base = nullptr;
  size_t Size = 0;
  bool Ok = pthread_attr_getstack(&Attr, &Base, &Size) == 0 && Base;
  pthread_attr_destroy(&Attr);
  if (Ok) {
    Lo = reinterpret_cast<uintptr_t>(Base);
    Hi = Lo + Size;
  }
  return Ok;
}

size_t currentThreadName(char *Name, size_t Size) {
  if (!Size)
    return 0;
  Name[0] = '\0';
  int Fd = openForReading("/proc/thread-self/comm");
  if (Fd < 0)
    return 0;
  ssize_t N = read(Fd, Name, Size - 1);
  closeFd(Fd);
  size_t Len = N > 0 ? size_t(N) : 0;
  while (Len && (Name[Len - 1] == '\n' || Name[Len - 1] == '\0'))
    --Len;
  Name[Len] = '\0';
  return Len;
}

} // namespace rt
} // namespace pcmap

// A sanitizer's interceptor, when the program has one.
extern "C" int __interceptor_pthread_create(pthread_t *, const pthread_attr_t *,
                                            void *(*)(void *), void *)
    __attribute__((weak));
// glibc's own name for its pthread_create, for a static executable, where
// dlsym finds nothing: the drivers pull it from libc.a
// (--undefined=__pthread_create_2_1); null in a dynamic one.
extern "C" int __pthread_create_2_1(pthread_t *, const pthread_attr_t *,
                                    void *(*)(void *), void *)
    __attribute__((weak));
// This runtime's interceptors; pthread_create and sigaltstack are aliases
// of them.
extern "C" __attribute__((visibility("hidden"))) int
__pcmap_pthread_create(pthread_t *Thread, const pthread_attr_t *Attr,
                       void *(*Fn)(void *), void *Arg);
extern "C" __attribute__((visibility("hidden"))) int
__pcmap_sigaltstack(const stack_t *New, stack_t *Old);

namespace pcmap {
namespace rt {
namespace {

/// How pthread_create is passed on: wrapped (a start routine that calls
/// announces the thread first), or as it is, to Next.
struct Route {
  PthreadCreateFn Next;
  bool Wrap;
  bool Known;
};
Route CachedRoute;

/// With a sanitizer in the program, the sanitizer must see every thread
/// start first, and the runtime's (sanitized) code must not run in a thread
/// before the sanitizer has set it up; the sanitizer gives threads their
/// alternate stacks itself. So: when the sanitizer's interceptor is the
/// program's pthread_create and reaches this one as its "real" function,
/// pass on to the C library; when this one won, pass on to the sanitizer's.
/// Without a sanitizer, wrap and pass on to the C library.
Route findRoute() {
  auto *Next =
      reinterpret_cast<PthreadCreateFn>(dlsym(RTLD_NEXT, "pthread_create"));
  if (!Next)
    Next = __pthread_create_2_1;
  if (!__interceptor_pthread_create)
    return {Next, true, true};
  void *Default = dlsym(RTLD_DEFAULT, "pthread_create");
  if (Default == reinterpret_cast<void *>(&__pcmap_pthread_create))
    return {__interceptor_pthread_create, false, true};
  return {Next, false, true};
}

const Route &route() {
  // Threads may race to the first call: each finds the same route.
  if (!__atomic_load_n(&CachedRoute.Known, __ATOMIC_ACQUIRE)) {
    Route R = findRoute();
    CachedRoute.Next = R.Next;
    CachedRoute.Wrap = R.Wrap;
    __atomic_store_n(&CachedRoute.Known, true, __ATOMIC_RELEASE);
  }
  return CachedRoute;
}

} // namespace

bool startServiceThread(void *(*Fn)(void *), void *Arg) {
  const Route &R = route();
  if (!R.Next)
    return false;
  // The thread inherits the creator's signal mask: block everything
  // around its creation.
  sigset_t All, Old;
  sigfillset(&All);
  callPthreadSigmask(SIG_SETMASK, &All, &Old);
  pthread_attr_t Attr;
  pthread_attr_init(&Attr);
  pthread_attr_setdetachstate(&Attr, PTHREAD_CREATE_DETACHED);
  pthread_attr_setstacksize(&Attr, 1 << 20);
  pthread_t Thread;
  // Past this runtime's interceptor: the runtime's own thread is not one
  // of the program's (it gets no timer, no alternate stack). But through a
  // sanitizer's, which must set up every thread its code runs in (the
  // runtime's is sanitized too: TSan crashed in a thread it had not seen);
  // the sanitizer passes it on to the C library, or to this runtime's
  // interceptor, which passes it on unannounced.
  PthreadCreateFn Create =
      __interceptor_pthread_create ? __interceptor_pthread_create : R.Next;
  int Error = Create(&Thread, &Attr, Fn, Arg);
  pthread_attr_destroy(&Attr);
  callPthreadSigmask(SIG_SETMASK, &Old, nullptr);
  return Error == 0;
}

bool threadStartsMayBeUnseen() {
  // A sanitizer's interceptor starts the program's threads past this one
  // (see findRoute); and where the program's calls do not bind to this
  // interceptor (the runtime came with dlopen, after them), none is seen.
  return &__interceptor_pthread_create ||
         dlsym(RTLD_DEFAULT, "pthread_create") !=
             reinterpret_cast<void *>(&__pcmap_pthread_create);
}

bool setCurrentThreadBackground() {
  struct sched_param Param;
  Param.sched_priority = 0;
  // Linux applies it to the calling thread, not the whole process.
  return sched_setscheduler(0, SCHED_BATCH, &Param) == 0;
}

} // namespace rt
} // namespace pcmap

int __pcmap_pthread_create(pthread_t *Thread, const pthread_attr_t *Attr,
                           void *(*Fn)(void *), void *Arg) {
  using namespace pcmap::rt;
  // From now on the writer lock may be held while another thread forks;
  // installed here, not by the first lock, which may be in a signal handler.
  ensureForkHandlers();
  announce(Event::ThreadCreate);
  const Route &R = route();
  if (!R.Next)
    return EAGAIN;
  if (!R.Wrap)
    return R.Next(Thread, Attr, Fn, Arg);
  auto *Start = static_cast<StartRoutine *>(malloc(sizeof(StartRoutine)));
  if (!Start)
    return EAGAIN;
  *Start = {Fn, Arg};
  int Error = R.Next(Thread, Attr, startThread, Start);
  if (Error)
    free(Start);
  return Error;
}

/// The program's sigaltstack: while the runtime's stack is the kernel's, the
/// program sees none, and a stack it sets becomes the kernel's (it serves
/// the runtime's handlers too); when it removes its own, the runtime's is
/// the kernel's again, so that a stack overflow is still reported. A
/// sanitizer's interceptor calls it as its "real" sigaltstack while the
/// sanitizer starts, before its instrumentation may run: it has none.
#if defined(__clang__)
__attribute__((disable_sanitizer_instrumentation))
#else
__attribute__((no_sanitize_address, no_sanitize_thread))
#endif
int __pcmap_sigaltstack(const stack_t *New, stack_t *Old) {
  using namespace pcmap::rt;
  if (!Stacks.OwnInKernel) {
    int R = rawSigaltstack(New, Old);
    if (R == 0 && New && (New->ss_flags & SS_DISABLE) && Stacks.Own)
      installOwnStack();
    return R;
  }
  constexpr int kAutoDisarm = int(1u << 31); // Linux's SS_AUTODISARM
  if (New && (New->ss_flags & ~kAutoDisarm) != SS_DISABLE) {
    // The kernel checks the program's stack (its size, its flags).
    if (int R = rawSigaltstack(New, nullptr))
      return R;
    Stacks.OwnInKernel = false;
  }
  if (Old) {
    // What the kernel reports for a thread without one.
    memset(Old, 0, sizeof(*Old));
    Old->ss_flags = SS_DISABLE;
  }
  return 0;
}

// Weak, as the sanitizers' interceptors are: a program that links one of
// them too still links, and the first definition wins.
#pragma GCC visibility push(default)
extern "C" __attribute__((weak, alias("__pcmap_pthread_create"))) int
pthread_create(pthread_t *Thread, const pthread_attr_t *Attr,
               void *(*Fn)(void *), void *Arg);
extern "C" __attribute__((weak, alias("__pcmap_sigaltstack"))) int
sigaltstack(const stack_t *New, stack_t *Old) noexcept;
#pragma GCC visibility pop
