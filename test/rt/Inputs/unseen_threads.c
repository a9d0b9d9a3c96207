/* Busy threads that the runtime's pthread_create interceptor never sees:
 * started through the C library's own pthread_create, as threads a
 * sanitizer's interceptor starts, or a raw clone, are. One more of them
 * than there are CPUs, so that the cores are busy and only the tracer's
 * scan can give them their timers. For tracer-unseen-threads.c.
 *
 *   unseen_threads [after-known-thread | busy-main]
 *
 * after-known-thread (the default): the program has started a thread with
 * pthread_create first (the tracer's scan thread starts with it); the main
 * thread sleeps while the unseen ones run. busy-main: no such thread; the
 * main thread spins beside them (the tracer's handler scans). */
#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef int (*CreateFn)(pthread_t *, const pthread_attr_t *, void *(*)(void *),
                        void *);
typedef int (*JoinFn)(pthread_t, void **);

static _Atomic long Counter;
static atomic_int Stop;

static long cpuMillis(void) {
  struct timespec T;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &T);
  return T.tv_sec * 1000 + T.tv_nsec / 1000000;
}

/* Until Stop; the main thread (Main) sets it after 0.8 s of the process's
 * CPU time. */
__attribute__((noinline)) void spin_on_atomic(int Main) {
  while (!atomic_load_explicit(&Stop, memory_order_relaxed)) {
    for (int I = 0; I < 10000; ++I)
      atomic_fetch_add(&Counter, 1);
    if (Main && cpuMillis() >= 800)
      atomic_store(&Stop, 1);
  }
}

static void *busy(void *Arg) {
  (void)Arg;
  spin_on_atomic(0);
  return NULL;
}

static void *known(void *Arg) { return Arg; }

int main(int Argc, char **Argv) {
  int BusyMain = Argc > 1 && !strcmp(Argv[1], "busy-main");
  if (Argc > 1 && !BusyMain && strcmp(Argv[1], "after-known-thread")) {
    fprintf(stderr, "usage: unseen_threads [after-known-thread | busy-main]\n");
    return 2;
  }
  if (!BusyMain) {
    pthread_t K;
    if (pthread_create(&K, NULL, known, NULL) || pthread_join(K, NULL))
      return 1;
  }
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
  if (BusyMain) {
    spin_on_atomic(1);
  } else {
    /* 0.8 s of the process's CPU time, at most 20 s of wall time. */
    struct timespec Tick = {0, 10 * 1000 * 1000};
    for (int Waits = 0; cpuMillis() < 800 && Waits < 2000; ++Waits)
      nanosleep(&Tick, NULL);
    atomic_store(&Stop, 1);
  }
  for (long I = 0; I < N; ++I)
    Join(T[I], NULL);
  printf("busy threads past the interceptor: %s\n", N > 1 ? "yes" : "no");
  return 0;
}
