// pcmap_layout_bench --check-only on a small instrumented DSO: its table,
// read back through the public API, answers every query as the baselines do
// (pcmap_is_atomic_pc, pcmap_lookup_function), before and after its sections
// are registered again. A wrong answer exits with status 1.
// REQUIRES: layout-bench
// RUN: %pcmap-clang++ -O2 -std=c++17 -fPIC -shared -fsanitize-metadata=all %s -o %t.so
// RUN: %layout-bench --check-only --queries 20000 small=%t.so 2>&1 | FileCheck %s
// CHECK: small: 4 functions, {{[0-9]+}} atomics, 20000 queries: answers checked
// CHECK: | object | functions | atomics |
// CHECK: | small | 4 | {{[0-9]+}} |
// An object without pcmap tables cannot be measured: status 2, not 0.
// RUN: %clangxx -O2 -fPIC -shared %s -o %t-plain.so
// RUN: not %layout-bench --check-only plain=%t-plain.so 2>&1 | FileCheck %s --check-prefix=PLAIN
// PLAIN: plain ({{.*}}-plain.so): no pcmap module after dlopen

#include <atomic>

std::atomic<long> cells[8];

extern "C" long one(long x) {
  return cells[0].fetch_add(x, std::memory_order_relaxed);
}
extern "C" long two(long x) {
  long v = cells[1].load(std::memory_order_acquire);
  cells[2].store(v + x, std::memory_order_release);
  return v;
}
extern "C" long three(long x) {
  long e = x;
  cells[3].compare_exchange_strong(e, x + 1);
  cells[4].exchange(e, std::memory_order_acq_rel);
  std::atomic_thread_fence(std::memory_order_seq_cst);
  return e;
}
extern "C" long plain(long x, long n) {
  long s = 0;
  for (long i = 0; i < n; ++i)
    s += (x * i) ^ (s >> 3);
  return s + cells[5].load(std::memory_order_relaxed) +
         cells[6].fetch_sub(1) + cells[7].load();
}
