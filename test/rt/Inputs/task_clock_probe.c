/* Whether this process may sample itself with a perf task-clock event (user
 * mode only), as the tracer does where it can (trace_high_resolution):
 * test/rt/lit.local.cfg runs this before the suite. perf_event_paranoid 3,
 * a seccomp filter or an emulator refuse it. Exit status: 0 if the event
 * opens and counts, 1 if not. */
#define _GNU_SOURCE 1
#include <linux/perf_event.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void) {
  struct perf_event_attr Attr;
  memset(&Attr, 0, sizeof Attr);
  Attr.size = sizeof Attr;
  Attr.type = PERF_TYPE_SOFTWARE;
  Attr.config = PERF_COUNT_SW_TASK_CLOCK;
  Attr.exclude_kernel = 1;
  Attr.exclude_hv = 1;
  int Fd = (int)syscall(SYS_perf_event_open, &Attr, 0, -1, -1, 0);
  if (Fd < 0)
    return 1;
  volatile unsigned long Spin = 0;
  for (unsigned long I = 0; I < 10000000; ++I)
    Spin += I;
  long long Count = 0;
  return read(Fd, &Count, sizeof Count) == sizeof Count && Count > 0 ? 0 : 1;
}
