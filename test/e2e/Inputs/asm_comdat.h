// An inline function (COMDAT in C++) and a template with atomics in inline
// asm, used from two translation units: the linker keeps one copy of each,
// and the asm records of the discarded copies go with their COMDAT group.
#include <stdint.h>

inline int asm_fetch_add(volatile int *p, int v) {
  __asm__ __volatile__("lock; xaddl %0, %1" : "+r"(v), "+m"(*p) : : "memory");
  return v;
}

template <typename T> T asm_exchange(volatile T *p, T v) {
  __asm__ __volatile__("xchg %0, %1" : "+r"(v), "+m"(*p) : : "memory");
  return v;
}

int asm_comdat_other(volatile int *p, volatile long *q);
