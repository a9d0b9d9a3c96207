/* Calls pcmap's API on its own atomic: bump() holds one atomic add. */
#include <pcmap/pcmap.h>
#include <stdio.h>

int counter;

__attribute__((noinline)) int bump(void) {
  return __atomic_fetch_add(&counter, 1, __ATOMIC_SEQ_CST);
}

int main(void) {
  struct pcmap_function f;
  if (!pcmap_lookup_function((uintptr_t)&bump, &f)) {
    printf("bump: no function\n");
    return 1;
  }
  int atomics = 0;
  for (uintptr_t pc = f.start; pc < f.start + f.size; ++pc) {
    struct pcmap_atomic a;
    if (!pcmap_lookup_atomic(pc, &a))
      continue;
    ++atomics;
    printf("bump+%u: %s %u bytes, is_atomic_pc %s\n", (unsigned)(pc - f.start),
           a.kind == PCMAP_KIND_RMW ? "rmw" : "other", a.size,
           pcmap_is_atomic_pc(pc) == PCMAP_YES ? "yes" : "no");
  }
  printf("bump: %d atomic(s), counter %d\n", atomics, bump() + 1);
  return atomics == 1 ? 0 : 1;
}
