// A small concurrent program for the pcmap demo: a spin lock, a relaxed
// counter, a lock-free stack and a publication flag, on four threads.
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum { kThreads = 4, kIterations = 100000 };

static atomic_flag lock = ATOMIC_FLAG_INIT;
static long protected_total;
static _Atomic long relaxed_counter;

struct node {
  struct node *next;
  int value;
};
static _Atomic(struct node *) stack_top;
static _Atomic int published;
static int payload;

static void spin_lock(void) {
  while (atomic_flag_test_and_set_explicit(&lock, memory_order_acquire))
    ;
}
static void spin_unlock(void) {
  atomic_flag_clear_explicit(&lock, memory_order_release);
}

static void push(struct node *n) {
  struct node *top = atomic_load_explicit(&stack_top, memory_order_relaxed);
  do
    n->next = top;
  while (!atomic_compare_exchange_weak_explicit(
      &stack_top, &top, n, memory_order_release, memory_order_relaxed));
}

static int count_stack(void) {
  int n = 0;
  for (struct node *p = atomic_load_explicit(&stack_top, memory_order_acquire);
       p; p = p->next)
    ++n;
  return n;
}

static void *worker(void *arg) {
  struct node *nodes = malloc(sizeof(struct node) * 16);
  for (int i = 0; i < kIterations; ++i) {
    atomic_fetch_add_explicit(&relaxed_counter, 1, memory_order_relaxed);
    spin_lock();
    ++protected_total;
    spin_unlock();
    if (i < 16) {
      nodes[i].value = i;
      push(&nodes[i]);
    }
  }
  if (arg) {
    payload = 42;
    atomic_store_explicit(&published, 1, memory_order_release);
  }
  return NULL;
}

int main(void) {
  pthread_t threads[kThreads];
  for (long i = 0; i < kThreads; ++i)
    pthread_create(&threads[i], NULL, worker, (void *)(intptr_t)(i == 0));
  for (int i = 0; i < kThreads; ++i)
    pthread_join(threads[i], NULL);
  atomic_thread_fence(memory_order_seq_cst);
  printf("counter=%ld locked=%ld stack=%d payload=%d\n",
         atomic_load(&relaxed_counter), protected_total, count_stack(),
         atomic_load_explicit(&published, memory_order_acquire) ? payload : -1);
  return 0;
}
