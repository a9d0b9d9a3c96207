// Helpers shared by the runtime tests in test/rt: unbuffered output (so that
// lines printed from signal handlers and from normal code stay in order) and
// the names of the enum values of pcmap.h.

#ifndef PCMAP_TEST_RT_TEST_H
#define PCMAP_TEST_RT_TEST_H

#include <pcmap/pcmap.h>

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

// snprintf into a stack buffer and write(2): fine from the synchronous
// SIGSEGV handlers of these tests (the program is never inside stdio when
// the fault happens).
static void rt_out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void rt_out(const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (n < 0)
    return;
  if ((size_t)n >= sizeof buf)
    n = sizeof buf - 1;
  const char *p = buf;
  while (n > 0) {
    ssize_t w = write(1, p, (size_t)n);
    if (w <= 0)
      return;
    p += w;
    n -= (int)w;
  }
}

static const char *rt_answer_name(int answer) {
  switch (answer) {
  case PCMAP_YES:
    return "yes";
  case PCMAP_NO:
    return "no";
  case PCMAP_UNKNOWN:
    return "unknown";
  }
  return "INVALID";
}

static const char *rt_kind_name(uint32_t kind) {
  switch (kind) {
  case PCMAP_KIND_LOAD:
    return "load";
  case PCMAP_KIND_STORE:
    return "store";
  case PCMAP_KIND_RMW:
    return "rmw";
  case PCMAP_KIND_CMPXCHG:
    return "cmpxchg";
  case PCMAP_KIND_FENCE:
    return "fence";
  case PCMAP_KIND_UNKNOWN:
    return "unknown";
  }
  return "INVALID";
}

static const char *rt_order_name(uint32_t order) {
  static const char *const names[] = {"unknown",  "unordered", "relaxed",
                                      "INVALID3", "acquire",   "release",
                                      "acq_rel",  "seq_cst"};
  return order < 8 ? names[order] : "INVALID";
}

static const char *rt_rmw_name(uint32_t op) {
  static const char *const names[] = {
      "xchg", "add",  "sub",  "and",       "nand",      "or",        "xor",
      "max",  "min",  "umax", "umin",      "fadd",      "fsub",      "fmax",
      "fmin", "uinc_wrap", "udec_wrap", "usub_cond", "usub_sat",
      "fmaximum", "fminimum"};
  if (op < sizeof names / sizeof names[0])
    return names[op];
  return op == PCMAP_RMW_OTHER ? "other" : "INVALID";
}

// "none", or "volatile|weak|upstream|0x..." for unknown bits.
static const char *rt_flags_text(uint32_t flags, char *buf, size_t n) {
  if (!flags) {
    snprintf(buf, n, "none");
    return buf;
  }
  buf[0] = 0;
  size_t len = 0;
#define RT_FLAG(bit, name)                                                     \
  if (flags & (bit)) {                                                         \
    len += (size_t)snprintf(buf + len, n - len, "%s%s", len ? "|" : "", name); \
    flags &= ~(uint32_t)(bit);                                                 \
  }
  RT_FLAG(PCMAP_ATOMIC_VOLATILE, "volatile")
  RT_FLAG(PCMAP_ATOMIC_WEAK, "weak")
  RT_FLAG(PCMAP_ATOMIC_UPSTREAM, "upstream")
#undef RT_FLAG
  if (flags)
    snprintf(buf + len, n - len, "%s0x%x", len ? "|" : "", flags);
  return buf;
}

// The descriptor of an atomic as one line fragment: "kind=... size=...
// order=... [failure=...] [op=...] flags=...".
static void rt_format_atomic(const struct pcmap_atomic *a, char *buf,
                             size_t n) {
  char flags[64];
  size_t len = (size_t)snprintf(buf, n, "kind=%s size=%u order=%s",
                                rt_kind_name(a->kind), a->size,
                                rt_order_name(a->order));
  if (a->kind == PCMAP_KIND_CMPXCHG && len < n)
    len += (size_t)snprintf(buf + len, n - len, " failure=%s",
                            rt_order_name(a->failure_order));
  if (a->kind == PCMAP_KIND_RMW && len < n)
    len += (size_t)snprintf(buf + len, n - len, " op=%s",
                            rt_rmw_name(a->rmw_op));
  if (len < n)
    snprintf(buf + len, n - len, " flags=%s",
             rt_flags_text(a->flags, flags, sizeof flags));
}

// Resident set size in KiB, from /proc/self/statm.
static long rt_rss_kib(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  if (!f)
    return -1;
  long size = 0, resident = -1;
  if (fscanf(f, "%ld %ld", &size, &resident) != 2)
    resident = -1;
  fclose(f);
  return resident < 0 ? -1 : resident * (sysconf(_SC_PAGESIZE) / 1024);
}

#endif
