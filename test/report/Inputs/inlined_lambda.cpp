// A lambda's std::atomic<int>::fetch_add, run by std::thread: inlined from
// <atomic> into the lambda, and the lambda into std::thread's code
// (inlined.test checks these line numbers).
#include <atomic>
#include <thread>

std::atomic<int> hits;

int main() {
  std::thread t([] {
    hits.fetch_add(1, std::memory_order_relaxed); // line 11
  });
  t.join();
  return hits.load() == 1 ? 0 : 1;
}
