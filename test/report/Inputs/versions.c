// Two builds of one program for pcmap-report diff: built with -DNEW,
// grows() gets larger, shrinks() smaller, more_atomics() gains two atomic
// sites, removed() goes away and added() appears; same() does not change.
#include <stdatomic.h>

_Atomic long total;
long scratch[64];

__attribute__((noinline)) long same(long x) {
  return atomic_fetch_add(&total, x);
}

__attribute__((noinline)) long grows(long x) {
#ifdef NEW
  for (int i = 0; i < 64; ++i)
    scratch[i] = scratch[(i * 7) % 64] * x + i;
  return scratch[x & 63] + scratch[(x * 3) & 63];
#else
  return x + 1;
#endif
}

__attribute__((noinline)) long shrinks(long x) {
#ifdef NEW
  return x;
#else
  for (int i = 0; i < 16; ++i)
    scratch[i] = scratch[(i * 5) % 16] * x - i;
  return scratch[x & 15];
#endif
}

__attribute__((noinline)) long more_atomics(long x) {
  long r = atomic_load_explicit(&total, memory_order_acquire);
#ifdef NEW
  atomic_store_explicit(&total, r + x, memory_order_release);
  atomic_thread_fence(memory_order_seq_cst);
#endif
  return r;
}

#ifdef NEW
__attribute__((noinline)) long added(long x) { return x * 3 + total; }
#else
__attribute__((noinline)) long removed(long x) { return x * 5 - total; }
#endif

int main(int argc, char **argv) {
  (void)argv;
  long r = same(argc) + grows(argc) + shrinks(argc) + more_atomics(argc);
#ifdef NEW
  r += added(argc);
#else
  r += removed(argc);
#endif
  return (int)(r & 1);
}
