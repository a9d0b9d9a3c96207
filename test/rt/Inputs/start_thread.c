/* Starts a thread with pthread_create and joins it, for static-threads.c:
 * "pthread_create: 0, joined: 0". */
#include <pthread.h>
#include <stdio.h>

static void *run(void *Arg) { return Arg; }

int main(void) {
  pthread_t T;
  int Created = pthread_create(&T, NULL, run, NULL);
  int Joined = Created ? -1 : pthread_join(T, NULL);
  printf("pthread_create: %d, joined: %d\n", Created, Joined);
  return Created || Joined;
}
