/* Registration time of shared objects: for each object named, the time its
 * module constructors (and those of the dependencies it loads) spend in
 * __pcmap_sections_add during dlopen, the fastest of REGTIME_ROUNDS rounds
 * (default 20) of dlopen + dlclose, in nanoseconds: "PATH NS SECTIONS", or
 * "PATH error: ...".
 *
 * Linked by corpus.py with pcmap-clang -fsanitize-metadata=all
 * -shared-libpcmap -rdynamic: the runtime is a shared library, and this
 * program's exported __pcmap_sections_add comes first in the objects'
 * symbol lookup; it times the runtime's, found with RTLD_NEXT. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef void AddFn(uint32_t, const char *, const char *, const char *,
                   const char *);

static long long Spent, Calls;

static long long nowNs(void) {
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return T.tv_sec * 1000000000LL + T.tv_nsec;
}

void __pcmap_sections_add(uint32_t Version, const char *AtomicsStart,
                          const char *AtomicsStop, const char *FunctionsStart,
                          const char *FunctionsStop) {
  static AddFn *Real;
  if (!Real)
    Real = (AddFn *)dlsym(RTLD_NEXT, "__pcmap_sections_add");
  long long T0 = nowNs();
  if (Real)
    Real(Version, AtomicsStart, AtomicsStop, FunctionsStart, FunctionsStop);
  Spent += nowNs() - T0;
  ++Calls;
}

int main(int argc, char **argv) {
  const char *R = getenv("REGTIME_ROUNDS");
  int Rounds = R ? atoi(R) : 20;
  if (!dlsym(RTLD_NEXT, "__pcmap_sections_add")) {
    printf("error: no runtime to time (link with -shared-libpcmap)\n");
    return 1;
  }
  for (int I = 1; I < argc; ++I) {
    long long Best = -1, BestCalls = 0;
    for (int Round = 0; Round < Rounds; ++Round) {
      Spent = Calls = 0;
      void *H = dlopen(argv[I], RTLD_NOW | RTLD_LOCAL);
      if (!H) {
        printf("%s error: %s\n", argv[I], dlerror());
        break;
      }
      dlclose(H);
      if (Best < 0 || Spent < Best) {
        Best = Spent;
        BestCalls = Calls;
      }
    }
    if (Best >= 0)
      printf("%s %lld %lld\n", argv[I], Best, BestCalls);
    fflush(stdout);
  }
  return 0;
}
