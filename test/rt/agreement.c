// The runtime and the independent decoder (test/support/pcmap_elf.py) agree on
// every function and every atomic PC of a binary: the program walks all
// modules, functions and PCs through the query API (Inputs/walk.h, which
// also checks that the answers agree with each other), and
// Inputs/compare_walk.py compares that, function by function, with
// `pcmap_elf.py dump --json` of the same binary.
//
//  - pcmap builds (pcmap-clang -fsanitize-metadata=all): starts, sizes,
//    features, atomic PCs and their descriptors;
//  - upstream builds (plain clang -fexperimental-sanitize-metadata=atomics,
//    covered,uar, no pcmap plugin, linked with the runtime, which implements
//    the __sanitizer_metadata_* callbacks): starts, sizes, upstream
//    features, stack-argument sizes, atomic PCs.
//
// At -O0 and -O2, PIE and not.

// RUN: rm -rf %t && mkdir %t

// DEFINE: %{cc} = %pcmap-clang -fsanitize-metadata=all
// DEFINE: %{mode} = pcmap
// DEFINE: %{prefix} = PCMAP
// DEFINE: %{cflags} = -O2 -fPIE
// DEFINE: %{ldflags} = -pie
// DEFINE: %{exe} = %t/exe
// DEFINE: %{check} = \
// DEFINE:   %{cc} %{cflags} -I%pcmap-include -I%S/Inputs -c %s -o %{exe}.o && \
// DEFINE:   %{cc} %{cflags} -c %S/Inputs/mixed_atomics.c -o %{exe}-mixed.o && \
// DEFINE:   %clang %{ldflags} %{exe}.o %{exe}-mixed.o %rt-static-lib -latomic \
// DEFINE:     -o %{exe} && \
// DEFINE:   %run %{exe} > %{exe}.walk && \
// DEFINE:   FileCheck %s --check-prefix=WALK --input-file=%{exe}.walk && \
// DEFINE:   %python %test-support/pcmap_elf.py dump --json %{exe} > %{exe}.json && \
// DEFINE:   %python %S/Inputs/compare_walk.py %{exe}.walk %{exe}.json \
// DEFINE:     --mode %{mode} | FileCheck %s --check-prefix=%{prefix}

// REDEFINE: %{cflags} = -O2 -fPIE
// REDEFINE: %{ldflags} = -pie
// REDEFINE: %{exe} = %t/pcmap-O2-pie
// RUN: %{check}
// REDEFINE: %{cflags} = -O0 -fPIE
// REDEFINE: %{exe} = %t/pcmap-O0-pie
// RUN: %{check}
// REDEFINE: %{cflags} = -O2 -fno-pie
// REDEFINE: %{ldflags} = -no-pie
// REDEFINE: %{exe} = %t/pcmap-O2-nopie
// RUN: %{check}

// REDEFINE: %{cc} = %clang -fexperimental-sanitize-metadata=atomics,covered,uar
// REDEFINE: %{mode} = upstream
// REDEFINE: %{prefix} = UPSTREAM
// REDEFINE: %{cflags} = -O2 -fPIE
// REDEFINE: %{ldflags} = -pie
// REDEFINE: %{exe} = %t/upstream-O2-pie
// RUN: %{check}
// REDEFINE: %{cflags} = -O0 -fPIE
// REDEFINE: %{exe} = %t/upstream-O0-pie
// RUN: %{check}
// REDEFINE: %{cflags} = -O2 -fno-pie
// REDEFINE: %{ldflags} = -no-pie
// REDEFINE: %{exe} = %t/upstream-O2-nopie
// RUN: %{check}

// The upstream build has functions with stack arguments, and the decoder
// sees them (so that the comparison of upstream_stack_args means something).
// RUN: FileCheck %s --check-prefix=STACK --input-file=%t/upstream-O2-pie.json
// STACK: "stack_args": {{[1-9][0-9]*}}

// WALK: walk-summary modules=1 functions={{[1-9][0-9]*}} atomics={{[1-9][0-9]*}} errors=0
// PCMAP: compare: OK: pcmap: {{[1-9][0-9]*}} functions, {{[1-9][0-9]*}} atomic PCs agree
// UPSTREAM: compare: OK: upstream: {{[1-9][0-9]*}} functions, {{[1-9][0-9]*}} atomic PCs agree

#include "walk.h"

uint64_t mx_run(uint32_t one);

int main(int argc, char **argv) {
  (void)argv;
  volatile uint64_t r = mx_run((uint32_t)argc);
  (void)r;
  rt_walk_all();
  return 0;
}
