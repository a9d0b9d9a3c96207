// The public C interface, from C. pcmap.h compiles as
// C99 and as C11 with -Wall -Wextra -Werror -pedantic; a C program linked
// with the static runtime registers sections it builds by hand (in its own
// data, naming its own code, as docs/FORMAT.md lays them out) through the
// public callback the compiler's constructors call, and queries them. A few
// checks only: the registration, decoding and query edge cases (malformed
// sections, bounds, both PC widths, upstream sections, the index) live in
// test/Unit, RegistrationTest.cpp and QueryTest.cpp.

// RUN: rm -rf %t && mkdir %t
// RUN: %clang -std=c99 -Wall -Wextra -Werror -pedantic -I%pcmap-include \
// RUN:   -c %s -o %t/c99.o
// RUN: %clang -std=c11 -Wall -Wextra -Werror -pedantic -I%pcmap-include \
// RUN:   -c %s -o %t/c-api.o
// RUN: %clang %t/c-api.o %rt-static-lib -o %t/c-api
// RUN: env PCMAP_OPTIONS=verbosity=0 %run %t/c-api | FileCheck %s

// CHECK:      before: unknown
// CHECK-NEXT: registered: sections +2 functions +1 atomics +1 rejected +0
// CHECK-NEXT: target+4: yes, load 4 bytes acquire in target+0
// CHECK-NEXT: target+0: no
// CHECK-NEXT: target+16: unknown
// CHECK-NEXT: function: target+0 size 16, 1 atomic, pcmap, complete
// CHECK-NEXT: module: holds target
// CHECK-NEXT: describe: {{.*}}c-api+0x{{[0-9a-f]+}}
// CHECK-SAME: load, 4 bytes, acquire
// CHECK-NEXT: removed: unknown, sections +0 atomics +0
// CHECK-NEXT: done

#include <pcmap/pcmap.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The code the sections describe. */
int target(int x);
int target(int x) { return x * 7 + 1; }

/* The sections: in this program's data, so they belong to its module. */
static unsigned char atomics[16], functions[16];

/* A 4-byte relative PC (section version 1): pc minus the field's address,
 * little endian. */
static size_t put_pc(unsigned char *field, uintptr_t pc) {
  uint32_t rel = (uint32_t)(pc - (uintptr_t)field);
  size_t i;
  for (i = 0; i < 4; ++i)
    field[i] = (unsigned char)(rel >> (8 * i));
  return 4;
}

static size_t put_uleb(unsigned char *p, uint64_t v) {
  size_t n = 0;
  do {
    unsigned char byte = v & 0x7f;
    v >>= 7;
    p[n++] = (unsigned char)(v ? byte | 0x80 : byte);
  } while (v);
  return n;
}

static const char *answer(int a) {
  return a == PCMAP_YES ? "yes" : a == PCMAP_NO ? "no" : "unknown";
}

static struct pcmap_stats stats(void) {
  struct pcmap_stats s;
  pcmap_get_stats(&s);
  return s;
}

int main(void) {
  uintptr_t fn = (uintptr_t)&target;
  struct pcmap_stats s0 = stats(), s1;
  struct pcmap_atomic a;
  struct pcmap_function f;
  struct pcmap_module m;
  char line[512];
  size_t na = 0, nf = 0, i;
  int found = 0;

  /* One atomic record: a PC, the zero word, the descriptor of a 4-byte
   * acquire load (kind 0 | log2 size 2 << 3 | order 4 << 6). */
  na += put_pc(atomics + na, fn + 4);
  memset(atomics + na, 0, 4);
  na += 4;
  na += put_uleb(atomics + na, (0 << 0) | (2 << 3) | (4 << 6));
  /* One function: its PC, 16 bytes, complete for atomics. */
  nf += put_pc(functions + nf, fn);
  nf += put_uleb(functions + nf, 16);
  nf += put_uleb(functions + nf, PCMAP_FEATURE_ATOMICS);

  printf("before: %s\n", answer(pcmap_is_atomic_pc(fn + 4)));
  __pcmap_sections_add(1, (const char *)atomics, (const char *)atomics + na,
                       (const char *)functions, (const char *)functions + nf);
  s1 = stats();
  printf("registered: sections +%zu functions +%zu atomics +%zu rejected "
         "+%zu\n",
         s1.sections - s0.sections, s1.functions - s0.functions,
         s1.atomics - s0.atomics, s1.sections_rejected - s0.sections_rejected);

  if (pcmap_lookup_atomic(fn + 4, &a))
    printf("target+4: %s, %s %u bytes %s in target+%lu\n",
           answer(pcmap_is_atomic_pc(fn + 4)),
           a.kind == PCMAP_KIND_LOAD ? "load" : "WRONG KIND", a.size,
           a.order == PCMAP_ORDER_ACQUIRE ? "acquire" : "WRONG ORDER",
           a.has_function ? (unsigned long)(a.function.start - fn) : 999ul);
  printf("target+0: %s\n", answer(pcmap_is_atomic_pc(fn)));
  printf("target+16: %s\n", answer(pcmap_is_atomic_pc(fn + 16)));
  if (pcmap_lookup_function(fn + 15, &f))
    printf("function: target+%lu size %lu, %u atomic, %s, %s\n",
           (unsigned long)(f.start - fn), (unsigned long)f.size, f.num_atomics,
           f.source == PCMAP_SOURCE_PCMAP ? "pcmap" : "WRONG SOURCE",
           f.features == PCMAP_FEATURE_ATOMICS ? "complete" : "WRONG FEATURES");
  for (i = 0; pcmap_module_at(i, &m); ++i)
    found += m.text_start <= fn && fn < m.text_end;
  printf("module: %s\n", found == 1 ? "holds target" : "MISSING");
  pcmap_describe_pc(fn + 4, line, sizeof line);
  printf("describe: %s\n", line);

  __pcmap_sections_del(1, (const char *)atomics, (const char *)atomics + na,
                       (const char *)functions, (const char *)functions + nf);
  s1 = stats();
  printf("removed: %s, sections +%zu atomics +%zu\n",
         answer(pcmap_is_atomic_pc(fn + 4)), s1.sections - s0.sections,
         s1.atomics - s0.atomics);
  printf("done\n");
  return 0;
}
