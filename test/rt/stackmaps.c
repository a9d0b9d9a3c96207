// Stack maps of the executable, found by the runtime without any help:
// Inputs/stackmaps.ll (stack maps after direct and indirect calls, small
// and large constants, patchpoints with live-outs and anyregcc, a
// gc.statepoint), compiled by llc alone (no pcmap instrumentation) and
// linked with this program. Every record that llvm-readobj --stackmap lists
// is found at its function's address + offset, with its ID, locations,
// live-outs, constants, frame size and function (start and size from the
// symbol table, as llvm-nm -S gives them, or from pcmap's function table
// when the functions are instrumented); the PCs next to records are not
// records; call-site sizes are those of the disassembly (llvm-objdump -d).
//
// PIE (text relocations in the stack map section: -z notext) and non-PIE;
// the static runtime, the shared one, and a -static executable (no dynamic
// loader: discovery at start-up only).

// clang-format off
// RUN: rm -rf %t && mkdir %t
// RUN: %llc -O2 -filetype=obj -relocation-model=pic \
// RUN:   %stackmaps-ll -o %t/sm-pic.o
// RUN: %llc -O2 -filetype=obj -relocation-model=static \
// RUN:   %stackmaps-ll -o %t/sm-static.o
// RUN: %clang -O1 -I%pcmap-include -I%S/Inputs -c %s -o %t/main-pie.o
// RUN: %clang -O1 -fno-pie -I%pcmap-include -I%S/Inputs -c %s \
// RUN:   -o %t/main-nopie.o

// DEFINE: %{exe} = pie-static-rt
// DEFINE: %{check} = \
// DEFINE:   %python %S/Inputs/stackmap_expect.py %t/%{exe} %patchpoint-sizes \
// DEFINE:     %t/%{exe}.expect > %t/%{exe}.py.out && \
// DEFINE:   FileCheck %s --check-prefix=EXPECT \
// DEFINE:     --input-file=%t/%{exe}.py.out && \
// DEFINE:   %run %t/%{exe} %t/%{exe}.expect > %t/%{exe}.out 2>&1 && \
// DEFINE:   FileCheck %s -DLIVE_OUTS=%stackmap-live-outs --input-file=%t/%{exe}.out

// RUN: %clang %t/main-pie.o %t/sm-pic.o -pie -Wl,-z,notext %rt-static-lib \
// RUN:   -o %t/pie-static-rt
// RUN: %{check}
// RUN: %clang %t/main-nopie.o %t/sm-static.o -no-pie %rt-static-lib \
// RUN:   -o %t/nopie-static-rt
// REDEFINE: %{exe} = nopie-static-rt
// RUN: %{check}
// RUN: %clang %t/main-pie.o %t/sm-pic.o -pie -Wl,-z,notext %rt-shared-lib \
// RUN:   -Wl,-rpath,%rt-shared-dir -o %t/pie-shared-rt
// REDEFINE: %{exe} = pie-shared-rt
// RUN: %{check}
// The sanitizers' runtimes cannot be linked statically: a sanitizer build
// (PCMAP_SANITIZE) skips the static program.
// RUN: %if !sanitizer %{ %clang %t/main-nopie.o %t/sm-static.o -static \
// RUN:   %rt-static-lib -o %t/static-exe %}
// REDEFINE: %{exe} = static-exe
// RUN: %if !sanitizer %{ %{check} %}

// The stack map functions instrumented by pcmap (function table only).
// RUN: %pcmap-clang -fsanitize-metadata=functions -O2 -fPIC -Wno-override-module \
// RUN:   -c %stackmaps-ll -o %t/sm-pcmap.o
// RUN: %clang %t/main-pie.o %t/sm-pcmap.o -pie -Wl,-z,notext %rt-static-lib \
// RUN:   -o %t/pcmap-fns
// RUN: %python %S/Inputs/stackmap_expect.py %t/pcmap-fns %patchpoint-sizes \
// RUN:   %t/pcmap-fns.expect
// RUN: %run %t/pcmap-fns %t/pcmap-fns.expect pcmap > %t/pcmap-fns.out 2>&1
// RUN: FileCheck %s -DLIVE_OUTS=%stackmap-live-outs --input-file=%t/pcmap-fns.out

// EXPECT: expect: 4 functions, 7 records, 2 patchpoints
// CHECK: exe: functions=4 records=7 locations=19 live-outs=[[LIVE_OUTS]] calls=4 patchpoints=2 misses={{[1-9][0-9]*}}
// CHECK-NEXT: stats: modules=1 functions=4 records=7 rejected=0
// CHECK-NEXT: run: sm_calls=12 sm_gc=ok
// CHECK-NEXT: stackmaps: failures=0
// clang-format on

#include "stackmap_check.h"

#include <stdint.h>

extern char sm_target[], sm_calls[], sm_indirect[], sm_patch[], sm_gc[];
static long callee_sum;
void sm_callee(long x) { callee_sum += x; }

long sm_calls_fn(long, long, long *) __asm__("sm_calls");
long sm_patch_fn(long, long) __asm__("sm_patch");
void *sm_gc_fn(void *) __asm__("sm_gc");

static uintptr_t resolve(const char *name, void *ctx) {
  (void)ctx;
  static const struct {
    const char *name;
    char *addr;
  } syms[] = {{"sm_target", sm_target},
              {"sm_calls", sm_calls},
              {"sm_indirect", sm_indirect},
              {"sm_patch", sm_patch},
              {"sm_gc", sm_gc}};
  for (unsigned i = 0; i < sizeof syms / sizeof syms[0]; ++i)
    if (!strcmp(syms[i].name, name))
      return (uintptr_t)syms[i].addr;
  rt_out("FAIL: unknown symbol %s\n", name);
  ++sm_failures;
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 2 && argc != 3) {
    rt_out("usage: %s EXPECTATIONS [pcmap]\n", argv[0]);
    return 2;
  }
  // "pcmap": the functions are instrumented; their bounds come from pcmap.
  if (argc == 3 && !strcmp(argv[2], "pcmap"))
    sm_expected_source = PCMAP_STACKMAP_SIZE_PCMAP;
  struct sm_counts n = sm_check_file(argv[1], resolve, NULL, 1, NULL);
  sm_print_counts("exe", n);
  struct pcmap_stackmap_stats s;
  pcmap_get_stackmap_stats(&s);
  rt_out("stats: modules=%zu functions=%zu records=%zu rejected=%zu\n",
         s.modules, s.functions, s.records, s.sections_rejected);
  // The code with the stack maps runs (patchpoint 10 calls sm_target).
  long v = 0;
  int obj;
  // Patchpoint 11 has no target: its result is undefined.
  sm_patch_fn(3, 4);
  rt_out("run: sm_calls=%ld sm_gc=%s\n", sm_calls_fn(3, 4, &v),
         sm_gc_fn(&obj) == &obj ? "ok" : "wrong");
  rt_out("stackmaps: failures=%d\n", sm_failures);
  return sm_failures != 0;
}
