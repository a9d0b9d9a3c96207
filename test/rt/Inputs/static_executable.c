/* Starts a thread with pthread_create and joins it, then loads and unloads
 * the C library's math library, for static-executables.c:
 * "pthread_create: 0, joined: 0" and "dlopen: loaded, dlclose: 0". */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static void *run(void *Arg) { return Arg; }

int main(void) {
  pthread_t T;
  int Created = pthread_create(&T, NULL, run, NULL);
  int Joined = Created ? -1 : pthread_join(T, NULL);
  printf("pthread_create: %d, joined: %d\n", Created, Joined);
  void *Handle = dlopen("libm.so.6", RTLD_NOW);
  if (!Handle)
    printf("dlopen: %s\n", dlerror());
  else
    printf("dlopen: loaded, dlclose: %d\n", dlclose(Handle));
  return Created || Joined || !Handle;
}
