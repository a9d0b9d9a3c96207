// What a task-clock sampling event costs a thread at each context switch:
// two threads hand a turn to each other through a futex, on one core, and
// the program prints the microseconds a round (two switches) took, in one
// of these modes:
//
//   none       no event
//   counting   an event for each thread that only counts (no timer)
//   own        an event for each thread that samples every millisecond of
//              its CPU time (a timer the kernel stops and starts at each of
//              the thread's switches), sending SIGTRAP (as the runtime's
//              per-thread events with trace_kernel_events)
//   inherited  one such event, opened by the first thread before it starts
//              the second, which holds a copy (inherit): the kernel swaps
//              the copies at a switch between the two, as for perf
//              record's threads (the runtime's process event)
//
//   event_switch_cost MODE [ROUNDS]
#define _GNU_SOURCE
#include <linux/futex.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static enum { None, Counting, Own, Inherited } Mode;
static atomic_int Turn;
static long Rounds = 200000;
static atomic_long Traps;

static void onTrap(int Signal) {
  (void)Signal;
  atomic_fetch_add_explicit(&Traps, 1, memory_order_relaxed);
}

static void openEvent(void) {
  struct perf_event_attr A;
  memset(&A, 0, sizeof(A));
  A.size = sizeof(A);
  A.type = PERF_TYPE_SOFTWARE;
  A.config = PERF_COUNT_SW_TASK_CLOCK;
  A.exclude_hv = 1;
  if (Mode != Counting) {
    A.sample_period = 1000000;
    A.sigtrap = 1;
    A.remove_on_exec = 1;
  }
  if (Mode == Inherited) {
    A.inherit = 1;
    A.inherit_thread = 1;
  }
  if (syscall(SYS_perf_event_open, &A, 0, -1, -1, 0) < 0) {
    perror("event_switch_cost: perf_event_open");
    exit(1);
  }
}

static void wait(int Value) {
  syscall(SYS_futex, &Turn, FUTEX_WAIT_PRIVATE, Value, NULL, NULL, 0);
}
static void wake(void) {
  syscall(SYS_futex, &Turn, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static void *partner(void *Arg) {
  (void)Arg;
  if (Mode == Counting || Mode == Own)
    openEvent();
  for (long I = 0; I < Rounds; ++I) {
    while (atomic_load(&Turn) != 1)
      wait(0);
    atomic_store(&Turn, 0);
    wake();
  }
  return NULL;
}

int main(int Argc, char **Argv) {
  const char *Name = Argc > 1 ? Argv[1] : "none";
  Mode = !strcmp(Name, "counting")    ? Counting
         : !strcmp(Name, "own")       ? Own
         : !strcmp(Name, "inherited") ? Inherited
                                      : None;
  if (Argc > 2)
    Rounds = atol(Argv[2]);
  signal(SIGTRAP, onTrap);
  if (Mode == Inherited)
    openEvent();
  pthread_t T;
  pthread_create(&T, NULL, partner, NULL);
  if (Mode == Counting || Mode == Own)
    openEvent();
  struct timespec A, B;
  clock_gettime(CLOCK_MONOTONIC, &A);
  for (long I = 0; I < Rounds; ++I) {
    atomic_store(&Turn, 1);
    wake();
    while (atomic_load(&Turn) != 0)
      wait(1);
  }
  clock_gettime(CLOCK_MONOTONIC, &B);
  pthread_join(T, NULL);
  printf("%.3f %ld\n",
         ((B.tv_sec - A.tv_sec) * 1e9 + (B.tv_nsec - A.tv_nsec)) / 1e3 / Rounds,
         atomic_load(&Traps));
  return 0;
}
