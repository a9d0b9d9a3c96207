// How much of a small stack pcmap's signal handlers use. Each stack is a
// painted buffer with a guard page below it: a write below the stack faults,
// and what the stack's deepest write was is read back from the paint.
//   report   an 8 KiB alternate signal stack (SIGSTKSZ), no handler of the
//            program's: pcmap's report, then the default action
//   handled  the same stack, with the program's crash handler installed
//            before pcmap (SA_ONSTACK); it prints how much of the stack was
//            used (kernel frame, pcmap's frames, its own) and exits
//   fiber    a thread on a 16 KiB stack of the program's
//            (pthread_attr_setstack, as fiber libraries do) spins on an
//            atomic while the tracer samples it; prints how much it used
//            (with a signal of its own, so that the plain build's figure
//            has the kernel's signal frame too)
// Prints "used N bytes"; the test compares it with the plain build's.
#define _GNU_SOURCE 1
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

enum { kPaint = 0xa5, kAltStack = 8192, kFiberStack = 16384 };

// Linked with a sanitized runtime (a sanitizer build's drivers link the
// sanitizers into the program, whose own code is not instrumented), whose
// instrumented frames take up to 5 KiB more of a handler's stack, the
// stacks are twice as large, and their use is not compared.
void __asan_init(void) __attribute__((weak));
void __tsan_init(void) __attribute__((weak));

static size_t sized(size_t size) {
  return __asan_init || __tsan_init ? 2 * size : size;
}
static size_t alt_stack_size(void) { return sized(kAltStack); }

static char *alt_stack; // alt_stack_size() bytes above a guard page

static char *painted_stack(size_t size) {
  long page = sysconf(_SC_PAGESIZE);
  char *p = mmap(NULL, size + page, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED || mprotect(p, page, PROT_NONE)) {
    perror("mmap");
    exit(2);
  }
  memset(p + page, kPaint, size);
  return p + page;
}

/// Bytes from the deepest write to the top of the stack.
static size_t used(const char *stack, size_t size) {
  size_t i = 0;
  while (i < size && (unsigned char)stack[i] == kPaint)
    ++i;
  return size - i;
}

static void say_used(size_t n) {
  char line[64];
  int len = snprintf(line, sizeof(line), "used %zu bytes\n", n);
  write(1, line, len);
}

static void use_alt_stack(void) {
  alt_stack = painted_stack(alt_stack_size());
  stack_t s = {.ss_sp = alt_stack, .ss_size = alt_stack_size(), .ss_flags = 0};
  if (sigaltstack(&s, NULL)) {
    perror("sigaltstack");
    exit(2);
  }
}

static void crash_handler(int sig, siginfo_t *info, void *ctx) {
  (void)sig, (void)info, (void)ctx;
  say_used(used(alt_stack, alt_stack_size()));
  _exit(0);
}

// Before the runtime's constructor (priority 101 and up run after 1..100):
// the handler and the stack are there when pcmap installs its own. glibc
// passes constructors the program's arguments.
__attribute__((constructor(1))) static void install_before(int argc,
                                                           char **argv) {
  if (argc < 2 || strcmp(argv[1], "handled"))
    return;
  use_alt_stack();
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_sigaction = crash_handler;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigaction(SIGSEGV, &sa, NULL);
}

static volatile int *volatile bad_pointer = (int *)16;

static void fault(void) { *bad_pointer = 1; }

static _Atomic long counter;

static double thread_cpu_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

__attribute__((noinline)) static void spin_on_atomic(void) {
  double end = thread_cpu_seconds() + 0.3;
  while (thread_cpu_seconds() < end)
    for (int i = 0; i < 1000; ++i)
      atomic_fetch_add(&counter, 1);
}

static void note_signal(int sig) { (void)sig; }

static void *fiber(void *arg) {
  (void)arg;
  // A signal of the program's, so that both builds count the kernel's
  // signal frame: what differs is what pcmap's handler adds to it.
  signal(SIGUSR1, note_signal);
  raise(SIGUSR1);
  spin_on_atomic();
  return NULL;
}

static int run_fiber(void) {
  char *stack = painted_stack(sized(kFiberStack));
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstack(&attr, stack, sized(kFiberStack));
  pthread_t t;
  if (pthread_create(&t, &attr, fiber, NULL)) {
    fprintf(stderr, "pthread_create failed\n");
    return 2;
  }
  pthread_join(t, NULL);
  say_used(used(stack, sized(kFiberStack)));
  return 0;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  if (!strcmp(mode, "report")) {
    use_alt_stack();
    fault();
  } else if (!strcmp(mode, "handled")) {
    fault();
  } else if (!strcmp(mode, "fiber")) {
    return run_fiber();
  }
  fprintf(stderr, "usage: %s report|handled|fiber\n", argv[0]);
  return 2;
}
