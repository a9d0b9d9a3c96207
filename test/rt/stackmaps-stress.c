// Stack map queries concurrent with dlopen and dlclose: two threads look up
// the executable's records (and one of them its locations) without pause
// while the main thread opens and closes a shared object with stack maps
// 300 times. The executable's records are found by every single lookup
// (an update never makes a query miss); the library's record is found
// while it is loaded and never once dlclose has returned; memory does not
// grow with the cycles (the tables' bytes are back where they were).

// clang-format off
// RUN: rm -rf %t && mkdir %t
// RUN: %llc -O2 -filetype=obj -relocation-model=pic \
// RUN:   %stackmaps-ll -o %t/sm.o
// RUN: %clang -shared -Wl,-Bsymbolic %t/sm.o -o %t/libsm.so
// RUN: %clang -O1 -I%pcmap-include -I%S/Inputs -c %s -o %t/main.o
// With a sanitizer (PCMAP_SANITIZE), whose dlopen/dlclose interceptors take
// precedence over the static runtime's, the shared runtime.
// RUN: %if !sanitizer %{ %clang %t/main.o %t/sm.o -pie -Wl,-z,notext \
// RUN:   %rt-static-lib -rdynamic -ldl -lpthread -o %t/stress %}
// RUN: %if sanitizer %{ %clang %t/main.o %t/sm.o -pie -Wl,-z,notext \
// RUN:   %rt-shared-lib -Wl,-rpath,%rt-shared-dir -rdynamic -ldl -lpthread \
// RUN:   -o %t/stress %}
// RUN: %run %t/stress %t/libsm.so | FileCheck %s

// CHECK: exe records=7
// CHECK-NEXT: cycles=300 library found while loaded=300 after dlclose=0
// CHECK-NEXT: readers: lookups={{[1-9][0-9]*}} misses=0 wrong=0
// CHECK-NEXT: table bytes back=1 modules=1
// clang-format on

#define _GNU_SOURCE 1
#include "rt_test.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>

extern char sm_calls[], sm_indirect[], sm_patch[], sm_gc[];
void sm_callee(long x) { (void)x; }

#define MAX_RECORDS 64
static uintptr_t pcs[MAX_RECORDS];
static uint64_t ids[MAX_RECORDS];
static int num_records;
static int stop;
static long lookups[2], misses[2], wrong[2];

static void *reader(void *arg) {
  int self = (int)(intptr_t)arg;
  while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
    for (int i = 0; i < num_records; ++i) {
      struct pcmap_stackmap_record r;
      ++lookups[self];
      if (!pcmap_lookup_stackmap(pcs[i], &r)) {
        ++misses[self];
        continue;
      }
      wrong[self] += r.id != ids[i];
      struct pcmap_stackmap_location l;
      if (self && r.num_locations && !pcmap_stackmap_location(&r, 0, &l))
        ++misses[self];
    }
  }
  return NULL;
}

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  // The executable's records: every PC of its stack map functions.
  char *fns[] = {sm_calls, sm_indirect, sm_patch, sm_gc};
  for (int f = 0; f < 4; ++f) {
    struct pcmap_stackmap_function fn;
    if (!pcmap_lookup_stackmap_function((uintptr_t)fns[f], &fn))
      continue;
    for (uintptr_t pc = fn.start; pc < fn.start + fn.size; ++pc) {
      struct pcmap_stackmap_record r;
      if (num_records < MAX_RECORDS && pcmap_lookup_stackmap(pc, &r)) {
        pcs[num_records] = pc;
        ids[num_records++] = r.id;
      }
    }
  }
  rt_out("exe records=%d\n", num_records);
  struct pcmap_stackmap_stats before, after;
  pcmap_get_stackmap_stats(&before);

  pthread_t threads[2];
  for (int i = 0; i < 2; ++i)
    pthread_create(&threads[i], NULL, reader, (void *)(intptr_t)i);
  int cycles = 0, found = 0, stale = 0;
  for (; cycles < 300; ++cycles) {
    void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      rt_out("dlopen failed: %s\n", dlerror());
      return 1;
    }
    uintptr_t f = (uintptr_t)dlsym(h, "sm_calls");
    struct pcmap_stackmap_function fn;
    found += f && pcmap_lookup_stackmap_function(f, &fn);
    dlclose(h);
    stale += f && pcmap_lookup_stackmap_function(f, &fn);
  }
  __atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
  for (int i = 0; i < 2; ++i)
    pthread_join(threads[i], NULL);
  rt_out("cycles=%d library found while loaded=%d after dlclose=%d\n", cycles,
         found, stale);
  rt_out("readers: lookups=%ld misses=%ld wrong=%ld\n", lookups[0] + lookups[1],
         misses[0] + misses[1], wrong[0] + wrong[1]);
  pcmap_get_stackmap_stats(&after);
  rt_out("table bytes back=%d modules=%zu\n",
         after.table_bytes == before.table_bytes, after.modules);
  return 0;
}
