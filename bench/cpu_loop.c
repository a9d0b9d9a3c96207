// A single thread's fixed CPU-bound work (relaxed atomic adds in a covered
// function), for bench/tracer_timer_cost.py: it prints the CPU time the
// work took, in milliseconds, so that a profiler's own process is not
// counted. With "timer", the thread first opens a perf task-clock event on
// itself that overflows every millisecond of its CPU time and sends no
// signal: what the high-resolution timer behind any 1000 Hz sampler costs,
// with nothing done at its expiries.
//
//   cpu_loop [ITERATIONS [timer]]
#include <linux/perf_event.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

_Atomic long Counter;

__attribute__((noinline)) void add1000(void) {
  for (int I = 0; I < 1000; ++I)
    atomic_fetch_add_explicit(&Counter, 1, memory_order_relaxed);
}

static void openTimer(void) {
  struct perf_event_attr A;
  memset(&A, 0, sizeof(A));
  A.size = sizeof(A);
  A.type = PERF_TYPE_SOFTWARE;
  A.config = PERF_COUNT_SW_TASK_CLOCK;
  A.sample_period = 1000000;
  A.exclude_kernel = 1;
  A.exclude_hv = 1;
  int Fd = (int)syscall(SYS_perf_event_open, &A, 0, -1, -1, 0);
  if (Fd < 0) {
    perror("cpu_loop: perf_event_open");
    exit(1);
  }
}

int main(int Argc, char **Argv) {
  long N = Argc > 1 ? atol(Argv[1]) : 300000;
  if (Argc > 2 && !strcmp(Argv[2], "timer"))
    openTimer();
  struct timespec A, B;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &A);
  for (long I = 0; I < N; ++I)
    add1000();
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &B);
  printf("%.3f\n", (B.tv_sec - A.tv_sec) * 1e3 + (B.tv_nsec - A.tv_nsec) / 1e6);
  return 0;
}
