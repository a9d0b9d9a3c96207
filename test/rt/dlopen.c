// Atomics in a shared library that the program dlopens: while it is loaded,
// the faulting operations of Inputs/ops.c (now in the library) are YES with
// their descriptors and the library's functions; the module count goes up by
// one and the library is listed by pcmap_module_at. After dlclose, the PCs
// remembered while it was loaded are UNKNOWN, no lookup finds them, and the
// counters are back where they were. Opened a second time, it is found again.
//
// Two link set-ups: the static runtime in an executable that exports its
// symbols (-rdynamic, so that the library's weak references to the
// registration callbacks resolve to it), and the shared runtime.

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -fsanitize-metadata=all -O2 -I%pcmap-include -I%S/Inputs \
// RUN:   -c %s -o %t/main.o
// RUN: %clang %t/main.o %rt-static-lib -rdynamic -ldl -o %t/static-rt
// RUN: %clang %t/main.o %rt-shared-lib -Wl,-rpath,%rt-shared-dir -ldl \
// RUN:   -o %t/shared-rt
// RUN: %pcmap-clang -fsanitize-metadata=all -O2 -fPIC -shared -I%S/Inputs \
// RUN:   %S/Inputs/ops.c -o %t/libops-O2.so
// RUN: %pcmap-clang -fsanitize-metadata=all -O0 -fPIC -shared -I%S/Inputs \
// RUN:   -Wl,-z,now %S/Inputs/ops.c -o %t/libops-O0.so

// DEFINE: %{exe} = static-rt
// DEFINE: %{lib} = libops-O2.so
// DEFINE: %{check} = \
// DEFINE:   %run %t/%{exe} %t/%{lib} > %t/%{exe}-%{lib}.out && \
// DEFINE:   FileCheck %s --input-file=%t/%{exe}-%{lib}.out && \
// DEFINE:   FileCheck %S/Inputs/ops.c --check-prefixes=OPS,OPS-%target-arch \
// DEFINE:     --input-file=%t/%{exe}-%{lib}.out

// RUN: %{check}
// REDEFINE: %{lib} = libops-O0.so
// RUN: %{check}
// REDEFINE: %{exe} = shared-rt
// RUN: %{check}
// REDEFINE: %{lib} = libops-O2.so
// RUN: %{check}

#define _GNU_SOURCE 1
#include "fault_harness.h"

#include <dlfcn.h>
#include <stdlib.h>

#define MAX_OPS 64

static const char *lib_path;
static int failures;

static void fail(const char *what) {
  rt_out("dlopen: FAIL: %s\n", what);
  ++failures;
}

static void print_stats(const char *when, const struct pcmap_stats *s,
                        const struct pcmap_stats *base) {
  rt_out("%s: modules=%zu delta-functions=%ld delta-atomics=%ld "
         "delta-sections=%ld sections_rejected=%zu\n",
         when, s->modules, (long)(s->functions - base->functions),
         (long)(s->atomics - base->atomics),
         (long)(s->sections - base->sections), s->sections_rejected);
}

// The module whose path ends in the library's file name, or 0.
static int find_module(struct pcmap_module *out) {
  const char *base = strrchr(lib_path, '/');
  base = base ? base + 1 : lib_path;
  int found = 0;
  struct pcmap_module m;
  for (size_t i = 0; pcmap_module_at(i, &m); ++i) {
    const char *p = m.path ? strrchr(m.path, '/') : NULL;
    p = p ? p + 1 : (m.path ? m.path : "");
    if (strcmp(p, base) == 0) {
      *out = m;
      ++found;
    }
  }
  return found;
}

// After dlclose: nothing may be known about the library's PCs any more.
static void check_gone(const uintptr_t *pcs, const uintptr_t *fns, int n,
                       const char *when) {
  int stale = 0, checked = 0;
  for (int i = 0; i < n; ++i) {
    uintptr_t list[3] = {pcs[i], pcs[i] ? pcs[i] + 1 : 0, fns[i]};
    for (int j = 0; j < 3; ++j) {
      uintptr_t pc = list[j];
      if (!pc)
        continue;
      ++checked;
      struct pcmap_atomic a;
      struct pcmap_function f;
      int answer = pcmap_is_atomic_pc(pc);
      int bad = answer != PCMAP_UNKNOWN;
      bad |= pcmap_lookup_atomic(pc, &a);
      bad |= pcmap_lookup_function(pc, &f);
      bad |= pcmap_lookup_atomic_before(pc + 1, 64, &a);
      if (bad) {
        rt_out("dlopen: stale answer for %#lx: answer=%s\n",
               (unsigned long)pc, rt_answer_name(answer));
        ++stale;
      }
    }
  }
  rt_out("%s: checked=%d stale=%d\n", when, checked, stale);
  failures += stale != 0;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    rt_out("usage: %s LIBRARY\n", argv[0]);
    return 2;
  }
  lib_path = argv[1];
  fh_install();
  void *page = fh_fault_page();

  // The executable is instrumented: one module before the library.
  // CHECK: start: modules=1 delta-functions=0 delta-atomics=0 delta-sections=0 sections_rejected=0
  struct pcmap_stats s0, s;
  pcmap_get_stats(&s0);
  print_stats("start", &s0, &s0);
  struct pcmap_module m;
  // CHECK-NEXT: start: library module found=0
  rt_out("start: library module found=%d\n", find_module(&m));

  void *h = dlopen(lib_path, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    rt_out("dlopen failed: %s\n", dlerror());
    return 1;
  }
  // 18 instrumented functions (op_uninstrumented_* is not), 2 sections.
  // CHECK-NEXT: loaded: modules=2 delta-functions=18 delta-atomics={{[1-9][0-9]*}} delta-sections=2 sections_rejected=0
  pcmap_get_stats(&s);
  print_stats("loaded", &s, &s0);
  size_t generation = s.generation;

  // CHECK-NEXT: loaded: library module found=1 text-ok=1 functions=18 atomics-ok=1 bias-ok=1
  int found = find_module(&m);
  const struct rt_op *ops = (const struct rt_op *)dlsym(h, "rt_ops");
  const int *num_ops = (const int *)dlsym(h, "rt_num_ops");
  if (!ops || !num_ops || *num_ops > MAX_OPS) {
    rt_out("dlsym failed\n");
    return 1;
  }
  int n = *num_ops;
  {
    // The operations' functions lie in the module's text; the bias is the
    // one dladdr reports for the library.
    int text_ok = found == 1;
    for (int i = 0; i < n && found == 1; ++i) {
      uintptr_t fn = (uintptr_t)ops[i].fn;
      text_ok &= fn >= m.text_start && fn < m.text_end;
    }
    Dl_info info;
    int bias_ok = found == 1 && dladdr((void *)ops[0].fn, &info) &&
                  (uintptr_t)info.dli_fbase == m.bias;
    rt_out("loaded: library module found=%d text-ok=%d functions=%zu "
           "atomics-ok=%d bias-ok=%d\n",
           found, text_ok, found ? m.num_functions : 0,
           found == 1 && m.num_atomics == s.atomics - s0.atomics, bias_ok);
  }

  // The function pointers in the library's table are the exported functions.
  // CHECK-NEXT: loaded: dlsym agrees=19
  int agree = 0;
  for (int i = 0; i < n; ++i) {
    char name[128];
    snprintf(name, sizeof name, "op_%s", ops[i].name);
    agree += dlsym(h, name) == (void *)ops[i].fn;
  }
  rt_out("loaded: dlsym agrees=%d\n", agree);

  // The OPS lines of Inputs/ops.c, now answered from the library's tables.
  uintptr_t pcs[MAX_OPS], fns[MAX_OPS];
  for (int i = 0; i < n; ++i) {
    pcs[i] = fh_run(&ops[i], page);
    fns[i] = (uintptr_t)ops[i].fn;
  }
  // CHECK: loaded: faults=19
  int faults = 0;
  for (int i = 0; i < n; ++i)
    faults += pcs[i] != 0;
  rt_out("loaded: faults=%d\n", faults);

  if (dlclose(h))
    fail("dlclose");
  // CHECK-NEXT: closed: really unloaded=1
  void *again = dlopen(lib_path, RTLD_NOW | RTLD_NOLOAD);
  rt_out("closed: really unloaded=%d\n", again == NULL);
  if (again)
    dlclose(again);

  // CHECK-NEXT: closed: checked={{[1-9][0-9]*}} stale=0
  check_gone(pcs, fns, n, "closed");
  // CHECK-NEXT: closed: modules=1 delta-functions=0 delta-atomics=0 delta-sections=0 sections_rejected=0
  pcmap_get_stats(&s);
  print_stats("closed", &s, &s0);
  // CHECK-NEXT: closed: library module found=0 generation-changed=1
  rt_out("closed: library module found=%d generation-changed=%d\n",
         find_module(&m), s.generation != generation);

  // Once more: the library's tables are registered again, wherever it lands.
  h = dlopen(lib_path, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    rt_out("dlopen failed: %s\n", dlerror());
    return 1;
  }
  ops = (const struct rt_op *)dlsym(h, "rt_ops");
  // CHECK-NEXT: reopened: modules=2 delta-functions=18 delta-atomics={{[1-9][0-9]*}} delta-sections=2 sections_rejected=0
  pcmap_get_stats(&s);
  print_stats("reopened", &s, &s0);
  // CHECK-NEXT: op load_acquire_4 answer=yes atomic=[kind=load size=4 order=acquire flags=none] afn=ok fn=ok mid=no before=ok addr=ok
  // CHECK-NEXT: op cas_weak_acq_rel_relaxed_8 answer=yes atomic=[kind=cmpxchg size=8 order=acq_rel failure=relaxed flags=weak] afn=ok fn=ok mid=no before=ok addr=ok
  pcs[0] = fh_run(&ops[0], page);
  pcs[1] = fh_run(&ops[5], page);
  fns[0] = (uintptr_t)ops[0].fn;
  fns[1] = (uintptr_t)ops[5].fn;
  if (dlclose(h))
    fail("dlclose");
  // CHECK-NEXT: closed again: checked={{[1-9][0-9]*}} stale=0
  check_gone(pcs, fns, 2, "closed again");
  // CHECK-NEXT: closed again: modules=1 delta-functions=0 delta-atomics=0 delta-sections=0 sections_rejected=0
  pcmap_get_stats(&s);
  print_stats("closed again", &s, &s0);

  // CHECK-NEXT: dlopen: done failures=0
  rt_out("dlopen: done failures=%d\n", failures);
  return failures != 0;
}
