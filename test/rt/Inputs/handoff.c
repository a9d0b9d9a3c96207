// Two threads hand a turn to each other through a condition variable, with
// little work between: most of their CPU time is in the kernel, in the
// blocking pthread_cond_wait (its context switches) and in the wake-ups.
// ROUNDS rounds (argument, default 100000).
#include <pthread.h>
#include <stdlib.h>

static pthread_mutex_t Lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t Changed = PTHREAD_COND_INITIALIZER;
static int Turn;
static long Rounds;
volatile unsigned long Sink;

__attribute__((noinline)) void work(void) {
  unsigned long X = 1;
  for (int I = 0; I < 1000; ++I)
    X = X * 6364136223846793005ul + 1442695040888963407ul;
  Sink = X;
}

__attribute__((noinline)) void wait_turn(int Me) {
  pthread_mutex_lock(&Lock);
  while (Turn != Me)
    pthread_cond_wait(&Changed, &Lock);
  pthread_mutex_unlock(&Lock);
}

__attribute__((noinline)) void pass_turn(int Me) {
  pthread_mutex_lock(&Lock);
  Turn = !Me;
  pthread_cond_signal(&Changed);
  pthread_mutex_unlock(&Lock);
}

static void *body(void *Arg) {
  int Me = (int)(long)Arg;
  for (long R = 0; R < Rounds; ++R) {
    wait_turn(Me);
    pass_turn(Me);
    work();
  }
  return 0;
}

int main(int argc, char **argv) {
  Rounds = argc > 1 ? atol(argv[1]) : 100000;
  pthread_t T[2];
  for (long I = 0; I < 2; ++I)
    pthread_create(&T[I], 0, body, (void *)I);
  for (int I = 0; I < 2; ++I)
    pthread_join(T[I], 0);
  return 0;
}
