// A thread takes write faults that its handler (without SA_ONSTACK) repairs,
// as a garbage collector's write barrier does, while the main thread keeps
// sending it another signal, as the collector's stop-the-world does; that
// signal's handler (without SA_ONSTACK either) notes whether it ran on the
// thread's own stack. The kernel runs both there: so must pcmap, whose
// handler of the faults runs on its own alternate stack first.
#define _GNU_SOURCE 1
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static char *Page;
static long PageSize;
static uintptr_t StackLo, StackHi;
static volatile long Faults, Stops, StopsOffStack;
static volatile int Done, Ready;

static void stop(int Signal) {
  (void)Signal;
  uintptr_t SP = (uintptr_t)__builtin_frame_address(0);
  ++Stops;
  if (SP < StackLo || SP >= StackHi)
    ++StopsOffStack;
}

static void fault(int Signal, siginfo_t *Info, void *Context) {
  (void)Signal, (void)Context;
  ++Faults;
  mprotect((void *)((uintptr_t)Info->si_addr & ~(uintptr_t)(PageSize - 1)),
           PageSize, PROT_READ | PROT_WRITE);
}

static void *writer(void *Arg) {
  long N = (long)Arg;
  pthread_attr_t Attr;
  void *Base;
  size_t Size;
  pthread_getattr_np(pthread_self(), &Attr);
  pthread_attr_getstack(&Attr, &Base, &Size);
  pthread_attr_destroy(&Attr);
  StackLo = (uintptr_t)Base;
  StackHi = StackLo + Size;
  Ready = 1;
  for (long I = 0; I < N; ++I) {
    mprotect(Page, PageSize, PROT_READ);
    Page[0] = (char)I;
  }
  Done = 1;
  return NULL;
}

int main(int Argc, char **Argv) {
  long N = Argc > 1 ? atol(Argv[1]) : 50000;
  PageSize = sysconf(_SC_PAGESIZE);
  Page = mmap(0, PageSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
              -1, 0);
  struct sigaction A;
  memset(&A, 0, sizeof A);
  sigemptyset(&A.sa_mask);
  A.sa_sigaction = fault;
  A.sa_flags = SA_SIGINFO | SA_RESTART;
  sigaction(SIGSEGV, &A, NULL);
  memset(&A, 0, sizeof A);
  sigemptyset(&A.sa_mask);
  A.sa_handler = stop;
  A.sa_flags = SA_RESTART;
  sigaction(SIGPWR, &A, NULL);
  pthread_t T;
  pthread_create(&T, NULL, writer, (void *)N);
  while (!Ready)
    usleep(100);
  while (!Done) {
    pthread_kill(T, SIGPWR);
    usleep(20);
  }
  pthread_join(T, NULL);
  printf("%ld faults repaired; %ld stops, %ld of them off the thread's stack\n",
         Faults, Stops, StopsOffStack);
  return 0;
}
