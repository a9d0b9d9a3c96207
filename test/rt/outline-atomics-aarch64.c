// AArch64 outline atomics: a fault inside __aarch64_ldadd8_acq_rel (and the
// other helpers) is an atomic for every query; pcmap_lookup_atomic_in_context
// and the fault reporter, which have the link register, name the call site
// and the order the source asked for. The same ops as inline LSE and LL/SC
// instructions answer from the table. Then the tracer attributes samples
// taken inside a helper to its call site.
// REQUIRES: target-aarch64
// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -g -O1 -fsanitize-metadata=all -moutline-atomics '-DOUTLINE_NAME(n)=outline_##n' -c %S/Inputs/outline_ops.c -o %t/outline.o
// RUN: %pcmap-clang -g -O1 -fsanitize-metadata=all -mno-outline-atomics -march=armv8.1-a '-DOUTLINE_NAME(n)=lse_##n' -c %S/Inputs/outline_ops.c -o %t/lse.o
// RUN: %pcmap-clang -g -O1 -fsanitize-metadata=all -mno-outline-atomics -march=armv8-a '-DOUTLINE_NAME(n)=llsc_##n' -c %S/Inputs/outline_ops.c -o %t/llsc.o
// RUN: %pcmap-clang -g -O1 -fsanitize-metadata=all %s %t/outline.o %t/lse.o %t/llsc.o -ldl -o %t/prog
// RUN: llvm-objdump -d %t/prog | FileCheck %s --check-prefix=CODE
// CODE: <outline_fetch_add_seq_cst_8>:
// CODE: bl {{.*}}<__aarch64_ldadd8_acq_rel>
// CODE: <lse_fetch_add_seq_cst_8>:
// CODE: ldaddal
// CODE: <llsc_fetch_add_seq_cst_8>:
// CODE: ldaxr

// In the program's own handler: every fault answers YES.
// RUN: %run %t/prog handler | FileCheck %s --check-prefix=HANDLER
// HANDLER:      outline_fetch_add_seq_cst_8: is_atomic=yes in_context=[rmw add 8 seq_cst call] helper=[rmw add 8 acq_rel helper] describe={{.*}}atomic rmw add, 8 bytes, acq_rel (in outline helper __aarch64_ldadd8_acq_rel)
// HANDLER-NEXT: outline_cas_acquire_4: is_atomic=yes in_context=[cmpxchg 4 acquire call] helper=[cmpxchg 4 acquire helper]
// HANDLER-NEXT: outline_exchange_release_1: is_atomic=yes in_context=[rmw xchg 1 release call] helper=[rmw xchg 1 release helper]
// HANDLER-NEXT: lse_fetch_add_seq_cst_8: is_atomic=yes in_context=[rmw add 8 seq_cst] helper=[rmw add 8 seq_cst]
// HANDLER-NEXT: lse_cas_acquire_4: is_atomic=yes in_context=[cmpxchg 4 acquire] helper=[cmpxchg 4 acquire]
// HANDLER-NEXT: lse_exchange_release_1: is_atomic=yes in_context=[rmw xchg 1 release] helper=[rmw xchg 1 release]
// HANDLER-NEXT: llsc_fetch_add_seq_cst_8: is_atomic=yes in_context=[rmw add 8 seq_cst] helper=[rmw add 8 seq_cst]
// HANDLER-NEXT: llsc_cas_acquire_4: is_atomic=yes in_context=[cmpxchg 4 acquire] helper=[cmpxchg 4 acquire]
// HANDLER-NEXT: llsc_exchange_release_1: is_atomic=yes in_context=[rmw xchg 1 release] helper=[rmw xchg 1 release]

// A shared object's helpers: registered by its constructor (the drivers
// link the registering object into shared objects too), gone once dlclose
// has returned.
// RUN: %pcmap-clang -g -O1 -fsanitize-metadata=all -fPIC -shared '-DOUTLINE_NAME(n)=dso_##n' %S/Inputs/outline_ops.c -o %t/libops.so
// RUN: %run %t/prog dlopen %t/libops.so | FileCheck %s --check-prefix=DLOPEN
// DLOPEN:      dso_fetch_add_seq_cst_8: is_atomic=yes in_context=[rmw add 8 seq_cst call] helper=[rmw add 8 acq_rel helper] describe={{.*}}libops.so+0x{{.*}}atomic rmw add, 8 bytes, acq_rel (in outline helper __aarch64_ldadd8_acq_rel)
// DLOPEN-NEXT: closed: is_atomic=unknown lookup=0 function=0

// The fault reporter, inside a helper: the call site's function and order,
// the helper's name, and the exit status of SIGSEGV.
// RUN: %python %S/Inputs/run.py %run %t/prog report | FileCheck %s --check-prefix=REPORT
// REPORT:      pcmap: =={{[0-9]+}}== SIGSEGV (address not mapped) on address 0x10 at pc [[PC:0x[0-9a-f]+]]
// REPORT-NEXT: pcmap:   module:   {{.*}}prog+0x{{[0-9a-f]+}}
// REPORT-NEXT: pcmap:   function: 0x{{[0-9a-f]+}}+0x{{[0-9a-f]+}} ({{[0-9]+}} bytes, 1 atomic)
// REPORT-NEXT: pcmap:   atomic:   rmw add, 8 bytes, seq_cst (in __aarch64_ldadd8_acq_rel, called at 0x{{[0-9a-f]+}})
// REPORT-NEXT: pcmap: stack:
// REPORT-NEXT: pcmap:   #0 [[PC]] in __aarch64_ldadd8_acq_rel
// REPORT-NEXT: pcmap:   #1 0x{{[0-9a-f]+}} in outline_fetch_add_seq_cst_8 {{.*}}outline_ops.c
// REPORT:      status: killed by SIGSEGV

// The tracer: samples inside the helper count for the call site.
// RUN: env PCMAP_OPTIONS=trace_atomics=1:trace_hz=2000 %run %t/prog spin 2>&1 | FileCheck %s --check-prefix=TRACE
// TRACE: pcmap: atomic tracer:
// TRACE: rmw add, 8 bytes, seq_cst {{.*}}outline_fetch_add_seq_cst_8

#include <dlfcn.h>
#include <pcmap/pcmap.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <ucontext.h>

#define DECLARE(prefix)                                                        \
  uint64_t prefix##_fetch_add_seq_cst_8(uint64_t *);                           \
  uint32_t prefix##_cas_acquire_4(uint32_t *);                                 \
  uint8_t prefix##_exchange_release_1(uint8_t *);
DECLARE(outline)
DECLARE(lse)
DECLARE(llsc)

static sigjmp_buf jump;

static const char *kind(uint32_t k) {
  return k == PCMAP_KIND_RMW       ? "rmw"
         : k == PCMAP_KIND_CMPXCHG ? "cmpxchg"
                                   : "?";
}
static const char *order(uint32_t o) {
  return o == PCMAP_ORDER_SEQ_CST   ? "seq_cst"
         : o == PCMAP_ORDER_ACQ_REL ? "acq_rel"
         : o == PCMAP_ORDER_ACQUIRE ? "acquire"
         : o == PCMAP_ORDER_RELEASE ? "release"
                                    : "?";
}
static void format(const struct pcmap_atomic *a, char *buf, size_t len) {
  const char *op = a->kind != PCMAP_KIND_RMW      ? ""
                   : a->rmw_op == PCMAP_RMW_ADD ? " add"
                                                : " xchg";
  snprintf(buf, len, "%s%s %u %s%s%s", kind(a->kind), op, a->size,
           order(a->order),
           a->flags & PCMAP_ATOMIC_OUTLINE_CALL ? " call" : "",
           a->flags & PCMAP_ATOMIC_OUTLINE_HELPER ? " helper" : "");
}

static const char *current;
static uintptr_t last_pc;

static void handler(int sig, siginfo_t *si, void *ctx) {
  (void)sig;
  (void)si;
  uintptr_t pc = ((ucontext_t *)ctx)->uc_mcontext.pc;
  last_pc = pc;
  struct pcmap_atomic in_context, at_pc;
  char a[80] = "none", b[80] = "none", desc[300];
  if (pcmap_lookup_atomic_in_context(ctx, &in_context))
    format(&in_context, a, sizeof a);
  if (pcmap_lookup_atomic(pc, &at_pc))
    format(&at_pc, b, sizeof b);
  pcmap_describe_pc(pc, desc, sizeof desc);
  printf("%s: is_atomic=%s in_context=[%s] helper=[%s] describe=%s\n", current,
         pcmap_is_atomic_pc(pc) == PCMAP_YES ? "yes" : "no", a, b, desc);
  siglongjmp(jump, 1);
}

#define RUN(fn, type)                                                          \
  do {                                                                         \
    current = #fn;                                                             \
    if (!sigsetjmp(jump, 1))                                                   \
      fn((type *)16);                                                          \
  } while (0)
#define RUN_ALL(prefix)                                                        \
  RUN(prefix##_fetch_add_seq_cst_8, uint64_t);                                 \
  RUN(prefix##_cas_acquire_4, uint32_t);                                       \
  RUN(prefix##_exchange_release_1, uint8_t)

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  if (!strcmp(mode, "handler")) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = handler;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigaction(SIGSEGV, &sa, NULL);
    RUN_ALL(outline);
    RUN_ALL(lse);
    RUN_ALL(llsc);
    return 0;
  }
  if (!strcmp(mode, "dlopen") && argc > 2) {
    void *lib = dlopen(argv[2], RTLD_NOW);
    if (!lib)
      return 3;
    uint64_t (*fn)(uint64_t *) =
        (uint64_t(*)(uint64_t *))dlsym(lib, "dso_fetch_add_seq_cst_8");
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = handler;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigaction(SIGSEGV, &sa, NULL);
    current = "dso_fetch_add_seq_cst_8";
    if (!sigsetjmp(jump, 1))
      fn((uint64_t *)16);
    dlclose(lib);
    struct pcmap_atomic a;
    struct pcmap_function f;
    int answer = pcmap_is_atomic_pc(last_pc);
    printf("closed: is_atomic=%s lookup=%d function=%d\n",
           answer == PCMAP_YES  ? "yes"
           : answer == PCMAP_NO ? "no"
                                : "unknown",
           pcmap_lookup_atomic(last_pc, &a), pcmap_lookup_function(last_pc, &f));
    return 0;
  }
  if (!strcmp(mode, "report"))
    return (int)outline_fetch_add_seq_cst_8((uint64_t *)16);
  if (!strcmp(mode, "spin")) {
    static uint64_t counter;
    for (long i = 0; i < 20000000; ++i)
      outline_fetch_add_seq_cst_8(&counter);
    return counter == 0;
  }
  return 2;
}
