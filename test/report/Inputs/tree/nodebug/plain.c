// Part of the program of html-tree.test (see dirA/alpha.c), built without
// debug information.
#include <stdatomic.h>

_Atomic long plain_count;

__attribute__((noinline)) long plain_twice(long x) {
  return atomic_fetch_add(&plain_count, x) * 2;
}
