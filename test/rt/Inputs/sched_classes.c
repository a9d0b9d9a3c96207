/* Lists the scheduling class of each of the process's threads after some
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

int main(void) {
  while (cpuSeconds() < 0.3)
    atomic_fetch_add(&Spins, 1);
  DIR *D = opendir("/proc/self/task");
  if (!D)
    return 1;
  unsigned Threads = 0, Idle = 0;
  struct dirent *E;
  while ((E = readdir(D))) {
    if (E->d_name[0] == '.')
      continue;
    ++Threads;
    Idle += sched_getscheduler(atoi(E->d_name)) == SCHED_IDLE;
  }
  closedir(D);
  printf("threads: %u, idle class: %u\n", Threads, Idle);
  return 0;
}
