// A program that the tracer's clock events, sampling kernel mode, must not
// disturb: system calls that the kernel never restarts after a handler
// (nanosleep, epoll_wait) after some work in the kernel, which a signal
// queued while that work runs would make fail with EINTR; and SIGTRAPs of
// its own.
//   kernel_events calls   N rounds of the calls; prints how many failed
//                         with EINTR
//   kernel_events trap    with a SIGTRAP handler of its own: raises
//                         SIGTRAP 3 times among the calls; prints what the
//                         handler saw and what sigaction reports
//   kernel_events default raises SIGTRAP without a handler (the default
//                         action ends the process)
//   kernel_events blocked blocks SIGTRAP alone, and takes one that waits
//                         with sigtimedwait after the calls (another
//                         process could have sent it): none must wait
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t Traps, Foreign;

static void onTrap(int Signal, siginfo_t *Info, void *Context) {
  (void)Signal;
  (void)Context;
  // TRAP_PERF (6): a perf event's, never the program's.
  if (Info->si_code == 6)
    ++Foreign;
  else
    ++Traps;
}

static int calls(int Rounds, int TrapEvery) {
  int Epoll = epoll_create1(0);
  struct epoll_event Event;
  int Interrupted = 0;
  for (int I = 0; I < Rounds; ++I) {
    for (int J = 0; J < 20; ++J)
      getppid();
    if (epoll_wait(Epoll, &Event, 1, I & 1) < 0 && errno == EINTR)
      ++Interrupted;
    struct timespec Nap = {0, 20000};
    if (nanosleep(&Nap, 0) < 0 && errno == EINTR)
      ++Interrupted;
    if (TrapEvery && I % TrapEvery == TrapEvery - 1)
      raise(SIGTRAP);
  }
  close(Epoll);
  return Interrupted;
}

int main(int argc, char **argv) {
  const char *Mode = argc > 1 ? argv[1] : "calls";
  if (!strcmp(Mode, "calls")) {
    printf("EINTR: %d\n", calls(argc > 2 ? atoi(argv[2]) : 20000, 0));
    return 0;
  }
  if (!strcmp(Mode, "trap")) {
    struct sigaction Action;
    memset(&Action, 0, sizeof(Action));
    Action.sa_sigaction = onTrap;
    Action.sa_flags = SA_SIGINFO;
    sigaction(SIGTRAP, &Action, 0);
    int Interrupted = calls(6000, 2000);
    struct sigaction Now;
    sigaction(SIGTRAP, 0, &Now);
    printf("traps: %d, perf traps seen: %d, EINTR: %d, handler kept: %s\n",
           (int)Traps, (int)Foreign, Interrupted,
           Now.sa_sigaction == onTrap ? "yes" : "no");
    return 0;
  }
  if (!strcmp(Mode, "blocked")) {
    sigset_t Trap;
    sigemptyset(&Trap);
    sigaddset(&Trap, SIGTRAP);
    pthread_sigmask(SIG_BLOCK, &Trap, 0);
    int Interrupted = calls(10000, 0);
    struct timespec Now = {0, 0};
    siginfo_t Info;
    int Taken = sigtimedwait(&Trap, &Info, &Now);
    printf("EINTR: %d, SIGTRAP waiting: %s\n", Interrupted,
           Taken == SIGTRAP ? "yes" : "no");
    return 0;
  }
  calls(3000, 0);
  raise(SIGTRAP);
  printf("not reached\n");
  return 0;
}
