// Three threads contend on one global mutex (test/rt/data-mutex.c): the
// C library's lock code has no tables, and its accesses still name the
// mutex.
#include <pthread.h>
#include <stdio.h>
#include <time.h>
pthread_mutex_t big_lock = PTHREAD_MUTEX_INITIALIZER;
long protected_total;
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
