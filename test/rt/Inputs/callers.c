// Who calls the hot atomic: a reference count's compare-exchange in a
// shared helper (ref_get), called by reader() in one thread; and two
// threads whose time goes to the C library's mutex code, called by
// writer(). Built with frame pointers, as profiled code is.
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

static _Atomic long refs;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static long shared;

static long cpu_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

__attribute__((noinline)) void ref_get(void) {
  long v = atomic_load(&refs);
  while (!atomic_compare_exchange_weak(&refs, &v, v + 1)) {
  }
}

__attribute__((noinline)) void reader(long ms) {
  long until = cpu_ms() + ms;
  while (cpu_ms() < until)
    for (int i = 0; i < 1000; ++i)
      ref_get(); // the call of the hot helper
}

__attribute__((noinline)) void writer(long ms) {
  long until = cpu_ms() + ms;
  while (cpu_ms() < until)
    for (int i = 0; i < 1000; ++i) {
      pthread_mutex_lock(&mu);
      ++shared;
      pthread_mutex_unlock(&mu);
    }
}

static void *run_reader(void *arg) {
  reader((long)arg);
  return 0;
}

static void *run_writer(void *arg) {
  writer((long)arg);
  return 0;
}

int main(void) {
  pthread_t t[3];
  pthread_create(&t[0], 0, run_reader, (void *)300L);
  pthread_create(&t[1], 0, run_writer, (void *)300L);
  pthread_create(&t[2], 0, run_writer, (void *)300L);
  for (int i = 0; i < 3; ++i)
    pthread_join(t[i], 0);
  printf("done %ld\n", shared > 0 && refs > 0 ? 1L : 0L);
  return 0;
}
