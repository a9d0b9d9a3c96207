// A worker for the tracer's dump tests (test/rt/tracer-dumps.c):
//   forever  prints "ready" and spins on an atomic until it is killed
//   crash    spins for about 0.5 s of CPU time, then dereferences null
//   quit     spins for about 2.5 s of CPU time, then _exit(0): no exit
//            handlers run
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static _Atomic long Counter;

static double cpuSeconds(void) {
  struct timespec T;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &T);
  return T.tv_sec + T.tv_nsec / 1e9;
}

__attribute__((noinline)) static void spin(double Seconds) {
  double End = cpuSeconds() + Seconds;
  while (Seconds < 0 || cpuSeconds() < End)
    for (int I = 0; I < 10000; ++I)
      atomic_fetch_add(&Counter, 1);
}

int main(int Argc, char **Argv) {
  const char *Mode = Argc > 1 ? Argv[1] : "forever";
  if (!strcmp(Mode, "crash")) {
    spin(0.5);
    *(volatile int *)0 = 1;
  }
  if (!strcmp(Mode, "quit")) {
    spin(2.5);
    _exit(0);
  }
  printf("ready\n");
  fflush(stdout);
  spin(-1);
  return 0;
}
