// Faulting atomics: every operation of Inputs/ops.c is run on a PROT_NONE
// page; the SIGSEGV handler reads the faulting PC from the signal context and
// asks the runtime (pcmap_is_atomic_pc, pcmap_lookup_atomic,
// pcmap_lookup_function, pcmap_lookup_atomic_before) about it. Atomics must
// be YES with their exact descriptor and function, a plain volatile load in a
// covered function NO, an atomic in an uninstrumented function UNKNOWN.
// Then PCs outside any covered function (libc, the runtime itself, the stack,
// the heap, 0) must be UNKNOWN.
//
// Built at -O0 and -O2, PIE and not, and fully static; the runtime is linked
// explicitly (the static library).

// RUN: rm -rf %t && mkdir %t
// DEFINE: %{cflags} = -O0
// DEFINE: %{ldflags} = -pie
// DEFINE: %{exe} = %t/fault
// DEFINE: %{check} = \
// DEFINE:   %pcmap-clang -fsanitize-metadata=all %{cflags} -I%pcmap-include \
// DEFINE:     -I%S/Inputs -c %s -o %{exe}.o && \
// DEFINE:   %pcmap-clang -fsanitize-metadata=all %{cflags} -I%S/Inputs \
// DEFINE:     -c %S/Inputs/ops.c -o %{exe}-ops.o && \
// DEFINE:   %clang %{ldflags} %{exe}.o %{exe}-ops.o %rt-static-lib -o %{exe} && \
// DEFINE:   %run %{exe} > %{exe}.out && \
// DEFINE:   FileCheck %s --input-file=%{exe}.out && \
// DEFINE:   FileCheck %S/Inputs/ops.c --check-prefixes=OPS,OPS-%target-arch --input-file=%{exe}.out

// REDEFINE: %{cflags} = -O0 -fPIE
// REDEFINE: %{ldflags} = -pie
// REDEFINE: %{exe} = %t/O0-pie
// RUN: %{check}
// REDEFINE: %{cflags} = -O2 -fPIE
// REDEFINE: %{exe} = %t/O2-pie
// RUN: %{check}
// REDEFINE: %{cflags} = -O0 -fno-pie
// REDEFINE: %{ldflags} = -no-pie
// REDEFINE: %{exe} = %t/O0-nopie
// RUN: %{check}
// REDEFINE: %{cflags} = -O2 -fno-pie
// REDEFINE: %{exe} = %t/O2-nopie
// RUN: %{check}
// The sanitizers' runtimes cannot be linked statically: a sanitizer build
// (PCMAP_SANITIZE) skips the static programs.
// REDEFINE: %{cflags} = -O0 -fno-pie
// REDEFINE: %{ldflags} = -static
// REDEFINE: %{exe} = %t/O0-static
// RUN: %if !sanitizer %{ %{check} %}
// REDEFINE: %{cflags} = -O2 -fno-pie
// REDEFINE: %{exe} = %t/O2-static
// RUN: %if !sanitizer %{ %{check} %}
// REDEFINE: %{cflags} = -O2 -fPIE
// REDEFINE: %{ldflags} = -static-pie
// REDEFINE: %{exe} = %t/O2-static-pie
// RUN: %if !sanitizer %{ %{check} %}

#include "fault_harness.h"

#include <stdlib.h>

int main(void);

static void query(const char *what, uintptr_t pc) {
  struct pcmap_atomic a;
  struct pcmap_function f;
  struct pcmap_atomic b;
  int answer = pcmap_is_atomic_pc(pc);
  int found = pcmap_lookup_atomic(pc, &a);
  int fn = pcmap_lookup_function(pc, &f);
  // Only [pc, pc + 1): what lies before pc belongs to another function.
  int before = pcmap_lookup_atomic_before(pc + 1, 1, &b);
  rt_out("query %s answer=%s atomic=%s fn=%s before=%s\n", what,
         rt_answer_name(answer), found ? "found" : "none",
         fn ? (f.start == (uintptr_t)&main ? "main" : "other") : "none",
         before ? "found" : "none");
}

int main(void) {
  fh_install();
  void *page = fh_fault_page();

  // One executable with a small-model table: two sections.
  // CHECK: fault: stats modules=1 sections=2 sections_rejected=0 entries_rejected=0 functions={{[1-9][0-9]*}} atomics={{[1-9][0-9]*}}
  struct pcmap_stats s;
  memset(&s, 0xa5, sizeof s);
  pcmap_get_stats(&s);
  rt_out("fault: stats modules=%zu sections=%zu sections_rejected=%zu "
         "entries_rejected=%zu functions=%zu atomics=%zu\n",
         s.modules, s.sections, s.sections_rejected, s.entries_rejected,
         s.functions, s.atomics);

  // The OPS lines of Inputs/ops.c.
  int faults = 0;
  for (int i = 0; i < rt_num_ops; ++i)
    faults += fh_run(&rt_ops[i], page) != 0;
  // CHECK: fault: 19 of 19 operations faulted
  rt_out("fault: %d of %d operations faulted\n", faults, rt_num_ops);

  // CHECK-NEXT: query main answer=no atomic=none fn=main before=none
  query("main", (uintptr_t)&main);
  // CHECK-NEXT: query libc-write answer=unknown atomic=none fn=none before=none
  query("libc-write", (uintptr_t)&write);
  // CHECK-NEXT: query libc-write+1 answer=unknown atomic=none fn=none before=none
  query("libc-write+1", (uintptr_t)&write + 1);
  // CHECK-NEXT: query libc-malloc answer=unknown atomic=none fn=none before=none
  query("libc-malloc", (uintptr_t)&malloc);
  // CHECK-NEXT: query runtime answer=unknown atomic=none fn=none before=none
  query("runtime", (uintptr_t)&pcmap_is_atomic_pc);
  int local = 0;
  // CHECK-NEXT: query stack answer=unknown atomic=none fn=none before=none
  query("stack", (uintptr_t)&local);
  void *heap = malloc(64);
  // CHECK-NEXT: query heap answer=unknown atomic=none fn=none before=none
  query("heap", (uintptr_t)heap);
  free(heap);
  // CHECK-NEXT: query page answer=unknown atomic=none fn=none before=none
  query("page", (uintptr_t)page);
  // CHECK-NEXT: query null answer=unknown atomic=none fn=none before=none
  query("null", 0);
  // CHECK-NEXT: query max answer=unknown atomic=none fn=none before=none
  query("max", UINTPTR_MAX);

  // The executable is the only module with tables; its functions, in address
  // order, include main and every instrumented operation.
  // CHECK-NEXT: module 0: has-main=1 text-ok=1 functions=ok ops=18 sorted=1 count-ok=1
  // CHECK-NEXT: module 1: none
  struct pcmap_module m;
  if (!pcmap_module_at(0, &m)) {
    rt_out("module 0: none\n");
  } else {
    size_t n = 0, ops = 0;
    int sorted = 1, text_ok = 1;
    uintptr_t prev = 0;
    struct pcmap_function f;
    while (pcmap_function_at(m.text_start, n, &f)) {
      if (n && f.start <= prev)
        sorted = 0;
      if (f.start < m.text_start || f.start + f.size > m.text_end)
        text_ok = 0;
      prev = f.start;
      for (int i = 0; i < rt_num_ops; ++i)
        if (f.start == (uintptr_t)rt_ops[i].fn)
          ++ops;
      ++n;
    }
    uintptr_t mainpc = (uintptr_t)&main;
    rt_out("module 0: has-main=%d text-ok=%d functions=%s ops=%zu sorted=%d "
           "count-ok=%d\n",
           mainpc >= m.text_start && mainpc < m.text_end, text_ok,
           n == m.num_functions && n == s.functions ? "ok" : "MISMATCH", ops,
           sorted, m.num_atomics == s.atomics);
  }
  rt_out("module 1: %s\n", pcmap_module_at(1, &m) ? "FOUND" : "none");
  // CHECK-NEXT: fault: done
  rt_out("fault: done\n");
  return 0;
}
