// A thread that spends its time in a signal handler of the program's own
// (raised by the thread itself), for test/rt/tracer-unwind-handler.c: the
// tracer's samples there must unwind through the handler and the signal
// trampoline into the code the signal interrupted, to the thread's start.
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

static _Atomic long counter;

static double cpu_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

__attribute__((noinline)) void spin_in_handler(double seconds) {
  double until = cpu_seconds() + seconds;
  while (cpu_seconds() < until)
    for (int i = 0; i < 10000; ++i)
      atomic_fetch_add_explicit(&counter, 1, memory_order_relaxed);
}

static volatile int handled;

__attribute__((noinline)) void on_signal(int signal) {
  (void)signal;
  spin_in_handler(0.1);
  ++handled; // not a tail call: on_signal stays on the stack
}

__attribute__((noinline)) void *worker(void *arg) {
  (void)arg;
  for (int i = 0; i < 5; ++i)
    raise(SIGUSR1);
  return 0;
}

int main(void) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = on_signal;
  sigaction(SIGUSR1, &action, 0);
  pthread_t thread;
  pthread_create(&thread, 0, worker, 0);
  pthread_join(thread, 0);
  return 0;
}
