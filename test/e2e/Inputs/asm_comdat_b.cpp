#include "asm_comdat.h"

int asm_comdat_other(volatile int *p, volatile long *q) {
  asm_exchange<long>(q, 7);
  return asm_fetch_add(p, 3);
}
