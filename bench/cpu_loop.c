// A single thread's fixed CPU-bound work (relaxed atomic adds in a covered
// function), for bench/tracer_timer_cost.py: it prints the CPU time the
// work took, in milliseconds, so that a profiler's own process is not
// counted.
//
//   cpu_loop [ITERATIONS]
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

_Atomic long Counter;

__attribute__((noinline)) void add1000(void) {
  for (int I = 0; I < 1000; ++I)
    atomic_fetch_add_explicit(&Counter, 1, memory_order_relaxed);
}

int main(int Argc, char **Argv) {
  long N = Argc > 1 ? atol(Argv[1]) : 300000;
  struct timespec A, B;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &A);
  for (long I = 0; I < N; ++I)
    add1000();
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &B);
  printf("%.3f\n", (B.tv_sec - A.tv_sec) * 1e3 + (B.tv_nsec - A.tv_nsec) / 1e6);
  return 0;
}
