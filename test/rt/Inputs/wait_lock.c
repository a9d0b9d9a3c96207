// Threads that block (test/rt/wait-lock.c): four workers take turns on a
// global mutex, each holding it about 1 ms (asleep in critical()); a reader
// blocks in read() on a pipe until the workers are done; the main thread
// joins. Every blocking call that fails with EINTR is counted: the wait
// sampler must never interrupt one.
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

pthread_mutex_t big_lock = PTHREAD_MUTEX_INITIALIZER;
static int Pipe[2];
static double Waited[4];
static int Interrupted;

static double now(void) {
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return T.tv_sec + T.tv_nsec / 1e9;
}

__attribute__((noinline)) static void critical(void) {
  struct timespec D = {0, 1000000};
  while (nanosleep(&D, &D) != 0)
    if (errno == EINTR)
      __atomic_fetch_add(&Interrupted, 1, __ATOMIC_RELAXED);
}

static void *worker(void *Arg) {
  long I = (long)Arg;
  double End = now() + 1.0;
  while (now() < End) {
    double T0 = now();
    pthread_mutex_lock(&big_lock);
    Waited[I] += now() - T0;
    critical();
    pthread_mutex_unlock(&big_lock);
  }
  return 0;
}

__attribute__((noinline)) static void *reader(void *Arg) {
  char C;
  ssize_t N;
  while ((N = read(Pipe[0], &C, 1)) < 0)
    if (errno == EINTR)
      __atomic_fetch_add(&Interrupted, 1, __ATOMIC_RELAXED);
  return Arg;
}

int main(void) {
  if (pipe(Pipe))
    return 1;
  pthread_t R, T[4];
  pthread_create(&R, 0, reader, 0);
  for (long I = 0; I < 4; ++I)
    pthread_create(&T[I], 0, worker, (void *)I);
  for (int I = 0; I < 4; ++I)
    pthread_join(T[I], 0);
  if (write(Pipe[1], "x", 1) != 1)
    return 1;
  pthread_join(R, 0);
  double W = 0;
  for (int I = 0; I < 4; ++I)
    W += Waited[I];
  printf("big_lock at %p: waited %.3f s; EINTR %d\n", (void *)&big_lock, W,
         Interrupted);
  return 0;
}
