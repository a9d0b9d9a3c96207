// The fault reporter chains with the program's own handlers:
//  - installed before pcmap's (a priority-1 constructor): the program's
//    handler runs, repairs the page and the program goes on, with no report
//    (a repaired fault is not a crash), or, with report_handled_faults=1,
//    after pcmap's report;
//  - installed after (in main), chaining to the action it replaced (the
//    default one, as in the plain build: pcmap's handler is hidden,
//    test/rt/signal-view.c): the program's handler runs first and puts the
//    default action back, the fault recurs, pcmap reports, and the default
//    action kills the program with SIGSEGV;
//  - installed after and not chaining: pcmap says nothing.
// A signal sent with kill() is reported and then kills the program.

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -g -O1 -fsanitize-metadata=all -Wno-prio-ctor-dtor %s -o %t/prog
// RUN: %python %S/Inputs/run.py %run %t/prog before | FileCheck %s --check-prefix=HANDLED
// HANDLED-NOT: pcmap:
// HANDLED:     user handler: fault at
// HANDLED-NEXT: repaired: value 1
// HANDLED-NEXT: status: exit 0
// RUN: env PCMAP_OPTIONS=report_handled_faults=1 %python %S/Inputs/run.py %run %t/prog before | FileCheck %s --check-prefix=BEFORE
// BEFORE:      pcmap: =={{[0-9]+}}== SIGSEGV (permission denied) on address [[PAGE:0x[0-9a-f]+]] at pc
// BEFORE:      pcmap:   atomic:   rmw add, 4 bytes, seq_cst
// BEFORE:      pcmap: =={{[0-9]+}}== the program's handler of SIGSEGV follows
// BEFORE-NEXT: user handler: fault at [[PAGE]]
// BEFORE-NEXT: repaired: value 1
// BEFORE-NEXT: status: exit 0

// RUN: %python %S/Inputs/run.py %run %t/prog after | FileCheck %s --check-prefix=AFTER
// AFTER:      user handler: fault at [[PAGE:0x[0-9a-f]+]]
// AFTER-NEXT: pcmap: =={{[0-9]+}}== SIGSEGV (permission denied) on address [[PAGE]] at pc
// AFTER:      pcmap:   atomic:   rmw add, 4 bytes, seq_cst
// AFTER:      pcmap: =={{[0-9]+}}== the default action of SIGSEGV follows
// AFTER-NEXT: status: killed by SIGSEGV

// RUN: %python %S/Inputs/run.py %run %t/prog after-nochain | FileCheck %s --check-prefix=NOCHAIN
// NOCHAIN-NOT: pcmap:
// NOCHAIN:     user handler: fault at
// NOCHAIN-NEXT: repaired: value 1
// NOCHAIN-NEXT: status: exit 0

// RUN: %python %S/Inputs/run.py %run %t/prog kill | FileCheck %s --check-prefix=KILL
// KILL:      pcmap: =={{[0-9]+}}== SIGSEGV (sent by a process) at pc
// KILL:      pcmap: =={{[0-9]+}}== the default action of SIGSEGV follows
// KILL-NEXT: status: killed by SIGSEGV

#define _GNU_SOURCE 1
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static void *page;
static struct sigaction replaced;
static int chain;

static void say(const char *s, void *p) {
  char buf[128];
  int n = snprintf(buf, sizeof buf, "%s%p\n", s, p);
  write(1, buf, (size_t)n);
}

static void handler(int sig, siginfo_t *info, void *ctx) {
  say("user handler: fault at ", info->si_addr);
  if (chain) {
    // A handler's idiom: call the one replaced, or, if there was none, put
    // the default action back and let the fault recur.
    if ((replaced.sa_flags & SA_SIGINFO) && replaced.sa_sigaction)
      replaced.sa_sigaction(sig, info, ctx);
    else
      sigaction(sig, &replaced, NULL);
    return;
  }
  mprotect(page, 4096, PROT_READ | PROT_WRITE);
}

static void install(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = handler;
  sa.sa_flags = SA_SIGINFO;
  sigaction(SIGSEGV, &sa, &replaced);
}

static const char *mode;

__attribute__((noinline)) static int bump(_Atomic int *p) {
  return atomic_fetch_add(p, 1) + 1;
}

int main(int argc, char **argv) {
  mode = argc > 1 ? argv[1] : "";
  page = mmap(0, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (!strcmp(mode, "after")) {
    chain = 1;
    install();
  } else if (!strcmp(mode, "after-nochain")) {
    install();
  } else if (!strcmp(mode, "kill")) {
    kill(getpid(), SIGSEGV);
    return 0;
  }
  int v = bump((_Atomic int *)page);
  printf("repaired: value %d\n", v);
  return 0;
}

// "before": the handler must be in place before the runtime initialises, so
// it is installed from a constructor that runs first.
__attribute__((constructor(1))) static void install_before(void) {
  // argv is not available here; /proc/self/cmdline names the mode.
  char buf[256] = {0};
  FILE *f = fopen("/proc/self/cmdline", "r");
  if (!f)
    return;
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  size_t first = strnlen(buf, n);
  if (first + 1 < n && !strcmp(buf + first + 1, "before"))
    install();
}
