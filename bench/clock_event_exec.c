// Runs a program with a perf task-clock event on each of its threads that
// expires every millisecond of the thread's CPU time and does nothing
// else: no signal, no sample written, no reader. The timer behind any
// sampler at 1000 Hz (perf record's, the tracer's), without the sampler:
// its cost is the floor of theirs on this machine (bench/tracer_overhead.py,
// bench/tracer_fork_server.py). The event is opened on this process,
// inherited by every thread and child it starts, and kept across the exec.
//
//   clock_event_exec [-p PERIOD_NS] PROGRAM [ARG...]
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int Argc, char **Argv) {
  long Period = 1000000;
  int First = 1;
  if (Argc > 2 && !strcmp(Argv[1], "-p")) {
    Period = atol(Argv[2]);
    First = 3;
  }
  if (First >= Argc || Period <= 0) {
    fprintf(stderr, "usage: clock_event_exec [-p PERIOD_NS] PROGRAM [ARG...]\n");
    return 2;
  }
  struct perf_event_attr A;
  memset(&A, 0, sizeof(A));
  A.size = sizeof(A);
  A.type = PERF_TYPE_SOFTWARE;
  A.config = PERF_COUNT_SW_TASK_CLOCK;
  A.sample_period = (unsigned long long)Period;
  A.inherit = 1;
  A.exclude_hv = 1;
  if (syscall(SYS_perf_event_open, &A, 0, -1, -1, 0) < 0) {
    perror("clock_event_exec: perf_event_open");
    return 1;
  }
  execvp(Argv[First], Argv + First);
  perror("clock_event_exec: exec");
  return 127;
}
