// One binary mixing code models: this file and one copy of
// Inputs/mixed_atomics.c in the small model (4-byte relative PCs, sections
// pcmap_atomics1/pcmap_functions1), one copy in the large and one in the
// medium model (pointer-sized relative PCs, pcmap_atomics65537/
// pcmap_functions65537). The runtime must register all four sections and
// find the functions and atomics of every copy; the full walk must agree
// with the decoder. The same with upstream's sanmd_*2 and sanmd_*65538.

// Not yet on AArch64, whose large code model needs -fno-pic (issue 17).
// UNSUPPORTED: target-aarch64
// RUN: rm -rf %t && mkdir %t

// DEFINE: %{cc} = %pcmap-clang -fsanitize-metadata=all
// DEFINE: %{mode} = pcmap
// DEFINE: %{cflags} = -O2 -fPIE
// DEFINE: %{ldflags} = -pie
// DEFINE: %{exe} = %t/exe
// DEFINE: %{check} = \
// DEFINE:   %{cc} %{cflags} -I%pcmap-include -I%S/Inputs -c %s -o %{exe}.o && \
// DEFINE:   %{cc} %{cflags} -c %S/Inputs/mixed_atomics.c -o %{exe}-small.o && \
// DEFINE:   %{cc} %{cflags} -mcmodel=large '-DMX(n)=large_##n' \
// DEFINE:     -c %S/Inputs/mixed_atomics.c -o %{exe}-large.o && \
// DEFINE:   %{cc} %{cflags} -mcmodel=medium '-DMX(n)=medium_##n' \
// DEFINE:     -c %S/Inputs/mixed_atomics.c -o %{exe}-medium.o && \
// DEFINE:   %clang %{ldflags} %{exe}.o %{exe}-small.o %{exe}-large.o \
// DEFINE:     %{exe}-medium.o %rt-static-lib -latomic -o %{exe} && \
// DEFINE:   llvm-readelf -S %{exe} | FileCheck %s --check-prefix=SECTIONS-%{mode} && \
// DEFINE:   %run %{exe} > %{exe}.out && \
// DEFINE:   FileCheck %s --check-prefix=OUT-%{mode} --input-file=%{exe}.out && \
// DEFINE:   %python %test-support/pcmap_elf.py dump --json %{exe} > %{exe}.json && \
// DEFINE:   %python %S/Inputs/compare_walk.py %{exe}.out %{exe}.json \
// DEFINE:     --mode %{mode} | FileCheck %s --check-prefix=COMPARE

// REDEFINE: %{exe} = %t/pcmap-O2-pie
// RUN: %{check}
// REDEFINE: %{cflags} = -O0 -fno-pie
// REDEFINE: %{ldflags} = -no-pie
// REDEFINE: %{exe} = %t/pcmap-O0-nopie
// RUN: %{check}
// REDEFINE: %{cc} = %clang -fexperimental-sanitize-metadata=atomics,covered
// REDEFINE: %{mode} = upstream
// REDEFINE: %{cflags} = -O2 -fPIE
// REDEFINE: %{ldflags} = -pie
// REDEFINE: %{exe} = %t/upstream-O2-pie
// RUN: %{check}

// SECTIONS-pcmap-DAG: {{\] }}pcmap_atomics1{{ }}
// SECTIONS-pcmap-DAG: {{\] }}pcmap_functions1{{ }}
// SECTIONS-pcmap-DAG: {{\] }}pcmap_atomics65537{{ }}
// SECTIONS-pcmap-DAG: {{\] }}pcmap_functions65537{{ }}
// SECTIONS-upstream-DAG: {{\] }}sanmd_atomics2{{ }}
// SECTIONS-upstream-DAG: {{\] }}sanmd_covered2{{ }}
// SECTIONS-upstream-DAG: {{\] }}sanmd_atomics65538{{ }}
// SECTIONS-upstream-DAG: {{\] }}sanmd_covered65538{{ }}

// OUT-pcmap: stats: modules=1 sections=4 sections_rejected=0
// OUT-upstream: stats: modules=1 sections=4 sections_rejected=0
// OUT-pcmap-NEXT: mx_run: found=1 start-ok=1 features=1 source-ok=1 atomic-pcs=no
// OUT-pcmap-NEXT: mx_rmw: found=1 start-ok=1 features=3 source-ok=1 atomic-pcs=yes
// OUT-pcmap-NEXT: mx_cas: found=1 start-ok=1 features=3 source-ok=1 atomic-pcs=yes
// OUT-pcmap-NEXT: mx_no_atomics: found=1 start-ok=1 features=1 source-ok=1 atomic-pcs=no
// OUT-pcmap-NEXT: large_run: found=1 start-ok=1 features=1 source-ok=1 atomic-pcs=no
// OUT-pcmap-NEXT: large_rmw: found=1 start-ok=1 features=3 source-ok=1 atomic-pcs=yes
// OUT-pcmap-NEXT: large_cas: found=1 start-ok=1 features=3 source-ok=1 atomic-pcs=yes
// OUT-pcmap-NEXT: large_no_atomics: found=1 start-ok=1 features=1 source-ok=1 atomic-pcs=no
// OUT-pcmap-NEXT: medium_run: found=1 start-ok=1 features=1 source-ok=1 atomic-pcs=no
// OUT-pcmap-NEXT: medium_rmw: found=1 start-ok=1 features=3 source-ok=1 atomic-pcs=yes
// OUT-pcmap-NEXT: medium_cas: found=1 start-ok=1 features=3 source-ok=1 atomic-pcs=yes
// OUT-pcmap-NEXT: medium_no_atomics: found=1 start-ok=1 features=1 source-ok=1 atomic-pcs=no
// Upstream sets the atomics feature only for functions that access memory.
// OUT-upstream-NEXT: mx_run: found=1 start-ok=1 features={{[01]}} source-ok=1 atomic-pcs=no
// OUT-upstream-NEXT: mx_rmw: found=1 start-ok=1 features=1 source-ok=1 atomic-pcs=yes
// OUT-upstream-NEXT: mx_cas: found=1 start-ok=1 features=1 source-ok=1 atomic-pcs=yes
// OUT-upstream-NEXT: mx_no_atomics: found=1 start-ok=1 features=0 source-ok=1 atomic-pcs=no
// OUT-upstream-NEXT: large_run: found=1 start-ok=1 features={{[01]}} source-ok=1 atomic-pcs=no
// OUT-upstream-NEXT: large_rmw: found=1 start-ok=1 features=1 source-ok=1 atomic-pcs=yes
// OUT-upstream-NEXT: large_cas: found=1 start-ok=1 features=1 source-ok=1 atomic-pcs=yes
// OUT-upstream-NEXT: large_no_atomics: found=1 start-ok=1 features=0 source-ok=1 atomic-pcs=no
// OUT-upstream-NEXT: medium_run: found=1 start-ok=1 features={{[01]}} source-ok=1 atomic-pcs=no
// OUT-upstream-NEXT: medium_rmw: found=1 start-ok=1 features=1 source-ok=1 atomic-pcs=yes
// OUT-upstream-NEXT: medium_cas: found=1 start-ok=1 features=1 source-ok=1 atomic-pcs=yes
// OUT-upstream-NEXT: medium_no_atomics: found=1 start-ok=1 features=0 source-ok=1 atomic-pcs=no
// OUT-pcmap: walk-summary modules=1 functions={{[1-9][0-9]*}} atomics={{[1-9][0-9]*}} errors=0
// OUT-upstream: walk-summary modules=1 functions={{[1-9][0-9]*}} atomics={{[1-9][0-9]*}} errors=0
// COMPARE: compare: OK: {{pcmap|upstream}}: {{[1-9][0-9]*}} functions, {{[1-9][0-9]*}} atomic PCs agree

#include "walk.h"

#define DECLARE(prefix)                                                        \
  uint64_t prefix##_run(uint32_t one);                                         \
  uint64_t prefix##_rmw(uint64_t v);                                           \
  int prefix##_cas(uint32_t e32, uint64_t e64, uint16_t e16);                  \
  int prefix##_no_atomics(int x);
DECLARE(mx)
DECLARE(large)
DECLARE(medium)

static void show(const char *name, uintptr_t fn) {
  struct pcmap_function f;
  int found = pcmap_lookup_function(fn, &f);
  int atomic_pcs = 0;
  if (found)
    for (uintptr_t pc = f.start; pc < f.start + f.size; ++pc)
      atomic_pcs |= pcmap_is_atomic_pc(pc) == PCMAP_YES;
  unsigned source = found ? f.source : 0;
  int source_ok = (source & PCMAP_SOURCE_PCMAP) || (source & PCMAP_SOURCE_UPSTREAM);
  rt_out("%s: found=%d start-ok=%d features=%u source-ok=%d atomic-pcs=%s\n",
         name, found, found && f.start == fn, found ? f.features : 0,
         source_ok, atomic_pcs ? "yes" : "no");
}

int main(int argc, char **argv) {
  (void)argv;
  volatile uint64_t r = mx_run((uint32_t)argc) + large_run((uint32_t)argc) +
                        medium_run((uint32_t)argc);
  (void)r;
  struct pcmap_stats s;
  pcmap_get_stats(&s);
  rt_out("stats: modules=%zu sections=%zu sections_rejected=%zu\n", s.modules,
         s.sections, s.sections_rejected);
#define SHOW(prefix)                                                           \
  show(#prefix "_run", (uintptr_t)prefix##_run);                               \
  show(#prefix "_rmw", (uintptr_t)prefix##_rmw);                               \
  show(#prefix "_cas", (uintptr_t)prefix##_cas);                               \
  show(#prefix "_no_atomics", (uintptr_t)prefix##_no_atomics);
  SHOW(mx)
  SHOW(large)
  SHOW(medium)
  rt_walk_all();
  return 0;
}
