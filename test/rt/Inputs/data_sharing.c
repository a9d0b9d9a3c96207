// Contention by data (test/rt/data-sharing.c): the phase given (or all
// six), two threads each: two counters of one struct, one per thread
// (false sharing); the same struct padded to two lines (no sharing); one
// counter both bump (true sharing); the first struct on the heap (false
// sharing); plain per-thread counters in one array (false sharing); the
// struct on a page of its own, unmapped before the report (false sharing,
// still named heap).
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

struct Stats { _Atomic long hits, misses; };
struct Padded { _Atomic long hits; char pad[120]; _Atomic long misses; } __attribute__((aligned(128)));
struct Stats stats __attribute__((aligned(64)));
struct Padded padded;
_Atomic long shared_counter __attribute__((aligned(64)));
long plain_counts[2] __attribute__((aligned(64)));
struct Stats *heap_stats;

static double seconds = 0.3;
static _Atomic int phase;

static int running(struct timespec *start) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (now.tv_sec - start->tv_sec) + (now.tv_nsec - start->tv_nsec) / 1e9 < seconds;
}

__attribute__((noinline)) void bump(_Atomic long *p) { atomic_fetch_add_explicit(p, 1, memory_order_relaxed); }

// Each phase is a function of its own: a switch in the loop would compile
// to a jump table, an indirect jump after which the tracer names no
// instruction before the PC (any could have jumped there).
static void phase_struct(long me) {
  for (int i = 0; i < 1000; ++i)
    bump(me ? &stats.misses : &stats.hits);
}
static void phase_padded(long me) {
  for (int i = 0; i < 1000; ++i)
    bump(me ? &padded.misses : &padded.hits);
}
static void phase_shared(long me) {
  (void)me;
  for (int i = 0; i < 1000; ++i)
    bump(&shared_counter);
}
static void phase_heap(long me) {
  for (int i = 0; i < 1000; ++i)
    bump(me ? &heap_stats->misses : &heap_stats->hits);
}
// Inline, not a call: under qemu-user a signal comes between blocks of
// translated code, and a function this short is one block.
static void phase_plain(long me) {
  for (int i = 0; i < 1000; ++i)
    ++*(volatile long *)&plain_counts[me];
}
// The struct on a page of its own, which main unmaps before the report.
static struct Stats *page_stats;
static void phase_page(long me) {
  for (int i = 0; i < 1000; ++i)
    bump(me ? &page_stats->misses : &page_stats->hits);
}
static void (*const phases[])(long) = {phase_struct, phase_padded, phase_shared,
                                       phase_heap,   phase_plain,  phase_page};

static void *worker(void *arg) {
  long me = (long)arg;
  struct timespec start;
  clock_gettime(CLOCK_MONOTONIC, &start);
  void (*run)(long) = phases[phase];
  while (running(&start))
    run(me);
  return 0;
}

int main(int argc, char **argv) {
  heap_stats = aligned_alloc(64, 64);
  memset(heap_stats, 0, 64);
  page_stats = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  for (int p = 0; p < 6; ++p) {
    if (argc > 1 && atoi(argv[1]) != p) continue;
    phase = p;
    pthread_t t[2];
    for (long i = 0; i < 2; ++i) pthread_create(&t[i], 0, worker, (void *)i);
    for (int i = 0; i < 2; ++i) pthread_join(t[i], 0);
  }
  munmap(page_stats, 4096);
  printf("done\n");
  return 0;
}
