// C11 <stdatomic.h> atomics of every kind, size and several orders, one
// operation (or a small group) per function so that the tests can match the
// decoded table by function name. Used by several tests in test/e2e; the
// check lines below are shared by them:
//   OUT       the program's output (FileCheck on stdout)
//   DUMP      `pcmap_elf.py dump` of any build, any optimisation level
//   UNUSED    the function nothing calls is still there (no --gc-sections)
//   NOSIG     what must not be in the table
//
// 16- and 24-byte atomics are calls into libatomic (link with -latomic);
// FORMAT.md says they are not in the table.

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#define NOINLINE __attribute__((noinline))

_Atomic uint8_t a8;
_Atomic uint16_t a16;
_Atomic uint32_t a32;
_Atomic uint64_t a64;
_Atomic __int128 a128;
struct Wide { long x, y, z; };
_Atomic struct Wide a24;
volatile _Atomic uint32_t v32;
atomic_flag flag = ATOMIC_FLAG_INIT;
uint32_t plain32; // for the GNU __atomic builtins

// DUMP-DAG: function 0x{{[0-9a-f]+}} size {{[1-9][0-9]*}} features atomics|has-atomics name main{{$}}
// DUMP-DAG: function 0x{{[0-9a-f]+}} size {{[1-9][0-9]*}} features atomics name no_atomics{{$}}
// NOSIG-NOT: no_atomics+
NOINLINE int no_atomics(int x) { return x * 7 + 1; }

// DUMP-DAG: atomic 0x{{[0-9a-f]+}} load_acquire_1+0x{{[0-9a-f]+}} kind=load size=1 order=acquire{{$}}
NOINLINE uint8_t load_acquire_1(void) {
  return atomic_load_explicit(&a8, memory_order_acquire);
}

// DUMP-DAG: atomic 0x{{[0-9a-f]+}} load_relaxed_8+0x{{[0-9a-f]+}} kind=load size=8 order=relaxed{{$}}
NOINLINE uint64_t load_relaxed_8(void) {
  return atomic_load_explicit(&a64, memory_order_relaxed);
}

// DUMP-DAG: atomic 0x{{[0-9a-f]+}} store_release_2+0x{{[0-9a-f]+}} kind=store size=2 order=release{{$}}
NOINLINE void store_release_2(uint16_t v) {
  atomic_store_explicit(&a16, v, memory_order_release);
}

// A seq_cst store is an xchg on x86.
// DUMP-DAG: atomic 0x{{[0-9a-f]+}} store_seq_cst_4+0x{{[0-9a-f]+}} kind=store size=4 order=seq_cst{{$}}
NOINLINE void store_seq_cst_4(uint32_t v) { atomic_store(&a32, v); }

// DUMP-DAG: atomic 0x{{[0-9a-f]+}} fetch_add_relaxed_4+0x{{[0-9a-f]+}} kind=rmw size=4 order=relaxed op=add{{$}}
NOINLINE uint32_t fetch_add_relaxed_4(uint32_t v) {
  return atomic_fetch_add_explicit(&a32, v, memory_order_relaxed);
}

// The result is used: a compare-exchange loop, several PCs in one record.
// DUMP-DAG: atomic 0x{{[0-9a-f]+}} fetch_or_seq_cst_8+0x{{[0-9a-f]+}} kind=rmw size=8 order=seq_cst op=or{{$}}
NOINLINE uint64_t fetch_or_seq_cst_8(uint64_t v) {
  return atomic_fetch_or(&a64, v);
}

// The result is unused: lock or.
// DUMP-DAG: atomic 0x{{[0-9a-f]+}} fetch_or_unused_2+0x{{[0-9a-f]+}} kind=rmw size=2 order=release op=or{{$}}
NOINLINE void fetch_or_unused_2(uint16_t v) {
  atomic_fetch_or_explicit(&a16, v, memory_order_release);
}

// DUMP-DAG: atomic 0x{{[0-9a-f]+}} exchange_acq_rel_1+0x{{[0-9a-f]+}} kind=rmw size=1 order=acq_rel op=xchg{{$}}
NOINLINE uint8_t exchange_acq_rel_1(uint8_t v) {
  return atomic_exchange_explicit(&a8, v, memory_order_acq_rel);
}

// DUMP-DAG: atomic 0x{{[0-9a-f]+}} cas_strong_4+0x{{[0-9a-f]+}} kind=cmpxchg size=4 order=seq_cst failure=relaxed{{$}}
NOINLINE int cas_strong_4(uint32_t expected, uint32_t desired) {
  return atomic_compare_exchange_strong_explicit(
      &a32, &expected, desired, memory_order_seq_cst, memory_order_relaxed);
}

// DUMP-DAG: atomic 0x{{[0-9a-f]+}} cas_weak_8+0x{{[0-9a-f]+}} kind=cmpxchg size=8 order=acq_rel failure=acquire weak{{$}}
NOINLINE int cas_weak_8(uint64_t expected, uint64_t desired) {
  return atomic_compare_exchange_weak_explicit(
      &a64, &expected, desired, memory_order_acq_rel, memory_order_acquire);
}

// DUMP-DAG: atomic 0x{{[0-9a-f]+}} thread_fence+0x{{[0-9a-f]+}} kind=fence order=seq_cst{{$}}
NOINLINE void thread_fence(void) { atomic_thread_fence(memory_order_seq_cst); }

// A signal fence is a compiler barrier, not an atomic: covered, nothing in
// the table.
// DUMP-DAG: function 0x{{[0-9a-f]+}} size {{[1-9][0-9]*}} features atomics name signal_fence_only{{$}}
// NOSIG-NOT: signal_fence_only+
NOINLINE void signal_fence_only(void) {
  atomic_signal_fence(memory_order_seq_cst);
}

// DUMP-DAG: atomic 0x{{[0-9a-f]+}} volatile_ops+0x{{[0-9a-f]+}} kind=store size=4 order=release volatile{{$}}
// DUMP-DAG: atomic 0x{{[0-9a-f]+}} volatile_ops+0x{{[0-9a-f]+}} kind=rmw size=4 order=seq_cst op=sub volatile{{$}}
NOINLINE uint32_t volatile_ops(uint32_t v) {
  atomic_store_explicit(&v32, v, memory_order_release);
  return atomic_fetch_sub_explicit(&v32, 1, memory_order_seq_cst);
}

// DUMP-DAG: atomic 0x{{[0-9a-f]+}} flag_test_and_set+0x{{[0-9a-f]+}} kind=rmw size=1 order=seq_cst op=xchg{{$}}
NOINLINE int flag_test_and_set(void) { return atomic_flag_test_and_set(&flag); }

// DUMP-DAG: atomic 0x{{[0-9a-f]+}} gnu_builtins+0x{{[0-9a-f]+}} kind=rmw size=4 order=relaxed op=umax{{$}}
// DUMP-DAG: atomic 0x{{[0-9a-f]+}} gnu_builtins+0x{{[0-9a-f]+}} kind=rmw size=4 order=seq_cst op=nand{{$}}
// DUMP-DAG: atomic 0x{{[0-9a-f]+}} gnu_builtins+0x{{[0-9a-f]+}} kind=rmw size=4 order=acquire op=sub{{$}}
NOINLINE uint32_t gnu_builtins(uint32_t v) {
  uint32_t r = __atomic_fetch_max(&plain32, v, __ATOMIC_RELAXED);
  r += __atomic_fetch_nand(&plain32, v, __ATOMIC_SEQ_CST);
  r += __atomic_sub_fetch(&plain32, 1, __ATOMIC_ACQUIRE);
  return r;
}

// libatomic calls: covered, and the program must work.
// DUMP-DAG: function 0x{{[0-9a-f]+}} size {{[1-9][0-9]*}} features atomics|has-atomics name wide_16{{$}}
// DUMP-DAG: function 0x{{[0-9a-f]+}} size {{[1-9][0-9]*}} features atomics name wide_24{{$}}
NOINLINE long wide_16(long v) {
  atomic_fetch_add(&a128, (__int128)v << 64);
  return (long)(atomic_load_explicit(&a128, memory_order_acquire) >> 64);
}
NOINLINE long wide_24(long v) {
  struct Wide w = {v, v + 1, v + 2};
  struct Wide old = atomic_exchange(&a24, w);
  struct Wide now = atomic_load(&a24);
  return old.z + now.z;
}

// DUMP-DAG: function 0x{{[0-9a-f]+}} size {{[1-9][0-9]*}} features atomics|has-atomics name static_counter{{$}}
// DUMP-DAG: atomic 0x{{[0-9a-f]+}} static_counter+0x{{[0-9a-f]+}} kind=rmw size=4 order=acq_rel op=add{{$}}
static NOINLINE uint32_t static_counter(uint32_t v) {
  return atomic_fetch_add_explicit(&a32, v, memory_order_acq_rel) + v;
}

// Nothing calls this; --gc-sections removes it and its metadata.
// UNUSED-DAG: function 0x{{[0-9a-f]+}} size {{[1-9][0-9]*}} features atomics|has-atomics name unused_with_atomics{{$}}
// UNUSED-DAG: atomic 0x{{[0-9a-f]+}} unused_with_atomics+0x{{[0-9a-f]+}} kind=rmw size=8 order=relaxed op=xor{{$}}
NOINLINE uint64_t unused_with_atomics(uint64_t v) {
  return atomic_fetch_xor_explicit(&a64, v, memory_order_relaxed) ^ v;
}

// OUT: c11: 8 3 4 1 0 1 1 9 18 2 5 1 1 7 10 19 15
// OUT-NEXT: c11: done
int main(int argc, char **argv) {
  (void)argv;
  uint32_t one = (uint32_t)argc; // 1, unknown to the compiler
  atomic_init(&a8, 7);
  store_release_2((uint16_t)(2 * one));
  store_seq_cst_4(4 * one);
  atomic_store_explicit(&a64, 1, memory_order_relaxed);
  unsigned r[17];
  r[0] = exchange_acq_rel_1((uint8_t)(3 * one)) + one; // 7 + 1
  r[1] = load_acquire_1();                              // 3
  r[2] = fetch_add_relaxed_4(one);                      // 4; a32 = 5
  r[3] = (unsigned)fetch_or_seq_cst_8(2 * one);         // 1; a64 = 3
  fetch_or_unused_2((uint16_t)one);                     // a16 = 3
  r[4] = (unsigned)cas_strong_4(9, 1);                  // fails: 0
  r[5] = (unsigned)cas_strong_4(5, 9);                  // 1; a32 = 9
  r[6] = 0;
  for (int i = 0; i < 100 && !r[6]; ++i)                // spurious failures
    r[6] = (unsigned)cas_weak_8(3, 18);                 // 1; a64 = 18
  thread_fence();
  signal_fence_only();
  r[7] = atomic_load(&a32);                             // 9
  r[8] = (unsigned)load_relaxed_8();                    // 18
  r[9] = volatile_ops(3 * one) + 0;                     // 3 - ... = 3; v32 = 2
  r[9] = atomic_load(&v32);                             // 2
  plain32 = 5;
  r[10] = gnu_builtins(one);                            // see below
  r[10] = plain32 == 0xfffffffdu ? 5 : 0;               // ~(5&1) - 1
  r[11] = (unsigned)flag_test_and_set() ^ 1;            // 1
  r[12] = (unsigned)flag_test_and_set();                // 1
  r[13] = (unsigned)no_atomics((int)one) - 1;           // 7
  r[14] = (unsigned)wide_16(10 * one);                  // 10
  r[15] = (unsigned)(wide_24(one * 4) + 13);            // 0 + 6 + 13 = 19
  r[16] = static_counter(6 * one);                      // 9 + 6
  printf("c11:");
  for (int i = 0; i < 17; ++i)
    printf(" %u", r[i]);
  printf("\nc11: done\n");
  return 0;
}

// NOSIG: summary:
