// An atomic in a helper that is always inlined, into two callers; and a
// fault in an inlined helper.
//   trace  each caller spins on the helper's atomic
//   fault  the inlined helper writes through a null pointer
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static _Atomic long hits;
static long *volatile nowhere;

static inline __attribute__((always_inline)) void bump(void) {
  atomic_fetch_add_explicit(&hits, 1, memory_order_relaxed); // the atomic
}

static inline __attribute__((always_inline)) void poke(void) {
  *nowhere = 1; // the fault
}

static long cpu_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

__attribute__((noinline)) void spin_bump(long ms) {
  long until = cpu_ms() + ms;
  while (cpu_ms() < until)
    for (int i = 0; i < 10000; ++i)
      bump(); // the call that is inlined
}

__attribute__((noinline)) void crash(void) {
  poke(); // the call that faults
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "fault"))
    crash();
  spin_bump(300);
  printf("hits %d\n", hits > 0);
  return 0;
}
