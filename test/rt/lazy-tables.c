// Tables are built at the first query (lazy_tables, the default): before
// it, registration records a module's sections without decoding them; the
// first query, wherever it runs (here in a signal handler, or in four
// threads at once), decodes them, builds every waiting module's table and
// answers from it; from then on, a dlopened library's registration builds
// its table at once. A library loaded and unloaded before any query is
// never decoded. With lazy_tables=0, registration decodes, as the tracer
// does (it queries from its first sample).
//
// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -fsanitize-metadata=all -O1 -fPIC -shared -DLIBRARY %s \
// RUN:   -o %t/libcounter.so
// RUN: %pcmap-clang -fsanitize-metadata=all -O1 -I%pcmap-include %s -ldl \
// RUN:   -lpthread -o %t/prog
// clang-format off
// RUN: env PCMAP_OPTIONS=verbosity=2 %run %t/prog %t/libcounter.so handler 2>&1 \
// RUN:   | FileCheck %s --check-prefixes=CHECK,HANDLER
// RUN: env PCMAP_OPTIONS=verbosity=2 %run %t/prog %t/libcounter.so threads 2>&1 \
// RUN:   | FileCheck %s --check-prefixes=CHECK,THREADS
// The first query in a handler on a small alternate stack: the build runs
// on a stack of its own, and the handler's stack stays small. (Bound at
// start-up, so that what is measured is not the dynamic loader's first
// binding of the writer lock's functions, 1.5 KiB or more of vector
// registers saved, once.)
// RUN: env LD_BIND_NOW=1 %run %t/prog %t/libcounter.so altstack 2>&1 | FileCheck %s --check-prefix=ALTSTACK
// ALTSTACK: ok: the first query, in a handler on a 16 KiB alternate stack, finds bump
// ALTSTACK-NEXT: ok: the first query took at most {{512|1024}} bytes more of that stack than the second
// RUN: env PCMAP_OPTIONS=verbosity=2:lazy_tables=0 %run %t/prog %t/libcounter.so handler 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EAGER
// RUN: env PCMAP_OPTIONS=verbosity=2:trace_atomics=1 %run %t/prog %t/libcounter.so handler 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EAGER

// CHECK: pcmap: registered pcmap_atomics1 of {{.*}}prog: {{[0-9]+}} bytes, decoded at the first query
// CHECK: main
// CHECK-NOT: pcmap: decoded
// A library loaded and unloaded before any query: registered, never decoded.
// CHECK: pcmap: registered pcmap_atomics1 of {{.*}}libcounter.so: {{[0-9]+}} bytes, decoded at the first query
// CHECK-NOT: pcmap: decoded
// CHECK: unloaded before any query
// CHECK-NOT: libcounter.so: {{[0-9]+}} entries
// CHECK: pcmap: decoded pcmap_atomics1 of {{.*}}prog: {{[0-9]+}} entries
// CHECK-NOT: libcounter.so: {{[0-9]+}} entries
// HANDLER: ok: the first query, in a signal handler, finds bump with 1 atomic, YES at it
// THREADS: ok: 4 threads' first queries find bump with 1 atomic, YES at it
// CHECK-NOT: pcmap: decoded
// After the first query, a library's registration builds its table.
// CHECK: pcmap: registered pcmap_atomics1 of {{.*}}libcounter.so: 1 entries
// CHECK-NEXT: pcmap: registered pcmap_functions1 of {{.*}}libcounter.so: 1 entries
// CHECK-NEXT: ok: loaded after the first query: its table is built
// CHECK-NEXT: ok: once unloaded it is gone
// CHECK-NEXT: done

// EAGER: pcmap: registered pcmap_atomics1 of {{.*}}prog: {{[0-9]+}} entries
// EAGER: main
// EAGER: pcmap: registered pcmap_atomics1 of {{.*}}libcounter.so: 1 entries
// EAGER-NOT: pcmap: decoded
// EAGER: ok: the first query, in a signal handler, finds bump with 1 atomic, YES at it
// EAGER: pcmap: registered pcmap_atomics1 of {{.*}}libcounter.so: 1 entries
// EAGER: ok: loaded after the first query: its table is built
// EAGER: done
// clang-format on

#ifdef LIBRARY
int Counter;
int counterBump(void) {
  return __atomic_add_fetch(&Counter, 1, __ATOMIC_SEQ_CST);
}
#else
#define _GNU_SOURCE 1
#include "pcmap/pcmap.h"

#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int Counter;
__attribute__((noinline)) int bump(void) {
  return __atomic_add_fetch(&Counter, 1, __ATOMIC_SEQ_CST);
}

static void say(const char *S) {
  // stderr, unbuffered, as the runtime's messages: the order is the order
  // of events.
  fputs(S, stderr);
  fputc('\n', stderr);
}

/// Whether the tables answer for bump: its function, with one atomic, and
/// YES at that atomic. Async-signal-safe (the queries are).
static int bumpIsKnown(void) {
  struct pcmap_function F;
  struct pcmap_atomic A;
  struct pcmap_module M;
  uintptr_t PC = (uintptr_t)&bump;
  if (!pcmap_lookup_function(PC, &F) || F.num_atomics != 1)
    return 0;
  size_t I = 0;
  while (pcmap_module_at(I, &M) && !(M.text_start <= PC && PC < M.text_end))
    ++I;
  if (!pcmap_atomic_at(M.text_start, F.first_atomic, &A))
    return 0;
  return pcmap_is_atomic_pc(A.pc) == PCMAP_YES;
}

static volatile sig_atomic_t HandlerResult = -1;
// Defined when a sanitized runtime is linked in.
void __asan_init(void) __attribute__((weak));
void __tsan_init(void) __attribute__((weak));

static void onSignal(int Signal) {
  (void)Signal;
  HandlerResult = bumpIsKnown();
}

static int Go;
static void *queryThread(void *Arg) {
  while (!__atomic_load_n(&Go, __ATOMIC_ACQUIRE))
    ;
  *(int *)Arg = bumpIsKnown();
  return NULL;
}

static int (*loadBump(const char *Path, void **Handle))(void) {
  *Handle = dlopen(Path, RTLD_NOW);
  if (!*Handle) {
    fprintf(stderr, "FAIL: dlopen: %s\n", dlerror());
    return NULL;
  }
  return (int (*)(void))dlsym(*Handle, "counterBump");
}

int main(int argc, char **argv) {
  if (argc != 3)
    return 2;
  say("main");
  bump();
  void *Handle;
  int (*LibBump)(void) = loadBump(argv[1], &Handle);
  if (!LibBump)
    return 1;
  LibBump();
  dlclose(Handle);
  say("unloaded before any query");

  if (!strcmp(argv[2], "altstack")) {
    // No query has run yet: the handler's first is the first, on this
    // stack; its second finds the tables built. The first must not take
    // more of the stack than the second (but for a small frame): the build
    // runs on a stack of its own.
    static char Alt[16384];
    stack_t S = {Alt, 0, sizeof(Alt)};
    struct sigaction A;
    memset(&A, 0, sizeof(A));
    A.sa_handler = onSignal;
    A.sa_flags = SA_ONSTACK;
    if (sigaltstack(&S, NULL) || sigaction(SIGUSR1, &A, NULL))
      return 1;
    // A sanitized runtime's frames (a sanitizer build's drivers link the
    // sanitizers into the program) carry redzones: the frames that lead to
    // the stack switch take up to about 600 bytes more. (The build itself
    // took 3.5 KiB more when it ran on this stack.)
    const size_t Bound = __asan_init || __tsan_init ? 1024 : 512;
    size_t Used[2];
    for (int I = 0; I < 2; ++I) {
      memset(Alt, 0xa5, sizeof(Alt));
      HandlerResult = -1;
      raise(SIGUSR1);
      size_t Untouched = 0;
      while (Untouched < sizeof(Alt) && Alt[Untouched] == (char)0xa5)
        ++Untouched;
      Used[I] = sizeof(Alt) - Untouched;
      if (HandlerResult != 1)
        say("FAIL: a query on an alternate stack");
    }
    say("ok: the first query, in a handler on a 16 KiB alternate stack, finds "
        "bump");
    fprintf(stderr,
            "%s: the first query took at most %zu bytes more of that stack "
            "than the second (%zu and %zu bytes)\n",
            Used[0] <= Used[1] + Bound ? "ok" : "FAIL", Bound, Used[0],
            Used[1]);
    return 0;
  }
  if (!strcmp(argv[2], "handler")) {
    signal(SIGUSR1, onSignal);
    raise(SIGUSR1);
    say(HandlerResult == 1 ? "ok: the first query, in a signal handler, finds "
                             "bump with 1 atomic, YES at it"
                           : "FAIL: the first query in a handler");
  } else {
    pthread_t T[4];
    int Result[4] = {0, 0, 0, 0};
    for (int I = 0; I < 4; ++I)
      pthread_create(&T[I], NULL, queryThread, &Result[I]);
    __atomic_store_n(&Go, 1, __ATOMIC_RELEASE);
    int All = 1;
    for (int I = 0; I < 4; ++I) {
      pthread_join(T[I], NULL);
      All &= Result[I];
    }
    say(All ? "ok: 4 threads' first queries find bump with 1 atomic, YES at it"
            : "FAIL: 4 threads' first queries");
  }

  LibBump = loadBump(argv[1], &Handle);
  if (!LibBump)
    return 1;
  struct pcmap_function F;
  say(pcmap_lookup_function((uintptr_t)LibBump, &F) && F.num_atomics == 1
          ? "ok: loaded after the first query: its table is built"
          : "FAIL: loaded after the first query");
  uintptr_t Gone = (uintptr_t)LibBump;
  dlclose(Handle);
  say(!pcmap_lookup_function(Gone, &F) ? "ok: once unloaded it is gone"
                                       : "FAIL: still there after dlclose");
  say("done");
  return 0;
}
#endif
