// Stress: fork() while registration is in progress. Two threads dlopen and
// dlclose instrumented libraries in a loop, a third unregisters and
// registers the sections of a library it keeps loaded through the
// callbacks (__pcmap_*_del/_add) directly, while the main thread forks
// again and again. Each child, whatever the other threads were doing when
// it was forked:
//  - gets the exact answers for the PCs of the executable and of a library
//    loaded before the threads started;
//  - loads another instrumented library (registration) and gets the exact
//    answers for its PCs, then unloads it and gets UNKNOWN;
//  - exits with 0.
// glibc does not reset the dynamic loader's write lock in a child, so a
// child forked during another thread's dlopen or dlclose cannot dlopen: the
// dlopen threads hold dl_mutex, which the main thread takes around fork();
// the callbacks thread registers at any time.
// The parent checks every child's exit status; a child that has not exited
// after 20 s hangs (a lock of the runtime held, at fork, by a thread the
// child does not have) and fails the test, as does a parent still running
// after 60 s.

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -fsanitize-metadata=all -O2 -fPIC -shared -DDSO_ID=0 \
// RUN:   %S/Inputs/stress_dso.c -o %t/libkeep.so
// RUN: %pcmap-clang -fsanitize-metadata=all -O2 -fPIC -shared -DDSO_ID=1 \
// RUN:   %S/Inputs/stress_dso.c -o %t/libchild.so
// RUN: %pcmap-clang -fsanitize-metadata=all -O2 -fPIC -shared -DDSO_ID=2 \
// RUN:   %S/Inputs/stress_dso.c -o %t/libchurn0.so
// RUN: %pcmap-clang -fsanitize-metadata=all -O0 -fPIC -shared -DDSO_ID=3 \
// RUN:   %S/Inputs/stress_dso.c -o %t/libchurn1.so
// RUN: %pcmap-clang -fsanitize-metadata=all -O2 -fPIC -shared -DDSO_ID=4 \
// RUN:   %S/Inputs/stress_dso.c %S/Inputs/fork_sections.c -o %t/libreg.so
// RUN: %pcmap-clang -fsanitize-metadata=all -O2 -pthread -I%pcmap-include \
// RUN:   -I%S/Inputs -c %s -o %t/stress-fork.o
// RUN: %clang -pthread %t/stress-fork.o %rt-static-lib -rdynamic -ldl \
// RUN:   -o %t/stress-fork
// The figures stay in %t/stress-fork.out, which scripts/test.sh shows.
// timeout: a second watchdog, from outside, for a hang inside a sanitizer's
// runtime, which holds back the SIGALRM of the program's own.
// RUN: timeout -s KILL 120 %run %t/stress-fork 5 %t > %t/stress-fork.out
// RUN: FileCheck %s --implicit-check-not=FAIL --input-file=%t/stress-fork.out
// The same with threads the runtime's pthread_create interceptor never sees
// (started through the C library's): the fork handlers are installed by the
// first writer lock taken while the process has more than one thread. (Not
// under a sanitizer, which must see every thread its runtime's code runs in.)
// RUN: %if !sanitizer %{ timeout -s KILL 120 %run %t/stress-fork 3 %t libc > %t/stress-fork-libc.out %}
// RUN: %if !sanitizer %{ FileCheck %s --implicit-check-not=FAIL --input-file=%t/stress-fork-libc.out %}

// Every child exited with 0:
// CHECK: stress-fork: forks=[[FORKS:[1-9][0-9]*]] children_ok=[[FORKS]]
// CHECK-SAME: registrations={{[1-9][0-9]*}} dlopen_cycles={{[1-9][0-9]*}}
// CHECK-SAME: callback_cycles={{[1-9][0-9]*}}
// CHECK: stress-fork: OK

#define _GNU_SOURCE 1
#include "rt_test.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>

#define MAXPCS 16
#define WATCHDOG_SECONDS 60
#define CHILD_SECONDS 20

static const char *dir;
static _Atomic int stop;
static _Atomic unsigned long dlopen_cycles, callback_cycles;
static int failures;
static pthread_mutex_t dl_mutex = PTHREAD_MUTEX_INITIALIZER;

void fork_sections(const char **atomics, const char **functions);

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void path_of(char *buf, size_t size, const char *name) {
  snprintf(buf, size, "%s/%s", dir, name);
}

static void on_alarm(int sig) {
  (void)sig;
  static const char msg[] = "stress-fork: FAIL: watchdog: still running "
                            "after 60 s (hang?)\n";
  ssize_t r = write(1, msg, sizeof msg - 1);
  (void)r;
  _exit(3);
}

// --- PCs with known answers
// ----------------------------------------------------

struct pcs {
  uintptr_t yes[MAXPCS], no[MAXPCS];
  int nyes, nno;
};

// Adds the atomic (YES) and non-atomic (NO) PCs of the covered function at
// fn. Returns 0 if the runtime does not know it.
static int collect(uintptr_t fn, struct pcs *p) {
  struct pcmap_function f;
  if (!fn || !pcmap_lookup_function(fn, &f) || f.start != fn)
    return 0;
  for (uintptr_t pc = f.start; pc < f.start + f.size; ++pc) {
    int a = pcmap_is_atomic_pc(pc);
    if (a == PCMAP_YES && p->nyes < MAXPCS)
      p->yes[p->nyes++] = pc;
    else if (a == PCMAP_NO && p->nno < MAXPCS)
      p->no[p->nno++] = pc;
  }
  return 1;
}

static int collect_library(void *h, struct pcs *p) {
  static const char *const names[] = {"stress_load", "stress_add", "stress_cas",
                                      "stress_plain"};
  memset(p, 0, sizeof *p);
  for (int i = 0; i < 4; ++i)
    if (!collect((uintptr_t)dlsym(h, names[i]), p))
      return 0;
  return p->nyes > 0 && p->nno > 0;
}

// Number of PCs of p that do not answer want_yes / want_no.
static int check(const struct pcs *p, int want_yes, int want_no) {
  int bad = 0;
  for (int i = 0; i < p->nyes; ++i)
    bad += pcmap_is_atomic_pc(p->yes[i]) != want_yes;
  for (int i = 0; i < p->nno; ++i)
    bad += pcmap_is_atomic_pc(p->no[i]) != want_no;
  return bad;
}

static _Atomic uint64_t main_counter;

__attribute__((noinline)) uint64_t main_work(uint64_t v) {
  uint64_t r = atomic_fetch_add(&main_counter, v);
  return r + atomic_load_explicit(&main_counter, memory_order_acquire);
}

static struct pcs main_pcs, keep_pcs;

// --- the child
// -------------------------------------------------------------------

// Exit status: 0 if all is well, else the first check that failed.
static int child(void) {
  if (check(&main_pcs, PCMAP_YES, PCMAP_NO))
    return 10;
  if (check(&keep_pcs, PCMAP_YES, PCMAP_NO))
    return 11;
  char path[4096];
  path_of(path, sizeof path, "libchild.so");
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!h)
    return 12;
  struct pcs mine;
  if (!collect_library(h, &mine))
    return 13;
  _Atomic uint64_t mem = 0;
  uint64_t (*add)(_Atomic uint64_t *) =
      (uint64_t (*)(_Atomic uint64_t *))dlsym(h, "stress_add");
  if (!add || add(&mem) != 0 || atomic_load(&mem) != 2)
    return 14;
  if (check(&mine, PCMAP_YES, PCMAP_NO))
    return 15;
  if (dlclose(h))
    return 16;
  if (check(&mine, PCMAP_UNKNOWN, PCMAP_UNKNOWN))
    return 17;
  if (check(&main_pcs, PCMAP_YES, PCMAP_NO))
    return 18;
  return 0;
}

// --- registering threads
// ---------------------------------------------------------

static void *churn(void *arg) {
  char path[4096];
  path_of(path, sizeof path, (const char *)arg);
  while (!atomic_load(&stop)) {
    pthread_mutex_lock(&dl_mutex);
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (h)
      dlclose(h);
    pthread_mutex_unlock(&dl_mutex);
    if (!h) {
      rt_out("stress-fork: FAIL: dlopen %s: %s\n", path, dlerror());
      break;
    }
    atomic_fetch_add(&dlopen_cycles, 1);
  }
  return NULL;
}

static void *callbacks(void *arg) {
  void *h = arg;
  void (*sections)(const char **, const char **) =
      (void (*)(const char **, const char **))dlsym(h, "fork_sections");
  const char *a[2], *f[2];
  sections(a, f);
  while (!atomic_load(&stop)) {
    __pcmap_atomics_del(1, a[0], a[1]);
    __pcmap_functions_del(1, f[0], f[1]);
    __pcmap_functions_add(1, f[0], f[1]);
    __pcmap_atomics_add(1, a[0], a[1]);
    atomic_fetch_add(&callback_cycles, 1);
  }
  return NULL;
}

typedef int (*create_fn)(pthread_t *, const pthread_attr_t *,
                         void *(*)(void *), void *);
typedef int (*join_fn)(pthread_t, void **);

int main(int argc, char **argv) {
  if (argc != 3 && !(argc == 4 && !strcmp(argv[3], "libc"))) {
    rt_out("usage: %s SECONDS DIR [libc]\n", argv[0]);
    return 2;
  }
  // "libc": the threads start through the C library's own pthread_create,
  // which the runtime's interceptor never sees.
  create_fn create = pthread_create;
  join_fn join = pthread_join;
  if (argc == 4) {
    void *libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
    create = libc ? (create_fn)dlsym(libc, "pthread_create") : NULL;
    join = libc ? (join_fn)dlsym(libc, "pthread_join") : NULL;
    if (!create || !join || create == (create_fn)pthread_create) {
      rt_out("stress-fork: FAIL: cannot reach the C library's threads\n");
      return 1;
    }
  }
  double seconds = atof(argv[1]);
  dir = argv[2];
  signal(SIGALRM, on_alarm);
  alarm(WATCHDOG_SECONDS);

  main_work(1);
  if (!collect((uintptr_t)&main_work, &main_pcs) || !main_pcs.nyes ||
      !main_pcs.nno) {
    rt_out("stress-fork: FAIL: the executable's PCs are unknown\n");
    return 1;
  }
  char path[4096];
  path_of(path, sizeof path, "libkeep.so");
  void *keep = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  path_of(path, sizeof path, "libreg.so");
  void *reg = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!keep || !reg || !collect_library(keep, &keep_pcs) ||
      !dlsym(reg, "fork_sections")) {
    rt_out("stress-fork: FAIL: cannot load the libraries: %s\n", dlerror());
    return 1;
  }

  pthread_t threads[3];
  create(&threads[0], NULL, churn, (void *)"libchurn0.so");
  create(&threads[1], NULL, churn, (void *)"libchurn1.so");
  create(&threads[2], NULL, callbacks, reg);

  unsigned long forks = 0, children_ok = 0, fork_retries = 0;
  double t0 = now();
  while (now() < t0 + seconds && failures < 10) {
    pthread_mutex_lock(&dl_mutex);
    pid_t pid = fork();
    if (pid != 0)
      pthread_mutex_unlock(&dl_mutex);
    // The kernel may refuse to duplicate a sanitizer's large address space
    // for a moment (ENOMEM, EAGAIN): not the runtime's doing; try again.
    if (pid < 0 && (errno == ENOMEM || errno == EAGAIN) && fork_retries < 100) {
      ++fork_retries;
      struct timespec ts = {0, 10 * 1000 * 1000};
      nanosleep(&ts, NULL);
      continue;
    }
    if (pid < 0) {
      rt_out("stress-fork: FAIL: fork: %s\n", strerror(errno));
      ++failures;
      break;
    }
    if (pid == 0)
      _exit(child());
    ++forks;
    int status = 0;
    double deadline = now() + CHILD_SECONDS;
    pid_t w;
    while ((w = waitpid(pid, &status, WNOHANG)) == 0 && now() < deadline) {
      struct timespec ts = {0, 1000 * 1000};
      nanosleep(&ts, NULL);
    }
    if (w == 0) {
      rt_out("stress-fork: FAIL: child %d still running after %d s (hang?)\n",
             (int)pid, CHILD_SECONDS);
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      ++failures;
    } else if (w < 0) {
      rt_out("stress-fork: FAIL: waitpid: %s\n", strerror(errno));
      ++failures;
    } else if (!WIFEXITED(status) || WEXITSTATUS(status)) {
      rt_out("stress-fork: FAIL: child %d: %s %d\n", (int)pid,
             WIFEXITED(status) ? "exit" : "signal",
             WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
      ++failures;
    } else {
      ++children_ok;
    }
  }
  atomic_store(&stop, 1);
  for (int i = 0; i < 3; ++i)
    join(threads[i], NULL);

  // Each cycle registers two sections.
  unsigned long d = atomic_load(&dlopen_cycles);
  unsigned long c = atomic_load(&callback_cycles);
  rt_out("stress-fork: forks=%lu children_ok=%lu registrations=%lu "
         "dlopen_cycles=%lu callback_cycles=%lu seconds=%.1f "
         "fork_retries=%lu\n",
         forks, children_ok, 2 * (d + c), d, c, now() - t0, fork_retries);
  if (check(&keep_pcs, PCMAP_YES, PCMAP_NO)) {
    rt_out("stress-fork: FAIL: the kept library's PCs changed\n");
    ++failures;
  }
  if (!d || !c) {
    rt_out("stress-fork: FAIL: a registering thread made no cycle\n");
    ++failures;
  }
  if (failures)
    rt_out("stress-fork: %d failure(s)\n", failures);
  else
    rt_out("stress-fork: OK\n");
  return failures != 0;
}
