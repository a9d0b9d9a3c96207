/* Static data and thread-local storage for pcmap-report trace's names of
   data (trace-data-names.test): structs, arrays of structs, a
   two-dimensional array, bit-fields, a union, a function's static and TLS.
   Run, it prints where each object is as the tracer's dumps say it: static
   data by its offset in the module (its address less the load bias, a
   symbol's value), TLS by its address less the thread pointer. */
#define _GNU_SOURCE
#include <link.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

struct stats {
  _Atomic long hits;
  _Atomic long misses;
  long pad[6];
} __attribute__((aligned(64)));

struct shard {
  int lock;
  int pad;
  long value;
};

struct cache {
  long header;
  struct shard shards[4];
} __attribute__((aligned(64)));

struct flags {
  unsigned a : 3, b : 5, c : 8;
};

union word {
  long l;
  char c;
};

struct stats stats;
long plain_counts[8] __attribute__((aligned(64)));
struct cache g;
struct flags flags;
int grid[4][4];
union word word;
__thread long tls_counter;
__thread struct stats tls_stats;

static long *bump(void) {
  static long counter;
  ++counter;
  return &counter;
}

static int first_object(struct dl_phdr_info *Info, size_t Size, void *Bias) {
  (void)Size;
  *(uintptr_t *)Bias = Info->dlpi_addr;
  return 1; /* the executable comes first */
}

static uintptr_t thread_pointer(void) {
  uintptr_t TP;
#if defined(__x86_64__)
  __asm__("mov %%fs:0, %0" : "=r"(TP)); /* the TCB points at itself */
#elif defined(__aarch64__)
  __asm__("mrs %0, tpidr_el0" : "=r"(TP));
#else
#error "x86-64 or AArch64"
#endif
  return TP;
}

#define MODULE(Name, Address)                                                  \
  printf("%s module 0x%lx\n", Name, (unsigned long)((uintptr_t)(Address)-Bias))
#define TLS(Name, Address)                                                     \
  printf("%s tls %ld\n", Name, (long)((uintptr_t)(Address)-TP))

int main(void) {
  uintptr_t Bias = 0, TP = thread_pointer();
  dl_iterate_phdr(first_object, &Bias);
  MODULE("stats", &stats);
  MODULE("plain_counts", plain_counts);
  MODULE("g", &g);
  MODULE("flags", &flags);
  MODULE("grid", grid);
  MODULE("word", &word);
  MODULE("counter", bump());
  MODULE("main", main);
  TLS("tls_counter", &tls_counter);
  TLS("tls_stats", &tls_stats);
  return 0;
}
