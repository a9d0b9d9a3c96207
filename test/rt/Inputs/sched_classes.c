/* Starts (and joins) a thread with pthread_create, which starts the
 * tracer's scan thread, then counts the process's threads in the batch and
 * idle scheduling classes after some CPU time (enough for the tracer's scan
 * timer to fire several times), for tracer-service-thread.c: "threads: N,
 * batch class: N, idle class: N". */
#define _GNU_SOURCE 1
#include <dirent.h>
#include <pthread.h>
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

/* The threads, and how many of them are in the batch and idle classes. */
static unsigned countThreads(unsigned *Batch, unsigned *Idle) {
  DIR *D = opendir("/proc/self/task");
  if (!D)
    exit(1);
  unsigned Threads = 0;
  *Batch = *Idle = 0;
  struct dirent *E;
  while ((E = readdir(D))) {
    if (E->d_name[0] == '.')
      continue;
    ++Threads;
    int Policy = sched_getscheduler(atoi(E->d_name));
    *Batch += Policy == SCHED_BATCH;
    *Idle += Policy == SCHED_IDLE;
  }
  closedir(D);
  return Threads;
}

static void *nothing(void *Arg) { return Arg; }

int main(void) {
  pthread_t T;
  if (pthread_create(&T, NULL, nothing, NULL) || pthread_join(T, NULL))
    return 1;
  while (cpuSeconds() < 0.3)
    atomic_fetch_add(&Spins, 1);
  unsigned Threads, Batch, Idle;
  Threads = countThreads(&Batch, &Idle);
  printf("threads: %u, batch class: %u, idle class: %u\n", Threads, Batch,
         Idle);
  return 0;
}
