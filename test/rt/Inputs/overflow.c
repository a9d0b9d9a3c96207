// Overflows a stack: the main thread's (main), a thread's (thread), or
// that of a thread started by a constructor that runs before the runtime
// initialises (early). The threads are named "overflower".
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

static volatile int Go;

__attribute__((noinline)) static int recurse(int Depth) {
  volatile char Frame[1024];
  memset((char *)Frame, Depth, sizeof(Frame));
  return recurse(Depth + 1) + Frame[Depth % sizeof(Frame)];
}

static void *overflow(void *Unused) {
  (void)Unused;
  pthread_setname_np(pthread_self(), "overflower");
  while (!Go)
    ;
  return (void *)(long)recurse(0);
}

static pthread_t Early;
static int HaveEarly;

__attribute__((constructor(101))) static void startEarly(void) {
  const char *Mode = getenv("OVERFLOW_MODE");
  if (Mode && !strcmp(Mode, "early"))
    HaveEarly = !pthread_create(&Early, NULL, overflow, NULL);
}

int main(int Argc, char **Argv) {
  const char *Mode = Argc > 1 ? Argv[1] : "main";
  fprintf(stderr, "overflowing: %s\n", Mode);
  pthread_t T;
  Go = 1;
  if (!strcmp(Mode, "main"))
    return recurse(0);
  if (!strcmp(Mode, "thread")) {
    pthread_create(&T, NULL, overflow, NULL);
    pthread_join(T, NULL);
  } else if (HaveEarly) {
    pthread_join(Early, NULL);
  }
  return 0;
}
