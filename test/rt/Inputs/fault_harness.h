// Runs the operations of Inputs/ops.c on a PROT_NONE page: each one faults,
// and the SIGSEGV handler asks the runtime about the faulting PC (read from
// the signal context, as a profiler or a race detector would), prints the
// answers and siglongjmps back. Used by fault.c and dlopen.c.
//
// One line per operation:
//   op NAME answer=A atomic=[DESCRIPTOR]|none afn=F fn=F mid=M before=B addr=X
// where
//   answer  pcmap_is_atomic_pc(pc)
//   atomic  pcmap_lookup_atomic(pc): the descriptor (rt_format_atomic)
//   afn     the function of that atomic: "ok" if it starts at the operation's
//           function, is a pcmap function with complete atomics and holds pc;
//           "none" if has_function is 0; "bad(...)" otherwise
//   fn      the same for pcmap_lookup_function(pc), "none" if it fails; for
//           "ok" it also requires num_atomics > 0 exactly when answer=yes
//   mid     pcmap_is_atomic_pc(pc + 1), inside the faulting instruction
//   before  pcmap_lookup_atomic_before(pc + 1, 1): "ok" if it finds the atomic
//           at pc, "none", or "bad(...)"
//   addr    "ok" if si_addr is the address the operation was given

#ifndef PCMAP_TEST_FAULT_HARNESS_H
#define PCMAP_TEST_FAULT_HARNESS_H

#define _GNU_SOURCE 1
#include "rt_test.h"

#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <ucontext.h>

#include "ops.h"

static sigjmp_buf fh_jmp;
static const char *volatile fh_name;
static volatile uintptr_t fh_expect_fn;
static volatile uintptr_t fh_expect_addr;
static volatile uintptr_t fh_last_pc;

static void fh_format_function(const struct pcmap_function *f, uintptr_t pc,
                               uintptr_t expect_fn, int want_atomics,
                               char *buf, size_t n) {
  int ok = f->start == expect_fn && pc >= f->start &&
           pc < f->start + f->size && (f->features & PCMAP_FEATURE_ATOMICS) &&
           (f->source & PCMAP_SOURCE_PCMAP) &&
           (want_atomics ? f->num_atomics > 0 : f->num_atomics == 0);
  if (ok)
    snprintf(buf, n, "ok");
  else
    snprintf(buf, n,
             "bad(start=%#lx expected=%#lx size=%lu features=%#x source=%#x "
             "num_atomics=%u)",
             (unsigned long)f->start, (unsigned long)expect_fn,
             (unsigned long)f->size, f->features, f->source, f->num_atomics);
}

// Queries the runtime about pc and prints one line (see above).
static void fh_report(const char *name, uintptr_t pc, uintptr_t expect_fn,
                      int addr_ok) {
  char atomic[256], afn[256], fn[256], before[128];
  int answer = pcmap_is_atomic_pc(pc);
  struct pcmap_atomic a;
  memset(&a, 0xa5, sizeof a);
  int found = pcmap_lookup_atomic(pc, &a);
  if (found) {
    char desc[200];
    rt_format_atomic(&a, desc, sizeof desc);
    if (a.pc != pc)
      snprintf(atomic, sizeof atomic, "[%s BAD-PC=%#lx]", desc,
               (unsigned long)a.pc);
    else
      snprintf(atomic, sizeof atomic, "[%s]", desc);
    if (a.has_function == 1)
      fh_format_function(&a.function, pc, expect_fn, 1, afn, sizeof afn);
    else if (a.has_function == 0)
      snprintf(afn, sizeof afn, "none");
    else
      snprintf(afn, sizeof afn, "bad(has_function=%d)", a.has_function);
  } else {
    snprintf(atomic, sizeof atomic, "none");
    snprintf(afn, sizeof afn, "none");
  }
  struct pcmap_function f;
  if (pcmap_lookup_function(pc, &f))
    fh_format_function(&f, pc, expect_fn, answer == PCMAP_YES, fn, sizeof fn);
  else
    snprintf(fn, sizeof fn, "none");
  int mid = pcmap_is_atomic_pc(pc + 1);
  struct pcmap_atomic b;
  if (pcmap_lookup_atomic_before(pc + 1, 1, &b)) {
    if (b.pc == pc && found && b.kind == a.kind && b.order == a.order)
      snprintf(before, sizeof before, "ok");
    else
      snprintf(before, sizeof before, "bad(pc=%#lx kind=%u)",
               (unsigned long)b.pc, b.kind);
  } else {
    snprintf(before, sizeof before, "none");
  }
  rt_out("op %s answer=%s atomic=%s afn=%s fn=%s mid=%s before=%s addr=%s\n",
         name, rt_answer_name(answer), atomic, afn, fn, rt_answer_name(mid),
         before, addr_ok ? "ok" : "bad");
}

static void fh_handler(int sig, siginfo_t *si, void *ctx) {
  (void)sig;
  ucontext_t *uc = (ucontext_t *)ctx;
#if defined(__aarch64__)
  uintptr_t pc = (uintptr_t)uc->uc_mcontext.pc;
#else
  uintptr_t pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
#endif
  // Inside an outline-atomic helper (AArch64): the call site, which has the
  // op's own descriptor and function.
  struct pcmap_atomic call;
  if (pcmap_lookup_atomic_in_context(ctx, &call) &&
      (call.flags & PCMAP_ATOMIC_OUTLINE_CALL))
    pc = call.pc;
  fh_last_pc = pc;
  fh_report(fh_name, pc, fh_expect_fn,
            (uintptr_t)si->si_addr == fh_expect_addr);
  siglongjmp(fh_jmp, 1);
}

static void fh_install(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = fh_handler;
  sa.sa_flags = SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  if (sigaction(SIGSEGV, &sa, NULL) || sigaction(SIGBUS, &sa, NULL)) {
    perror("sigaction");
    exit(2);
  }
}

static void *fh_fault_page(void) {
  void *p = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) {
    perror("mmap");
    exit(2);
  }
  return p;
}

// Runs op on page; returns the faulting PC, or 0 (and says so) if the
// operation did not fault.
static uintptr_t fh_run(const struct rt_op *op, void *page) {
  fh_name = op->name;
  fh_expect_fn = (uintptr_t)op->fn;
  fh_expect_addr = (uintptr_t)page;
  fh_last_pc = 0;
  if (sigsetjmp(fh_jmp, 1) == 0) {
    uint64_t r = op->fn(page);
    rt_out("op %s did not fault (returned %llu)\n", op->name,
           (unsigned long long)r);
    return 0;
  }
  return fh_last_pc;
}

#endif
