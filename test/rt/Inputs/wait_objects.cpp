// Threads that block on three kinds of lock object (test/rt/wait-objects.cpp):
//   big_lock   a global pthread_mutex_t four workers take turns on, each
//              holding it about 1 ms (asleep in critical())
//   Shard::mu  a std::mutex member of a heap object, the same way
//   Ready      a std::condition_variable the main thread waits on until
//              the workers are done
// The program measures its own time in each lock call and prints it, with
// the objects' addresses, for the wait table to be checked against; every
// blocking call that fails with EINTR is counted (the sampler must never
// interrupt one).
#include <pthread.h>
#include <time.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

pthread_mutex_t big_lock = PTHREAD_MUTEX_INITIALIZER;

struct Shard {
  long Hits = 0;
  std::mutex mu;
  long Misses = 0;
};

static std::mutex DoneMutex;
static std::condition_variable Ready;
static int Done;
static std::atomic<int> Interrupted;
static double WaitedBig[4], WaitedShard[4];

static double now() {
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return T.tv_sec + T.tv_nsec / 1e9;
}

__attribute__((noinline)) static void critical() {
  struct timespec D = {0, 1000000};
  while (nanosleep(&D, &D) != 0)
    if (errno == EINTR)
      Interrupted.fetch_add(1, std::memory_order_relaxed);
}

__attribute__((noinline)) static void lockBig(int I) {
  double T0 = now();
  pthread_mutex_lock(&big_lock);
  WaitedBig[I] += now() - T0;
  critical();
  pthread_mutex_unlock(&big_lock);
}

__attribute__((noinline)) static void lockShard(Shard *S, int I) {
  double T0 = now();
  S->mu.lock();
  WaitedShard[I] += now() - T0;
  ++S->Hits;
  critical();
  S->mu.unlock();
}

static void worker(Shard *S, int I) {
  // One second on each lock, one after the other.
  for (double End = now() + 1.0; now() < End;)
    lockBig(I);
  for (double End = now() + 1.0; now() < End;)
    lockShard(S, I);
  std::lock_guard<std::mutex> G(DoneMutex);
  if (++Done == 4)
    Ready.notify_one();
}

int main() {
  Shard *S = new Shard;
  std::vector<std::thread> T;
  for (int I = 0; I < 4; ++I)
    T.emplace_back(worker, S, I);
  double T0 = now();
  {
    std::unique_lock<std::mutex> L(DoneMutex);
    Ready.wait(L, [] { return Done == 4; });
  }
  double WaitedReady = now() - T0;
  for (std::thread &Th : T)
    Th.join();
  double Big = 0, Sh = 0;
  for (int I = 0; I < 4; ++I) {
    Big += WaitedBig[I];
    Sh += WaitedShard[I];
  }
  std::printf("big_lock at %p: waited %.3f s\n", (void *)&big_lock, Big);
  std::printf("Shard::mu at %p: waited %.3f s\n", (void *)&S->mu, Sh);
  std::printf("Ready at %p: waited %.3f s\n", (void *)&Ready, WaitedReady);
  std::printf("EINTR %d\n", Interrupted.load());
  delete S;
  return 0;
}
