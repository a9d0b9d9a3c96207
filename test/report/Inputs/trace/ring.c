// The program of trace-e2e.test: an atomic in an always_inline helper,
// called from a worker that a thread and main both run.
#include <pthread.h>
#include <stdatomic.h>
static _Atomic long Ring;
static inline __attribute__((always_inline)) void ring_push(long V) {
  atomic_fetch_add_explicit(&Ring, V, memory_order_seq_cst);
}

__attribute__((noinline)) void *worker(void *Arg) {
  for (long I = 0; I < (long)Arg; ++I)
    ring_push(I);
  return 0;
}

__attribute__((noinline)) void *thread_main(void *Arg) {
  worker(Arg);
  return Arg;
}

int main(int Argc, char **Argv) {
  pthread_t T;
  pthread_create(&T, 0, thread_main, (void *)1000);
  pthread_join(T, 0);
  worker((void *)(long)Argc);
  return 0;
}
