// Part of the program of html-tree.test (see dirA/alpha.c).
#include <stdatomic.h>

_Atomic int beta_flag;

__attribute__((noinline)) int beta_try(int v) {
  int expected = 0;
  return atomic_compare_exchange_strong(&beta_flag, &expected, v);
}

__attribute__((noinline)) long beta_plain(long x) {
  return x * 3 + (x >> 2);
}
