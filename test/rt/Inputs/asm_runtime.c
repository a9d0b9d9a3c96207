// Atomics written in inline asm, as the runtime's consumers see them
// (asm-runtime.c): the fault reporter at a recorded asm atomic and in a
// function whose asm pcmap cannot analyse, the tracer on a spinlock written
// in asm, and the function report.
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

__attribute__((noinline)) void spin_lock(volatile int *L) {
  int Busy;
  do {
    Busy = 1;
    __asm__ volatile("lock; xchgl %0, %1" : "+r"(Busy), "+m"(*L)::"memory");
  } while (Busy);
}

__attribute__((noinline)) void spin_unlock(volatile int *L) {
  __asm__ volatile("movl $0, %0" : "=m"(*L)::"memory");
}

__attribute__((noinline)) void fault_xchgb(char *P) {
  char V = 1;
  __asm__ volatile("lock; xchgb %0, %1" : "+q"(V), "+m"(*P)::"memory");
}

__attribute__((noinline)) void fault_opaque(int *P) {
  // lock incl (%rdi), written as bytes: pcmap cannot see what they are.
  __asm__ volatile(".byte 0xf0, 0xff, 0x07" ::"D"(P) : "memory");
}

static double cpuSeconds(void) {
  struct timespec T;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &T);
  return T.tv_sec + T.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
  const char *Mode = argc > 1 ? argv[1] : "";
  if (!strcmp(Mode, "spin")) {
    static volatile int Lock;
    double End = cpuSeconds() + 0.5;
    unsigned long Rounds = 0;
    while (cpuSeconds() < End)
      for (int I = 0; I < 1000; ++I, ++Rounds) {
        spin_lock(&Lock);
        spin_unlock(&Lock);
      }
    printf("spun %s\n", Rounds ? "yes" : "no");
    return 0;
  }
  void *Page = mmap(0, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (Page == MAP_FAILED)
    return 1;
  printf("page %p\n", Page);
  fflush(stdout);
  if (!strcmp(Mode, "xchg"))
    fault_xchgb((char *)Page);
  else if (!strcmp(Mode, "opaque"))
    fault_opaque((int *)Page);
  return 0;
}
