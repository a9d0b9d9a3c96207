// Heap locks that a thread waits on, each locked through a pointer with a
// member path (trace-wait-members.test): S->mu (a std::mutex through a
// parameter), Cache::shards[3].mu (a pthread mutex through this) and
// C->shards[1].ready (a condition variable through a parameter) and
// TheShard->pmu (through a global pointer). main holds each lock 300 ms
// while a thread waits on it.
#include <pthread.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

struct Shard {
  long Hits = 0;
  std::mutex mu;
  pthread_mutex_t pmu = PTHREAD_MUTEX_INITIALIZER;
  std::condition_variable ready;
  bool Go = false;
};

struct Cache {
  long Size = 0;
  Shard shards[4];
  __attribute__((noinline)) void lockThird();
};

__attribute__((noinline)) static void lockShard(Shard *S) {
  S->mu.lock();
  ++S->Hits;
  S->mu.unlock();
}

__attribute__((noinline)) void Cache::lockThird() {
  pthread_mutex_lock(&shards[3].pmu);
  ++Size;
  pthread_mutex_unlock(&shards[3].pmu);
}

__attribute__((noinline)) static void waitFirst(Cache *C) {
  std::unique_lock<std::mutex> L(C->shards[1].mu);
  while (!C->shards[1].Go)
    C->shards[1].ready.wait(L);
}

Shard *TheShard;

__attribute__((noinline)) static void lockGlobal() {
  pthread_mutex_lock(&TheShard->pmu);
  ++TheShard->Hits;
  pthread_mutex_unlock(&TheShard->pmu);
}

static void hold() {
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
}

int main() {
  Shard *S = new Shard;
  Cache *C = new Cache;
  S->mu.lock();
  std::thread T1(lockShard, S);
  hold();
  S->mu.unlock();
  T1.join();
  pthread_mutex_lock(&C->shards[3].pmu);
  std::thread T2(&Cache::lockThird, C);
  hold();
  pthread_mutex_unlock(&C->shards[3].pmu);
  T2.join();
  std::thread T3(waitFirst, C);
  hold();
  {
    std::lock_guard<std::mutex> G(C->shards[1].mu);
    C->shards[1].Go = true;
  }
  C->shards[1].ready.notify_one();
  T3.join();
  TheShard = new Shard;
  pthread_mutex_lock(&TheShard->pmu);
  std::thread T4(lockGlobal);
  hold();
  pthread_mutex_unlock(&TheShard->pmu);
  T4.join();
  delete TheShard;
  delete C;
  delete S;
  return 0;
}
