// What a profiled program often looks like: one thread busy on an atomic
// loop, others asleep (a nanosleep loop, a condition wait) or short-lived.
//   idle   one busy thread (about 0.6 s of CPU time) and two idle ones
//   short  40 short-lived threads one after another, each busy for about
//          15 ms of its own CPU time, and one idle thread
// It prints how often the sleepers were interrupted (EINTR, spurious
// wake-ups), which must be never.
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static _Atomic long counter;
static atomic_int stop;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static long eintrs, spurious;

static long thread_cpu_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

__attribute__((noinline)) static void spin_on_atomic(long cpu_ms) {
  long until = thread_cpu_ms() + cpu_ms;
  do {
    for (int i = 0; i < 20000; ++i)
      atomic_fetch_add_explicit(&counter, 1, memory_order_relaxed);
  } while (thread_cpu_ms() < until);
}

static void *busy(void *arg) {
  spin_on_atomic((long)arg);
  return 0;
}

static void *sleeper(void *arg) {
  (void)arg;
  while (!atomic_load(&stop)) {
    struct timespec d = {0, 2 * 1000 * 1000};
    if (nanosleep(&d, 0) != 0 && errno == EINTR)
      ++eintrs;
  }
  return 0;
}

static void *waiter(void *arg) {
  (void)arg;
  pthread_mutex_lock(&lock);
  while (!atomic_load(&stop)) {
    pthread_cond_wait(&cond, &lock);
    if (!atomic_load(&stop))
      ++spurious;
  }
  pthread_mutex_unlock(&lock);
  return 0;
}

int main(int argc, char **argv) {
  int short_lived = argc > 1 && !strcmp(argv[1], "short");
  pthread_t s, w, b;
  pthread_create(&s, 0, sleeper, 0);
  pthread_create(&w, 0, waiter, 0);
  if (short_lived) {
    for (int i = 0; i < 40; ++i) {
      pthread_create(&b, 0, busy, (void *)15L);
      pthread_join(b, 0);
    }
  } else {
    pthread_create(&b, 0, busy, (void *)600L);
    pthread_join(b, 0);
  }
  // main sleeps too: a sleep that returns early is a changed program.
  struct timespec d = {0, 50 * 1000 * 1000};
  if (nanosleep(&d, 0) != 0 && errno == EINTR)
    ++eintrs;
  atomic_store(&stop, 1);
  pthread_mutex_lock(&lock);
  pthread_cond_broadcast(&cond);
  pthread_mutex_unlock(&lock);
  pthread_join(s, 0);
  pthread_join(w, 0);
  printf("interrupted sleeps: %ld, spurious wake-ups: %ld\n", eintrs, spurious);
  return 0;
}
