// One memory operation per function, each on the address it is given (a
// PROT_NONE page in the tests, so that it faults on the access). Built into
// the program by fault.c and as a shared library by dlopen.c. The check
// lines (prefix OPS) are what Inputs/fault_harness.h prints for each
// operation, at every optimisation level, in every kind of build.
//
// Every function is noinline and called through rt_ops[], so that its
// address is the function the runtime must name.

#include <stdatomic.h>
#include <stdint.h>

#include "ops.h"

#define OP __attribute__((noinline, used))

// OPS: op load_acquire_4 answer=yes atomic=[kind=load size=4 order=acquire flags=none] afn=ok fn=ok mid=no before=ok addr=ok
OP uint64_t op_load_acquire_4(void *p) {
  return atomic_load_explicit((_Atomic uint32_t *)p, memory_order_acquire);
}

// OPS-NEXT: op store_release_8 answer=yes atomic=[kind=store size=8 order=release flags=none] afn=ok fn=ok mid=no before=ok addr=ok
OP uint64_t op_store_release_8(void *p) {
  atomic_store_explicit((_Atomic uint64_t *)p, 42, memory_order_release);
  return 0;
}

// OPS-NEXT: op fetch_add_seq_cst_4 answer=yes atomic=[kind=rmw size=4 order=seq_cst op=add flags=none] afn=ok fn=ok mid=no before=ok addr=ok
OP uint64_t op_fetch_add_seq_cst_4(void *p) {
  return atomic_fetch_add((_Atomic uint32_t *)p, 3);
}

// OPS-NEXT: op exchange_acq_rel_8 answer=yes atomic=[kind=rmw size=8 order=acq_rel op=xchg flags=none] afn=ok fn=ok mid=no before=ok addr=ok
OP uint64_t op_exchange_acq_rel_8(void *p) {
  return atomic_exchange_explicit((_Atomic uint64_t *)p, 7,
                                  memory_order_acq_rel);
}

// OPS-NEXT: op cas_strong_seq_cst_acquire_4 answer=yes atomic=[kind=cmpxchg size=4 order=seq_cst failure=acquire flags=none] afn=ok fn=ok mid=no before=ok addr=ok
OP uint64_t op_cas_strong_seq_cst_acquire_4(void *p) {
  uint32_t expected = 1;
  return atomic_compare_exchange_strong_explicit(
      (_Atomic uint32_t *)p, &expected, 2, memory_order_seq_cst,
      memory_order_acquire);
}

// OPS-NEXT: op cas_weak_acq_rel_relaxed_8 answer=yes atomic=[kind=cmpxchg size=8 order=acq_rel failure=relaxed flags=weak] afn=ok fn=ok mid=no before=ok addr=ok
OP uint64_t op_cas_weak_acq_rel_relaxed_8(void *p) {
  uint64_t expected = 1;
  return atomic_compare_exchange_weak_explicit(
      (_Atomic uint64_t *)p, &expected, 2, memory_order_acq_rel,
      memory_order_relaxed);
}

// The result is used: a compare-exchange loop whose first access is a plain
// load, part of the atomic's region.
// OPS-NEXT: op fetch_or_relaxed_1 answer=yes atomic=[kind=rmw size=1 order=relaxed op=or flags=none] afn=ok fn=ok mid=no before=ok addr=ok
OP uint64_t op_fetch_or_relaxed_1(void *p) {
  return atomic_fetch_or_explicit((_Atomic uint8_t *)p, 0x40,
                                  memory_order_relaxed);
}

// OPS-NEXT: op store_relaxed_2 answer=yes atomic=[kind=store size=2 order=relaxed flags=none] afn=ok fn=ok mid=no before=ok addr=ok
OP uint64_t op_store_relaxed_2(void *p) {
  atomic_store_explicit((_Atomic uint16_t *)p, 5, memory_order_relaxed);
  return 0;
}

// OPS-NEXT: op load_seq_cst_1 answer=yes atomic=[kind=load size=1 order=seq_cst flags=none] afn=ok fn=ok mid=no before=ok addr=ok
OP uint64_t op_load_seq_cst_1(void *p) {
  return atomic_load((_Atomic uint8_t *)p);
}

// OPS-NEXT: op fetch_sub_release_2 answer=yes atomic=[kind=rmw size=2 order=release op=sub flags=none] afn=ok fn=ok mid=no before=ok addr=ok
OP uint64_t op_fetch_sub_release_2(void *p) {
  return atomic_fetch_sub_explicit((_Atomic uint16_t *)p, 9,
                                   memory_order_release);
}

// OPS-NEXT: op exchange_seq_cst_1 answer=yes atomic=[kind=rmw size=1 order=seq_cst op=xchg flags=none] afn=ok fn=ok mid=no before=ok addr=ok
OP uint64_t op_exchange_seq_cst_1(void *p) {
  return atomic_exchange((_Atomic uint8_t *)p, 1);
}

// OPS-NEXT: op load_volatile_relaxed_4 answer=yes atomic=[kind=load size=4 order=relaxed flags=volatile] afn=ok fn=ok mid=no before=ok addr=ok
OP uint64_t op_load_volatile_relaxed_4(void *p) {
  return atomic_load_explicit((volatile _Atomic uint32_t *)p,
                              memory_order_relaxed);
}

// A seq_cst store is an xchg on x86-64.
// OPS-NEXT: op store_seq_cst_4 answer=yes atomic=[kind=store size=4 order=seq_cst flags=none] afn=ok fn=ok mid=no before=ok addr=ok
OP uint64_t op_store_seq_cst_4(void *p) {
  atomic_store((_Atomic uint32_t *)p, 11);
  return 0;
}

// A compare-exchange loop (nand has no x86 instruction).
// OPS-NEXT: op fetch_nand_seq_cst_4 answer=yes atomic=[kind=rmw size=4 order=seq_cst op=nand flags=none] afn=ok fn=ok mid=no before=ok addr=ok
OP uint64_t op_fetch_nand_seq_cst_4(void *p) {
  return __atomic_fetch_nand((uint32_t *)p, 6, __ATOMIC_SEQ_CST);
}

// OPS-NEXT: op fetch_max_acquire_4 answer=yes atomic=[kind=rmw size=4 order=acquire op=max flags=none] afn=ok fn=ok mid=no before=ok addr=ok
OP uint64_t op_fetch_max_acquire_4(void *p) {
  return (uint64_t)__atomic_fetch_max((int32_t *)p, -3, __ATOMIC_ACQUIRE);
}

// OPS-NEXT: op cas_strong_relaxed_relaxed_2 answer=yes atomic=[kind=cmpxchg size=2 order=relaxed failure=relaxed flags=none] afn=ok fn=ok mid=no before=ok addr=ok
OP uint64_t op_cas_strong_relaxed_relaxed_2(void *p) {
  uint16_t expected = 3;
  return atomic_compare_exchange_strong_explicit(
      (_Atomic uint16_t *)p, &expected, 4, memory_order_relaxed,
      memory_order_relaxed);
}

// The result is unused: lock xor.
// OPS-NEXT: op fetch_xor_unused_8 answer=yes atomic=[kind=rmw size=8 order=seq_cst op=xor flags=none] afn=ok fn=ok mid=no before=ok addr=ok
OP uint64_t op_fetch_xor_unused_8(void *p) {
  atomic_fetch_xor((_Atomic uint64_t *)p, 0x55);
  return 0;
}

// Not an atomic: a volatile plain load in a covered function.
// OPS-NEXT: op plain_volatile_load_4 answer=no atomic=none afn=none fn=ok mid=no before=none addr=ok
OP uint64_t op_plain_volatile_load_4(void *p) { return *(volatile uint32_t *)p; }

// Not instrumented at all: pcmap knows nothing about this function.
// OPS-x86_64-NEXT: op uninstrumented_fetch_add_4 answer=unknown atomic=none afn=none fn=none mid=unknown before=none addr=ok
// On AArch64 the fault is in the outline-atomic helper, an atomic whatever
// its caller; the call site has no metadata.
// OPS-aarch64-NEXT: op uninstrumented_fetch_add_4 answer=yes atomic=[kind=rmw size=4 order=acq_rel op=add flags=0x10 {{.*}}
__attribute__((disable_sanitizer_instrumentation)) OP uint64_t
op_uninstrumented_fetch_add_4(void *p) {
  return atomic_fetch_add((_Atomic uint32_t *)p, 1);
}

#define ENTRY(name) {#name, op_##name}
const struct rt_op rt_ops[] = {
    ENTRY(load_acquire_4),
    ENTRY(store_release_8),
    ENTRY(fetch_add_seq_cst_4),
    ENTRY(exchange_acq_rel_8),
    ENTRY(cas_strong_seq_cst_acquire_4),
    ENTRY(cas_weak_acq_rel_relaxed_8),
    ENTRY(fetch_or_relaxed_1),
    ENTRY(store_relaxed_2),
    ENTRY(load_seq_cst_1),
    ENTRY(fetch_sub_release_2),
    ENTRY(exchange_seq_cst_1),
    ENTRY(load_volatile_relaxed_4),
    ENTRY(store_seq_cst_4),
    ENTRY(fetch_nand_seq_cst_4),
    ENTRY(fetch_max_acquire_4),
    ENTRY(cas_strong_relaxed_relaxed_2),
    ENTRY(fetch_xor_unused_8),
    ENTRY(plain_volatile_load_4),
    ENTRY(uninstrumented_fetch_add_4),
};
const int rt_num_ops = sizeof rt_ops / sizeof rt_ops[0];
