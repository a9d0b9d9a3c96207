// Creates and joins N threads (default 20000) that do nothing, one after
// the other, and prints the time per thread: what a thread's start and end
// cost (bench/thread_start.py, test/rt/thread-start.c).
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static void *nothing(void *Arg) { return Arg; }

int main(int Argc, char **Argv) {
  long N = Argc > 1 ? atol(Argv[1]) : 20000;
  struct timespec A, B;
  clock_gettime(CLOCK_MONOTONIC, &A);
  for (long I = 0; I < N; ++I) {
    pthread_t T;
    if (pthread_create(&T, NULL, nothing, NULL) != 0 ||
        pthread_join(T, NULL) != 0) {
      perror("pthread");
      return 1;
    }
  }
  clock_gettime(CLOCK_MONOTONIC, &B);
  double Ns = (B.tv_sec - A.tv_sec) * 1e9 + (B.tv_nsec - A.tv_nsec);
  printf("%ld threads: %.2f us each\n", N, Ns / N / 1000);
  return 0;
}
