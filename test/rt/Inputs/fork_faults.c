// Runs 100M relaxed atomic adds (the tracer's tables get samples), then
// forks N children (default 21) that exit at once, and prints the median
// of their minor page faults (wait4's ru_minflt): the cost of a forked
// worker's exit, the tracer's report included, in pages touched.
// Usage: fork_faults [N]
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
_Atomic long X;
static int cmp(const void *A, const void *B) {
  long L = *(const long *)A, R = *(const long *)B;
  return (L > R) - (L < R);
}
int main(int argc, char **argv) {
  int N = argc > 1 ? atoi(argv[1]) : 21;
  for (long I = 0; I < 100000000; ++I)
    atomic_fetch_add_explicit(&X, 1, memory_order_relaxed);
  long Faults[101];
  if (N > 101) N = 101;
  for (int I = 0; I < N; ++I) {
    pid_t P = fork();
    if (!P)
      exit(0);
    struct rusage U;
    int Status;
    if (wait4(P, &Status, 0, &U) != P)
      return 1;
    Faults[I] = U.ru_minflt;
  }
  qsort(Faults, N, sizeof(long), cmp);
  printf("child faults: %ld\n", Faults[N / 2]);
  return 0;
}
