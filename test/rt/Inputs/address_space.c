// The runtime's address space under limits. Modes:
//   limit MIB MODE...  sets RLIMIT_AS to MIB MiB and runs MODE... again
//                      under it (exec: the runtime starts under the limit)
//   map MIB            maps MIB MiB of its own, as a program with a large
//                      heap would, and says whether it got them
//   query              what the tables say about this program's code
//   mappings           the largest mapping of the process (pcmap's tables):
//                      its size, and whether it is writable
// Every mode ends with the query. The program has 256 functions with two
// atomics each.
#define _GNU_SOURCE 1
#include <pcmap/pcmap.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

static _Atomic long counter;

#define F1(p)                                                                  \
  __attribute__((noinline)) void f##p(void) {                                  \
    atomic_fetch_add(&counter, 1);                                             \
    atomic_fetch_sub(&counter, 1);                                             \
  }
#define F4(p) F1(p##0) F1(p##1) F1(p##2) F1(p##3)
#define F16(p) F4(p##0) F4(p##1) F4(p##2) F4(p##3)
#define F64(p) F16(p##0) F16(p##1) F16(p##2) F16(p##3)
F64(0) F64(1) F64(2) F64(3)

static const char *answer(int a) {
  return a == PCMAP_YES ? "YES" : a == PCMAP_NO ? "NO" : "UNKNOWN";
}

static void query(void) {
  struct pcmap_function f;
  printf("function f0000: %s; is_atomic_pc: %s\n",
         pcmap_lookup_function((uintptr_t)f0000, &f) ? "covered"
                                                         : "not covered",
         answer(pcmap_is_atomic_pc((uintptr_t)f0000)));
}

static void largest_mapping(void) {
  FILE *maps = fopen("/proc/self/maps", "r");
  char line[512], perms[8] = "", best_perms[8] = "";
  unsigned long lo, hi, best = 0;
  while (maps && fgets(line, sizeof(line), maps))
    if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) == 3 && hi - lo > best) {
      best = hi - lo;
      strcpy(best_perms, perms);
    }
  if (maps)
    fclose(maps);
  printf("largest mapping: %lu MiB %s\n", best >> 20, best_perms);
}

int main(int argc, char **argv) {
  if (argc > 3 && !strcmp(argv[1], "limit")) {
    struct rlimit r;
    r.rlim_cur = r.rlim_max = strtoull(argv[2], NULL, 10) << 20;
    if (setrlimit(RLIMIT_AS, &r)) {
      perror("setrlimit");
      return 2;
    }
    argv[2] = argv[0];
    execv("/proc/self/exe", argv + 2);
    perror("execv");
    return 2;
  }
  if (argc > 2 && !strcmp(argv[1], "map")) {
    size_t mib = strtoull(argv[2], NULL, 10);
    void *p = mmap(NULL, mib << 20, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    printf("mmap of %zu MiB: %s\n", mib, p == MAP_FAILED ? "failed" : "ok");
  } else if (argc > 1 && !strcmp(argv[1], "mappings")) {
    largest_mapping();
  }
  query();
  return 0;
}
