// Three threads contend on one global mutex (test/rt/data-mutex.c): the
// C library's lock code has no tables, and its accesses still name the
// mutex. The lock and the counter it protects each get a cache line of
// their own, so that the lock's line does not depend on how the linker
// lays out the runtime's data beside the program's.
#include <pthread.h>
#include <stdio.h>
#include <time.h>
_Alignas(64) pthread_mutex_t big_lock = PTHREAD_MUTEX_INITIALIZER;
_Alignas(64) long protected_total;
static void *worker(void *arg) {
  struct timespec start, now;
  clock_gettime(CLOCK_MONOTONIC, &start);
  do {
    for (int i = 0; i < 1000; ++i) {
      pthread_mutex_lock(&big_lock);
      ++protected_total;
      pthread_mutex_unlock(&big_lock);
    }
    clock_gettime(CLOCK_MONOTONIC, &now);
  } while ((now.tv_sec - start.tv_sec) + (now.tv_nsec - start.tv_nsec) / 1e9 < 0.5);
  return arg;
}
int main(void) {
  pthread_t t[3];
  for (int i = 0; i < 3; ++i) pthread_create(&t[i], 0, worker, 0);
  for (int i = 0; i < 3; ++i) pthread_join(t[i], 0);
  printf("%ld\n", protected_total);
}
