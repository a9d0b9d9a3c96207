// A plain counter in shared memory that another process writes: the parent
// maps it (MAP_SHARED), forks a child that increments it for the first
// argument's seconds (1 by default), and reads it meanwhile in a loop of
// plain loads; with "private" the memory is MAP_PRIVATE and the writes
// are a thread's of the parent instead (a race the detector reports
// whatever race_shared says); with "vvar" the loads read the kernel's
// [vvar] page, whose clock data the kernel updates at every tick.
// "racy_shared: done" goes to stderr at the end, before any exit handler.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double seconds = 1.0;

static double now(void) {
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return T.tv_sec + T.tv_nsec / 1e9;
}

__attribute__((noinline)) static void write_counter(long *Counter) {
  for (double End = now() + seconds; now() < End;)
    for (int K = 0; K < 1000; ++K)
      ++*(volatile long *)Counter;
}

static void *writer(void *Counter) {
  write_counter(Counter);
  return NULL;
}

__attribute__((noinline)) static long read_counter(long *Counter) {
  long Sum = 0;
  for (double End = now() + seconds; now() < End;)
    for (int K = 0; K < 1000; ++K)
      Sum += *(volatile long *)Counter;
  return Sum;
}

/// The start of the [vvar] mapping, or null.
static long *vvar(void) {
  FILE *Maps = fopen("/proc/self/maps", "r");
  char Line[512];
  unsigned long Begin = 0;
  while (Maps && fgets(Line, sizeof(Line), Maps))
    if (strstr(Line, "[vvar]") && sscanf(Line, "%lx-", &Begin) == 1)
      break;
  if (Maps)
    fclose(Maps);
  return (long *)Begin;
}

int main(int argc, char **argv) {
  if (argc > 1)
    seconds = atof(argv[1]);
  if (argc > 2 && !strcmp(argv[2], "vvar")) {
    long *Clock = vvar();
    if (!Clock)
      return 1;
    long Sum = read_counter(Clock);
    fprintf(stderr, "racy_shared: done (%d)\n", Sum != 0);
    return 0;
  }
  int Private = argc > 2 && !strcmp(argv[2], "private");
  long *Counter = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
                       (Private ? MAP_PRIVATE : MAP_SHARED) | MAP_ANONYMOUS,
                       -1, 0);
  if (Counter == MAP_FAILED)
    return 1;
  pid_t Child = -1;
  pthread_t Thread;
  if (Private) {
    if (pthread_create(&Thread, NULL, writer, Counter))
      return 1;
  } else if ((Child = fork()) == 0) {
    write_counter(Counter);
    _exit(0);
  }
  long Sum = read_counter(Counter);
  if (Private)
    pthread_join(Thread, NULL);
  else
    waitpid(Child, NULL, 0);
  fprintf(stderr, "racy_shared: done (%d)\n", Sum != 0);
  return 0;
}
