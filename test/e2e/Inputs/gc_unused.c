// --gc-sections: the only atomics are in a function nothing calls, so the
// linker drops every piece of pcmap_atomics1 (the registration constructor
// then passes null bounds) and main's entry is all that is left of
// pcmap_functions1.
//   OUT   the program's output
//   KEEP  `pcmap_elf.py dump` without --gc-sections
//   GONE  `pcmap_elf.py dump` with --gc-sections
//   NM    llvm-nm of any build with --gc-sections

#include <stdatomic.h>
#include <stdio.h>

_Atomic long gc_counter;

// KEEP-DAG: function 0x{{[0-9a-f]+}} size {{[1-9][0-9]*}} features atomics|has-atomics name gc_dead_atomics{{$}}
// KEEP-DAG: atomic 0x{{[0-9a-f]+}} gc_dead_atomics+0x{{[0-9a-f]+}} kind=rmw size=8 order=seq_cst op=add{{$}}
// KEEP-DAG: function 0x{{[0-9a-f]+}} size {{[1-9][0-9]*}} features atomics name main{{$}}
// KEEP: summary: functions=2 atomic-pcs={{[1-9][0-9]*}} atomic-records=1
// GONE-NOT: gc_dead_atomics
// GONE: function 0x{{[0-9a-f]+}} size {{[1-9][0-9]*}} features atomics name main{{$}}
// GONE-NOT: gc_dead_atomics
// GONE: summary: functions=1 atomic-pcs=0 atomic-records=0 atomics-bytes=0 functions-bytes={{[1-9][0-9]*}}
// NM-NOT: gc_dead_atomics
// NM: main
// NM-NOT: gc_dead_atomics
__attribute__((noinline)) long gc_dead_atomics(long v) {
  return atomic_fetch_add(&gc_counter, v);
}

// OUT: gc: ok
int main(void) {
  puts("gc: ok");
  return 0;
}
