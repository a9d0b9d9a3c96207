/* Busy threads that the runtime's pthread_create interceptor never sees:
 * started through the C library's own pthread_create, as threads a
 * sanitizer's interceptor starts, or a raw clone, are. One more of them
 * than there are CPUs, so that the cores are busy and only the tracer's
 * scan can give them their timers. For tracer-unseen-threads.c. */
#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

typedef int (*CreateFn)(pthread_t *, const pthread_attr_t *, void *(*)(void *),
                        void *);
typedef int (*JoinFn)(pthread_t, void **);

static _Atomic long Counter;
static atomic_int Stop;

__attribute__((noinline)) void spin_on_atomic(void) {
  while (!atomic_load_explicit(&Stop, memory_order_relaxed))
    for (int I = 0; I < 1000; ++I)
      atomic_fetch_add(&Counter, 1);
}

static void *busy(void *Arg) {
  (void)Arg;
  spin_on_atomic();
  return NULL;
}

static long cpuMillis(void) {
  struct timespec T;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &T);
  return T.tv_sec * 1000 + T.tv_nsec / 1000000;
}

int main(void) {
  void *Libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
  CreateFn Create = Libc ? (CreateFn)dlsym(Libc, "pthread_create") : NULL;
  /* A sanitizer's pthread_join knows only the threads it started. */
  JoinFn Join = Libc ? (JoinFn)dlsym(Libc, "pthread_join") : NULL;
  if (!Create || !Join || Create == (CreateFn)pthread_create) {
    fprintf(stderr, "cannot reach the C library's pthread_create\n");
    return 1;
  }
  long N = sysconf(_SC_NPROCESSORS_ONLN) + 1;
  if (N < 2 || N > 8)
    N = N < 2 ? 2 : 8;
  pthread_t T[8];
  for (long I = 0; I < N; ++I)
    if (Create(&T[I], NULL, busy, NULL) != 0)
      return 1;
  /* 0.8 s of the process's CPU time, at most 20 s of wall time. */
  struct timespec Tick = {0, 10 * 1000 * 1000};
  for (int Waits = 0; cpuMillis() < 800 && Waits < 2000; ++Waits)
    nanosleep(&Tick, NULL);
  atomic_store(&Stop, 1);
  for (long I = 0; I < N; ++I)
    Join(T[I], NULL);
  printf("busy threads past the interceptor: %s\n", N > 1 ? "yes" : "no");
  return 0;
}
