/* Times dlopen + dlclose of shared objects: the fastest of N rounds, in
 * nanoseconds, one line per object ("PATH NS" or "PATH error: ...").
 * corpus.py builds it twice, with pcmap-clang (the runtime is linked, so the
 * objects' constructors register their tables, and their destructors take
 * them out) and with plain clang (the weak registration callbacks are null:
 * nothing is registered); the difference is the cost of registration. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long long now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char **argv) {
  int rounds = atoi(getenv("REGTIME_ROUNDS") ? getenv("REGTIME_ROUNDS") : "20");
  for (int i = 1; i < argc; ++i) {
    long long best = -1;
    for (int r = 0; r < rounds; ++r) {
      long long t0 = now_ns();
      void *h = dlopen(argv[i], RTLD_NOW | RTLD_LOCAL);
      if (!h) {
        printf("%s error: %s\n", argv[i], dlerror());
        break;
      }
      dlclose(h);
      long long t = now_ns() - t0;
      if (best < 0 || t < best)
        best = t;
    }
    if (best >= 0)
      printf("%s %lld\n", argv[i], best);
    fflush(stdout);
  }
  return 0;
}
