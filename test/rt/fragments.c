// Function fragments (issue 18): work() has atomics in several branches.
// Built with -fbasic-block-sections=all every block is a fragment of its
// own; with -fbasic-block-sections=list= only work() is split (its entry
// block apart from the rest, in work.cold); with
// -fsplit-machine-functions and a profile, its cold blocks go to
// work.cold. In every case the runtime must find all of work()'s atomics
// (YES), answer NO (never UNKNOWN) at every other byte of every fragment,
// name work() as the function of every fragment, and count its atomics
// over all fragments. A stripped binary has no fragment symbols: its
// answers stay sound (YES at atomics, UNKNOWN where unsure, never NO at an
// atomic).

// REQUIRES: basic-block-sections
// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -O2 -fsanitize-metadata=all -fbasic-block-sections=all \
// RUN:   -I%pcmap-include -c %s -o %t/all.o
// RUN: %clang %t/all.o %rt-static-lib -o %t/all
// RUN: %run %t/all | FileCheck %s --check-prefixes=CHECK,SPLIT
// The function report has one row for work(), its size that of all its
// fragments.
// clang-format off
// RUN: env PCMAP_OPTIONS=report_functions=1:report_format=csv:report_path=%t/r \
// RUN:   %run %t/all > %t/all.out
// RUN: cat %t/all.out %t/r.* | FileCheck %s --check-prefix=REPORT
// clang-format on
// RUN: %python %test-support/check_pcmap.py disasm %t/all \
// RUN:   --objdump llvm-objdump | FileCheck %s --check-prefix=DISASM

// The list puts work()'s entry block in its own cluster: its other blocks
// go to work.cold (LLVM 22 leaves a function listed without clusters
// whole).
// RUN: printf '!work\n!!0\n' > %t/list.txt
// RUN: %pcmap-clang -O2 -fsanitize-metadata=all \
// RUN:   -fbasic-block-sections=list=%t/list.txt -I%pcmap-include -c %s \
// RUN:   -o %t/list.o
// RUN: %clang %t/list.o %rt-static-lib -o %t/list
// RUN: %run %t/list | FileCheck %s --check-prefixes=CHECK,SPLIT
// RUN: %python %test-support/check_pcmap.py disasm %t/list \
// RUN:   --objdump llvm-objdump | FileCheck %s --check-prefix=DISASM

// labels: no fragments, the function is whole.
// RUN: %pcmap-clang -O2 -fsanitize-metadata=all -fbasic-block-sections=labels \
// RUN:   -I%pcmap-include -c %s -o %t/labels.o
// RUN: %clang %t/labels.o %rt-static-lib -o %t/labels
// RUN: %run %t/labels | FileCheck %s --check-prefixes=CHECK,WHOLE

// Stripped: the fragments are unknown, and verbosity=1 says so once.
// RUN: llvm-objcopy --strip-all %t/all %t/stripped
// RUN: env PCMAP_OPTIONS=verbosity=1 %run %t/stripped 2>&1 \
// RUN:   | FileCheck %s --check-prefix=STRIPPED

// clang-format off
// CHECK: atomics of work: 3, all YES
// SPLIT-NEXT: fragments of work: {{[2-9]|[1-9][0-9]+}}, entry first, every fragment names work
// WHOLE-NEXT: fragments of work: 1, entry first, every fragment names work
// CHECK-NEXT: every other byte of work: NO
// CHECK-NEXT: size of work: {{[0-9]+}} bytes
// CHECK-NEXT: work(3) = {{-?[0-9]+}}

// STRIPPED: no symbol table in {{.*}}stripped: the fragments of its split functions are unknown
// STRIPPED-NOT: no symbol table
// STRIPPED: atomics of work: 3, all YES
// STRIPPED-NEXT: unsure: no NO at an atomic, UNKNOWN outside the first fragment
// STRIPPED-NEXT: work(3) = {{-?[0-9]+}}
// clang-format on

// clang-format off
// REPORT: size of work: [[SIZE:[0-9]+]] bytes
// REPORT: module,function,start,size,atomics,load,store,rmw,cmpxchg,fence,unknown,asm,features
// REPORT-NOT: ,work.__part.
// REPORT: ,work,0x{{[0-9a-f]+}},[[SIZE]],3,1,1,1,0,0,0,0,"atomics,fragmented,pcmap"
// REPORT-NOT: ,work.__part.
// clang-format on

// DISASM: OK:

#include <pcmap/pcmap.h>

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

_Atomic int A, B, C;
int G;

__attribute__((noinline)) int work(int X) {
  int R = 0;
  if (X & 1) {
    R += atomic_load(&A);
    G++;
  } else {
    atomic_store(&B, X);
    G--;
  }
  if (X & 2)
    R += atomic_fetch_add(&C, 1);
  for (int I = 0; I < X; I++)
    G += I;
  return R;
}

#define MAX 4096
static struct pcmap_function Pieces[MAX];
static uintptr_t Atomics[MAX];

static void fail(const char *What, uintptr_t PC) {
  printf("FAIL: %s at %#lx\n", What, (unsigned long)PC);
  exit(1);
}

static int isAtomic(uintptr_t PC, size_t N) {
  for (size_t I = 0; I < N; ++I)
    if (Atomics[I] == PC)
      return 1;
  return 0;
}

int main(int Argc, char **Argv) {
  uintptr_t Entry = (uintptr_t)&work;
  struct pcmap_module M;
  size_t NumPieces = 0, NumAtomics = 0, Size = 0;
  int Stripped = 0;
  for (size_t I = 0; pcmap_module_at(I, &M); ++I) {
    struct pcmap_function F;
    for (size_t J = 0; pcmap_function_at(M.text_start, J, &F); ++J)
      if (F.entry == Entry && NumPieces < MAX)
        Pieces[NumPieces++] = F;
    struct pcmap_atomic At;
    for (size_t J = 0; pcmap_atomic_at(M.text_start, J, &At); ++J) {
      // The atomics of work(): in its fragments, or, stripped, anywhere
      // but in another function.
      struct pcmap_function G;
      if (!pcmap_lookup_function(At.pc, &G) || G.entry == Entry)
        if (NumAtomics < MAX)
          Atomics[NumAtomics++] = At.pc;
    }
  }
  if (!NumPieces || Pieces[0].start != Entry ||
      (Pieces[0].source & PCMAP_SOURCE_FRAGMENT))
    fail("no entry record", Entry);
  for (size_t I = 0; I < NumAtomics; ++I)
    if (pcmap_is_atomic_pc(Atomics[I]) != PCMAP_YES)
      fail("atomic not YES", Atomics[I]);
  printf("atomics of work: %zu, all YES\n", NumAtomics);
  Stripped = NumPieces == 1 && !(Pieces[0].features & PCMAP_FEATURE_ATOMICS);
  if (Stripped) {
    // The first fragment has no atomic: incomplete, so UNKNOWN.
    for (uintptr_t PC = Pieces[0].start; PC < Pieces[0].start + Pieces[0].size;
         ++PC)
      if (pcmap_is_atomic_pc(PC) == PCMAP_NO && isAtomic(PC, NumAtomics))
        fail("NO at an atomic", PC);
    for (size_t I = 0; I < NumAtomics; ++I) {
      struct pcmap_function G;
      if (pcmap_lookup_function(Atomics[I], &G))
        fail("a fragment is known", Atomics[I]);
    }
    printf("unsure: no NO at an atomic, UNKNOWN outside the first fragment\n");
  } else {
    uint32_t Counted = 0;
    for (size_t I = 0; I < NumPieces; ++I) {
      const struct pcmap_function *P = &Pieces[I];
      if (I && !(P->source & PCMAP_SOURCE_FRAGMENT))
        fail("a second record without PCMAP_SOURCE_FRAGMENT", P->start);
      if (!(P->features & PCMAP_FEATURE_FRAGMENTED))
        if (Argc > 1 || NumPieces > 1)
          fail("a fragment without PCMAP_FEATURE_FRAGMENTED", P->start);
      if (!(P->features & PCMAP_FEATURE_ATOMICS))
        fail("a fragment is not complete", P->start);
      Counted += P->num_atomics;
      Size += P->size;
      for (uintptr_t PC = P->start; PC < P->start + P->size; ++PC) {
        struct pcmap_function G;
        if (!pcmap_lookup_function(PC, &G) || G.entry != Entry ||
            G.start != P->start)
          fail("lookup_function does not name the fragment of work", PC);
        int Answer = pcmap_is_atomic_pc(PC);
        if (Answer != (isAtomic(PC, NumAtomics) ? PCMAP_YES : PCMAP_NO))
          fail("wrong answer", PC);
      }
    }
    if (Counted != NumAtomics)
      fail("num_atomics do not add up", Counted);
    printf("fragments of work: %zu, entry first, every fragment names work\n",
           NumPieces);
    printf("every other byte of work: NO\n");
    printf("size of work: %zu bytes\n", Size);
  }
  // Hot for the profile of -fsplit-machine-functions: work(3) never takes
  // the branch with the store, which goes to work.cold.
  int Sum = 0;
  for (int I = 0; I < 100000; ++I)
    Sum += work(Argc + 2);
  printf("work(3) = %d\n", Sum);
  return 0;
}
