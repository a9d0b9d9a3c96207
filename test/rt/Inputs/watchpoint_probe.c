/* Whether a hardware watchpoint fires here: test/rt/lit.local.cfg runs this
 * before the suite. Many virtual machines let perf_event_open create a
 * breakpoint that never fires; there the tests that need one are
 * UNSUPPORTED. Exit status: 0 fired, 1 not fired, 2 cannot be opened. */
#define _GNU_SOURCE 1
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static volatile int Watched;
static volatile sig_atomic_t Fired;

static void onTrap(int Signal) {
  (void)Signal;
  Fired = 1;
}

int main(void) {
  struct sigaction Action;
  memset(&Action, 0, sizeof Action);
  Action.sa_handler = onTrap;
  sigaction(SIGTRAP, &Action, 0);
  struct perf_event_attr Attr;
  memset(&Attr, 0, sizeof Attr);
  Attr.type = PERF_TYPE_BREAKPOINT;
  Attr.size = sizeof Attr;
  Attr.bp_type = HW_BREAKPOINT_W;
  Attr.bp_addr = (unsigned long)&Watched;
  Attr.bp_len = HW_BREAKPOINT_LEN_4;
  Attr.sample_period = 1;
  Attr.sigtrap = 1;
  Attr.remove_on_exec = 1;
  Attr.exclude_kernel = 1;
  Attr.exclude_hv = 1;
  if (syscall(SYS_perf_event_open, &Attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC) < 0)
    return 2;
  for (int I = 0; I < 3 && !Fired; ++I)
    Watched = I + 1;
  return Fired ? 0 : 1;
}
