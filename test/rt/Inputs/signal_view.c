// Prints what the program sees of its fault signals' actions and of its
// alternate signal stacks, in the main thread and in a thread it starts:
// the same with and without pcmap. With an argument, it crashes afterwards
// as the argument says.
#define _GNU_SOURCE 1
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const int Signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP,
                              SIGABRT};

static void own(int Sig) { (void)Sig; }
static void ownInfo(int Sig, siginfo_t *Info, void *Context) {
  (void)Sig, (void)Info, (void)Context;
}

static const char *kind(const struct sigaction *A) {
  if (A->sa_flags & SA_SIGINFO)
    return A->sa_sigaction == ownInfo ? "own handler (siginfo)"
                                      : "another's handler (siginfo)";
  if (A->sa_handler == SIG_DFL)
    return "SIG_DFL";
  if (A->sa_handler == SIG_IGN)
    return "SIG_IGN";
  return A->sa_handler == own ? "own handler" : "another's handler";
}

static void show(const char *What, int Sig, const struct sigaction *A) {
  unsigned long Mask = 0;
  for (int S = 1; S < 32; ++S)
    if (sigismember(&A->sa_mask, S) == 1)
      Mask |= 1ul << S;
  printf("%s %s: %s, flags %#x, mask %#lx\n", What, strsignal(Sig), kind(A),
         (unsigned)A->sa_flags, Mask);
}

static void showStack(const char *Thread) {
  stack_t S;
  if (sigaltstack(NULL, &S) != 0) {
    printf("%s: sigaltstack failed\n", Thread);
    return;
  }
  if (S.ss_flags & SS_DISABLE)
    printf("%s: no alternate stack\n", Thread);
  else
    printf("%s: alternate stack of %zu bytes%s\n", Thread, S.ss_size,
           S.ss_flags & SS_ONSTACK ? ", on it" : "");
}

static void *thread(void *Arg) {
  (void)Arg;
  showStack("thread");
  return NULL;
}

// A stack of its own, set and removed again.
static void ownStack(const char *Thread) {
  static char Mine[65536];
  stack_t S = {.ss_sp = Mine, .ss_size = sizeof Mine};
  char Label[64];
  printf("%s: sigaltstack(own) = %d\n", Thread, sigaltstack(&S, NULL));
  snprintf(Label, sizeof Label, "%s, own set", Thread);
  showStack(Label);
  S.ss_flags = SS_DISABLE;
  printf("%s: sigaltstack(SS_DISABLE) = %d\n", Thread, sigaltstack(&S, NULL));
  snprintf(Label, sizeof Label, "%s, own removed", Thread);
  showStack(Label);
}

static volatile int Depth;
__attribute__((noinline)) static int recurse(int N) {
  volatile char Frame[512];
  Frame[0] = (char)N;
  Depth = N;
  return recurse(N + 1) + Frame[0];
}

static void *overflow(void *Arg) {
  (void)Arg;
  ownStack("overflowing thread");
  return (void *)(long)recurse(0);
}

static void crash(const char *How) {
  if (!strcmp(How, "reraise")) {
    // A crash handler's idiom: note the fault, reset the default action,
    // raise the signal again.
    sigaction(SIGSEGV, &(struct sigaction){.sa_handler = SIG_DFL}, NULL);
    raise(SIGSEGV);
  }
  *(volatile int *)16 = 1;
}

static void reraise(int Sig) {
  static const char Msg[] = "own handler: resetting and raising\n";
  write(1, Msg, sizeof Msg - 1);
  signal(Sig, SIG_DFL);
  raise(Sig);
}

int main(int Argc, char **Argv) {
  setvbuf(stdout, NULL, _IONBF, 0);
  for (unsigned I = 0; I < sizeof Signals / sizeof *Signals; ++I) {
    struct sigaction Old;
    sigaction(Signals[I], NULL, &Old);
    show("initially", Signals[I], &Old);
  }
  printf("signal(SIGBUS, SIG_DFL) returned %s\n",
         signal(SIGBUS, SIG_DFL) == SIG_DFL ? "SIG_DFL" : "something else");
  showStack("main");
  pthread_t T;
  pthread_create(&T, NULL, thread, NULL);
  pthread_join(T, NULL);

  // The program's own actions, read back as the kernel keeps them.
  struct sigaction A, Old;
  memset(&A, 0, sizeof A);
  A.sa_sigaction = ownInfo;
  A.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
  sigemptyset(&A.sa_mask);
  sigaddset(&A.sa_mask, SIGUSR1);
  // The kernel drops SIGKILL from a handler's mask (qemu-user keeps it).
  if (Argc > 1 && !strcmp(Argv[1], "kill-in-mask"))
    sigaddset(&A.sa_mask, SIGKILL);
  sigaction(SIGSEGV, &A, &Old);
  show("replaced", SIGSEGV, &Old);
  sigaction(SIGSEGV, NULL, &Old);
  show("now", SIGSEGV, &Old);
  printf("signal(SIGSEGV, own) returned %s\n",
         signal(SIGSEGV, own) == (void (*)(int))ownInfo ? "the handler"
                                                         : "something else");
  sigaction(SIGSEGV, NULL, &Old);
  show("now", SIGSEGV, &Old);
  sigaction(SIGILL, &(struct sigaction){.sa_handler = SIG_IGN}, NULL);
  sigaction(SIGILL, NULL, &Old);
  show("now", SIGILL, &Old);

  ownStack("main");
  if (Argc > 1 && !strcmp(Argv[1], "overflow")) {
    signal(SIGSEGV, SIG_DFL);
    pthread_create(&T, NULL, overflow, NULL);
    pthread_join(T, NULL);
  }
  if (Argc > 1 && strcmp(Argv[1], "kill-in-mask")) {
    signal(SIGSEGV, SIG_DFL);
    if (!strcmp(Argv[1], "handler"))
      signal(SIGSEGV, reraise);
    crash(Argv[1]);
  }
  return 0;
}
