// Two threads hand a byte to each other through pipes, with a little work
// between: each blocks every few microseconds of CPU time. A third thread
// looks every 5 ms at the process's open perf events
// (/proc/self/fd/* -> anon_inode:[perf_event]) and prints how often it
// saw none held beyond the baseline (those open before the hand-over) and
// how often two or more (an event for each of the two threads).
//
//   switching_events [SECONDS]
#define _GNU_SOURCE
#include <dirent.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int ToPeer[2], ToMain[2];
static atomic_int Done;
volatile unsigned long Sink;

static void work(void) {
  unsigned long X = 1;
  for (int I = 0; I < 2000; ++I)
    X = X * 6364136223846793005ul + 1442695040888963407ul;
  Sink = X;
}

static void *peer(void *Arg) {
  (void)Arg;
  char C;
  while (read(ToPeer[0], &C, 1) == 1 && C) {
    work();
    if (write(ToMain[1], &C, 1) != 1)
      break;
  }
  return NULL;
}

static void *pinger(void *Arg) {
  (void)Arg;
  char C = 1;
  while (!atomic_load(&Done)) {
    if (write(ToPeer[1], &C, 1) != 1)
      break;
    work();
    if (read(ToMain[0], &C, 1) != 1)
      break;
  }
  C = 0;
  if (write(ToPeer[1], &C, 1) != 1)
    return NULL;
  return NULL;
}

static int perfEvents(void) {
  DIR *D = opendir("/proc/self/fd");
  if (!D)
    return -1;
  int N = 0;
  struct dirent *E;
  char Path[64], Target[64];
  while ((E = readdir(D))) {
    snprintf(Path, sizeof(Path), "/proc/self/fd/%s", E->d_name);
    ssize_t L = readlink(Path, Target, sizeof(Target) - 1);
    if (L <= 0)
      continue;
    Target[L] = 0;
    N += strcmp(Target, "anon_inode:[perf_event]") == 0;
  }
  closedir(D);
  return N;
}

int main(int Argc, char **Argv) {
  double Seconds = Argc > 1 ? atof(Argv[1]) : 2;
  if (pipe(ToPeer) || pipe(ToMain))
    return 1;
  int Base = perfEvents();
  pthread_t A, B;
  pthread_create(&A, NULL, peer, NULL);
  pthread_create(&B, NULL, pinger, NULL);
  int Looks = (int)(Seconds * 200), None = 0, Both = 0;
  // The first half second: the threads' reviews choose.
  struct timespec Step = {0, 5000000};
  for (int I = 0; I < 100; ++I)
    nanosleep(&Step, NULL);
  for (int I = 0; I < Looks; ++I) {
    int N = perfEvents() - Base;
    None += N <= 0;
    Both += N >= 2;
    nanosleep(&Step, NULL);
  }
  atomic_store(&Done, 1);
  pthread_join(B, NULL);
  pthread_join(A, NULL);
  printf("looks: %d, none: %d%%, both: %d%%\n", Looks, None * 100 / Looks,
         Both * 100 / Looks);
  return 0;
}
