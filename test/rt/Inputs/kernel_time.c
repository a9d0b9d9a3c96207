// Three kinds of CPU time in one thread, each measured by the thread's own
// CPU clock around it: user code (spin), page faults (touch_pages: each
// page's first write after drop_pages gave it back), and system calls
// (drop_pages: madvise, which frees the pages, and a getppid per round).
// Given a FILE, a fourth: system calls that take most of the time
// (write_file: 2048 pwrite of a page into FILE a round), which must not
// take the faults' time.
// Prints each one's share of the thread's CPU time, "truth: NAME PERCENT".
// Usage: kernel_time SECONDS [FILE]
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

enum { kPages = 64, kPage = 4096, kSpin = 4000000, kWrites = 2048 };

static double cpuSeconds(void) {
  struct timespec T;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &T);
  return (double)T.tv_sec + (double)T.tv_nsec / 1e9;
}

volatile unsigned long Sink;

__attribute__((noinline)) void spin(void) {
  unsigned long X = 1;
  for (int I = 0; I < kSpin; ++I)
    X = X * 6364136223846793005ul + 1442695040888963407ul;
  Sink = X;
}

__attribute__((noinline)) void touch_pages(char *P) {
  for (int I = 0; I < kPages; ++I)
    ((volatile char *)P)[I * kPage] = 1;
}

__attribute__((noinline)) void drop_pages(char *P) {
  if (madvise(P, kPages * kPage, MADV_DONTNEED) != 0)
    abort();
  Sink += (unsigned long)getppid();
}

__attribute__((noinline)) void write_file(int Fd) {
  static char Page[kPage];
  for (int I = 0; I < kWrites; ++I)
    if (pwrite(Fd, Page, kPage, (off_t)I * kPage) != kPage)
      abort();
}

int main(int argc, char **argv) {
  double Seconds = argc > 1 ? atof(argv[1]) : 3;
  char *P = mmap(0, kPages * kPage, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (P == MAP_FAILED)
    return 1;
  int Fd = -1;
  if (argc > 2 && (Fd = open(argv[2], O_RDWR | O_CREAT | O_TRUNC, 0600)) < 0)
    return 1;
  double Spin = 0, Touch = 0, Drop = 0, Write = 0, Start = cpuSeconds();
  while (cpuSeconds() - Start < Seconds) {
    double A = cpuSeconds();
    spin();
    double B = cpuSeconds();
    touch_pages(P);
    double C = cpuSeconds();
    drop_pages(P);
    double D = cpuSeconds();
    if (Fd >= 0) {
      write_file(Fd);
      Write += cpuSeconds() - D;
    }
    Spin += B - A;
    Touch += C - B;
    Drop += D - C;
  }
  double All = cpuSeconds() - Start;
  printf("truth: spin %.1f\ntruth: touch_pages %.1f\ntruth: drop_pages %.1f\n",
         100 * Spin / All, 100 * Touch / All, 100 * Drop / All);
  if (Fd >= 0)
    printf("truth: write_file %.1f\n", 100 * Write / All);
  return 0;
}
