// A test program for pcmap-report: functions of several sizes, every kind of
// atomic, a static function and one without atomics.
#include <stdatomic.h>
#include <stdio.h>

_Atomic int counter;
_Atomic long wide;
volatile _Atomic int flag;
int plain;

__attribute__((noinline)) int load_acquire(void) {
  return atomic_load_explicit(&counter, memory_order_acquire);
}

__attribute__((noinline)) void store_release(int v) {
  atomic_store_explicit(&counter, v, memory_order_release);
}

__attribute__((noinline)) long rmw_ops(long v) {
  long r = atomic_fetch_add_explicit(&wide, v, memory_order_relaxed);
  r += atomic_fetch_or(&wide, 4);
  r += atomic_exchange_explicit(&wide, r, memory_order_acq_rel);
  return r;
}

__attribute__((noinline)) int cas_weak(int expected, int desired) {
  return atomic_compare_exchange_weak_explicit(
      &counter, &expected, desired, memory_order_seq_cst, memory_order_relaxed);
}

__attribute__((noinline)) void fences(void) {
  atomic_thread_fence(memory_order_seq_cst);
  atomic_signal_fence(memory_order_acquire);
  flag = 1; // volatile seq_cst store
}

static __attribute__((noinline)) int local_helper(int x) {
  int s = 0;
  for (int i = 0; i < x; ++i)
    s += i * plain;
  return s + atomic_load_explicit(&counter, memory_order_relaxed);
}

__attribute__((noinline)) int no_atomics(int a, int b) { return a * b + plain; }

int main(int argc, char **argv) {
  (void)argv;
  store_release(argc);
  fences();
  long r = rmw_ops(argc) + cas_weak(argc, 2) + local_helper(argc);
  printf("%ld %d %d\n", r, load_acquire(), no_atomics(argc, 3));
  return 0;
}
