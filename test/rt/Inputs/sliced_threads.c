// Four CPU-bound threads on one CPU (the first the process may use), each
// doing MILLIONS million steps of arithmetic, without a system call (a
// read of its CPU clock would bring the scheduler's account of it up to
// date, as the tracer's handler once did): the scheduler shares the CPU
// among them in time slices. Prints the process's involuntary context
// switches (its threads' preemptions) per second of its CPU time.
//
//   sliced_threads [MILLIONS]
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

static long Millions = 300;
volatile unsigned long Sink;

static void *spin(void *Arg) {
  (void)Arg;
  unsigned long X = 1;
  for (long I = 0; I < Millions * 1000000; ++I) {
    X = X * 6364136223846793005ul + 1442695040888963407ul;
    __asm__ volatile("" : "+r"(X)); // one step at a time
  }
  Sink = X;
  return NULL;
}

int main(int Argc, char **Argv) {
  if (Argc > 1)
    Millions = atol(Argv[1]);
  cpu_set_t Set;
  if (sched_getaffinity(0, sizeof(Set), &Set) == 0) {
    for (int C = 0; C < CPU_SETSIZE; ++C)
      if (CPU_ISSET(C, &Set)) {
        CPU_ZERO(&Set);
        CPU_SET(C, &Set);
        sched_setaffinity(0, sizeof(Set), &Set);
        break;
      }
  }
  pthread_t T[4];
  for (int I = 0; I < 4; ++I)
    pthread_create(&T[I], NULL, spin, NULL);
  for (int I = 0; I < 4; ++I)
    pthread_join(T[I], NULL);
  struct rusage R;
  getrusage(RUSAGE_SELF, &R);
  double CPU = R.ru_utime.tv_sec + R.ru_utime.tv_usec / 1e6 +
               R.ru_stime.tv_sec + R.ru_stime.tv_usec / 1e6;
  printf("preemptions per CPU second: %.0f\n", R.ru_nivcsw / CPU);
  return 0;
}
