//===- bench/bench_functions.cpp - Instrumented code for pcmap_rt_bench -===//
//
// Compiled with `pcmap-clang++ -fsanitize-metadata=all` (see CMakeLists.txt)
// and linked into pcmap_rt_bench, so that the benchmark binary carries real
// pcmap tables, registered by the constructors the compiler emits. 512
// functions of varying sizes, most of them with a few atomics; their addresses
// are in pcmap_bench_functions[]. They are never called: the benchmark only
// looks up PCs inside them.
//
//===----------------------------------------------------------------------===//

#include <atomic>
#include <cstdint>

namespace {
std::atomic<std::uint64_t> cells[64];
std::atomic<std::uint32_t> flags[64];
} // namespace
// Not internal, so that the compiler cannot fold the reads away.
extern "C" int pcmap_bench_table[256];
int pcmap_bench_table[256];

// Function I: a fully unrolled loop whose trip count (a constant) varies
// with I, so that the functions have different sizes, and one of six
// kinds of atomic code.
#define PCMAP_BENCH_FN(I)                                                      \
  extern "C" __attribute__((noinline, used)) long pcmap_bench_fn_##I(int n) {  \
    auto &a = cells[(I) % 64];                                                 \
    long acc = static_cast<long>(a.load(std::memory_order_acquire));           \
    _Pragma("clang loop unroll(full)")                                         \
    for (int k = 0; k < ((I) * 7 % 23) * 5 + 1; ++k)                           \
      acc = acc * 31 +                                                         \
            pcmap_bench_table[(acc + k * ((I) % 7 + 1)) & 255];                \
    for (int k = 0; k < n; ++k)                                                \
      acc += pcmap_bench_table[(k * ((I) % 5 + 3)) & 255] ^ k;                 \
    switch ((I) % 6) {                                                         \
    case 0:                                                                    \
      a.fetch_add(1, std::memory_order_seq_cst);                               \
      break;                                                                   \
    case 1:                                                                    \
      a.store(static_cast<std::uint64_t>(acc), std::memory_order_release);     \
      break;                                                                   \
    case 2: {                                                                  \
      std::uint64_t e = a.load(std::memory_order_relaxed);                     \
      while (!a.compare_exchange_weak(e, e + 1, std::memory_order_acq_rel,     \
                                      std::memory_order_relaxed)) {            \
      }                                                                        \
      break;                                                                   \
    }                                                                          \
    case 3:                                                                    \
      flags[(I) % 64].fetch_or(2, std::memory_order_release);                  \
      std::atomic_thread_fence(std::memory_order_seq_cst);                     \
      break;                                                                   \
    case 4:                                                                    \
      acc ^= static_cast<long>(a.exchange(1, std::memory_order_acq_rel));      \
      break;                                                                   \
    default: /* no atomic beyond the first load */                            \
      acc += n;                                                                \
      break;                                                                   \
    }                                                                          \
    return acc;                                                                \
  }

#define PCMAP_BENCH_PTR(I) reinterpret_cast<const void *>(&pcmap_bench_fn_##I),

// 512 = 8 * 8 * 8 functions, numbered 1000..1777 (digits 0..7).
#define PCMAP_B8(X, P)                                                         \
  X(P##0) X(P##1) X(P##2) X(P##3) X(P##4) X(P##5) X(P##6) X(P##7)
#define PCMAP_B64(X, P)                                                        \
  PCMAP_B8(X, P##0) PCMAP_B8(X, P##1) PCMAP_B8(X, P##2) PCMAP_B8(X, P##3)      \
  PCMAP_B8(X, P##4) PCMAP_B8(X, P##5) PCMAP_B8(X, P##6) PCMAP_B8(X, P##7)
#define PCMAP_B512(X, P)                                                       \
  PCMAP_B64(X, P##0) PCMAP_B64(X, P##1) PCMAP_B64(X, P##2) PCMAP_B64(X, P##3)  \
  PCMAP_B64(X, P##4) PCMAP_B64(X, P##5) PCMAP_B64(X, P##6) PCMAP_B64(X, P##7)

PCMAP_B512(PCMAP_BENCH_FN, 1)

extern "C" {
extern const void *const pcmap_bench_functions[];
extern const unsigned pcmap_bench_num_functions;
const void *const pcmap_bench_functions[] = {PCMAP_B512(PCMAP_BENCH_PTR, 1)};
const unsigned pcmap_bench_num_functions =
    sizeof(pcmap_bench_functions) / sizeof(pcmap_bench_functions[0]);
}
