// The tracer's task-clock events hold a file descriptor per sampled thread:
// this checks that the program keeps its own. A thread that runs long
// enough to be sampled (up to 2 s of CPU time, until it has its event)
// finds the events' descriptors (/proc/self/fd), puts a
// file of its own on each number (dup2, as a program that does not know
// them may), and ends: the tracer, which closes a thread's event when it
// ends, must leave the program's file alone. The descriptors are above
// 1023 where the limit allows (out of select()'s way) and close on exec.
//   (no argument)  the checks above, then runs itself with "exec"
//   exec           counts the events' descriptors it inherited
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static int found[64], nfound;

static double cpu_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

static void spin(double seconds) {
  volatile unsigned long x = 0;
  double until = cpu_seconds() + seconds;
  while (cpu_seconds() < until)
    for (int i = 0; i < 100000; ++i)
      x += i;
}

static int find_events(int *out, int max) {
  int n = 0;
  for (int fd = 0; fd < 65536 && n < max; ++fd) {
    char path[64], target[128];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    ssize_t len = readlink(path, target, sizeof target - 1);
    if (len < 0)
      continue;
    target[len] = 0;
    if (strstr(target, "perf_event"))
      out[n++] = fd;
  }
  return n;
}

static void *worker(void *arg) {
  (void)arg;
  // Until the tracer has given this thread its event: a thread gets one
  // after tens of milliseconds of CPU time, which a loaded machine may
  // spread over more of its own wall time than this program's start.
  for (int tries = 0; tries < 100 && !nfound; ++tries) {
    spin(0.02);
    nfound = find_events(found, 64);
  }
  int null = open("/dev/null", O_RDONLY);
  for (int i = 0; i < nfound; ++i)
    dup2(null, found[i]);
  close(null);
  spin(0.02);
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "exec")) {
    int fds[64];
    printf("events after exec: %d\n", find_events(fds, 64));
    return 0;
  }
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  struct rlimit limit;
  getrlimit(RLIMIT_NOFILE, &limit);
  int low = 0, kept = 0;
  for (int i = 0; i < nfound; ++i) {
    low += found[i] < 1024 && limit.rlim_cur >= 2048;
    kept += fcntl(found[i], F_GETFD) != -1;
  }
  printf("events found: %s\n", nfound > 0 ? "yes" : "no");
  printf("below 1024: %d\n", low);
  printf("program's files kept: %d of %d\n", kept, nfound);
  fflush(stdout);
  // What an exec inherits of the events the tracer holds now (the main
  // thread's), in a process whose own tracer is off.
  char *env[] = {"PCMAP_OPTIONS=trace_atomics=0", 0};
  execle("/proc/self/exe", argv[0], "exec", (char *)0, env);
  perror("execle");
  return 1;
}
