/* A program for the musl recipe (corpus.py), built against the musl it
 * built, dynamically (its libc.so as the dynamic linker) and statically
 * (its libc.a): threads, atomics, a mutex and a condition variable,
 * pthread_once, malloc/free across threads, and stdio. The atomics are
 * the compiler's builtins: musl has no <stdatomic.h> (the compiler's
 * headers are left out by -nostdinc). Prints "PASS: ..."
 * and exits 0 when every count is what it must be. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 4
#define ROUNDS 20000
#define LOAD(x) __atomic_load_n(&(x), __ATOMIC_SEQ_CST)

static long counter;
static long locked_counter;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int arrived;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int once_runs;

static void init_once(void) {
  __atomic_fetch_add(&once_runs, 1, __ATOMIC_SEQ_CST);
}

static void *worker(void *arg) {
  long id = (long)arg;
  pthread_once(&once, init_once);
  /* Wait until every thread has started: a condition variable. */
  pthread_mutex_lock(&lock);
  if (++arrived == THREADS)
    pthread_cond_broadcast(&cond);
  while (arrived < THREADS)
    pthread_cond_wait(&cond, &lock);
  pthread_mutex_unlock(&lock);
  for (int i = 0; i < ROUNDS; i++) {
    __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED);
    pthread_mutex_lock(&lock);
    locked_counter++;
    pthread_mutex_unlock(&lock);
    if (i % 1000 == 0) {
      char *p = malloc(64 + id * 16);
      if (!p)
        return (void *)1;
      memset(p, (int)id, 64);
      free(p);
    }
  }
  return 0;
}

int main(void) {
  pthread_t t[THREADS];
  for (long i = 0; i < THREADS; i++)
    if (pthread_create(&t[i], 0, worker, (void *)i)) {
      printf("FAIL: pthread_create\n");
      return 1;
    }
  long bad = 0;
  for (int i = 0; i < THREADS; i++) {
    void *r;
    pthread_join(t[i], &r);
    bad += r != 0;
  }
  long want = (long)THREADS * ROUNDS;
  if (bad || LOAD(counter) != want || locked_counter != want ||
      LOAD(once_runs) != 1) {
    printf("FAIL: atomic %ld, locked %ld (of %ld), once %d, malloc %ld\n",
           LOAD(counter), locked_counter, want, LOAD(once_runs), bad);
    return 1;
  }
  printf("PASS: %d threads, %ld atomic and %ld locked increments\n",
         THREADS, LOAD(counter), locked_counter);
  return 0;
}
