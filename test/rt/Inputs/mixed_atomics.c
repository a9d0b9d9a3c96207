// Atomics of every kind, size and several orders, functions without
// atomics, with arguments on the stack, variadic, static: the material of
// agreement.c and codemodel.c. mx_run() calls everything once.

#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>

#ifndef MX
#define MX(name) mx_##name
#endif

#define NOINLINE __attribute__((noinline))

static _Atomic uint8_t m8;
static _Atomic uint16_t m16;
static _Atomic uint32_t m32;
static _Atomic uint64_t m64;
static _Atomic __int128 m128;
static volatile _Atomic uint32_t mv32;
static uint32_t mplain;
static int32_t msigned;

NOINLINE uint64_t MX(loads)(void) {
  return atomic_load_explicit(&m8, memory_order_acquire) +
         atomic_load_explicit(&m16, memory_order_relaxed) + atomic_load(&m32) +
         atomic_load_explicit(&m64, memory_order_acquire);
}

NOINLINE void MX(stores)(uint32_t v) {
  atomic_store_explicit(&m8, (uint8_t)v, memory_order_release);
  atomic_store_explicit(&m16, (uint16_t)v, memory_order_relaxed);
  atomic_store(&m32, v);
  atomic_store_explicit(&m64, v, memory_order_release);
}

NOINLINE uint64_t MX(rmw)(uint64_t v) {
  uint64_t r = atomic_fetch_add_explicit(&m64, v, memory_order_relaxed);
  r += atomic_fetch_sub_explicit(&m32, (uint32_t)v, memory_order_acq_rel);
  r += atomic_fetch_and_explicit(&m16, (uint16_t)v, memory_order_release);
  r += atomic_fetch_or(&m8, (uint8_t)v); // result used: a loop
  atomic_fetch_xor(&m32, 3);             // result unused: lock xor
  r += atomic_exchange_explicit(&m64, r, memory_order_acquire);
  return r;
}

NOINLINE uint64_t MX(gnu)(uint32_t v) {
  uint64_t r = __atomic_fetch_nand(&mplain, v, __ATOMIC_SEQ_CST);
  r += (uint64_t)__atomic_fetch_max(&msigned, (int32_t)v, __ATOMIC_ACQ_REL);
  r += (uint64_t)__atomic_fetch_min(&msigned, -(int32_t)v, __ATOMIC_RELAXED);
  r += __atomic_fetch_max(&mplain, v, __ATOMIC_RELEASE);
  r += __atomic_add_fetch(&mplain, 1, __ATOMIC_ACQUIRE);
  return r;
}

NOINLINE int MX(cas)(uint32_t e32, uint64_t e64, uint16_t e16) {
  int r = atomic_compare_exchange_strong_explicit(
      &m32, &e32, e32 + 1, memory_order_seq_cst, memory_order_relaxed);
  r += atomic_compare_exchange_weak_explicit(
      &m64, &e64, e64 + 1, memory_order_acq_rel, memory_order_acquire);
  r += atomic_compare_exchange_strong_explicit(
      &m16, &e16, 7, memory_order_release, memory_order_relaxed);
  return r;
}

NOINLINE void MX(fences)(void) {
  atomic_thread_fence(memory_order_seq_cst);
  atomic_signal_fence(memory_order_seq_cst); // not an atomic
}

NOINLINE uint32_t MX(volatiles)(uint32_t v) {
  atomic_store_explicit(&mv32, v, memory_order_release);
  return atomic_fetch_add_explicit(&mv32, 1, memory_order_seq_cst);
}

// A call into libatomic: covered, and the call is not an atomic.
NOINLINE long MX(wide)(long v) {
  atomic_fetch_add(&m128, (__int128)v);
  return (long)atomic_load_explicit(&m128, memory_order_acquire);
}

// Arguments on the stack and a local whose address escapes: upstream's uar
// feature records the size of the stack arguments.
static long *volatile mx_escaped;
NOINLINE void MX(escape)(long *p) {
  mx_escaped = p;
  atomic_fetch_add_explicit(&m64, (uint64_t)*p, memory_order_relaxed);
}
NOINLINE long MX(stack_args)(long a, long b, long c, long d, long e, long f,
                             long g, long h, long i, long j) {
  long local = a + j;
  MX(escape)(&local);
  atomic_fetch_add(&m64, (uint64_t)(a + j));
  return a + b + c + d + e + f + g + h + i + j + local;
}

struct MXBig {
  long x[6];
};
NOINLINE long MX(byval)(struct MXBig big) {
  return big.x[0] + big.x[5] + (long)atomic_load(&m16);
}

NOINLINE long MX(variadic)(int n, ...) {
  va_list ap;
  va_start(ap, n);
  long s = 0;
  for (int i = 0; i < n; ++i)
    s += va_arg(ap, long);
  va_end(ap);
  atomic_fetch_add_explicit(&m32, (uint32_t)s, memory_order_relaxed);
  return s;
}

NOINLINE int MX(no_atomics)(int x) { return x * 3 + 1; }

static NOINLINE uint32_t MX(static_counter)(uint32_t v) {
  return atomic_fetch_add_explicit(&m32, v, memory_order_acq_rel) + v;
}

NOINLINE uint64_t MX(run)(uint32_t one) {
  struct MXBig big = {{1, 2, 3, 4, 5, 6}};
  MX(stores)(one);
  uint64_t r = MX(loads)();
  r += MX(rmw)(one);
  r += MX(gnu)(one);
  r += (uint64_t)MX(cas)(one, one, (uint16_t)one);
  MX(fences)();
  r += MX(volatiles)(one);
  r += (uint64_t)MX(wide)((long)one);
  r += (uint64_t)MX(stack_args)(one, 2, 3, 4, 5, 6, 7, 8, 9, 10);
  r += (uint64_t)MX(byval)(big);
  r += (uint64_t)MX(variadic)(3, 1L, 2L, (long)one);
  r += (uint64_t)MX(no_atomics)((int)one);
  r += MX(static_counter)(one);
  return r;
}
