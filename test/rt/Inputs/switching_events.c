// Two threads hand a byte to each other through pipes, with a little work
// between: each blocks every few microseconds of CPU time. With "yield",
// they hand a turn over through an atomic instead, both on one CPU, and
// wait for it in sched_yield: each switch is a preemption (an involuntary
// context switch), none a block. The pair runs until it had SECONDS of
// CPU time. A third thread
// looks every 5 ms at the process's open perf events
// (/proc/self/fd/* -> anon_inode:[perf_event]) and prints how often it
// saw none held beyond the baseline (those open before the hand-over) and
// how often two or more (an event for each of the two threads).
//
//   switching_events [SECONDS [yield]]
#define _GNU_SOURCE
#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static int ToPeer[2], ToMain[2];
static atomic_int Done;
volatile unsigned long Sink;

static void work(void) {
  unsigned long X = 1;
  for (int I = 0; I < 2000; ++I)
    X = X * 6364136223846793005ul + 1442695040888963407ul;
  Sink = X;
}

static void *peer(void *Arg) {
  (void)Arg;
  char C;
  while (read(ToPeer[0], &C, 1) == 1 && C) {
    work();
    if (write(ToMain[1], &C, 1) != 1)
      break;
  }
  return NULL;
}

static void *pinger(void *Arg) {
  (void)Arg;
  char C = 1;
  while (!atomic_load(&Done)) {
    if (write(ToPeer[1], &C, 1) != 1)
      break;
    work();
    if (read(ToMain[0], &C, 1) != 1)
      break;
  }
  C = 0;
  if (write(ToPeer[1], &C, 1) != 1)
    return NULL;
  return NULL;
}

/// The turn of the yielding pair: 1 the pinger's, 2 the peer's.
static atomic_int Turn = 1;
static cpu_set_t OneCPU;
static atomic_long Voluntary, Involuntary;

static void takeTurns(int Mine) {
  pthread_setaffinity_np(pthread_self(), sizeof(OneCPU), &OneCPU);
  for (;;) {
    while (atomic_load(&Turn) != Mine) {
      if (atomic_load(&Done)) {
        struct rusage U;
        if (getrusage(RUSAGE_THREAD, &U) == 0) {
          atomic_fetch_add(&Voluntary, U.ru_nvcsw);
          atomic_fetch_add(&Involuntary, U.ru_nivcsw);
        }
        return;
      }
      sched_yield();
    }
    work();
    atomic_store(&Turn, 3 - Mine);
  }
}

static void *yieldingPeer(void *Arg) {
  (void)Arg;
  takeTurns(2);
  return NULL;
}

static void *yieldingPinger(void *Arg) {
  (void)Arg;
  takeTurns(1);
  return NULL;
}

static double processSeconds(void) {
  struct timespec T;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &T);
  return T.tv_sec + T.tv_nsec / 1e9;
}

static int perfEvents(void) {
  DIR *D = opendir("/proc/self/fd");
  if (!D)
    return -1;
  int N = 0;
  struct dirent *E;
  char Path[64], Target[64];
  while ((E = readdir(D))) {
    snprintf(Path, sizeof(Path), "/proc/self/fd/%s", E->d_name);
    ssize_t L = readlink(Path, Target, sizeof(Target) - 1);
    if (L <= 0)
      continue;
    Target[L] = 0;
    N += strcmp(Target, "anon_inode:[perf_event]") == 0;
  }
  closedir(D);
  return N;
}

int main(int Argc, char **Argv) {
  double Seconds = Argc > 1 ? atof(Argv[1]) : 2;
  int Yield = Argc > 2 && !strcmp(Argv[2], "yield");
  if (pipe(ToPeer) || pipe(ToMain))
    return 1;
  CPU_ZERO(&OneCPU);
  CPU_SET(sched_getcpu() > 0 ? sched_getcpu() : 0, &OneCPU);
  int Base = perfEvents();
  pthread_t A, B;
  pthread_create(&A, NULL, Yield ? yieldingPeer : peer, NULL);
  pthread_create(&B, NULL, Yield ? yieldingPinger : pinger, NULL);
  int Looks = (int)(Seconds * 200), None = 0, Both = 0;
  // The first half second: the threads' reviews choose.
  struct timespec Step = {0, 5000000};
  for (int I = 0; I < 100; ++I)
    nanosleep(&Step, NULL);
  for (int I = 0; I < Looks; ++I) {
    int N = perfEvents() - Base;
    None += N <= 0;
    Both += N >= 2;
    nanosleep(&Step, NULL);
  }
  // On a loaded machine (tests run side by side) the pair gets less than a
  // core: it runs on until it has had SECONDS of CPU time between them (at
  // most 30 s more), so that its duty windows are enough to check.
  for (int I = 0; I < 6000 && processSeconds() < Seconds; ++I)
    nanosleep(&Step, NULL);
  atomic_store(&Done, 1);
  pthread_join(B, NULL);
  pthread_join(A, NULL);
  printf("looks: %d, none: %d%%, both: %d%%\n", Looks, None * 100 / Looks,
         Both * 100 / Looks);
  if (Yield)
    printf("switches: %ld voluntary, %ld involuntary\n",
           atomic_load(&Voluntary), atomic_load(&Involuntary));
  return 0;
}
