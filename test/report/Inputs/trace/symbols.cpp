// The program trace-symbolize.test builds: symbols.jsonl.in points at its
// functions, with names of its own, so that the test sees which names
// pcmap-report trace shows.
#include <atomic>

namespace pcmap_test {
std::atomic<long> Counter;

__attribute__((noinline)) long worker(long N) {
  for (long I = 0; I < N; ++I)
    Counter.fetch_add(1);
  return Counter.load();
}
} // namespace pcmap_test

int main(int Argc, char **) { return int(pcmap_test::worker(Argc)); }
