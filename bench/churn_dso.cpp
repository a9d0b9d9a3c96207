//===- bench/churn_dso.cpp - A small instrumented DSO for churn ----------===//
//
// Built with `pcmap-clang++ -fsanitize-metadata=all -shared` (CMakeLists.txt).
// pcmap_rt_bench dlopens and dlcloses it in a loop while other threads query:
// each dlopen registers its tables through the constructors the compiler
// emits, each dlclose unregisters them. The registration callbacks are
// resolved against the benchmark executable, which exports them.
//
//===----------------------------------------------------------------------===//

#include <atomic>
#include <cstdint>

namespace {
std::atomic<std::uint64_t> counters[16];
}

#define CHURN_FN(I)                                                            \
  extern "C" long pcmap_churn_fn_##I(long x) {                                 \
    auto &c = counters[(I) % 16];                                              \
    long v = static_cast<long>(c.fetch_add(static_cast<std::uint64_t>(x)));    \
    if (c.load(std::memory_order_acquire) > 1000)                              \
      c.store(0, std::memory_order_release);                                   \
    return v * (I) + x;                                                        \
  }

CHURN_FN(0)
CHURN_FN(1)
CHURN_FN(2)
CHURN_FN(3)
CHURN_FN(4)
CHURN_FN(5)
CHURN_FN(6)
CHURN_FN(7)
CHURN_FN(8)
CHURN_FN(9)
CHURN_FN(10)
CHURN_FN(11)
CHURN_FN(12)
CHURN_FN(13)
CHURN_FN(14)
CHURN_FN(15)
