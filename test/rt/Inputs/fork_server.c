// A pre-forking-style test server, for the tracer's fork handling
// (test/rt/fork-server.c) and its cost (bench/tracer_fork_server.py).
//
//   fork_server [CONNECTIONS [SECONDS [WORK]]]
//
// The process listens on a loopback port and starts the client: itself,
// executed again in client mode without PCMAP_OPTIONS (so that only the
// server's processes are traced). The client opens CONNECTIONS connections,
// one process each, and for SECONDS sends requests and reads the answers.
// The server forks a worker per connection. A request makes its worker
// contend with the others on an atomic counter and on a spinlock in shared
// memory (MAP_SHARED), with some plain work between (a hash). When the
// client is done, the workers see the end of their connection and exit,
// and the server prints what it measured:
//
//   workers: 8, requests: 123456, requests/s: 41152.0, worker cpu ms: 5890.1
//
// "worker cpu ms" is the user and system time of the workers, from the
// kernel (wait4); the tracer's samples can be held against it.

#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct Shared {
  _Atomic long Hits;     // contended by every worker
  _Atomic int Lock;      // a test-and-test-and-set spinlock
  long Guarded;          // what the lock protects
  _Atomic long Requests; // answered, counted by the client
};

static struct Shared *S;

static inline void cpuRelax(void) {
#if defined(__x86_64__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}
static unsigned Work = 1000;

__attribute__((noinline)) static void spinLock(void) {
  for (;;) {
    if (!atomic_exchange_explicit(&S->Lock, 1, memory_order_acquire))
      return;
    while (atomic_load_explicit(&S->Lock, memory_order_relaxed))
      cpuRelax();
  }
}

__attribute__((noinline)) static void spinUnlock(void) {
  atomic_store_explicit(&S->Lock, 0, memory_order_release);
}

__attribute__((noinline)) static void contend(void) {
  for (unsigned I = 0; I < Work; ++I) {
    atomic_fetch_add(&S->Hits, 1);
    if (I % 8 == 0) {
      spinLock();
      ++S->Guarded;
      spinUnlock();
    }
  }
}

/// Plain work between the atomics: an FNV-1a hash.
__attribute__((noinline)) static uint64_t hashWork(const char *Data, size_t N) {
  uint64_t H = 1469598103934665603ull;
  for (unsigned Round = 0; Round < 16; ++Round)
    for (size_t I = 0; I < N; ++I)
      H = (H ^ (unsigned char)Data[I]) * 1099511628211ull;
  return H;
}

static void serveConnection(int Fd) {
  char Buf[256];
  for (;;) {
    ssize_t N = read(Fd, Buf, sizeof(Buf));
    if (N <= 0)
      break;
    contend();
    uint64_t H = hashWork(Buf, (size_t)N);
    char Answer[32];
    int Len =
        snprintf(Answer, sizeof(Answer), "%016llx\n", (unsigned long long)H);
    if (write(Fd, Answer, (size_t)Len) != Len)
      break;
  }
  close(Fd);
}

static double now(void) {
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return T.tv_sec + T.tv_nsec / 1e9;
}

static int runClient(int Port, int Connections, double Seconds) {
  for (int C = 0; C < Connections; ++C) {
    if (fork() != 0)
      continue;
    int Fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in A = {.sin_family = AF_INET,
                            .sin_port = htons((uint16_t)Port),
                            .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (connect(Fd, (struct sockaddr *)&A, sizeof(A)) != 0) {
      perror("client: connect");
      _exit(1);
    }
    double End = now() + Seconds;
    char Answer[64];
    long Done = 0;
    while (now() < End) {
      if (write(Fd, "request of the test client\n", 27) != 27 ||
          read(Fd, Answer, sizeof(Answer)) <= 0)
        break;
      ++Done;
    }
    atomic_fetch_add(&S->Requests, Done);
    close(Fd);
    _exit(0);
  }
  int Status, Failed = 0;
  while (wait(&Status) > 0)
    Failed |= !WIFEXITED(Status) || WEXITSTATUS(Status);
  return Failed;
}

int main(int Argc, char **Argv) {
  if (Argc > 1 && !strcmp(Argv[1], "--client")) {
    // fork_server --client PORT CONNECTIONS SECONDS SHMFD
    S = mmap(NULL, sizeof(*S), PROT_READ | PROT_WRITE, MAP_SHARED,
             atoi(Argv[5]), 0);
    return runClient(atoi(Argv[2]), atoi(Argv[3]), atof(Argv[4]));
  }
  int Connections = Argc > 1 ? atoi(Argv[1]) : 8;
  double Seconds = Argc > 2 ? atof(Argv[2]) : 3.0;
  if (Argc > 3)
    Work = (unsigned)atoi(Argv[3]);

  // Shared memory the client can map too (a memfd it inherits).
  int ShmFd = memfd_create("fork_server", 0);
  if (ShmFd < 0 || ftruncate(ShmFd, sizeof(*S)) != 0) {
    perror("memfd");
    return 1;
  }
  S = mmap(NULL, sizeof(*S), PROT_READ | PROT_WRITE, MAP_SHARED, ShmFd, 0);

  int Listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct sockaddr_in A = {.sin_family = AF_INET,
                          .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  socklen_t Len = sizeof(A);
  if (bind(Listener, (struct sockaddr *)&A, sizeof(A)) != 0 ||
      listen(Listener, 64) != 0 ||
      getsockname(Listener, (struct sockaddr *)&A, &Len) != 0) {
    perror("listen");
    return 1;
  }

  pid_t Client = fork();
  if (Client == 0) {
    char Port[16], Conns[16], Secs[32], Shm[16];
    snprintf(Port, sizeof(Port), "%d", ntohs(A.sin_port));
    snprintf(Conns, sizeof(Conns), "%d", Connections);
    snprintf(Secs, sizeof(Secs), "%g", Seconds);
    snprintf(Shm, sizeof(Shm), "%d", ShmFd);
    unsetenv("PCMAP_OPTIONS");
    execl("/proc/self/exe", Argv[0], "--client", Port, Conns, Secs, Shm,
          (char *)NULL);
    perror("exec");
    _exit(127);
  }

  double Start = now();
  pid_t Workers[256];
  int NumWorkers = 0;
  while (NumWorkers < Connections && NumWorkers < 256) {
    int Fd = accept(Listener, NULL, NULL);
    if (Fd < 0)
      continue;
    pid_t W = fork();
    if (W == 0) {
      close(Listener);
      serveConnection(Fd);
      exit(0); // the tracer's report, as any process that exits
    }
    close(Fd);
    Workers[NumWorkers++] = W;
  }
  double CpuMs = 0;
  int Failed = 0;
  for (int I = 0; I < NumWorkers; ++I) {
    int Status;
    struct rusage U;
    if (wait4(Workers[I], &Status, 0, &U) < 0) {
      Failed = 1;
      continue;
    }
    Failed |= !WIFEXITED(Status) || WEXITSTATUS(Status);
    CpuMs += (U.ru_utime.tv_sec + U.ru_stime.tv_sec) * 1e3 +
             (U.ru_utime.tv_usec + U.ru_stime.tv_usec) / 1e3;
  }
  int Status;
  waitpid(Client, &Status, 0);
  Failed |= !WIFEXITED(Status) || WEXITSTATUS(Status);
  double Elapsed = now() - Start;
  long Requests = atomic_load(&S->Requests);
  printf("workers: %d, requests: %ld, requests/s: %.1f, worker cpu ms: %.1f\n",
         NumWorkers, Requests, Requests / Elapsed, CpuMs);
  // Every request served took the lock (Work + 7) / 8 times.
  long Served = atomic_load(&S->Hits) / (long)Work;
  if (S->Guarded != Served * (long)((Work + 7) / 8)) {
    fprintf(stderr, "the spinlock lost updates: %ld for %ld requests\n",
            S->Guarded, Served);
    Failed = 1;
  }
  return Failed;
}
