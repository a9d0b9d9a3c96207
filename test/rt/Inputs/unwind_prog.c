// Callers to the thread's start in code without frame pointers (built -O2
// with -fomit-frame-pointer, as every compiler builds by default): two
// threads share one compare-exchange helper, take(), through two callers;
// a third sorts with the C library's qsort, whose comparator is called
// from inside the C library; the main thread works too (its stacks end at
// _start, the threads' at clone or clone3).
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static _Atomic long tokens;
static int values[4096];

static long cpu_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

__attribute__((noinline)) void take(void) {
  long v = atomic_load_explicit(&tokens, memory_order_relaxed);
  while (!atomic_compare_exchange_weak(&tokens, &v, v + 1)) {
  }
}

__attribute__((noinline)) void reader_loop(long ms) {
  long until = cpu_ms() + ms;
  while (cpu_ms() < until)
    for (int i = 0; i < 1000; ++i)
      take();
}

__attribute__((noinline)) void writer_loop(long ms) {
  long until = cpu_ms() + ms;
  while (cpu_ms() < until)
    for (int i = 0; i < 1000; ++i)
      take();
}

__attribute__((noinline)) int by_value(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

__attribute__((noinline)) void sorter(long ms) {
  long until = cpu_ms() + ms;
  unsigned seed = 1;
  while (cpu_ms() < until) {
    for (int i = 0; i < 4096; ++i)
      values[i] = (int)(seed = seed * 1103515245u + 12345u);
    qsort(values, 4096, sizeof(int), by_value);
  }
}

static void *run_reader(void *arg) {
  reader_loop((long)arg);
  return 0;
}

static void *run_writer(void *arg) {
  writer_loop((long)arg);
  return 0;
}

int main(void) {
  pthread_t t[2];
  pthread_create(&t[0], 0, run_reader, (void *)400L);
  pthread_create(&t[1], 0, run_writer, (void *)400L);
  sorter(400);
  for (int i = 0; i < 2; ++i)
    pthread_join(t[i], 0);
  printf("done %d\n", tokens > 0);
  return 0;
}
