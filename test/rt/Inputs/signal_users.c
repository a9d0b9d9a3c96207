// Programs that use signals themselves, as profilers, servers and runtimes
// do; each checks that it receives exactly the signals it would without
// the tracer, and works on an atomic meanwhile (so that the tracer has
// something to sample).
//   prof-early  its own SIGPROF profiler (setitimer(ITIMER_PROF), 100 Hz,
//               as gperftools does), started from an early constructor;
//               it counts the SIGPROFs, then stops the profiler, resets
//               SIGPROF to the default action and works on
//   prof-late   the same, started in main
//   sigwaitinfo every signal blocked in every thread, taken by the main
//   sigtimedwait  thread with that call (or sigwait, or a signalfd) while a
//   sigwait     worker works; any signal but the worker's SIGUSR1 is
//   signalfd    unexpected
//   take        installs a handler for signal 50 (which PCMAP_OPTIONS gives
//               the tracer) half-way, and counts the timer signals it gets
//   mask-restore  a SIGPROF profiler whose handler saves the thread's mask
//               and restores it (as gperftools' does), and a mask that
//               names signal 50 alone, blocked then unblocked
//   reset-all   sets every signal to SIG_DFL (as daemons and test
//               harnesses do), and asks what each real-time signal's
//               action is
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static _Atomic long counter;

static long cpu_ms(clockid_t clock) {
  struct timespec t;
  clock_gettime(clock, &t);
  return t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

__attribute__((noinline)) static void work_on_atomic(long ms) {
  long until = cpu_ms(CLOCK_THREAD_CPUTIME_ID) + ms;
  do {
    for (int i = 0; i < 20000; ++i)
      atomic_fetch_add_explicit(&counter, 1, memory_order_relaxed);
  } while (cpu_ms(CLOCK_THREAD_CPUTIME_ID) < until);
}

//===-- A SIGPROF profiler of the program's own ---------------------------===//

static volatile sig_atomic_t profs;
static long prof_start_ms;

static void on_prof(int sig) {
  (void)sig;
  ++profs;
}

static void start_profiler(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = on_prof;
  sa.sa_flags = SA_RESTART;
  sigaction(SIGPROF, &sa, 0);
  struct itimerval it = {{0, 10000}, {0, 10000}};
  setitimer(ITIMER_PROF, &it, 0);
  prof_start_ms = cpu_ms(CLOCK_PROCESS_CPUTIME_ID);
}

static int profile(void) {
  work_on_atomic(600);
  struct itimerval off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_PROF, &off, 0);
  long ms = cpu_ms(CLOCK_PROCESS_CPUTIME_ID) - prof_start_ms;
  // The kernel sends at most one SIGPROF per clock tick that finds the
  // process running, so a loaded machine gives fewer; the tracer once gave
  // several times more.
  long got = profs, expected = ms / 10;
  int ok = got >= 1 && got <= expected + expected / 5 + 3;
  printf("SIGPROFs as expected from CPU time: %s\n", ok ? "yes" : "no");
  if (!ok)
    printf("  %ld SIGPROFs for %ld ms of CPU time\n", got, ms);
  // Profiler off: the default action again (which ends the process), and
  // work goes on.
  signal(SIGPROF, SIG_DFL);
  work_on_atomic(200);
  printf("done\n");
  return 0;
}

static int early;
__attribute__((constructor(101))) static void early_profiler(void) {
  const char *mode = getenv("SIGNAL_USERS_EARLY");
  if (mode && !strcmp(mode, "1")) {
    early = 1;
    start_profiler();
  }
}

//===-- Every signal blocked, taken by a wait -----------------------------===//

static void *worker(void *arg) {
  (void)arg;
  work_on_atomic(400);
  kill(getpid(), SIGUSR1);
  return 0;
}

static int take_one(const char *how, sigset_t *all, int fd) {
  siginfo_t info;
  memset(&info, 0, sizeof(info));
  if (!strcmp(how, "sigwaitinfo"))
    return sigwaitinfo(all, &info);
  if (!strcmp(how, "sigtimedwait")) {
    struct timespec t = {0, 50 * 1000 * 1000};
    return sigtimedwait(all, &info, &t);
  }
  if (!strcmp(how, "sigwait")) {
    int sig = 0;
    return sigwait(all, &sig) == 0 ? sig : -1;
  }
  struct signalfd_siginfo si;
  return read(fd, &si, sizeof(si)) == sizeof(si) ? (int)si.ssi_signo : -1;
}

static int wait_for_signals(const char *how) {
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, 0);
  int fd = -1;
  if (!strcmp(how, "signalfd"))
    fd = signalfd(-1, &all, SFD_CLOEXEC);
  // Work with every signal blocked first: the main thread's samples too.
  work_on_atomic(200);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  int unexpected = 0;
  for (;;) {
    int sig = take_one(how, &all, fd);
    if (sig == SIGUSR1)
      break;
    if (sig > 0) {
      ++unexpected;
      printf("  unexpected signal %d\n", sig);
    }
  }
  pthread_join(t, 0);
  printf("unexpected signals: %d\n", unexpected);
  return 0;
}

//===-- The tracer's own signal, taken --------------------------------------===//

static volatile sig_atomic_t own, from_timer;

static void on_50(int sig, siginfo_t *info, void *ctx) {
  (void)sig;
  (void)ctx;
  if (info->si_code == SI_TIMER)
    ++from_timer;
  else
    ++own;
}

static int take_tracer_signal(void) {
  work_on_atomic(200);
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_sigaction = on_50;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigaction(50, &sa, 0);
  work_on_atomic(200);
  raise(50);
  printf("own: %d, from a timer: %d\n", (int)own, (int)from_timer);
  return 0;
}

//===-- Masks and dispositions ---------------------------------------------===//

static void on_prof_restoring(int sig) {
  (void)sig;
  sigset_t saved;
  pthread_sigmask(SIG_BLOCK, 0, &saved);
  ++profs;
  pthread_sigmask(SIG_SETMASK, &saved, 0);
}

static int restore_masks(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = on_prof_restoring;
  sa.sa_flags = SA_RESTART;
  sigaction(SIGPROF, &sa, 0);
  struct itimerval it = {{0, 1000}, {0, 1000}};
  setitimer(ITIMER_PROF, &it, 0);
  work_on_atomic(300);
  sigset_t fifty;
  sigemptyset(&fifty);
  sigaddset(&fifty, 50);
  sigprocmask(SIG_BLOCK, &fifty, 0);
  work_on_atomic(100);
  sigprocmask(SIG_UNBLOCK, &fifty, 0);
  work_on_atomic(100);
  struct itimerval off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_PROF, &off, 0);
  printf("SIGPROFs: %s\n", profs > 0 ? "some" : "none");
  return 0;
}

static int reset_all(void) {
  for (int s = 1; s < NSIG; ++s)
    if (s != SIGKILL && s != SIGSTOP)
      signal(s, SIG_DFL);
  work_on_atomic(300);
  int handled = 0;
  for (int s = SIGRTMIN; s <= SIGRTMAX; ++s) {
    struct sigaction old;
    if (sigaction(s, 0, &old) == 0 &&
        ((old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL))
      ++handled;
  }
  struct sigaction ignore, old;
  memset(&ignore, 0, sizeof(ignore));
  ignore.sa_handler = SIG_IGN;
  sigaction(50, &ignore, 0);
  sigaction(50, 0, &old);
  printf("real-time signals with an action: %d; 50 ignored: %s\n", handled,
         old.sa_handler == SIG_IGN ? "yes" : "no");
  return 0;
}

int main(int argc, char **argv) {
  setvbuf(stdout, 0, _IONBF, 0); // in order with the tracer's report
  const char *mode = argc > 1 ? argv[1] : "";
  if (!strcmp(mode, "prof-early")) {
    if (!early)
      return 2;
    return profile();
  }
  if (!strcmp(mode, "prof-late")) {
    start_profiler();
    return profile();
  }
  if (!strcmp(mode, "take"))
    return take_tracer_signal();
  if (!strcmp(mode, "mask-restore"))
    return restore_masks();
  if (!strcmp(mode, "reset-all"))
    return reset_all();
  return wait_for_signals(mode);
}
