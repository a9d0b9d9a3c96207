/* Counts the process's threads in the idle scheduling class after some
 * CPU time (enough for the tracer's scan timer to fire several times), for
 * tracer-service-thread.c: "threads: N, idle class: N". */
#define _GNU_SOURCE 1
#include <dirent.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static _Atomic unsigned long Spins;

static double cpuSeconds(void) {
  struct timespec T;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &T);
  return T.tv_sec + T.tv_nsec / 1e9;
}

/* The threads, and how many of them are in the idle class. */
static unsigned countThreads(unsigned *Idle) {
  DIR *D = opendir("/proc/self/task");
  if (!D)
    exit(1);
  unsigned Threads = 0;
  *Idle = 0;
  struct dirent *E;
  while ((E = readdir(D))) {
    if (E->d_name[0] == '.')
      continue;
    ++Threads;
    *Idle += sched_getscheduler(atoi(E->d_name)) == SCHED_IDLE;
  }
  closedir(D);
  return Threads;
}

int main(void) {
  while (cpuSeconds() < 0.3)
    atomic_fetch_add(&Spins, 1);
  /* The tracer's thread scans in the normal class, for microseconds: look
   * a few times, a millisecond apart. */
  unsigned Threads = 0, Idle = 0;
  for (int Try = 0; Try < 20 && !Idle; ++Try) {
    if (Try) {
      struct timespec Ms = {0, 1000000};
      nanosleep(&Ms, NULL);
    }
    Threads = countThreads(&Idle);
  }
  printf("threads: %u, idle class: %u\n", Threads, Idle);
  return 0;
}
