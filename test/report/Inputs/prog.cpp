// C++ for pcmap-report: mangled names, templates, inline (COMDAT) functions.
#include <atomic>
#include <cstdio>

namespace pcmap_test {

std::atomic<int> Hits{0};

template <typename T> struct Counter {
  std::atomic<T> Value{0};
  __attribute__((noinline)) T bump(T By) {
    return Value.fetch_add(By, std::memory_order_relaxed);
  }
  __attribute__((noinline)) bool swap(T From, T To) {
    return Value.compare_exchange_strong(From, To);
  }
};

__attribute__((noinline)) int spin(int N) {
  int S = 0;
  for (int I = 0; I < N; ++I)
    S += Hits.load(std::memory_order_acquire);
  return S;
}

} // namespace pcmap_test

int main(int Argc, char **) {
  pcmap_test::Counter<long> L;
  pcmap_test::Counter<short> S;
  L.bump(Argc);
  S.bump(short(Argc));
  std::printf("%d %d %d\n", int(L.swap(1, 2)), int(S.swap(1, 2)),
              pcmap_test::spin(Argc));
  return 0;
}
