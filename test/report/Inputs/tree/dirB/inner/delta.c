// Part of the program of html-tree.test (see dirA/alpha.c).
#include <stdatomic.h>

_Atomic long delta_total;

__attribute__((noinline)) long delta_step(long x) {
  atomic_thread_fence(memory_order_seq_cst);
#ifndef NEW
  for (long i = 0; i < x; ++i)
    atomic_fetch_add(&delta_total, i * x);
#endif
  return atomic_load(&delta_total);
}
