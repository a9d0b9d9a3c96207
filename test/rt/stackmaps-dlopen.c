// Stack maps in a shared object that the program dlopens: the object is
// built from Inputs/stackmaps.ll by llc and clang alone (no pcmap
// instrumentation, no registration), so the runtime must find its section
// by itself when dlopen returns. Every record is found as llvm-readobj,
// llvm-nm and llvm-objdump describe it; after dlclose none is, a record
// looked up before dlclose no longer gives its locations or live-outs, and
// the counters are back at zero. Opened again, it is found again.
//
// Rewritten in version 2, the section gives the same answers. Damaged
// copies of the object (bad version, record count past the end,
// unknown location kind) are rejected with a message in the log, counted,
// and the program goes on.
//
// -Bsymbolic: the section's function addresses are then relative
// relocations, whose values the linker also writes into the file, where
// llvm-readobj reads them.
//
// The static runtime (the executable's dlopen and dlclose interpose libc's)
// and the shared one.

// clang-format off
// RUN: rm -rf %t && mkdir %t
// RUN: %llc -O2 -filetype=obj -relocation-model=pic \
// RUN:   %stackmaps-ll -o %t/sm.o
// RUN: %clang -shared -Wl,-Bsymbolic %t/sm.o -o %t/libsm.so
// RUN: %python %S/Inputs/stackmap_expect.py %t/libsm.so %patchpoint-sizes \
// RUN:   %t/libsm.expect
// RUN: %python %S/Inputs/corrupt_stackmaps.py %t/libsm.so \
// RUN:   %t/libsm-version.so version
// RUN: %python %S/Inputs/corrupt_stackmaps.py %t/libsm.so \
// RUN:   %t/libsm-records.so records
// RUN: %python %S/Inputs/corrupt_stackmaps.py %t/libsm.so \
// RUN:   %t/libsm-kind.so kind
// RUN: %clang -O1 -I%pcmap-include -I%S/Inputs -c %s -o %t/main.o
// RUN: %clang %t/main.o %rt-static-lib -rdynamic -ldl -o %t/static-rt
// RUN: %clang %t/main.o %rt-shared-lib -Wl,-rpath,%rt-shared-dir -rdynamic \
// RUN:   -ldl -o %t/shared-rt

// DEFINE: %{exe} = static-rt
// DEFINE: %{check} = \
// DEFINE:   %run %t/%{exe} %t/libsm.expect %t/libsm.so %t/libsm-version.so \
// DEFINE:     %t/libsm-records.so %t/libsm-kind.so > %t/%{exe}.out 2>&1 && \
// DEFINE:   FileCheck %s -DLIVE_OUTS=%stackmap-live-outs --input-file=%t/%{exe}.out

// A sanitizer's own dlopen/dlclose interceptors take precedence over the
// runtime's when both are linked into the executable, as with the static
// runtime: a sanitizer build (PCMAP_SANITIZE) checks the shared runtime only
// (docs/design/Runtime.md, "Stack maps").
// RUN: %if !sanitizer %{ %{check} %}
// REDEFINE: %{exe} = shared-rt
// RUN: %{check}

// The same section in version 2 (LLVM 3.8 to 10): the same records.
// RUN: %python %S/Inputs/corrupt_stackmaps.py %t/libsm.so %t/libsm-v2.so v2
// RUN: %run %t/shared-rt %t/libsm.expect %t/libsm-v2.so > %t/v2.out 2>&1
// RUN: FileCheck %s --check-prefix=V2 -DLIVE_OUTS=%stackmap-live-outs --input-file=%t/v2.out

// V2: loaded: functions=4 records=7 locations=19 live-outs=[[LIVE_OUTS]] calls=4 patchpoints=2
// V2: loaded: module path ok=1 version=2
// V2: closed: modules=0 records=0 rejected=0
// V2: stackmaps-dlopen: failures=0

// CHECK: start: modules=0 records=0 rejected=0
// CHECK-NEXT: loaded: functions=4 records=7 locations=19 live-outs=[[LIVE_OUTS]] calls=4 patchpoints=2 misses={{[1-9][0-9]*}}
// CHECK-NEXT: loaded: modules=1 functions=4 records=7 rejected=0
// CHECK-NEXT: loaded: module path ok=1 version=3
// CHECK-NEXT: closed: functions=0 records=0 locations=0 live-outs=0 calls=0 patchpoints=0 misses={{[1-9][0-9]*}}
// CHECK-NEXT: closed: modules=0 records=0 rejected=0
// CHECK-NEXT: closed: saved record location=0 live-out=0
// CHECK-NEXT: reopened: functions=4 records=7 locations=19 live-outs=[[LIVE_OUTS]] calls=4 patchpoints=2
// CHECK-NEXT: closed again: modules=0 records=0 rejected=0
// CHECK-NEXT: pcmap: rejected section .llvm_stackmaps ({{[0-9]+}} bytes at 0x{{[0-9a-f]+}}) of {{.*}}libsm-version.so: unsupported stack map version (supported: 1, 2, 3) (blob at byte 0)
// CHECK-NEXT: damaged libsm-version.so: loaded=1 records=0 rejected=1 found=0
// CHECK-NEXT: pcmap: rejected section .llvm_stackmaps ({{[0-9]+}} bytes at 0x{{[0-9a-f]+}}) of {{.*}}libsm-records.so: {{.+}} (blob at byte 0)
// CHECK-NEXT: damaged libsm-records.so: loaded=1 records=0 rejected=2 found=0
// CHECK-NEXT: pcmap: rejected section .llvm_stackmaps ({{[0-9]+}} bytes at 0x{{[0-9a-f]+}}) of {{.*}}libsm-kind.so: unknown location kind (blob at byte 0)
// CHECK-NEXT: damaged libsm-kind.so: loaded=1 records=0 rejected=3 found=0
// CHECK-NEXT: stackmaps-dlopen: failures=0
// clang-format on

#define _GNU_SOURCE 1
#include "stackmap_check.h"

#include <dlfcn.h>

void sm_callee(long x) { (void)x; }

// Resolves through the library while it is loaded and remembers the
// addresses for the checks after dlclose.
struct symbols {
  void *handle;
  int n;
  char names[16][64];
  uintptr_t addrs[16];
};

static uintptr_t resolve(const char *name, void *ctx) {
  struct symbols *s = ctx;
  for (int i = 0; i < s->n; ++i)
    if (!strcmp(s->names[i], name))
      return s->addrs[i];
  void *p = s->handle ? dlsym(s->handle, name) : NULL;
  if (!p || s->n == 16) {
    rt_out("FAIL: cannot resolve %s\n", name);
    ++sm_failures;
    return 0;
  }
  snprintf(s->names[s->n], sizeof s->names[0], "%s", name);
  s->addrs[s->n++] = (uintptr_t)p;
  return (uintptr_t)p;
}

static void print_stats(const char *when) {
  struct pcmap_stackmap_stats s;
  pcmap_get_stackmap_stats(&s);
  rt_out("%s: modules=%zu records=%zu rejected=%zu\n", when, s.modules,
         s.records, s.sections_rejected);
}

int main(int argc, char **argv) {
  if (argc < 3) {
    rt_out("usage: %s EXPECTATIONS LIBRARY [DAMAGED...]\n", argv[0]);
    return 2;
  }
  const char *expect = argv[1], *lib = argv[2];
  print_stats("start");

  struct symbols syms = {0};
  syms.handle = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
  if (!syms.handle) {
    rt_out("dlopen failed: %s\n", dlerror());
    return 1;
  }
  struct pcmap_stackmap_record saved;
  memset(&saved, 0, sizeof saved);
  struct sm_counts n = sm_check_file(expect, resolve, &syms, 1, &saved);
  sm_print_counts("loaded", n);
  struct pcmap_stackmap_stats st;
  pcmap_get_stackmap_stats(&st);
  rt_out("loaded: modules=%zu functions=%zu records=%zu rejected=%zu\n",
         st.modules, st.functions, st.records, st.sections_rejected);
  const char *base = strrchr(lib, '/');
  const char *mpath = saved.function.module_path;
  const char *mbase = mpath ? strrchr(mpath, '/') : NULL;
  rt_out("loaded: module path ok=%d version=%u\n",
         base && mbase && !strcmp(base, mbase), saved.function.version);

  if (dlclose(syms.handle))
    rt_out("FAIL: dlclose\n");
  syms.handle = NULL;
  n = sm_check_file(expect, resolve, &syms, 0, NULL);
  sm_print_counts("closed", n);
  print_stats("closed");
  struct pcmap_stackmap_location loc;
  struct pcmap_stackmap_live_out live;
  rt_out("closed: saved record location=%d live-out=%d\n",
         pcmap_stackmap_location(&saved, 0, &loc),
         pcmap_stackmap_live_out(&saved, 0, &live));

  // Once more, wherever it lands this time.
  memset(&syms, 0, sizeof syms);
  syms.handle = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
  if (!syms.handle) {
    rt_out("dlopen failed: %s\n", dlerror());
    return 1;
  }
  n = sm_check_file(expect, resolve, &syms, 1, NULL);
  rt_out("reopened: functions=%d records=%d locations=%d live-outs=%d "
         "calls=%d patchpoints=%d\n",
         n.functions, n.records, n.locations, n.live_outs, n.calls,
         n.patchpoints);
  dlclose(syms.handle);
  print_stats("closed again");

  for (int i = 3; i < argc; ++i) {
    void *h = dlopen(argv[i], RTLD_NOW | RTLD_LOCAL);
    // Nothing of the library is known: not its functions either.
    struct pcmap_stackmap_function fn;
    void *f = h ? dlsym(h, "sm_calls") : NULL;
    int found = f && pcmap_lookup_stackmap_function((uintptr_t)f + 1, &fn);
    pcmap_get_stackmap_stats(&st);
    const char *b = strrchr(argv[i], '/');
    rt_out("damaged %s: loaded=%d records=%zu rejected=%zu found=%d\n",
           b ? b + 1 : argv[i], h != NULL, st.records, st.sections_rejected,
           found);
    if (h)
      dlclose(h);
  }
  rt_out("stackmaps-dlopen: failures=%d\n", sm_failures);
  return sm_failures != 0;
}
