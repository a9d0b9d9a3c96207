// Data without a symbol, named by the code that touches it: two threads
// bump one member each of a heap object (false sharing), two threads bump
// one member of an object on the main thread's stack through `this` (true
// sharing), then two bump the two ends of a padded heap ring through a
// global pointer that their loop loads (no sharing), then one thread
// bumps a plain member of a heap object (AArch64: LDR and STR with an
// offset; x86-64: an add to memory). The local pointers
// live in registers that the DWARF describes at the accesses (clang, -O1
// and -O2); the global one is loaded before the loop and again in it.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <thread>

namespace {

struct Counters {
  std::atomic<long> hits{0};
  std::atomic<long> misses{0};
};

__attribute__((noinline)) void bumpHits(Counters *C, long N) {
  for (long I = 0; I < N; ++I)
    C->hits.fetch_add(1, std::memory_order_relaxed);
}

__attribute__((noinline)) void bumpMisses(Counters *C, long N) {
  for (long I = 0; I < N; ++I)
    C->misses.fetch_add(1, std::memory_order_relaxed);
}

class Server {
public:
  __attribute__((noinline)) void serve(long N) {
    for (long I = 0; I < N; ++I)
      requests.fetch_add(1, std::memory_order_relaxed);
  }
  long total() const { return requests.load(); }

private:
  long config[3] = {1, 2, 3};
  std::atomic<long> requests{0};
};

struct Ring {
  std::atomic<long> head{0};
  long pad[15];
  std::atomic<long> tail{0};
};

Ring *TheRing;

__attribute__((noinline)) void push(long N) {
  for (long I = 0; I < N; ++I)
    if (TheRing->tail.fetch_add(1, std::memory_order_relaxed) < 0)
      return;
}

__attribute__((noinline)) void pop(long N) {
  for (long I = 0; I < N; ++I)
    if (TheRing->head.fetch_add(1, std::memory_order_relaxed) < 0)
      return;
}

struct Tally {
  long pad[5];
  long seen = 0;
};

__attribute__((noinline)) void tally(Tally *T, long N) {
  for (long I = 0; I < N; ++I)
    ++*(volatile long *)&T->seen;
}

} // namespace

int main(int argc, char **argv) {
  // Increments per thread and phase (the first argument).
  const long N = argc > 1 ? std::atol(argv[1]) : 20000000;
  auto *C = new Counters;
  std::thread A(bumpHits, C, N), B(bumpMisses, C, N);
  A.join();
  B.join();
  Server S;
  std::thread X([&] { S.serve(N); }), Y([&] { S.serve(N); });
  X.join();
  Y.join();
  TheRing = new Ring;
  std::thread P(push, N), Q(pop, N);
  P.join();
  Q.join();
  auto *T = new Tally;
  std::thread Z(tally, T, 10 * N);
  Z.join();
  std::printf("%ld %ld %ld %ld %ld\n", C->hits.load(), C->misses.load(),
              S.total(), TheRing->head.load() + TheRing->tail.load(), T->seen);
  delete C;
  return 0;
}
