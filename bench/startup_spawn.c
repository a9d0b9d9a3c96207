// The start-up benchmark's spawn loop (bench/startup.py compiles it at run
// time with the plain compiler):
//
//   startup_spawn RUNS WARMUP : COMMAND [ARG...] [: COMMAND [ARG...]]...
//
// runs the commands in turn, RUNS times each, interleaved: in pass I, the
// commands in rotated order, starting with command I mod K, so that each is
// run as often first as the others and a change of the machine's load falls
// on all of them. Each run is posix_spawn then wait4 (the child's stdin,
// stdout and stderr are /dev/null); WARMUP passes before them are not
// counted. For each command it prints one line:
//
//   wall_ns cpu_us minor_faults major_faults max_rss_kib_sum max_rss_kib_max
//
// summed over the RUNS runs: wall time from before posix_spawn to after
// wait4 (CLOCK_MONOTONIC), the child's user + system CPU time and page
// faults, and its peak resident set size (wait4's rusage is the child's own,
// not accumulated over the loop). A command that cannot be spawned, or
// exits other than with status 0, stops the loop: exit status 1, with a
// message.

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

extern char **environ;

struct Command {
  char **Argv;
  unsigned long long WallNs, CpuUs, MinorFaults, MajorFaults, RssSum, RssMax;
};

static unsigned long long nowNs(void) {
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return (unsigned long long)T.tv_sec * 1000000000ull + T.tv_nsec;
}

static unsigned long long microseconds(struct timeval T) {
  return (unsigned long long)T.tv_sec * 1000000ull + T.tv_usec;
}

/// Runs C once; adds what it measured to C's sums if Count.
static int runOnce(struct Command *C, const posix_spawn_file_actions_t *Io,
                   int Count) {
  unsigned long long Start = nowNs();
  pid_t Pid;
  int Err = posix_spawn(&Pid, C->Argv[0], Io, NULL, C->Argv, environ);
  if (Err) {
    fprintf(stderr, "startup_spawn: cannot spawn %s: %s\n", C->Argv[0],
            strerror(Err));
    return 0;
  }
  int Status;
  struct rusage Usage;
  while (wait4(Pid, &Status, 0, &Usage) < 0) {
    if (errno != EINTR) {
      perror("startup_spawn: wait4");
      return 0;
    }
  }
  unsigned long long Wall = nowNs() - Start;
  if (!WIFEXITED(Status) || WEXITSTATUS(Status) != 0) {
    fprintf(stderr, "startup_spawn: %s failed (wait status 0x%x)\n",
            C->Argv[0], Status);
    return 0;
  }
  if (!Count)
    return 1;
  C->WallNs += Wall;
  C->CpuUs += microseconds(Usage.ru_utime) + microseconds(Usage.ru_stime);
  C->MinorFaults += Usage.ru_minflt;
  C->MajorFaults += Usage.ru_majflt;
  C->RssSum += Usage.ru_maxrss;
  if ((unsigned long long)Usage.ru_maxrss > C->RssMax)
    C->RssMax = Usage.ru_maxrss;
  return 1;
}

int main(int Argc, char **Argv) {
  if (Argc < 5 || strcmp(Argv[3], ":") != 0) {
    fprintf(stderr, "usage: startup_spawn RUNS WARMUP : COMMAND [ARG...] "
                    "[: COMMAND [ARG...]]...\n");
    return 2;
  }
  long Runs = atol(Argv[1]), Warmup = atol(Argv[2]);
  // Split the command lines at the ":" separators, in place.
  struct Command *Commands = calloc(Argc, sizeof(struct Command));
  int K = 0;
  for (int I = 3; I < Argc; ++I) {
    if (strcmp(Argv[I], ":") == 0) {
      Argv[I] = NULL;
      if (I + 1 == Argc || strcmp(Argv[I + 1], ":") == 0) {
        fprintf(stderr, "startup_spawn: empty command\n");
        return 2;
      }
      Commands[K++].Argv = &Argv[I + 1];
    }
  }
  posix_spawn_file_actions_t Io;
  posix_spawn_file_actions_init(&Io);
  posix_spawn_file_actions_addopen(&Io, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&Io, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&Io, 2, "/dev/null", O_WRONLY, 0);
  for (long Pass = 0; Pass < Warmup + Runs; ++Pass)
    for (int J = 0; J < K; ++J)
      if (!runOnce(&Commands[(Pass + J) % K], &Io, Pass >= Warmup))
        return 1;
  for (int J = 0; J < K; ++J) {
    struct Command *C = &Commands[J];
    printf("%llu %llu %llu %llu %llu %llu\n", C->WallNs, C->CpuUs,
           C->MinorFaults, C->MajorFaults, C->RssSum, C->RssMax);
  }
  return 0;
}
