/* Preloaded, makes the process's hardware breakpoints open but never fire,
 * as many virtual machines do: a perf_event_open of PERF_TYPE_BREAKPOINT
 * through syscall() opens a software dummy event instead, which counts
 * nothing. Every other call goes straight on to the C library's syscall,
 * found once, so that the programs' stack use does not change. */
#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <string.h>
#include <sys/syscall.h>

typedef long (*SyscallFn)(long, ...);
static SyscallFn Next;
static __thread struct perf_event_attr Dead;

__attribute__((constructor)) static void findNext(void) {
  Next = (SyscallFn)dlsym(RTLD_NEXT, "syscall");
}

long syscall(long Number, ...) {
  va_list Args;
  va_start(Args, Number);
  long A0 = va_arg(Args, long), A1 = va_arg(Args, long),
       A2 = va_arg(Args, long), A3 = va_arg(Args, long),
       A4 = va_arg(Args, long), A5 = va_arg(Args, long);
  va_end(Args);
  const struct perf_event_attr *Attr = (const struct perf_event_attr *)A0;
  if (Number == SYS_perf_event_open && Attr &&
      Attr->type == PERF_TYPE_BREAKPOINT) {
    memcpy(&Dead, Attr, sizeof Dead);
    Dead.type = PERF_TYPE_SOFTWARE;
    Dead.config = PERF_COUNT_SW_DUMMY;
    Dead.bp_type = 0;
    Dead.bp_addr = 0;
    Dead.bp_len = 0;
    A0 = (long)&Dead;
  }
  if (!Next)
    findNext();
  return Next(Number, A0, A1, A2, A3, A4, A5);
}
