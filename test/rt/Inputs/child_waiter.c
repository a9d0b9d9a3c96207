// A program that reaps its children as shells and servers do: a SIGCHLD
// handler counts the signals, and a wait(-1) loop reaps every child until
// none is left. It makes one child of its own; the tracer's symbolizer,
// started by pcmap_trace_dump() (a text report) while the program runs and
// again at exit, must be none of what it sees.
#include <errno.h>
#include <pcmap/pcmap.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static _Atomic long counter;
static volatile sig_atomic_t sigchlds;

static void on_child(int sig) {
  (void)sig;
  ++sigchlds;
}

__attribute__((noinline)) static void work(long ms) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  long until = t.tv_sec * 1000 + t.tv_nsec / 1000000 + ms, now;
  do {
    for (int i = 0; i < 20000; ++i)
      atomic_fetch_add_explicit(&counter, 1, memory_order_relaxed);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    now = t.tv_sec * 1000 + t.tv_nsec / 1000000;
  } while (now < until);
}

int main(void) {
  setvbuf(stdout, 0, _IONBF, 0);
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = on_child;
  sa.sa_flags = SA_RESTART;
  sigaction(SIGCHLD, &sa, 0);
  work(200);
  pcmap_trace_dump(); // starts the symbolizer, which stays for the next
  pid_t own = fork();
  if (own == 0)
    _exit(7);
  work(200);
  int reaped = 0, others = 0, status;
  pid_t pid;
  while ((pid = wait(&status)) > 0) {
    if (pid == own && WIFEXITED(status) && WEXITSTATUS(status) == 7)
      ++reaped;
    else
      ++others;
  }
  printf("own children reaped: %d, others: %d, wait then: %s\n", reaped,
         others, errno == ECHILD ? "ECHILD" : strerror(errno));
  printf("SIGCHLDs: %d\n", (int)sigchlds);
  return 0;
}
