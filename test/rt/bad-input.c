// Bad input through the real registration callbacks, in a real executable:
// what the runtime says (and does not do) for each row of
// docs/design/robustness.md that concerns registration. Every section lives in
// this program's data, so it belongs to this module; its relative PCs are
// computed at run time.
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O1 -I%pcmap-include %s -o %t/prog %rt-static-lib
// RUN: %run %t/prog 2>&1 | FileCheck %s --implicit-check-not=FAIL
// RUN: env PCMAP_OPTIONS=verbosity=0 %run %t/prog 2>&1 \
// RUN:   | FileCheck %s --check-prefix=QUIET --implicit-check-not=pcmap:

// What it prints, in order (the checks are here, long lines and all):
// clang-format off
// CHECK: pcmap: rejected section pcmap_atomics1 (version 1, 3 bytes at 0x{{[0-9a-f]+}}) of {{.*}}prog: truncated relative PC at byte 0
// CHECK: pcmap: rejected section pcmap_atomics1 {{.*}}: invalid descriptor at byte 8
// CHECK: pcmap: rejected section pcmap_atomics1 {{.*}}: PC outside the module's executable code at byte 0
// CHECK: pcmap: rejected section pcmap_functions1 {{.*}}: function outside the module's executable code at byte 6
// CHECK: pcmap: rejected section pcmap_functions2 (version 2, {{.*}}: unsupported section version at byte 0
// CHECK: pcmap: rejected section pcmap_functions1 (version 1048577, {{.*}}: unsupported section version
// CHECK: pcmap: rejected section sanmd_covered3 (version 3, {{.*}}: unsupported section version
// CHECK: ok: no rejected section is used
// CHECK: ok: a section registered twice counts once
// CHECK: ok: its function is there
// CHECK: ok: deleting it removes it
// CHECK: ok: null and inverted ranges are ignored
// CHECK: done
// QUIET: done
// clang-format on

#include "pcmap/pcmap.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

__attribute__((noinline)) int target(int X) { return X * 7 + 1; }

static char Buf[256];

static size_t putRel(char *At, uintptr_t PC, unsigned Width) {
  int64_t Rel = (int64_t)PC - (int64_t)(uintptr_t)At;
  memcpy(At, &Rel, Width);
  return Width;
}

static struct pcmap_stats stats(void) {
  struct pcmap_stats S;
  pcmap_get_stats(&S);
  return S;
}

static void expect(int Cond, const char *What) {
  printf("%s: %s\n", Cond ? "ok" : "FAIL", What);
  fflush(stdout);
}

int main(void) {
  uintptr_t F = (uintptr_t)&target;
  struct pcmap_stats Before = stats();

  // Corrupted bytes: a relative PC cut short.
  memset(Buf, 0x11, 3);
  __pcmap_atomics_add(1, Buf, Buf + 3);
  __pcmap_atomics_del(1, Buf, Buf + 3);

  // Corrupted bytes: a descriptor of an unknown kind (5).
  size_t N = putRel(Buf, F, 4);
  memset(Buf + N, 0, 4);
  N += 4;
  Buf[N++] = 5;
  __pcmap_atomics_add(1, Buf, Buf + N);
  __pcmap_atomics_del(1, Buf, Buf + N);

  // A PC outside the module's code (into its data).
  N = putRel(Buf, (uintptr_t)&Buf[200], 4);
  memset(Buf + N, 0, 4);
  N += 4;
  Buf[N++] = 0;
  __pcmap_atomics_add(1, Buf, Buf + N);
  __pcmap_atomics_del(1, Buf, Buf + N);

  // A huge function size (2^40 bytes, ULEB128), after a good entry: the
  // message gives the offset of the bad entry (byte 6).
  N = putRel(Buf, F, 4);
  Buf[N++] = 4;
  Buf[N++] = 1;
  N += putRel(Buf + N, F, 4);
  memcpy(Buf + N, "\x80\x80\x80\x80\x80\x20\x01", 7);
  N += 7;
  __pcmap_functions_add(1, Buf, Buf + N);
  __pcmap_functions_del(1, Buf, Buf + N);

  // Unknown versions: a pcmap base version 2, a flag bit, sanmd version 3.
  N = putRel(Buf, F, 4);
  Buf[N++] = 4;
  Buf[N++] = 1;
  __pcmap_functions_add(2, Buf, Buf + N);
  __pcmap_functions_del(2, Buf, Buf + N);
  __pcmap_functions_add(1 | (1u << 20), Buf, Buf + N);
  __pcmap_functions_del(1 | (1u << 20), Buf, Buf + N);
  __sanitizer_metadata_covered_add(3, Buf, Buf + N);
  __sanitizer_metadata_covered_del(3, Buf, Buf + N);

  struct pcmap_stats After = stats();
  expect(After.sections == Before.sections, "no rejected section is used");

  // Duplicate registration: the same section twice counts once.
  __pcmap_functions_add(1, Buf, Buf + N);
  struct pcmap_stats Once = stats();
  __pcmap_functions_add(1, Buf, Buf + N);
  struct pcmap_stats Twice = stats();
  expect(Once.sections == Before.sections + 1 &&
             Twice.sections == Once.sections &&
             Twice.functions == Once.functions,
         "a section registered twice counts once");
  struct pcmap_function Fn;
  expect(pcmap_lookup_function(F, &Fn) && Fn.size == 4,
         "its function is there");
  __pcmap_functions_del(1, Buf, Buf + N);
  expect(!pcmap_lookup_function(F, &Fn), "deleting it removes it");
  // Deleting what is not registered is ignored.
  __pcmap_functions_del(1, Buf, Buf + N);
  __sanitizer_metadata_atomics_del(2, Buf, Buf + N);

  // Null, empty and inverted ranges, for every callback: ignored quietly.
  Before = stats();
  __pcmap_atomics_add(1, NULL, NULL);
  __pcmap_functions_add(1, NULL, NULL);
  __sanitizer_metadata_atomics_add(2, NULL, NULL);
  __sanitizer_metadata_covered_add(2, NULL, NULL);
  __pcmap_atomics_add(1, Buf + 8, Buf);
  __pcmap_functions_add(1, Buf + 8, Buf);
  __sanitizer_metadata_atomics_add(2, Buf + 8, Buf);
  __sanitizer_metadata_covered_add(2, Buf + 8, Buf);
  __pcmap_functions_add(1, NULL, Buf);
  __pcmap_atomics_del(1, NULL, NULL);
  __pcmap_functions_del(1, Buf + 8, Buf);
  __sanitizer_metadata_atomics_del(2, NULL, NULL);
  __sanitizer_metadata_covered_del(2, Buf + 8, Buf);
  After = stats();
  expect(After.sections == Before.sections &&
             After.sections_rejected == Before.sections_rejected,
         "null and inverted ranges are ignored");
  printf("done\n");
  return target(0) == 1 ? 0 : 1;
}
