// Heap locks whose names two mistakes got wrong (trace-wait-members.test):
// - Db::mu follows a member whose class this file only declares in its
//   debug information (Comparator: its virtual functions are
//   wait_declared_key.cpp's, and clang describes the class there); the
//   member with no size here was taken to hold the rest, and the lock was
//   named Db::cmp.
// - Queue's mutex, which a thread woken from the queue's condition
//   variable waits to take back while main holds it: the call it blocked
//   in names the condition variable (its first argument), not the mutex;
//   the mutex was named Q->ready.
#include "wait_declared.h"

#include <pthread.h>

#include <chrono>
#include <mutex>
#include <thread>

struct Db {
  long Size = 0;
  const Comparator cmp;
  long Version = 0;
  std::mutex mu;
  __attribute__((noinline)) void write();
};

__attribute__((noinline)) void Db::write() {
  std::lock_guard<std::mutex> L(mu);
  ++Version;
}

struct Queue {
  pthread_cond_t ready = PTHREAD_COND_INITIALIZER;
  long Pad[8] = {};
  pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
};

// One wait, no loop: the argument is computed in straight-line code, which
// the namer follows (a loop's branch target stops it).
__attribute__((noinline)) static void waitFor(Queue *Q) {
  pthread_mutex_lock(&Q->mu);
  pthread_cond_wait(&Q->ready, &Q->mu);
  pthread_mutex_unlock(&Q->mu);
}

static void hold() {
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
}

int main() {
  Db *D = new Db;
  D->mu.lock();
  std::thread T1(&Db::write, D);
  hold();
  D->mu.unlock();
  T1.join();
  Queue *Q = new Queue;
  std::thread T2(waitFor, Q);
  hold();
  // T2 wakes and waits for the mutex main holds.
  pthread_mutex_lock(&Q->mu);
  pthread_cond_signal(&Q->ready);
  hold();
  pthread_mutex_unlock(&Q->mu);
  T2.join();
  delete Q;
  delete D;
  return 0;
}
