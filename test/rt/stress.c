// Stress: loader threads dlopen and dlclose four instrumented libraries in a
// loop while a signal storm (pthread_kill SIGUSR1 at every worker thread)
// runs the handler, which queries the PCs of every library, loaded, being
// loaded and just unloaded, and of the executable; a reader thread queries
// without signals. Each library belongs to one loader thread, which:
//  - after dlopen returns, finds its functions (dlsym), checks that the
//    runtime knows them and remembers their atomic and non-atomic PCs;
//  - while it has the library loaded, must get exact answers for those PCs,
//    in normal code and in its own signal handler;
//  - right after dlclose returns, must get UNKNOWN (and no lookup) for all
//    of them, in normal code and in its own signal handler. dlopen and
//    dlclose hold a lock, so that no other library can be mapped at the
//    same addresses meanwhile (glibc serialises them anyway).
// The executable's own atomics must be YES in every handler, always.
//
// Checks: no crash, no hang (a watchdog ends the process after 60 s), no
// wrong or stale answer, the counters back at their start values once all
// libraries are closed, and no growth of the resident set after the warm-up
// (less than the slack, 2 MiB, between the end of the warm-up and the end of
// the run).

// Under qemu-user, the resident set grows with qemu's translated code.
// UNSUPPORTED: target-aarch64
// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -fsanitize-metadata=all -O2 -fPIC -shared -DDSO_ID=0 \
// RUN:   %S/Inputs/stress_dso.c -o %t/libstress0.so
// RUN: %pcmap-clang -fsanitize-metadata=all -O2 -fPIC -shared -DDSO_ID=1 \
// RUN:   %S/Inputs/stress_dso.c -o %t/libstress1.so
// RUN: %pcmap-clang -fsanitize-metadata=all -O0 -fPIC -shared -DDSO_ID=2 \
// RUN:   %S/Inputs/stress_dso.c -o %t/libstress2.so
// RUN: %pcmap-clang -fsanitize-metadata=all -O2 -fPIC -shared -DDSO_ID=3 \
// RUN:   %S/Inputs/stress_dso.c -o %t/libstress3.so
// RUN: %pcmap-clang -fsanitize-metadata=all -O2 -pthread -I%pcmap-include \
// RUN:   -I%S/Inputs -c %s -o %t/stress.o
// RUN: %clang -pthread %t/stress.o %rt-static-lib -rdynamic -ldl -o %t/stress
// ASan keeps freed memory (the loader's, at each dlclose) in a quarantine
// that would grow the resident set by design: a small one here. Its shadow
// of each library's globals is written where the library lands, which
// varies from one dlopen to the next: new shadow pages for the first
// several thousand cycles (2 to 3.5 MiB on a loaded 2-core machine), a
// slack of 8 MiB there. The figures stay in %t/stress.out, which
// scripts/test.sh shows.
// TSan's own memory (shadow and metadata of each new mapping of the
// libraries) grows with every cycle: the resident set is not checked there
// (a slack of 0).
// timeout: a second watchdog, from outside, for a hang inside a sanitizer's
// runtime, which holds back the SIGALRM of the program's own.
// RUN: env ASAN_OPTIONS=quarantine_size_mb=1 timeout -s KILL 120 %run %t/stress 9 3 \
// RUN:   %if sanitize-thread %{0%}%if sanitize-address %{8192%}%if !sanitize-thread && !sanitize-address %{2048%} %t/libstress0.so \
// RUN:   %t/libstress1.so %t/libstress2.so %t/libstress3.so > %t/stress.out
// RUN: FileCheck %s --implicit-check-not=FAIL --input-file=%t/stress.out

// CHECK: stress: start modules=1
// CHECK: stress: cycles={{[1-9][0-9]*}} queries={{[1-9][0-9]*}} signals={{[1-9][0-9]*}}
// The signals hit the loader threads while they were loading, using,
// unloading and checking their libraries.
// CHECK: stress: signals in a loader thread: idle={{[0-9]+}} opening={{[1-9][0-9]*}} loaded={{[1-9][0-9]*}} closing={{[1-9][0-9]*}} closed={{[1-9][0-9]*}}
// CHECK: stress: OK

#define _GNU_SOURCE 1
#include "rt_test.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#define NLOADERS 4
#define MAXPCS 24
#define WATCHDOG_SECONDS 60

enum { S_IDLE, S_OPENING, S_LOADED, S_CLOSING, S_CLOSED };

struct slot {
  _Atomic int state;
  _Atomic int nyes, nno;
  _Atomic uintptr_t yes[MAXPCS]; // atomic PCs of the library
  _Atomic uintptr_t no[MAXPCS];  // non-atomic PCs of covered functions
  const char *path;
  pthread_t thread;
  unsigned long cycles;
};

static struct slot slots[NLOADERS];
static pthread_mutex_t dl_mutex = PTHREAD_MUTEX_INITIALIZER;
static _Atomic int stop_signals, stop_workers;
static _Atomic unsigned long signals_sent, signals_received, queries;
static _Atomic int failures;
// Signals that hit a loader thread in each state of its own library.
static _Atomic unsigned long hits_in_state[5];
static __thread int my_slot = -1;

// The executable's own PCs: always loaded.
static uintptr_t main_yes[MAXPCS], main_no[MAXPCS];
static int main_nyes, main_nno;

// --- async-signal-safe failure reports --------------------------------------

static void put_str(char *buf, size_t *len, const char *s) {
  while (*s && *len < 255)
    buf[(*len)++] = *s++;
}

static void put_hex(char *buf, size_t *len, uintptr_t v) {
  char tmp[20];
  int n = 0;
  do {
    tmp[n++] = "0123456789abcdef"[v & 15];
    v >>= 4;
  } while (v);
  put_str(buf, len, "0x");
  while (n && *len < 255)
    buf[(*len)++] = tmp[--n];
}

static void fail(const char *what, uintptr_t pc, int answer) {
  int n = atomic_fetch_add(&failures, 1);
  if (n >= 20)
    return;
  char buf[256];
  size_t len = 0;
  put_str(buf, &len, "stress: FAIL: ");
  put_str(buf, &len, what);
  put_str(buf, &len, " pc=");
  put_hex(buf, &len, pc);
  put_str(buf, &len, " answer=");
  put_str(buf, &len, rt_answer_name(answer));
  put_str(buf, &len, " thread-slot=");
  put_hex(buf, &len, (uintptr_t)(my_slot + 1));
  buf[len++] = '\n';
  ssize_t r = write(1, buf, len);
  (void)r;
}

// --- queries ------------------------------------------------------------------

// Queries pc; strict: -1 for no expectation, else the required answer.
static void query(uintptr_t pc, int strict, const char *what) {
  struct pcmap_atomic a;
  struct pcmap_function f;
  int answer = pcmap_is_atomic_pc(pc);
  int found = pcmap_lookup_atomic(pc, &a);
  int fn = pcmap_lookup_function(pc, &f);
  atomic_fetch_add_explicit(&queries, 3, memory_order_relaxed);
  if (answer != PCMAP_YES && answer != PCMAP_NO && answer != PCMAP_UNKNOWN)
    fail("invalid answer", pc, answer);
  if (found && (a.pc != pc || (a.kind > PCMAP_KIND_FENCE &&
                               a.kind != PCMAP_KIND_UNKNOWN)))
    fail("lookup_atomic returned a different or invalid atomic", pc, answer);
  if (fn && (pc < f.start || pc - f.start >= f.size))
    fail("lookup_function returned a function not holding pc", pc, answer);
  if (strict < 0)
    return;
  if (answer != strict)
    fail(what, pc, answer);
  if (strict == PCMAP_YES && !found)
    fail("YES but no lookup_atomic", pc, answer);
  if (strict != PCMAP_YES && found)
    fail("lookup_atomic found an atomic that must not be there", pc, answer);
  if (strict == PCMAP_UNKNOWN && fn)
    fail("lookup_function found a function that must not be there", pc,
         answer);
  if (strict != PCMAP_UNKNOWN && !fn)
    fail("lookup_function found nothing", pc, answer);
}

static void query_slot(int s, int in_handler) {
  struct slot *sl = &slots[s];
  int state = atomic_load(&sl->state);
  int ny = atomic_load(&sl->nyes), nn = atomic_load(&sl->nno);
  if (ny > MAXPCS)
    ny = MAXPCS;
  if (nn > MAXPCS)
    nn = MAXPCS;
  int mine = in_handler && s == my_slot;
  int want_yes = -1, want_no = -1;
  if (mine && state == S_LOADED)
    want_yes = PCMAP_YES, want_no = PCMAP_NO;
  if (mine && state == S_CLOSED)
    want_yes = want_no = PCMAP_UNKNOWN;
  for (int i = 0; i < ny; ++i)
    query(atomic_load_explicit(&sl->yes[i], memory_order_relaxed), want_yes,
          want_yes == PCMAP_UNKNOWN ? "handler: stale answer after dlclose"
                                    : "handler: loaded atomic not YES");
  for (int i = 0; i < nn; ++i)
    query(atomic_load_explicit(&sl->no[i], memory_order_relaxed), want_no,
          want_no == PCMAP_UNKNOWN ? "handler: stale answer after dlclose"
                                   : "handler: loaded non-atomic not NO");
}

static void query_main(void) {
  for (int i = 0; i < main_nyes; ++i)
    query(main_yes[i], PCMAP_YES, "executable atomic not YES");
  for (int i = 0; i < main_nno; ++i)
    query(main_no[i], PCMAP_NO, "executable non-atomic not NO");
}

static void iterate(void) {
  struct pcmap_module m;
  struct pcmap_stats st;
  pcmap_get_stats(&st);
  for (size_t i = 0; i < 8 && pcmap_module_at(i, &m); ++i) {
    if (m.text_start >= m.text_end)
      fail("module with an empty text range", m.text_start, 0);
    struct pcmap_function f;
    for (size_t j = 0; j < 4 && pcmap_function_at(m.text_start, j, &f); ++j)
      if (f.start < m.text_start || f.start + f.size > m.text_end)
        fail("function_at outside its module", f.start, 0);
  }
  atomic_fetch_add_explicit(&queries, 1, memory_order_relaxed);
}

static void on_signal(int sig, siginfo_t *si, void *ctx) {
  (void)sig, (void)si, (void)ctx;
  int saved = errno;
  atomic_fetch_add_explicit(&signals_received, 1, memory_order_relaxed);
  if (my_slot >= 0)
    atomic_fetch_add_explicit(
        &hits_in_state[atomic_load(&slots[my_slot].state)], 1,
        memory_order_relaxed);
  query_main();
  for (int s = 0; s < NLOADERS; ++s)
    query_slot(s, 1);
  iterate();
  errno = saved;
}

static void on_alarm(int sig) {
  (void)sig;
  static const char msg[] = "stress: FAIL: watchdog: still running after "
                            "60 s (hang?)\n";
  ssize_t r = write(1, msg, sizeof msg - 1);
  (void)r;
  _exit(3);
}

// --- the executable's own atomics ----------------------------------------------

static _Atomic uint64_t main_counter;

__attribute__((noinline)) uint64_t main_work(uint64_t v) {
  uint64_t r = atomic_fetch_add(&main_counter, v);
  atomic_store_explicit(&main_counter, r + 1, memory_order_release);
  return r + atomic_load_explicit(&main_counter, memory_order_acquire);
}

// Collects up to max atomic (YES) and non-atomic (NO) PCs of the covered
// function holding fn. Returns 0 if the runtime does not know it.
static int collect(uintptr_t fn, uintptr_t *yes, int *ny, uintptr_t *no,
                   int *nn, int max_no) {
  struct pcmap_function f;
  if (!pcmap_lookup_function(fn, &f) || f.start != fn)
    return 0;
  for (uintptr_t pc = f.start; pc < f.start + f.size; ++pc) {
    int a = pcmap_is_atomic_pc(pc);
    if (a == PCMAP_YES && *ny < MAXPCS)
      yes[(*ny)++] = pc;
    else if (a == PCMAP_NO && *nn < max_no)
      no[(*nn)++] = pc;
  }
  return 1;
}

// --- threads --------------------------------------------------------------------

static const char *const fn_names[] = {"stress_load", "stress_add",
                                       "stress_cas", "stress_plain"};

static void *loader(void *arg) {
  struct slot *sl = arg;
  my_slot = (int)(sl - slots);
  _Atomic uint64_t mem[2] = {0, 0};
  while (!atomic_load(&stop_workers)) {
    pthread_mutex_lock(&dl_mutex);
    atomic_store(&sl->state, S_OPENING);
    void *h = dlopen(sl->path, RTLD_NOW | RTLD_LOCAL);
    pthread_mutex_unlock(&dl_mutex);
    if (!h) {
      rt_out("stress: FAIL: dlopen %s: %s\n", sl->path, dlerror());
      atomic_fetch_add(&failures, 1);
      break;
    }
    uintptr_t yes[MAXPCS], no[MAXPCS];
    int ny = 0, nn = 0;
    uintptr_t fns[4];
    for (int i = 0; i < 4; ++i) {
      fns[i] = (uintptr_t)dlsym(h, fn_names[i]);
      int before = ny;
      if (!fns[i] || !collect(fns[i], yes, &ny, no, &nn, 2 * (i + 1)))
        fail("a function of a freshly loaded library is unknown", fns[i], 0);
      else if (i < 3 && ny == before)
        fail("no atomic PC in a function with atomics", fns[i], 0);
    }
    for (int i = 0; i < ny; ++i)
      atomic_store_explicit(&sl->yes[i], yes[i], memory_order_relaxed);
    for (int i = 0; i < nn; ++i)
      atomic_store_explicit(&sl->no[i], no[i], memory_order_relaxed);
    atomic_store(&sl->nyes, ny);
    atomic_store(&sl->nno, nn);
    atomic_store(&sl->state, S_LOADED);

    // Use the library, and ask about it while it is surely loaded.
    uint64_t (*load)(_Atomic uint64_t *) = (uint64_t(*)(_Atomic uint64_t *))fns[0];
    uint64_t (*add)(_Atomic uint64_t *) = (uint64_t(*)(_Atomic uint64_t *))fns[1];
    uint64_t (*cas)(_Atomic uint64_t *) = (uint64_t(*)(_Atomic uint64_t *))fns[2];
    for (int k = 0; k < 8; ++k) {
      add(mem), cas(mem), (void)load(mem);
      for (int i = 0; i < ny; ++i)
        query(yes[i], PCMAP_YES, "loaded atomic not YES");
      for (int i = 0; i < nn; ++i)
        query(no[i], PCMAP_NO, "loaded non-atomic not NO");
    }

    atomic_store(&sl->state, S_CLOSING);
    pthread_mutex_lock(&dl_mutex);
    if (dlclose(h))
      fail("dlclose failed", 0, 0);
    atomic_store(&sl->state, S_CLOSED);
    // Nothing else can be loaded now: the library's PCs must be unknown.
    for (int i = 0; i < ny; ++i)
      query(yes[i], PCMAP_UNKNOWN, "stale answer right after dlclose");
    for (int i = 0; i < nn; ++i)
      query(no[i], PCMAP_UNKNOWN, "stale answer right after dlclose");
    for (int i = 0; i < 4; ++i)
      query(fns[i], PCMAP_UNKNOWN, "stale answer right after dlclose");
    void *again = dlopen(sl->path, RTLD_NOW | RTLD_NOLOAD);
    if (again) {
      fail("library still loaded after dlclose", 0, 0);
      dlclose(again);
    }
    atomic_store(&sl->state, S_IDLE);
    pthread_mutex_unlock(&dl_mutex);
    ++sl->cycles;
  }
  return NULL;
}

static void *reader(void *arg) {
  (void)arg;
  while (!atomic_load(&stop_workers)) {
    for (int s = 0; s < NLOADERS; ++s)
      query_slot(s, 0);
    query_main();
    iterate();
  }
  return NULL;
}

static pthread_t reader_thread;

static void *signaller(void *arg) {
  (void)arg;
  struct timespec ts = {0, 200 * 1000};
  while (!atomic_load(&stop_signals)) {
    for (int s = 0; s < NLOADERS; ++s)
      if (!pthread_kill(slots[s].thread, SIGUSR1))
        atomic_fetch_add_explicit(&signals_sent, 1, memory_order_relaxed);
    if (!pthread_kill(reader_thread, SIGUSR1))
      atomic_fetch_add_explicit(&signals_sent, 1, memory_order_relaxed);
    nanosleep(&ts, NULL);
  }
  return NULL;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void sleep_until(double t) {
  while (now() < t) {
    struct timespec ts = {0, 20 * 1000 * 1000};
    nanosleep(&ts, NULL);
  }
}

int main(int argc, char **argv) {
  if (argc != 4 + NLOADERS) {
    rt_out("usage: %s SECONDS WARMUP-SECONDS RSS-SLACK-KIB LIB0 LIB1 LIB2 "
           "LIB3\n(a slack of 0: the resident set is not checked)\n",
           argv[0]);
    return 2;
  }
  double seconds = atof(argv[1]), warmup = atof(argv[2]);
  long rss_slack_kib = atol(argv[3]);
  signal(SIGALRM, on_alarm);
  alarm(WATCHDOG_SECONDS);

  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_signal;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGUSR1, &sa, NULL);

  main_work(1);
  uintptr_t mfns[2] = {(uintptr_t)&main_work, (uintptr_t)&collect};
  for (int i = 0; i < 2; ++i)
    if (!collect(mfns[i], main_yes, &main_nyes, main_no, &main_nno, 4 * (i + 1)))
      fail("the executable's function is unknown", mfns[i], 0);
  if (main_nyes == 0 || main_nno == 0)
    fail("no atomic or non-atomic PC in the executable", 0, 0);

  struct pcmap_stats s0;
  pcmap_get_stats(&s0);
  rt_out("stress: start modules=%zu functions=%zu atomics=%zu "
         "table_bytes=%zu rss_kib=%ld\n",
         s0.modules, s0.functions, s0.atomics, s0.table_bytes, rt_rss_kib());

  double t0 = now();
  for (int s = 0; s < NLOADERS; ++s) {
    slots[s].path = argv[4 + s];
    pthread_create(&slots[s].thread, NULL, loader, &slots[s]);
  }
  pthread_create(&reader_thread, NULL, reader, NULL);
  pthread_t sig_thread;
  pthread_create(&sig_thread, NULL, signaller, NULL);

  sleep_until(t0 + warmup);
  long rss_warm = rt_rss_kib();
  unsigned long cycles_warm = 0;
  for (int s = 0; s < NLOADERS; ++s)
    cycles_warm += slots[s].cycles; // racy read, for information
  sleep_until(t0 + seconds);
  long rss_end = rt_rss_kib();

  atomic_store(&stop_signals, 1);
  pthread_join(sig_thread, NULL);
  atomic_store(&stop_workers, 1);
  for (int s = 0; s < NLOADERS; ++s)
    pthread_join(slots[s].thread, NULL);
  pthread_join(reader_thread, NULL);
  double elapsed = now() - t0;

  unsigned long cycles = 0;
  for (int s = 0; s < NLOADERS; ++s)
    cycles += slots[s].cycles;
  struct pcmap_stats s1;
  pcmap_get_stats(&s1);
  long rss_final = rt_rss_kib();
  rt_out("stress: cycles=%lu queries=%lu signals=%lu signals_sent=%lu "
         "seconds=%.1f cycles_at_warmup=%lu\n",
         cycles, atomic_load(&queries), atomic_load(&signals_received),
         atomic_load(&signals_sent), elapsed, cycles_warm);
  rt_out("stress: signals in a loader thread: idle=%lu opening=%lu "
         "loaded=%lu closing=%lu closed=%lu\n",
         atomic_load(&hits_in_state[S_IDLE]),
         atomic_load(&hits_in_state[S_OPENING]),
         atomic_load(&hits_in_state[S_LOADED]),
         atomic_load(&hits_in_state[S_CLOSING]),
         atomic_load(&hits_in_state[S_CLOSED]));
  rt_out("stress: rss_warm_kib=%ld rss_end_kib=%ld rss_final_kib=%ld "
         "growth_kib=%ld table_bytes=%zu sections_rejected=%zu\n",
         rss_warm, rss_end, rss_final, rss_end - rss_warm, s1.table_bytes,
         s1.sections_rejected);

  if (cycles < NLOADERS)
    fail("almost no load/unload cycles", cycles, 0);
  for (int s = 0; s < NLOADERS; ++s)
    if (!slots[s].cycles)
      fail("a loader thread made no cycle", (uintptr_t)s, 0);
  if (s1.modules != s0.modules || s1.functions != s0.functions ||
      s1.atomics != s0.atomics || s1.sections != s0.sections)
    fail("counters not back at their start values", s1.modules, 0);
  if (s1.sections_rejected != s0.sections_rejected)
    fail("sections rejected", s1.sections_rejected, 0);
  if (rss_slack_kib > 0 &&
      (rss_warm < 0 || rss_end < 0 || rss_end - rss_warm >= rss_slack_kib)) {
    rt_out("stress: FAIL: resident set grew by %ld KiB after the warm-up\n",
           rss_end - rss_warm);
    atomic_fetch_add(&failures, 1);
  }
  // The executable's atomics are still known.
  query_main();

  int nf = atomic_load(&failures);
  if (nf)
    rt_out("stress: %d failure(s)\n", nf);
  else
    rt_out("stress: OK\n");
  return nf != 0;
}
