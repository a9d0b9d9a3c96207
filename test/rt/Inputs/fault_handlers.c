// Programs that handle their own faults, as garbage collectors, JITs and
// crash reporters do. The mode (argv[1]) says which handler is installed and
// what faults; with the suffix "-after" the handler is installed in main,
// after pcmap's, else from a constructor that runs before the runtime's.
//   oneshot   SA_RESETHAND: log, return; the repeated fault ends the process
//   nested    SA_NODEFER: the handler touches a second protected page and
//             takes the nested fault itself
//   repair    1000 write-barrier faults, each repaired by the handler
//   recover   100 faults recovered with siglongjmp
//   badcall   a call through a bad function pointer; the crash reporter
//             logs and exits with status 3 ("badcall-none": no handler)
// With "-altstack" the program has an 8 KiB alternate signal stack of its
// own, and its handlers, installed without SA_ONSTACK, need 16 KiB: the
// kernel runs them on the interrupted stack, and so must pcmap. The program
// then says whether they ever ran on the alternate stack, and whether its
// alternate stack is still there.
#define _GNU_SOURCE 1
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static char *pages; // two pages, both protected
static long page_size;
static sigjmp_buf recovery;
static const char *mode = "";
static volatile int faults, nested_faults;
static volatile int in_handler;

static void say(const char *s) { write(1, s, strlen(s)); }

enum { kAltStackSize = 8192 };
static char *alt_stack;
static volatile int on_alt_stack;

static void use_alt_stack(void) {
  long page = sysconf(_SC_PAGESIZE);
  char *p = mmap(0, kAltStackSize + page, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  mprotect(p, page, PROT_NONE); // a guard below it
  alt_stack = p + page;
  stack_t st = {.ss_sp = alt_stack, .ss_size = kAltStackSize, .ss_flags = 0};
  sigaltstack(&st, 0);
}

/// In a handler: notes where it runs, and uses 16 KiB of stack, as a
/// handler that does real work (formatting, a collector's marking) does.
static void handler_work(void) {
  volatile char big[16384];
  big[0] = 1;
  big[sizeof(big) - 1] = 1;
  char *here = (char *)&big[0];
  if (alt_stack && here + sizeof(big) > alt_stack &&
      here < alt_stack + kAltStackSize)
    ++on_alt_stack;
}

static void oneshot(int sig) {
  (void)sig;
  say("one-shot handler: logged\n");
}

static void nested(int sig, siginfo_t *info, void *ctx) {
  (void)sig, (void)ctx;
  char *addr = info->si_addr;
  if (in_handler) {
    ++nested_faults;
    mprotect(pages + page_size, page_size, PROT_READ | PROT_WRITE);
    return;
  }
  in_handler = 1;
  ++faults;
  handler_work();
  // A collector touching the next object's page while handling the first.
  atomic_fetch_add((_Atomic char *)(pages + page_size), 1);
  mprotect(pages, page_size, PROT_READ | PROT_WRITE);
  in_handler = 0;
  (void)addr;
}

static void repair(int sig, siginfo_t *info, void *ctx) {
  (void)sig, (void)info, (void)ctx;
  ++faults;
  handler_work();
  mprotect(pages, page_size, PROT_READ | PROT_WRITE);
}

static void recover(int sig) {
  (void)sig;
  ++faults;
  handler_work();
  siglongjmp(recovery, 1);
}

static void crash_reporter(int sig, siginfo_t *info, void *ctx) {
  (void)sig, (void)info, (void)ctx;
  say("crash reporter: the program crashed\n");
  _exit(3);
}

static void install(void) {
  if (strstr(mode, "-none"))
    return;
  if (strstr(mode, "-altstack"))
    use_alt_stack();
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sigemptyset(&sa.sa_mask);
  if (!strncmp(mode, "oneshot", 7)) {
    sa.sa_handler = oneshot;
    sa.sa_flags = SA_RESETHAND;
  } else if (!strncmp(mode, "nested", 6)) {
    sa.sa_sigaction = nested;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
  } else if (!strncmp(mode, "repair", 6)) {
    sa.sa_sigaction = repair;
    sa.sa_flags = SA_SIGINFO;
  } else if (!strncmp(mode, "recover", 7)) {
    sa.sa_handler = recover;
  } else if (!strncmp(mode, "badcall", 7)) {
    sa.sa_sigaction = crash_reporter;
    sa.sa_flags = SA_SIGINFO;
  } else {
    return;
  }
  sigaction(SIGSEGV, &sa, 0);
}

__attribute__((noinline)) static void store(char *p, char v) {
  atomic_store((_Atomic char *)p, v);
}

int main(int argc, char **argv) {
  (void)argc, (void)argv;
  page_size = sysconf(_SC_PAGESIZE);
  pages = mmap(0, 2 * page_size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (strstr(mode, "-after"))
    install();
  if (!strncmp(mode, "oneshot", 7) || !strncmp(mode, "nested", 6)) {
    store(pages, 1);
    printf("faults %d, nested %d\n", faults, nested_faults);
  } else if (!strncmp(mode, "repair", 6)) {
    for (int i = 0; i < 1000; ++i) {
      mprotect(pages, page_size, PROT_NONE); // the write barrier's trap
      store(pages, (char)i);
    }
    printf("faults %d\n", faults);
  } else if (!strncmp(mode, "recover", 7)) {
    for (int i = 0; i < 100; ++i)
      if (!sigsetjmp(recovery, 1))
        store(pages, 1);
    printf("faults %d\n", faults);
  } else if (!strncmp(mode, "badcall", 7)) {
    void (*volatile bad)(void) = (void (*)(void))0xdeadbeef;
    bad();
  }
  if (alt_stack) {
    stack_t st;
    sigaltstack(0, &st);
    printf("handler on the alternate stack: %d times\n", on_alt_stack);
    printf("alternate stack: %s\n",
           st.ss_flags & SS_DISABLE ? "off"
           : st.ss_sp == alt_stack && st.ss_size == kAltStackSize
               ? "the program's"
               : "changed");
  }
  return 0;
}

// Before the runtime: argv is not available yet; /proc/self/cmdline names
// the mode.
__attribute__((constructor(1))) static void install_before(void) {
  static char buf[256];
  FILE *f = fopen("/proc/self/cmdline", "r");
  if (!f)
    return;
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  size_t first = strnlen(buf, n);
  if (first + 1 < n)
    mode = buf + first + 1;
  if (!strstr(mode, "-after"))
    install();
}
