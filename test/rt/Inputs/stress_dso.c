// A shared library for stress.c, built several times with -DDSO_ID=0..3:
// four exported functions the test looks up with dlsym, and 10 * (DSO_ID +
// 1) filler functions with atomics, so that the libraries differ in size and
// their tables are not trivial.

#include <stdatomic.h>
#include <stdint.h>

#ifndef DSO_ID
#error "define DSO_ID"
#endif

#define NOINLINE __attribute__((noinline))

NOINLINE uint64_t stress_load(_Atomic uint64_t *p) {
  return atomic_load_explicit(p, memory_order_acquire);
}

NOINLINE uint64_t stress_add(_Atomic uint64_t *p) {
  return atomic_fetch_add(p, DSO_ID + 1);
}

NOINLINE uint64_t stress_cas(_Atomic uint64_t *p) {
  uint64_t e = atomic_load_explicit(p, memory_order_relaxed);
  atomic_compare_exchange_strong_explicit(p, &e, e + 1, memory_order_acq_rel,
                                          memory_order_acquire);
  return e;
}

NOINLINE uint64_t stress_plain(uint64_t *p) { return *p * 3 + DSO_ID; }

#define FILL(n)                                                                \
  __attribute__((used)) NOINLINE uint64_t stress_filler_##n(                   \
      _Atomic uint64_t *p) {                                                   \
    uint64_t v = atomic_fetch_add_explicit(p, n, memory_order_relaxed);        \
    atomic_store_explicit(p + 1, v ^ n, memory_order_release);                 \
    return v + n;                                                              \
  }
#define FILL10(n)                                                              \
  FILL(n##0) FILL(n##1) FILL(n##2) FILL(n##3) FILL(n##4) FILL(n##5)            \
      FILL(n##6) FILL(n##7) FILL(n##8) FILL(n##9)

FILL10(1)
#if DSO_ID >= 1
FILL10(2)
#endif
#if DSO_ID >= 2
FILL10(3)
#endif
#if DSO_ID >= 3
FILL10(4)
#endif
