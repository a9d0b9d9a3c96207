// The executable of shlib.test; it uses Inputs/shlib.c as a shared library.
// Its own table has main only: the library's functions are in the library's.

#include <stdatomic.h>
#include <stdio.h>

long lib_add(long v);
long lib_get(void);
int lib_plain(int x);

_Atomic int main_flag;

// MAIN-DAG: function 0x{{[0-9a-f]+}} size {{[1-9][0-9]*}} features atomics|has-atomics name main{{$}}
// MAIN-DAG: atomic 0x{{[0-9a-f]+}} main+0x{{[0-9a-f]+}} kind=store size=4 order=release{{$}}
// MAIN-DAG: atomic 0x{{[0-9a-f]+}} main+0x{{[0-9a-f]+}} kind=load size=4 order=relaxed{{$}}
// MAIN-NOT: lib_
// MAIN: summary: functions=1 atomic-pcs={{[1-9][0-9]*}} atomic-records=2

// OUT: shlib: 3 10 6
int main(int argc, char **argv) {
  (void)argv;
  atomic_store_explicit(&main_flag, argc, memory_order_release);
  long a = lib_add(3 * argc); // 0 + 3
  lib_add(7);                 // lib_get() == 10
  int p = lib_plain(5) + atomic_load_explicit(&main_flag, memory_order_relaxed);
  printf("shlib: %ld %ld %d\n", a, lib_get(), p - argc);
  return 0;
}
