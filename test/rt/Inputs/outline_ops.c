// One atomic per function, compiled three times on AArch64 (inline LSE,
// LL/SC, outline-atomic helpers): OUTLINE_NAME(n) names them apart.
#include <stdint.h>

#define OP __attribute__((noinline))

OP uint64_t OUTLINE_NAME(fetch_add_seq_cst_8)(uint64_t *p) {
  return __atomic_fetch_add(p, 3, __ATOMIC_SEQ_CST);
}

OP uint32_t OUTLINE_NAME(cas_acquire_4)(uint32_t *p) {
  uint32_t expected = 0;
  __atomic_compare_exchange_n(p, &expected, 1, 0, __ATOMIC_ACQUIRE,
                              __ATOMIC_ACQUIRE);
  return expected;
}

OP uint8_t OUTLINE_NAME(exchange_release_1)(uint8_t *p) {
  return __atomic_exchange_n(p, 1, __ATOMIC_RELEASE);
}
