// Functions named after PREFIX, so that one source gives distinct functions
// in several translation units (code models, pcmap and upstream). No
// includes: it also builds for other targets with -ffreestanding.
#ifndef PREFIX
#define PREFIX extra_
#endif
#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define FN(name) CAT(PREFIX, name)

long FN(shared);

__attribute__((noinline)) long FN(inc)(long by) {
  return __atomic_fetch_add(&FN(shared), by, __ATOMIC_SEQ_CST);
}

__attribute__((noinline)) long FN(get)(void) {
  return __atomic_load_n(&FN(shared), __ATOMIC_ACQUIRE);
}

__attribute__((noinline)) int FN(swap)(long from, long to) {
  return __atomic_compare_exchange_n(&FN(shared), &from, to, 0,
                                     __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

__attribute__((noinline)) long FN(plain)(long a, long b) {
  return a * b + FN(shared);
}
