// Two threads run one of five kinds of counter for a while (the first
// argument, seconds; 3 by default), each phase on its own:
//   global   a plain global counter both increment, no lock: a data race
//   heap     the same on a heap object's member: a data race
//   atomic   an atomic counter (seq_cst fetch_add): no race
//   flag     a relaxed atomic flag one thread sets and the other reads:
//            no race
//   locked   a plain counter under a mutex: no race
// and, only when named, inlined: the global counter's race in a helper
// (add_one) inlined into bump_inlined.
// Phases run one after the other, so that each report names its line. A
// third argument is main's return value; "racy: done" goes to stderr (not
// buffered) when the phases are over, before any exit handler.
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

long global_counter;
struct Stats {
  long pad[3];
  long hits;
};
struct Stats *heap_stats; // not static: LLVM would turn the calloc into a global
static _Atomic long atomic_counter;
static atomic_int relaxed_flag;
static long locked_counter;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static double phase_seconds = 0.6;

static double now(void) {
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return T.tv_sec + T.tv_nsec / 1e9;
}

// Each runs 1000 accesses; volatile keeps every one (the compiler would
// fold the plain loops into one addition).
__attribute__((noinline)) static long bump_global(long I) {
  for (int K = 0; K < 1000; ++K)
    ++*(volatile long *)&global_counter;
  return I;
}
__attribute__((noinline)) static long bump_heap(long I) {
  for (int K = 0; K < 1000; ++K)
    ++*(volatile long *)&heap_stats->hits;
  return I;
}
static inline __attribute__((always_inline)) void add_one(long *P) {
  ++*(volatile long *)P;
}
__attribute__((noinline)) static long bump_inlined(long I) {
  for (int K = 0; K < 1000; ++K)
    add_one(&global_counter);
  return I;
}
__attribute__((noinline)) static long bump_atomic(long I) {
  for (int K = 0; K < 1000; ++K)
    atomic_fetch_add(&atomic_counter, 1);
  return I;
}
__attribute__((noinline)) static long touch_flag(long I) {
  long Sum = 0;
  for (int K = 0; K < 1000; ++K) {
    if ((I + K) & 1)
      atomic_store_explicit(&relaxed_flag, K, memory_order_relaxed);
    Sum += atomic_load_explicit(&relaxed_flag, memory_order_relaxed);
  }
  return Sum;
}
__attribute__((noinline)) static long bump_locked(long I) {
  pthread_mutex_lock(&lock);
  for (int K = 0; K < 1000; ++K)
    ++*(volatile long *)&locked_counter;
  pthread_mutex_unlock(&lock);
  return I;
}

static long (*bump)(long);

static void *worker(void *Arg) {
  long Sum = (long)Arg;
  double End = now() + phase_seconds;
  while (now() < End)
    for (int K = 0; K < 100; ++K)
      Sum += bump(K);
  return (void *)Sum;
}

int main(int argc, char **argv) {
  static const char *Phases[] = {"global", "heap", "atomic", "flag",
                                 "locked"};
  double Seconds = argc > 1 ? atof(argv[1]) : 3;
  phase_seconds = Seconds / 5;
  heap_stats = calloc(1, sizeof(*heap_stats));
  for (int P = 0; P < 5; ++P) {
    const char *phase;
    phase = argc > 2 ? argv[2] : Phases[P];
    bump = !strcmp(phase, "global")    ? bump_global
           : !strcmp(phase, "heap")    ? bump_heap
           : !strcmp(phase, "atomic")  ? bump_atomic
           : !strcmp(phase, "flag")    ? touch_flag
           : !strcmp(phase, "inlined") ? bump_inlined
                                       : bump_locked;
    pthread_t T[2];
    for (int I = 0; I < 2; ++I)
      pthread_create(&T[I], 0, worker, 0);
    for (int I = 0; I < 2; ++I)
      pthread_join(T[I], 0);
    if (argc > 2)
      break;
  }
  printf("global %ld heap %ld atomic %ld locked %ld\n", global_counter,
         heap_stats->hits, (long)atomic_counter, locked_counter);
  fprintf(stderr, "racy: done\n");
  return argc > 3 ? atoi(argv[3]) : 0;
}
