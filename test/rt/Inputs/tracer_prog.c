// Two threads hammer one contended counter (hot_increment); a third does
// mostly plain arithmetic (busy_work) and now and then one atomic
// (cold_increment). The tracer must put the hot atomic first.
#include <pcmap/pcmap.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static _Atomic long hot_counter, cold_counter;
static volatile int stop;

__attribute__((noinline)) static void hot_increment(void) {
  while (!stop)
    for (int i = 0; i < 1000; ++i)
      atomic_fetch_add(&hot_counter, 1);
}

__attribute__((noinline)) static double busy_work(double x) {
  for (int i = 0; i < 100000; ++i)
    x = x * 1.0000001 + 0.5;
  return x;
}

__attribute__((noinline)) static void cold_increment(void) {
  atomic_fetch_add_explicit(&cold_counter, 1, memory_order_relaxed);
}

static void *hot_thread(void *arg) {
  (void)arg;
  hot_increment();
  return 0;
}

static void *cold_thread(void *arg) {
  double x = 1;
  while (!stop) {
    x = busy_work(x);
    cold_increment();
  }
  return (void *)(long)(x > 0);
}

int main(int argc, char **argv) {
  pthread_t t[3];
  pthread_create(&t[0], 0, hot_thread, 0);
  pthread_create(&t[1], 0, hot_thread, 0);
  pthread_create(&t[2], 0, cold_thread, 0);
  // Enough samples for the hot atomic to come first: 0.6 s of the
  // process's CPU time (some 600 samples at 1000 Hz), not of wall time,
  // which a loaded machine (the other tests of a parallel run) may give
  // the threads a small part of; at most 20 s.
  struct timespec d = {0, 20 * 1000 * 1000}, Start, Now, Cpu;
  clock_gettime(CLOCK_MONOTONIC, &Start);
  do {
    nanosleep(&d, 0);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &Cpu);
    clock_gettime(CLOCK_MONOTONIC, &Now);
  } while (Cpu.tv_sec * 1000 + Cpu.tv_nsec / 1000000 < 600 &&
           Now.tv_sec - Start.tv_sec < 20);
  stop = 1;
  for (int i = 0; i < 3; ++i)
    pthread_join(t[i], 0);
  if (argc > 1 && !strcmp(argv[1], "dump"))
    pcmap_trace_dump();
  printf("done %ld %ld\n", (long)hot_counter, (long)cold_counter);
  fflush(stdout); // before the report, which is written at exit
  return 0;
}
