// One atomic statement that the compiler copies eight times (an unrolled
// loop) and one on a line of its own, for test/rt/tracer-lines.c.
#include <stdatomic.h>
#include <time.h>

_Atomic long hits, misses;

static double cpu_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

__attribute__((noinline)) void count_hits(long n) {
#pragma clang loop unroll_count(8)
  for (long i = 0; i < n; ++i)
    atomic_fetch_add_explicit(&hits, 1, memory_order_relaxed);
}

__attribute__((noinline)) void count_miss(void) {
  atomic_fetch_add_explicit(&misses, 1, memory_order_relaxed);
}

int main(void) {
  double until = cpu_seconds() + 0.6;
  while (cpu_seconds() < until) {
    count_hits(100000);
    for (int i = 0; i < 20000; ++i)
      count_miss();
  }
  return 0;
}
