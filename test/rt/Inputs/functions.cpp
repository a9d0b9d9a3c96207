// Functions of several shapes for the function report: C++ names to
// demangle, a template, a method, atomics of several kinds, none at all.
#include <atomic>
#include <cstdio>

namespace shapes {
std::atomic<int> Counter{0};
std::atomic<long> Total{0};

struct Cache {
  std::atomic<unsigned> Refs{1};
  __attribute__((noinline)) void retain() {
    Refs.fetch_add(1, std::memory_order_relaxed);
  }
  __attribute__((noinline)) bool release() {
    return Refs.fetch_sub(1, std::memory_order_acq_rel) == 1;
  }
};

template <class T> __attribute__((noinline)) T exchangeAll(std::atomic<T> &A, T V) {
  T Old = A.exchange(V);
  T Expected = Old;
  A.compare_exchange_strong(Expected, Old);
  return A.load(std::memory_order_acquire);
}

__attribute__((noinline)) int plain(int X) { return X * 3 + 1; }
} // namespace shapes

int main(int argc, char **) {
  shapes::Cache C;
  C.retain();
  C.release();
  std::atomic_thread_fence(std::memory_order_seq_cst);
  shapes::Total.store(shapes::exchangeAll(shapes::Total, long(argc)));
  std::printf("%d %d\n", shapes::exchangeAll(shapes::Counter, argc),
              shapes::plain(argc));
  return 0;
}
