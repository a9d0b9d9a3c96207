// A shared library with atomics; see shlib.test. Check lines:
//   LIB       `pcmap_elf.py dump` of the library (with or without .symtab)
//   MAIN      `pcmap_elf.py dump` of the executable that uses it
//   OUT       the program's output

#include <stdatomic.h>

static _Atomic long lib_total;

// LIB-DAG: function 0x{{[0-9a-f]+}} size {{[1-9][0-9]*}} features atomics|has-atomics name lib_add{{$}}
// LIB-DAG: atomic 0x{{[0-9a-f]+}} lib_add+0x{{[0-9a-f]+}} kind=rmw size=8 order=acq_rel op=add{{$}}
long lib_add(long v) {
  return atomic_fetch_add_explicit(&lib_total, v, memory_order_acq_rel) + v;
}

// LIB-DAG: function 0x{{[0-9a-f]+}} size {{[1-9][0-9]*}} features atomics|has-atomics name lib_get{{$}}
// LIB-DAG: atomic 0x{{[0-9a-f]+}} lib_get+0x{{[0-9a-f]+}} kind=load size=8 order=acquire{{$}}
long lib_get(void) {
  return atomic_load_explicit(&lib_total, memory_order_acquire);
}

// LIB-DAG: function 0x{{[0-9a-f]+}} size {{[1-9][0-9]*}} features atomics name lib_plain{{$}}
int lib_plain(int x) { return x + 1; }

// LIB: summary: functions=3 atomic-pcs={{[1-9][0-9]*}} atomic-records=2 atomics-bytes={{[1-9][0-9]*}} functions-bytes={{[1-9][0-9]*}}
