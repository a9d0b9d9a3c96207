/* A single-threaded program that later starts a thread, for
 * tracer-single-threaded.c. It spins on an atomic for some CPU time, then
 * prints what the C library and the kernel say of its threads: first in
 * the main thread, then in a forked child (which spins too), then after a
 * thread started with pthread_create has been joined:
 *
 *   main: libc single-threaded: 1, threads: 1
 *   child: libc single-threaded: 1, threads: 1
 *   after pthread_create: libc single-threaded: 0, threads: N
 *
 * "threads" counts /proc/self/task. */
#define _GNU_SOURCE 1
#include <dirent.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Set by glibc (2.32 and later) while the process has one thread. */
extern char __libc_single_threaded;

static _Atomic unsigned long Spins;

static double threadCPUSeconds(void) {
  struct timespec T;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &T);
  return T.tv_sec + T.tv_nsec / 1e9;
}

__attribute__((noinline)) void spin_on_atomic(double Seconds) {
  double End = threadCPUSeconds() + Seconds;
  while (threadCPUSeconds() < End)
    for (int I = 0; I < 10000; ++I)
      atomic_fetch_add(&Spins, 1);
}

static unsigned countThreads(void) {
  DIR *D = opendir("/proc/self/task");
  if (!D)
    exit(1);
  unsigned Threads = 0;
  struct dirent *E;
  while ((E = readdir(D)))
    Threads += E->d_name[0] != '.';
  closedir(D);
  return Threads;
}

static void show(const char *Where) {
  printf("%s: libc single-threaded: %d, threads: %u\n", Where,
         __libc_single_threaded, countThreads());
  fflush(stdout);
}

static void *worker(void *Arg) {
  spin_on_atomic(0.05);
  return Arg;
}

int main(void) {
  spin_on_atomic(0.2);
  show("main");
  pid_t Child = fork();
  if (Child < 0)
    return 1;
  if (Child == 0) {
    spin_on_atomic(0.2);
    show("child");
    exit(0);
  }
  int Status;
  if (waitpid(Child, &Status, 0) != Child || !WIFEXITED(Status) ||
      WEXITSTATUS(Status))
    return 1;
  pthread_t T;
  if (pthread_create(&T, NULL, worker, NULL) || pthread_join(T, NULL))
    return 1;
  spin_on_atomic(0.1);
  show("after pthread_create");
  return 0;
}
