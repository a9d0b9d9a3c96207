// A program built with pcmap-clang for the secure-mode test (secure-mode.test):
// it says whether the kernel marked it secure, does some atomic work, and with
// "crash" leaves descriptors open across exec (as careless programs do) and
// faults, so that the fault reporter runs and wants a symbolizer. Built with
// -DDEFAULT_OPTIONS=..., it names a report file in __pcmap_default_options().
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/socket.h>
#include <unistd.h>

static _Atomic int Counter;

#ifdef DEFAULT_OPTIONS
// Options the program's author compiled in (a path relative to the working
// directory, which secure_mode.py sets).
const char *__pcmap_default_options(void) { return DEFAULT_OPTIONS; }
#endif

__attribute__((noinline)) static void work(void) {
  for (int I = 0; I < 1000; ++I)
    atomic_fetch_add(&Counter, 1);
}

__attribute__((noinline)) static void crash(void) {
  *(volatile int *)16 = atomic_load(&Counter);
}

int main(int argc, char **argv) {
  printf("secure=%lu euid=%d\n", getauxval(AT_SECURE), (int)geteuid());
  fflush(stdout);
  work();
  if (argc > 1 && !strcmp(argv[1], "crash")) {
    int Pipe[2];
    if (pipe(Pipe) || open("/dev/null", O_RDONLY) < 0 ||
        socket(AF_UNIX, SOCK_STREAM, 0) < 0 || dup2(2, 40) < 0)
      return 1;
    crash();
  }
  return 0;
}
