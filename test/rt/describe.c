// pcmap_describe_pc and pcmap_atomic_at: every atomic of the module is
// described as the fault reporter describes it; a plain instruction of a
// covered function is "not atomic (covered)", libc (abs) has "no pcmap
// metadata"; a short buffer is truncated and terminated.

// RUN: %pcmap-clang -O1 -fsanitize-metadata=all -I%pcmap-include %s -o %t
// RUN: %run %t | FileCheck %s

#include <pcmap/pcmap.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Atomic int counter;
_Atomic long word;

__attribute__((noinline)) int ops(int x) {
  atomic_fetch_add(&counter, x);
  atomic_store_explicit(&word, x, memory_order_release);
  long expected = 1;
  atomic_compare_exchange_strong_explicit(&word, &expected, 2,
                                          memory_order_acq_rel,
                                          memory_order_acquire);
  return atomic_load_explicit(&counter, memory_order_relaxed);
}

int main(int argc, char **argv) {
  (void)argv;
  ops(argc);
  struct pcmap_module m;
  if (!pcmap_module_at(0, &m))
    return 1;
  char buf[512];
  struct pcmap_function f;
  if (!pcmap_lookup_function((uintptr_t)ops, &f))
    return 2;
  // CHECK: ops has [[N:[0-9]+]] atomics
  printf("ops has %u atomics\n", f.num_atomics);
  for (uint32_t i = 0; i < f.num_atomics; ++i) {
    struct pcmap_atomic a;
    if (!pcmap_atomic_at(m.text_start, f.first_atomic + i, &a))
      return 3;
    size_t n = pcmap_describe_pc(a.pc, buf, sizeof buf);
    // The module and offset come first: print from the function on.
    const char *fn = strstr(buf, ", function ");
    printf("%s len-ok=%d\n", fn ? fn + 2 : buf, n == strlen(buf));
  }
  // CHECK-DAG: function 0x{{[0-9a-f]+}}+0x{{[0-9a-f]+}} ({{[0-9]+}} bytes, [[N]] atomics): atomic rmw add, 4 bytes, seq_cst len-ok=1
  // CHECK-DAG: function 0x{{[0-9a-f]+}}+0x{{[0-9a-f]+}} ({{[0-9]+}} bytes, [[N]] atomics): atomic store, 8 bytes, release len-ok=1
  // CHECK-DAG: function 0x{{[0-9a-f]+}}+0x{{[0-9a-f]+}} ({{[0-9]+}} bytes, [[N]] atomics): atomic cmpxchg, 8 bytes, acq_rel (failure acquire) len-ok=1
  // CHECK-DAG: function 0x{{[0-9a-f]+}}+0x{{[0-9a-f]+}} ({{[0-9]+}} bytes, [[N]] atomics): atomic load, 4 bytes, relaxed len-ok=1

  pcmap_describe_pc((uintptr_t)main, buf, sizeof buf);
  // CHECK: main: {{.*}}/describe.c.tmp+0x{{[0-9a-f]+}}, function 0x{{[0-9a-f]+}}+0x0 ({{[0-9]+}} bytes, 0 atomics): not atomic (covered)
  printf("main: %s\n", buf);
  // (Not puts, which the sanitizers intercept in the executable.)
  pcmap_describe_pc((uintptr_t)abs, buf, sizeof buf);
  // CHECK: abs: {{.*}}libc.so.6+0x{{[0-9a-f]+}}: no pcmap metadata
  printf("abs: %s\n", buf);
  pcmap_describe_pc(16, buf, sizeof buf);
  // CHECK: 16: <unknown module>+0x10: no pcmap metadata
  printf("16: %s\n", buf);

  char small[8];
  size_t n = pcmap_describe_pc((uintptr_t)main, small, sizeof small);
  // CHECK: small: 7 '/{{[^']+}}'
  printf("small: %zu '%s'\n", n, small);
  // CHECK: none: 0
  printf("none: %zu\n", pcmap_describe_pc((uintptr_t)main, NULL, 0));
  return 0;
}
