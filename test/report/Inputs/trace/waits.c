/* Futex words of a C program for pcmap-report trace's wait names and
   kinds (trace-waits-names.test): a global mutex, a mutex that is a
   struct's member, a condition variable. Run, it prints where each is in
   the module (its address less the load bias, a symbol's value) and the C
   library's path. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

struct cache {
  long hits;
  pthread_mutex_t mu;
};

pthread_mutex_t big_lock = PTHREAD_MUTEX_INITIALIZER;
struct cache cache = {0, PTHREAD_MUTEX_INITIALIZER};
pthread_cond_t ready = PTHREAD_COND_INITIALIZER;
int flag = 1;

__attribute__((noinline)) void lock_big(void) {
  pthread_mutex_lock(&big_lock);
  pthread_mutex_unlock(&big_lock);
}

__attribute__((noinline)) void lock_cache(void) {
  pthread_mutex_lock(&cache.mu);
  ++cache.hits;
  pthread_mutex_unlock(&cache.mu);
}

__attribute__((noinline)) void wait_ready(void) {
  pthread_mutex_lock(&big_lock);
  while (!flag)
    pthread_cond_wait(&ready, &big_lock);
  pthread_mutex_unlock(&big_lock);
}

static int first_object(struct dl_phdr_info *Info, size_t Size, void *Bias) {
  (void)Size;
  *(uintptr_t *)Bias = Info->dlpi_addr;
  return 1; /* the executable comes first */
}

int main(void) {
  uintptr_t Bias = 0;
  dl_iterate_phdr(first_object, &Bias);
  lock_big();
  lock_cache();
  wait_ready();
  printf("big_lock module 0x%lx\n", (unsigned long)((uintptr_t)&big_lock - Bias));
  printf("cache.mu module 0x%lx\n", (unsigned long)((uintptr_t)&cache.mu - Bias));
  /* glibc waits on a word inside the condition variable. */
  printf("ready module 0x%lx\n", (unsigned long)((uintptr_t)&ready + 8 - Bias));
  Dl_info Info;
  if (dladdr((void *)pthread_mutex_lock, &Info))
    printf("libc path %s\n", Info.dli_fname);
  return 0;
}
