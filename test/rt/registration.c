// Registration edge cases, through the public callbacks, with sections built
// by hand as docs/FORMAT.md describes them and fake modules
// (pcmap_testing.h) whose text is not mapped:
//  - functions before atomics, atomics before functions, both section
//    versions (4-byte and pointer-sized relative PCs);
//  - every answer for atomics, non-atomic PCs, functions without complete
//    atomics, atomics outside functions, PCs outside functions and modules;
//  - the same section registered twice counts once; null and reversed
//    bounds, empty sections and deleting what was never added change
//    nothing;
//  - malformed sections (truncated ULEB128, truncated PC, overlong ULEB128,
//    record without PC, kind 7, descriptor of 2^21, PC outside the module's
//    text, function overrunning it, zero function PC, upstream sections
//    likewise) are rejected whole: counted in sections_rejected and
//    entries_rejected, none of their entries answers; an unknown base
//    version and a section outside every module are not accepted;
//  - upstream (sanmd) sections: upstream features, stack-argument sizes,
//    atomics of unknown kind;
//  - deleting sections and fake modules undoes everything.
//
// The program itself is not instrumented; it is position-dependent so that
// its data are within 2 GiB of the fake text (4-byte relative PCs).

// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O1 -fno-pie -I%pcmap-include -I%S/Inputs %s -c -o %t/reg.o
// RUN: %clang -no-pie %t/reg.o %rt-static-lib -o %t/reg
// RUN: env PCMAP_OPTIONS=verbosity=0 %run %t/reg | FileCheck %s --implicit-check-not=FAIL

// CHECK: registration: {{[1-9][0-9]*}} checks, 0 failures

#include "rt_test.h"

#include <pcmap/pcmap_testing.h>

#include <stdlib.h>

static int checks, failures;

#define EXPECT_EQ(what, got, want)                                             \
  do {                                                                         \
    unsigned long long g_ = (unsigned long long)(got);                         \
    unsigned long long w_ = (unsigned long long)(want);                        \
    ++checks;                                                                  \
    if (g_ != w_) {                                                            \
      ++failures;                                                              \
      rt_out("FAIL line %d: %s: %s = %#llx, expected %#llx\n", __LINE__,      \
             what, #got, g_, w_);                                              \
    }                                                                          \
  } while (0)

#define EXPECT_TRUE(what, cond)                                                \
  do {                                                                         \
    ++checks;                                                                  \
    if (!(cond)) {                                                             \
      ++failures;                                                              \
      rt_out("FAIL line %d: %s: %s\n", __LINE__, what, #cond);                 \
    }                                                                          \
  } while (0)

// ---------------------------------------------------------------------------
// Section builder (docs/FORMAT.md)
// ---------------------------------------------------------------------------

enum { K_LOAD, K_STORE, K_RMW, K_CMPXCHG, K_FENCE };
enum { O_UNORDERED = 1, O_RELAXED = 2, O_ACQUIRE = 4, O_RELEASE = 5,
       O_ACQ_REL = 6, O_SEQ_CST = 7 };

// kind | log2(size) << 3 | order << 6 | volatile << 9 | (op or failure
// order) << 11 | weak << 14
static uint64_t desc(unsigned kind, unsigned log2size, unsigned order,
                     unsigned vol, unsigned extra, unsigned weak) {
  return kind | log2size << 3 | order << 6 | vol << 9 | extra << 11 |
         weak << 14;
}

struct sec {
  unsigned char *base;
  size_t len, cap;
  int width; // bytes per relative PC
};

static struct sec sec_at(unsigned char *base, size_t cap, int width) {
  struct sec s = {base, 0, cap, width};
  memset(base, 0xee, cap);
  return s;
}

static void put_byte(struct sec *s, unsigned char b) {
  if (s->len >= s->cap) {
    rt_out("FAIL: section buffer too small\n");
    exit(2);
  }
  s->base[s->len++] = b;
}

// A relative PC: pc - address of the field.
static void put_pc(struct sec *s, uintptr_t pc) {
  uintptr_t field = (uintptr_t)(s->base + s->len);
  int64_t v = (int64_t)(pc - field);
  if (s->width == 4 && (v < INT32_MIN || v > INT32_MAX)) {
    rt_out("FAIL: PC %#lx is not within 2 GiB of its field %#lx (build "
           "without PIE)\n",
           (unsigned long)pc, (unsigned long)field);
    exit(2);
  }
  for (int i = 0; i < s->width; ++i)
    put_byte(s, (unsigned char)((uint64_t)v >> (8 * i)));
}

static void put_zero_word(struct sec *s) {
  for (int i = 0; i < s->width; ++i)
    put_byte(s, 0);
}

static void put_uleb(struct sec *s, uint64_t v) {
  do {
    unsigned char b = v & 0x7f;
    v >>= 7;
    put_byte(s, b | (v ? 0x80 : 0));
  } while (v);
}

static void put_function(struct sec *s, uintptr_t pc, uint64_t size,
                         uint64_t features) {
  put_pc(s, pc);
  put_uleb(s, size);
  put_uleb(s, features);
}

static void put_record1(struct sec *s, uintptr_t pc, uint64_t d) {
  put_pc(s, pc);
  put_zero_word(s);
  put_uleb(s, d);
}

static const char *sstart(const struct sec *s) { return (const char *)s->base; }
static const char *sstop(const struct sec *s) {
  return (const char *)s->base + s->len;
}

// ---------------------------------------------------------------------------
// Helpers for the checks
// ---------------------------------------------------------------------------

static struct pcmap_stats stats(void) {
  struct pcmap_stats s;
  pcmap_get_stats(&s);
  return s;
}

// modules, functions, atomics and sections unchanged since *before.
static void expect_unchanged(const char *what, const struct pcmap_stats *b) {
  struct pcmap_stats s = stats();
  EXPECT_EQ(what, s.modules, b->modules);
  EXPECT_EQ(what, s.functions, b->functions);
  EXPECT_EQ(what, s.atomics, b->atomics);
  EXPECT_EQ(what, s.sections, b->sections);
}

// Nothing at all is known about pc.
static void expect_unknown(const char *what, uintptr_t pc) {
  struct pcmap_atomic a;
  struct pcmap_function f;
  EXPECT_EQ(what, pcmap_is_atomic_pc(pc), PCMAP_UNKNOWN);
  EXPECT_EQ(what, pcmap_lookup_atomic(pc, &a), 0);
  EXPECT_EQ(what, pcmap_lookup_function(pc, &f), 0);
  EXPECT_EQ(what, pcmap_lookup_atomic_before(pc + 1, 64, &a), 0);
}

static void expect_atomic(const char *what, uintptr_t pc, unsigned kind,
                          unsigned size, unsigned order, unsigned failure,
                          unsigned op, unsigned flags, uintptr_t fn) {
  struct pcmap_atomic a;
  memset(&a, 0xa5, sizeof a);
  EXPECT_EQ(what, pcmap_is_atomic_pc(pc), PCMAP_YES);
  if (!pcmap_lookup_atomic(pc, &a)) {
    ++checks;
    ++failures;
    rt_out("FAIL line %d: %s: lookup_atomic(%#lx) finds nothing\n", __LINE__,
           what, (unsigned long)pc);
    return;
  }
  EXPECT_EQ(what, a.pc, pc);
  EXPECT_EQ(what, a.kind, kind);
  EXPECT_EQ(what, a.size, size);
  EXPECT_EQ(what, a.order, order);
  if (kind == PCMAP_KIND_CMPXCHG)
    EXPECT_EQ(what, a.failure_order, failure);
  if (kind == PCMAP_KIND_RMW)
    EXPECT_EQ(what, a.rmw_op, op);
  EXPECT_EQ(what, a.flags, flags);
  EXPECT_EQ(what, a.has_function, fn != 0);
  if (fn && a.has_function)
    EXPECT_EQ(what, a.function.start, fn);
}

static void expect_function(const char *what, uintptr_t pc, uintptr_t start,
                            uintptr_t size, unsigned features,
                            unsigned num_atomics, unsigned source,
                            const char *module) {
  struct pcmap_function f;
  memset(&f, 0xa5, sizeof f);
  if (!pcmap_lookup_function(pc, &f)) {
    ++checks;
    ++failures;
    rt_out("FAIL line %d: %s: lookup_function(%#lx) finds nothing\n",
           __LINE__, what, (unsigned long)pc);
    return;
  }
  EXPECT_EQ(what, f.start, start);
  EXPECT_EQ(what, f.size, size);
  EXPECT_EQ(what, f.features, features);
  EXPECT_EQ(what, f.num_atomics, num_atomics);
  EXPECT_EQ(what, f.source, source);
  EXPECT_TRUE(what, f.module_path && strcmp(f.module_path, module) == 0);
}

static uintptr_t before(uintptr_t pc, unsigned max) {
  struct pcmap_atomic a;
  if (!pcmap_lookup_atomic_before(pc, max, &a))
    return 0;
  return a.pc;
}

static int find_module(const char *name, struct pcmap_module *out) {
  struct pcmap_module m;
  int n = 0;
  for (size_t i = 0; pcmap_module_at(i, &m); ++i)
    if (m.path && strcmp(m.path, name) == 0) {
      *out = m;
      ++n;
    }
  return n;
}

// ---------------------------------------------------------------------------
// The fake modules
// ---------------------------------------------------------------------------

#define TEXT_A 0x10000000ul
#define TEXT_B 0x20000000ul
#define TEXT_C 0x30000000ul
#define TEXT_D 0x38000000ul
#define TEXT_E 0x50000000ul
#define TEXT_SIZE 0x100000ul

static unsigned char mod_a[4096] __attribute__((aligned(64)));
static unsigned char mod_b[4096] __attribute__((aligned(64)));
static unsigned char mod_c[16384] __attribute__((aligned(64)));
static unsigned char mod_d[4096] __attribute__((aligned(64)));
static unsigned char mod_e[4096] __attribute__((aligned(64)));

static void add_fake(unsigned char *buf, size_t size, uintptr_t text,
                     const char *name) {
  int ok = __pcmap_testing_add_fake_module(buf, buf + size, text,
                                           text + TEXT_SIZE, name);
  EXPECT_EQ(name, ok, 1);
}

// Module A, version 1 (4-byte PCs): functions first, then atomics.
static void test_module_a(void) {
  const struct pcmap_stats s0 = stats();
  add_fake(mod_a, sizeof mod_a, TEXT_A, "fake-a");
  expect_unchanged("A: fake module alone", &s0);

  struct sec fn = sec_at(mod_a, 1024, 4);
  put_function(&fn, TEXT_A + 0x100, 0x40, 1); // f1, complete
  put_function(&fn, TEXT_A + 0x200, 0x20, 1); // f2, complete
  put_function(&fn, TEXT_A + 0x300, 0x10, 0); // f3, not complete
  struct sec at = sec_at(mod_a + 1024, 1024, 4);
  // Two PCs in one record (one atomic's region, or two atomics with the
  // same descriptor).
  put_pc(&at, TEXT_A + 0x110);
  put_pc(&at, TEXT_A + 0x118);
  put_zero_word(&at);
  put_uleb(&at, desc(K_LOAD, 2, O_ACQUIRE, 0, 0, 0));
  put_record1(&at, TEXT_A + 0x208, desc(K_RMW, 3, O_SEQ_CST, 0, 1, 0));
  put_record1(&at, TEXT_A + 0x120,
              desc(K_CMPXCHG, 2, O_ACQ_REL, 0, O_ACQUIRE, 1));
  put_record1(&at, TEXT_A + 0x304, desc(K_STORE, 0, O_RELEASE, 0, 0, 0));
  // The same PC twice in one record: kept once.
  put_pc(&at, TEXT_A + 0x130);
  put_pc(&at, TEXT_A + 0x130);
  put_zero_word(&at);
  put_uleb(&at, desc(K_FENCE, 0, O_SEQ_CST, 0, 0, 0));
  // Outside every function (but in the module's text).
  put_record1(&at, TEXT_A + 0x500, desc(K_LOAD, 3, O_RELAXED, 0, 0, 0));
  // Reserved bits (17..20) are ignored; bit 10 is the inline asm flag.
  put_record1(&at, TEXT_A + 0x20c,
              desc(K_STORE, 1, O_RELAXED, 1, 0, 0) | 1u << 10 | 0xfu << 17);

  __pcmap_functions_add(1, sstart(&fn), sstop(&fn));
  struct pcmap_stats s1 = stats();
  EXPECT_EQ("A: functions", s1.modules, s0.modules + 1);
  EXPECT_EQ("A: functions", s1.functions, s0.functions + 3);
  EXPECT_EQ("A: functions", s1.atomics, s0.atomics);
  EXPECT_EQ("A: functions", s1.sections, s0.sections + 1);
  // No atomics yet. Whether the complete functions answer NO or UNKNOWN
  // before their atomics arrive is the runtime's choice; YES it cannot be.
  EXPECT_TRUE("A: functions only",
              pcmap_is_atomic_pc(TEXT_A + 0x110) != PCMAP_YES);
  EXPECT_EQ("A: functions only", pcmap_is_atomic_pc(TEXT_A + 0x5000),
            PCMAP_UNKNOWN);
  EXPECT_EQ("A: functions only", pcmap_is_atomic_pc(TEXT_A + 0x300),
            PCMAP_UNKNOWN);

  __pcmap_atomics_add(1, sstart(&at), sstop(&at));
  struct pcmap_stats s2 = stats();
  EXPECT_EQ("A: atomics", s2.modules, s0.modules + 1);
  EXPECT_EQ("A: atomics", s2.functions, s0.functions + 3);
  EXPECT_EQ("A: atomics", s2.atomics, s0.atomics + 8);
  EXPECT_EQ("A: atomics", s2.sections, s0.sections + 2);
  EXPECT_EQ("A: atomics", s2.sections_rejected, s0.sections_rejected);
  EXPECT_TRUE("A: atomics", s2.generation != s0.generation);

  const uintptr_t f1 = TEXT_A + 0x100, f2 = TEXT_A + 0x200,
                  f3 = TEXT_A + 0x300;
  expect_atomic("A: load", TEXT_A + 0x110, PCMAP_KIND_LOAD, 4,
                PCMAP_ORDER_ACQUIRE, 0, 0, 0, f1);
  expect_atomic("A: load 2", TEXT_A + 0x118, PCMAP_KIND_LOAD, 4,
                PCMAP_ORDER_ACQUIRE, 0, 0, 0, f1);
  expect_atomic("A: cmpxchg", TEXT_A + 0x120, PCMAP_KIND_CMPXCHG, 4,
                PCMAP_ORDER_ACQ_REL, PCMAP_ORDER_ACQUIRE, 0,
                PCMAP_ATOMIC_WEAK, f1);
  expect_atomic("A: fence", TEXT_A + 0x130, PCMAP_KIND_FENCE, 0,
                PCMAP_ORDER_SEQ_CST, 0, 0, 0, f1);
  expect_atomic("A: rmw", TEXT_A + 0x208, PCMAP_KIND_RMW, 8,
                PCMAP_ORDER_SEQ_CST, 0, PCMAP_RMW_ADD, 0, f2);
  expect_atomic("A: reserved bits", TEXT_A + 0x20c, PCMAP_KIND_STORE, 2,
                PCMAP_ORDER_RELAXED, 0, 0,
                PCMAP_ATOMIC_VOLATILE | PCMAP_ATOMIC_INLINE_ASM, f2);
  expect_atomic("A: store in incomplete function", TEXT_A + 0x304,
                PCMAP_KIND_STORE, 1, PCMAP_ORDER_RELEASE, 0, 0, 0, f3);
  expect_atomic("A: outside functions", TEXT_A + 0x500, PCMAP_KIND_LOAD, 8,
                PCMAP_ORDER_RELAXED, 0, 0, 0, 0);

  // Not atomics.
  EXPECT_EQ("A: f1 start", pcmap_is_atomic_pc(f1), PCMAP_NO);
  EXPECT_EQ("A: inside load", pcmap_is_atomic_pc(TEXT_A + 0x114), PCMAP_NO);
  EXPECT_EQ("A: f1 last byte", pcmap_is_atomic_pc(f1 + 0x3f), PCMAP_NO);
  EXPECT_EQ("A: f2", pcmap_is_atomic_pc(f2 + 1), PCMAP_NO);
  EXPECT_EQ("A: f3 (incomplete)", pcmap_is_atomic_pc(f3), PCMAP_UNKNOWN);
  EXPECT_EQ("A: f3 (incomplete)", pcmap_is_atomic_pc(f3 + 5), PCMAP_UNKNOWN);
  expect_unknown("A: after f1", f1 + 0x40);
  expect_unknown("A: between", TEXT_A + 0x280);
  expect_unknown("A: after outside atomic", TEXT_A + 0x501);
  expect_unknown("A: text start", TEXT_A);
  expect_unknown("A: text end", TEXT_A + TEXT_SIZE);
  expect_unknown("A: before text", TEXT_A - 1);

  // Functions.
  expect_function("A: f1", f1, f1, 0x40, 1, 4, PCMAP_SOURCE_PCMAP, "fake-a");
  expect_function("A: f1 end", f1 + 0x3f, f1, 0x40, 1, 4, PCMAP_SOURCE_PCMAP,
                  "fake-a");
  expect_function("A: f2", TEXT_A + 0x208, f2, 0x20, 1, 2, PCMAP_SOURCE_PCMAP,
                  "fake-a");
  expect_function("A: f3", f3 + 0xf, f3, 0x10, 0, 1, PCMAP_SOURCE_PCMAP,
                  "fake-a");

  // Nearest atomic before a PC, in the same function.
  EXPECT_EQ("A: before", before(TEXT_A + 0x119, 16), TEXT_A + 0x118);
  EXPECT_EQ("A: before", before(TEXT_A + 0x118, 16), TEXT_A + 0x110);
  EXPECT_EQ("A: before", before(TEXT_A + 0x118, 8), TEXT_A + 0x110);
  EXPECT_EQ("A: before", before(TEXT_A + 0x118, 7), 0);
  EXPECT_EQ("A: before", before(TEXT_A + 0x110, 16), 0);
  EXPECT_EQ("A: before", before(TEXT_A + 0x128, 4), 0);
  EXPECT_EQ("A: before", before(TEXT_A + 0x128, 8), TEXT_A + 0x120);
  EXPECT_EQ("A: before", before(f1 + 0x40, 64), TEXT_A + 0x130);
  EXPECT_EQ("A: before other function", before(f2 + 1, 0x100), 0);
  EXPECT_EQ("A: before, max 0", before(TEXT_A + 0x119, 0), 0);
  EXPECT_EQ("A: before outside functions", before(TEXT_A + 0x501, 16), 0);

  // Iteration.
  struct pcmap_module m;
  EXPECT_EQ("A: module_at", find_module("fake-a", &m), 1);
  EXPECT_EQ("A: module text", m.text_start, TEXT_A);
  EXPECT_EQ("A: module text", m.text_end, TEXT_A + TEXT_SIZE);
  EXPECT_EQ("A: module functions", m.num_functions, 3);
  EXPECT_EQ("A: module atomics", m.num_atomics, 8);
  struct pcmap_function f;
  EXPECT_EQ("A: function_at 0", pcmap_function_at(TEXT_A, 0, &f), 1);
  EXPECT_EQ("A: function_at 0", f.start, f1);
  EXPECT_EQ("A: function_at 1", pcmap_function_at(TEXT_A, 1, &f), 1);
  EXPECT_EQ("A: function_at 1", f.start, f2);
  EXPECT_EQ("A: function_at 2", pcmap_function_at(TEXT_A, 2, &f), 1);
  EXPECT_EQ("A: function_at 2", f.start, f3);
  EXPECT_EQ("A: function_at 3", pcmap_function_at(TEXT_A, 3, &f), 0);

  // The same sections again: nothing changes.
  __pcmap_functions_add(1, sstart(&fn), sstop(&fn));
  __pcmap_atomics_add(1, sstart(&at), sstop(&at));
  expect_unchanged("A: registered twice", &s2);
  EXPECT_EQ("A: registered twice", stats().sections_rejected,
            s0.sections_rejected);
  expect_atomic("A: registered twice", TEXT_A + 0x110, PCMAP_KIND_LOAD, 4,
                PCMAP_ORDER_ACQUIRE, 0, 0, 0, f1);
  expect_function("A: registered twice", f1, f1, 0x40, 1, 4,
                  PCMAP_SOURCE_PCMAP, "fake-a");

  // Deleted: atomics first, then functions.
  __pcmap_atomics_del(1, sstart(&at), sstop(&at));
  struct pcmap_stats s3 = stats();
  EXPECT_EQ("A: atomics deleted", s3.atomics, s0.atomics);
  EXPECT_EQ("A: atomics deleted", s3.functions, s0.functions + 3);
  EXPECT_EQ("A: atomics deleted", s3.sections, s0.sections + 1);
  EXPECT_TRUE("A: atomics deleted",
              pcmap_is_atomic_pc(TEXT_A + 0x110) != PCMAP_YES);
  expect_unknown("A: atomics deleted", TEXT_A + 0x500);
  __pcmap_functions_del(1, sstart(&fn), sstop(&fn));
  __pcmap_testing_remove_fake_module(mod_a);
  expect_unchanged("A: deleted", &s0);
  expect_unknown("A: deleted", TEXT_A + 0x110);
  expect_unknown("A: deleted", f1);
  EXPECT_EQ("A: deleted", find_module("fake-a", &m), 0);
}

// Module B, version 65537 (pointer-sized PCs): atomics first, then
// functions; bounds that must be ignored.
static void test_module_b(void) {
  const struct pcmap_stats s0 = stats();
  add_fake(mod_b, sizeof mod_b, TEXT_B, "fake-b");
  const uint32_t v = 1 | 1u << 16;
  struct sec at = sec_at(mod_b, 1024, 8);
  put_record1(&at, TEXT_B + 0x10, desc(K_LOAD, 2, O_RELAXED, 0, 0, 0));
  put_record1(&at, TEXT_B + 0x20, desc(K_RMW, 1, O_ACQUIRE, 1, 0, 0));
  put_record1(&at, TEXT_B + 0x28, desc(K_RMW, 2, O_RELEASE, 0, 16, 0));
  struct sec fn = sec_at(mod_b + 1024, 1024, 8);
  put_function(&fn, TEXT_B, 0x40, 1);

  __pcmap_atomics_add(v, sstart(&at), sstop(&at));
  struct pcmap_stats s1 = stats();
  EXPECT_EQ("B: atomics", s1.modules, s0.modules + 1);
  EXPECT_EQ("B: atomics", s1.atomics, s0.atomics + 3);
  EXPECT_EQ("B: atomics", s1.functions, s0.functions);
  EXPECT_EQ("B: atomics", s1.sections, s0.sections + 1);
  // Atomics without functions: YES, but nothing is known about the others.
  expect_atomic("B: atomics only", TEXT_B + 0x10, PCMAP_KIND_LOAD, 4,
                PCMAP_ORDER_RELAXED, 0, 0, 0, 0);
  EXPECT_EQ("B: atomics only", pcmap_is_atomic_pc(TEXT_B + 0x14),
            PCMAP_UNKNOWN);
  struct pcmap_function f;
  EXPECT_EQ("B: atomics only", pcmap_lookup_function(TEXT_B + 0x10, &f), 0);

  __pcmap_functions_add(v, sstart(&fn), sstop(&fn));
  struct pcmap_stats s2 = stats();
  EXPECT_EQ("B: functions", s2.modules, s0.modules + 1);
  EXPECT_EQ("B: functions", s2.functions, s0.functions + 1);
  EXPECT_EQ("B: functions", s2.atomics, s0.atomics + 3);
  EXPECT_EQ("B: functions", s2.sections, s0.sections + 2);
  expect_atomic("B: load", TEXT_B + 0x10, PCMAP_KIND_LOAD, 4,
                PCMAP_ORDER_RELAXED, 0, 0, 0, TEXT_B);
  expect_atomic("B: volatile xchg", TEXT_B + 0x20, PCMAP_KIND_RMW, 2,
                PCMAP_ORDER_ACQUIRE, 0, PCMAP_RMW_XCHG, PCMAP_ATOMIC_VOLATILE,
                TEXT_B);
  expect_atomic("B: udec_wrap", TEXT_B + 0x28, PCMAP_KIND_RMW, 4,
                PCMAP_ORDER_RELEASE, 0, PCMAP_RMW_UDEC_WRAP, 0, TEXT_B);
  EXPECT_EQ("B: functions", pcmap_is_atomic_pc(TEXT_B + 0x14), PCMAP_NO);
  expect_function("B: function", TEXT_B + 0x3f, TEXT_B, 0x40, 1, 3,
                  PCMAP_SOURCE_PCMAP, "fake-b");

  // Registered twice (in the other order): counted once.
  __pcmap_atomics_add(v, sstart(&at), sstop(&at));
  __pcmap_functions_add(v, sstart(&fn), sstop(&fn));
  expect_unchanged("B: registered twice", &s2);

  // Bounds to ignore. Null and null is what a constructor passes for a
  // section --gc-sections emptied: not an error.
  __pcmap_atomics_add(1, NULL, NULL);
  __pcmap_functions_add(1, NULL, NULL);
  __pcmap_atomics_add(v, NULL, NULL);
  __pcmap_functions_add(v, NULL, NULL);
  __sanitizer_metadata_atomics_add(2, NULL, NULL);
  __sanitizer_metadata_covered_add(2, NULL, NULL);
  __pcmap_atomics_del(1, NULL, NULL);
  __pcmap_functions_del(1, NULL, NULL);
  __sanitizer_metadata_atomics_del(2, NULL, NULL);
  __sanitizer_metadata_covered_del(2, NULL, NULL);
  expect_unchanged("B: null bounds", &s2);
  EXPECT_EQ("B: null bounds", stats().sections_rejected, s2.sections_rejected);
  EXPECT_EQ("B: null bounds", stats().entries_rejected, s2.entries_rejected);
  // Start after stop.
  __pcmap_atomics_add(v, sstop(&at), sstart(&at));
  __pcmap_functions_add(v, sstop(&fn), sstart(&fn));
  __pcmap_atomics_del(v, sstop(&at), sstart(&at));
  __pcmap_functions_del(v, sstop(&fn), sstart(&fn));
  expect_unchanged("B: reversed bounds", &s2);
  // One bound null.
  __pcmap_atomics_add(v, sstart(&at), NULL);
  __pcmap_functions_add(v, NULL, sstop(&fn));
  expect_unchanged("B: one null bound", &s2);
  // Empty sections.
  __pcmap_atomics_add(v, sstop(&at), sstop(&at));
  __pcmap_functions_add(v, sstop(&fn), sstop(&fn));
  __pcmap_atomics_del(v, sstop(&at), sstop(&at));
  __pcmap_functions_del(v, sstop(&fn), sstop(&fn));
  {
    struct pcmap_stats s = stats();
    EXPECT_EQ("B: empty sections", s.functions, s2.functions);
    EXPECT_EQ("B: empty sections", s.atomics, s2.atomics);
    EXPECT_EQ("B: empty sections", s.modules, s2.modules);
  }
  // Deleting what was never added.
  __pcmap_atomics_del(v, sstart(&at) + 1, sstop(&at));
  __pcmap_atomics_del(v, sstart(&at), sstop(&at) - 1);
  __pcmap_functions_del(v, (const char *)mod_b + 3000,
                        (const char *)mod_b + 3010);
  expect_unchanged("B: deleting unknown sections", &s2);
  expect_atomic("B: still there", TEXT_B + 0x10, PCMAP_KIND_LOAD, 4,
                PCMAP_ORDER_RELAXED, 0, 0, 0, TEXT_B);

  // Deleted: functions first, then atomics.
  __pcmap_functions_del(v, sstart(&fn), sstop(&fn));
  EXPECT_EQ("B: functions deleted", pcmap_is_atomic_pc(TEXT_B + 0x14),
            PCMAP_UNKNOWN);
  expect_atomic("B: functions deleted", TEXT_B + 0x10, PCMAP_KIND_LOAD, 4,
                PCMAP_ORDER_RELAXED, 0, 0, 0, 0);
  __pcmap_atomics_del(v, sstart(&at), sstop(&at));
  __pcmap_testing_remove_fake_module(mod_b);
  expect_unchanged("B: deleted", &s0);
  expect_unknown("B: deleted", TEXT_B + 0x10);
  expect_unknown("B: deleted", TEXT_B + 0x20);
}

// A malformed section, registered with add, must be rejected whole.
// `good` is a PC that a valid entry of the section names.
static void expect_rejected(const char *what, int atomics, uint32_t version,
                            const struct sec *s, uintptr_t good,
                            int min_entries) {
  const struct pcmap_stats s0 = stats();
  if (atomics)
    __pcmap_atomics_add(version, sstart(s), sstop(s));
  else
    __pcmap_functions_add(version, sstart(s), sstop(s));
  struct pcmap_stats s1 = stats();
  EXPECT_EQ(what, s1.sections, s0.sections);
  EXPECT_EQ(what, s1.functions, s0.functions);
  EXPECT_EQ(what, s1.atomics, s0.atomics);
  EXPECT_EQ(what, s1.sections_rejected, s0.sections_rejected + 1);
  if (min_entries)
    EXPECT_TRUE(what, s1.entries_rejected >=
                          s0.entries_rejected + (size_t)min_entries);
  if (good)
    expect_unknown(what, good);
  // Deleting it is harmless.
  if (atomics)
    __pcmap_atomics_del(version, sstart(s), sstop(s));
  else
    __pcmap_functions_del(version, sstart(s), sstop(s));
  struct pcmap_stats s2 = stats();
  EXPECT_EQ(what, s2.sections, s0.sections);
  EXPECT_EQ(what, s2.functions, s0.functions);
  EXPECT_EQ(what, s2.atomics, s0.atomics);
}

// Module C: malformed sections, then valid ones.
static void test_module_c(void) {
  const struct pcmap_stats s0 = stats();
  add_fake(mod_c, sizeof mod_c, TEXT_C, "fake-c");
  unsigned char *p = mod_c;
  struct sec s;
#define NEXT(width) (s = sec_at(p, 512, width), p += 512, &s)

  // Functions: two good entries, then a size whose ULEB128 never ends.
  NEXT(4);
  put_function(&s, TEXT_C + 0x100, 0x10, 1);
  put_function(&s, TEXT_C + 0x200, 0x10, 1);
  put_pc(&s, TEXT_C + 0x300);
  put_byte(&s, 0x80);
  expect_rejected("C: truncated ULEB128 size", 0, 1, &s, TEXT_C + 0x100, 2);
  // A function outside the module's text.
  NEXT(4);
  put_function(&s, TEXT_C + 0x100, 0x10, 1);
  put_function(&s, TEXT_C + TEXT_SIZE + 0x100, 0x10, 1);
  expect_rejected("C: function outside text", 0, 1, &s, TEXT_C + 0x100, 1);
  // A function overrunning the module's text.
  NEXT(4);
  put_function(&s, TEXT_C + 0x100, 0x10, 1);
  put_function(&s, TEXT_C + TEXT_SIZE - 0x10, 0x20, 1);
  expect_rejected("C: function overrunning text", 0, 1, &s, TEXT_C + 0x100, 1);
  // A function before the module's text.
  NEXT(4);
  put_function(&s, TEXT_C + 0x100, 0x10, 1);
  put_function(&s, TEXT_C - 0x100, 0x10, 1);
  expect_rejected("C: function before text", 0, 1, &s, TEXT_C + 0x100, 1);
  // A zero relative PC.
  NEXT(4);
  put_function(&s, TEXT_C + 0x100, 0x10, 1);
  put_byte(&s, 0), put_byte(&s, 0), put_byte(&s, 0), put_byte(&s, 0);
  put_uleb(&s, 0x10);
  put_uleb(&s, 1);
  expect_rejected("C: zero function PC", 0, 1, &s, TEXT_C + 0x100, 1);
  // Truncated features.
  NEXT(4);
  put_function(&s, TEXT_C + 0x100, 0x10, 1);
  put_pc(&s, TEXT_C + 0x200);
  put_uleb(&s, 0x10);
  expect_rejected("C: missing features", 0, 1, &s, TEXT_C + 0x100, 1);
  // Truncated PC.
  NEXT(4);
  put_function(&s, TEXT_C + 0x100, 0x10, 1);
  put_byte(&s, 0x10), put_byte(&s, 0x10);
  expect_rejected("C: truncated function PC", 0, 1, &s, TEXT_C + 0x100, 1);
  // Overlong ULEB128 (11 bytes).
  NEXT(4);
  put_function(&s, TEXT_C + 0x100, 0x10, 1);
  put_pc(&s, TEXT_C + 0x200);
  for (int i = 0; i < 10; ++i)
    put_byte(&s, 0x80);
  put_byte(&s, 0x00);
  put_uleb(&s, 1);
  expect_rejected("C: overlong ULEB128", 0, 1, &s, TEXT_C + 0x100, 1);

  // Atomics: a good record, then one of kind 7.
  NEXT(4);
  put_record1(&s, TEXT_C + 0x110, desc(K_LOAD, 2, O_ACQUIRE, 0, 0, 0));
  put_record1(&s, TEXT_C + 0x120, desc(7, 2, O_ACQUIRE, 0, 0, 0));
  expect_rejected("C: kind 7", 1, 1, &s, TEXT_C + 0x110, 1);
  // Kind 5.
  NEXT(4);
  put_record1(&s, TEXT_C + 0x110, desc(K_LOAD, 2, O_ACQUIRE, 0, 0, 0));
  put_record1(&s, TEXT_C + 0x120, desc(5, 2, O_ACQUIRE, 0, 0, 0));
  expect_rejected("C: kind 5", 1, 1, &s, TEXT_C + 0x110, 1);
  // A descriptor of 2^21.
  NEXT(4);
  put_record1(&s, TEXT_C + 0x110, desc(K_LOAD, 2, O_ACQUIRE, 0, 0, 0));
  put_record1(&s, TEXT_C + 0x120, 1u << 21);
  expect_rejected("C: descriptor 2^21", 1, 1, &s, TEXT_C + 0x110, 1);
  // A truncated descriptor.
  NEXT(4);
  put_record1(&s, TEXT_C + 0x110, desc(K_LOAD, 2, O_ACQUIRE, 0, 0, 0));
  put_pc(&s, TEXT_C + 0x120);
  put_zero_word(&s);
  put_byte(&s, 0x90);
  expect_rejected("C: truncated descriptor", 1, 1, &s, TEXT_C + 0x110, 1);
  // A record without a descriptor.
  NEXT(4);
  put_record1(&s, TEXT_C + 0x110, desc(K_LOAD, 2, O_ACQUIRE, 0, 0, 0));
  put_pc(&s, TEXT_C + 0x120);
  expect_rejected("C: no zero word", 1, 1, &s, TEXT_C + 0x110, 1);
  // A truncated PC.
  NEXT(4);
  put_record1(&s, TEXT_C + 0x110, desc(K_LOAD, 2, O_ACQUIRE, 0, 0, 0));
  put_byte(&s, 0x20), put_byte(&s, 0x01), put_byte(&s, 0x00);
  expect_rejected("C: truncated atomic PC", 1, 1, &s, TEXT_C + 0x110, 1);
  // A record without PCs.
  NEXT(4);
  put_record1(&s, TEXT_C + 0x110, desc(K_LOAD, 2, O_ACQUIRE, 0, 0, 0));
  put_zero_word(&s);
  put_uleb(&s, desc(K_LOAD, 2, O_ACQUIRE, 0, 0, 0));
  expect_rejected("C: record without PC", 1, 1, &s, TEXT_C + 0x110, 1);
  // A PC outside the module's text.
  NEXT(4);
  put_record1(&s, TEXT_C + 0x110, desc(K_LOAD, 2, O_ACQUIRE, 0, 0, 0));
  put_record1(&s, TEXT_C + TEXT_SIZE, desc(K_LOAD, 2, O_ACQUIRE, 0, 0, 0));
  expect_rejected("C: atomic PC outside text", 1, 1, &s, TEXT_C + 0x110, 1);
  // The same, pointer-sized.
  NEXT(8);
  put_record1(&s, TEXT_C + 0x110, desc(K_LOAD, 2, O_ACQUIRE, 0, 0, 0));
  put_record1(&s, 0x7f0000000000ul, desc(K_LOAD, 2, O_ACQUIRE, 0, 0, 0));
  expect_rejected("C: atomic PC outside text (8 bytes)", 1, 1 | 1u << 16, &s,
                  TEXT_C + 0x110, 1);
  // A 4-byte section registered as pointer-sized: garbage PCs.
  NEXT(4);
  put_record1(&s, TEXT_C + 0x110, desc(K_LOAD, 2, O_ACQUIRE, 0, 0, 0));
  put_record1(&s, TEXT_C + 0x120, desc(K_LOAD, 2, O_ACQUIRE, 0, 0, 0));
  expect_rejected("C: wrong PC width", 1, 1 | 1u << 16, &s, TEXT_C + 0x110, 0);

  // Upstream: a truncated stack-arguments size, a PC outside the text.
  NEXT(4);
  put_function(&s, TEXT_C + 0x100, 0x10, 1);
  put_function(&s, TEXT_C + 0x200, 0x10, 7);
  {
    const struct pcmap_stats b = stats();
    __sanitizer_metadata_covered_add(2, sstart(&s), sstop(&s));
    struct pcmap_stats a = stats();
    EXPECT_EQ("C: sanmd truncated stack args", a.sections, b.sections);
    EXPECT_EQ("C: sanmd truncated stack args", a.functions, b.functions);
    EXPECT_EQ("C: sanmd truncated stack args", a.sections_rejected,
              b.sections_rejected + 1);
    expect_unknown("C: sanmd truncated stack args", TEXT_C + 0x100);
    __sanitizer_metadata_covered_del(2, sstart(&s), sstop(&s));
  }
  NEXT(4);
  put_pc(&s, TEXT_C + 0x110);
  put_pc(&s, TEXT_C + TEXT_SIZE + 4);
  {
    const struct pcmap_stats b = stats();
    __sanitizer_metadata_atomics_add(2, sstart(&s), sstop(&s));
    struct pcmap_stats a = stats();
    EXPECT_EQ("C: sanmd atomic outside text", a.sections, b.sections);
    EXPECT_EQ("C: sanmd atomic outside text", a.atomics, b.atomics);
    EXPECT_EQ("C: sanmd atomic outside text", a.sections_rejected,
              b.sections_rejected + 1);
    expect_unknown("C: sanmd atomic outside text", TEXT_C + 0x110);
    __sanitizer_metadata_atomics_del(2, sstart(&s), sstop(&s));
  }

  // Not accepted (whether or not counted as rejected): an unknown base
  // version, unknown version flags, a section in no module.
  NEXT(4);
  put_function(&s, TEXT_C + 0x100, 0x10, 1);
  {
    const struct pcmap_stats b = stats();
    __pcmap_functions_add(2, sstart(&s), sstop(&s));
    __pcmap_functions_add(1 | 1u << 17, sstart(&s), sstop(&s));
    __sanitizer_metadata_covered_add(3, sstart(&s), sstop(&s));
    expect_unchanged("C: unknown versions", &b);
    expect_unknown("C: unknown versions", TEXT_C + 0x100);
    __pcmap_functions_del(2, sstart(&s), sstop(&s));
    __pcmap_functions_del(1 | 1u << 17, sstart(&s), sstop(&s));
    __sanitizer_metadata_covered_del(3, sstart(&s), sstop(&s));
  }
  {
    // On the heap: in no module (real or fake), 8-byte PCs into C's text.
    unsigned char *heap = malloc(256);
    struct sec h = sec_at(heap, 256, 8);
    put_function(&h, TEXT_C + 0x100, 0x10, 1);
    const struct pcmap_stats b = stats();
    __pcmap_functions_add(1 | 1u << 16, sstart(&h), sstop(&h));
    expect_unchanged("C: section in no module", &b);
    expect_unknown("C: section in no module", TEXT_C + 0x100);
    __pcmap_functions_del(1 | 1u << 16, sstart(&h), sstop(&h));
    free(heap);
  }

  // After all that, valid sections of the same module are accepted.
  struct sec fn = sec_at(p, 512, 4);
  p += 512;
  put_function(&fn, TEXT_C + 0x100, 0x40, 1);
  struct sec at = sec_at(p, 512, 4);
  p += 512;
  put_record1(&at, TEXT_C + 0x110, desc(K_LOAD, 2, O_ACQUIRE, 0, 0, 0));
  const struct pcmap_stats b = stats();
  __pcmap_functions_add(1, sstart(&fn), sstop(&fn));
  __pcmap_atomics_add(1, sstart(&at), sstop(&at));
  struct pcmap_stats a = stats();
  EXPECT_EQ("C: valid after rejections", a.sections, b.sections + 2);
  EXPECT_EQ("C: valid after rejections", a.sections_rejected,
            b.sections_rejected);
  expect_atomic("C: valid after rejections", TEXT_C + 0x110, PCMAP_KIND_LOAD,
                4, PCMAP_ORDER_ACQUIRE, 0, 0, 0, TEXT_C + 0x100);
  EXPECT_EQ("C: valid after rejections", pcmap_is_atomic_pc(TEXT_C + 0x111),
            PCMAP_NO);
  __pcmap_atomics_del(1, sstart(&at), sstop(&at));
  __pcmap_functions_del(1, sstart(&fn), sstop(&fn));
  __pcmap_testing_remove_fake_module(mod_c);
  expect_unchanged("C: deleted", &s0);
  EXPECT_TRUE("C: rejections counted",
              stats().sections_rejected >= s0.sections_rejected + 17);
  rt_out("C: sections_rejected +%zu entries_rejected +%zu\n",
         stats().sections_rejected - s0.sections_rejected,
         stats().entries_rejected - s0.entries_rejected);
#undef NEXT
}

// Module D: the functions are valid, the atomics section is not. The
// function's atomics are then not all known: its PCs must not be NO (that
// would say "not an atomic" of the atomic the rejected section names).
static void test_module_d(void) {
  const struct pcmap_stats s0 = stats();
  add_fake(mod_d, sizeof mod_d, TEXT_D, "fake-d");
  struct sec fn = sec_at(mod_d, 512, 4);
  put_function(&fn, TEXT_D + 0x100, 0x40, 1);
  struct sec at = sec_at(mod_d + 512, 512, 4);
  put_record1(&at, TEXT_D + 0x110, desc(K_LOAD, 2, O_ACQUIRE, 0, 0, 0));
  put_record1(&at, TEXT_D + 0x120, desc(7, 2, O_ACQUIRE, 0, 0, 0));
  __pcmap_functions_add(1, sstart(&fn), sstop(&fn));
  __pcmap_atomics_add(1, sstart(&at), sstop(&at));
  struct pcmap_stats s1 = stats();
  EXPECT_EQ("D: rejected atomics", s1.sections, s0.sections + 1);
  EXPECT_EQ("D: rejected atomics", s1.sections_rejected,
            s0.sections_rejected + 1);
  EXPECT_EQ("D: atomic of the rejected section",
            pcmap_is_atomic_pc(TEXT_D + 0x110), PCMAP_UNKNOWN);
  EXPECT_EQ("D: other PC of the function", pcmap_is_atomic_pc(TEXT_D + 0x100),
            PCMAP_UNKNOWN);
  struct pcmap_atomic a;
  EXPECT_EQ("D: rejected atomics", pcmap_lookup_atomic(TEXT_D + 0x110, &a), 0);
  __pcmap_atomics_del(1, sstart(&at), sstop(&at));
  __pcmap_functions_del(1, sstart(&fn), sstop(&fn));
  __pcmap_testing_remove_fake_module(mod_d);
  expect_unchanged("D: deleted", &s0);
}

// Module E: upstream sections, version 2 (4-byte PCs).
static void test_module_e(void) {
  const struct pcmap_stats s0 = stats();
  add_fake(mod_e, sizeof mod_e, TEXT_E, "fake-e");
  struct sec cov = sec_at(mod_e, 512, 4);
  put_function(&cov, TEXT_E + 0x000, 0x40, 1); // atomics
  put_function(&cov, TEXT_E + 0x100, 0x20, 7); // atomics, uar, uar size
  put_uleb(&cov, 24);                           //   stack arguments
  put_function(&cov, TEXT_E + 0x200, 0x10, 0); // covered, no feature
  put_function(&cov, TEXT_E + 0x300, 0x10, 2); // uar only
  struct sec at = sec_at(mod_e + 512, 512, 4);
  put_pc(&at, TEXT_E + 0x10);
  put_pc(&at, TEXT_E + 0x108);
  put_pc(&at, TEXT_E + 0x10); // twice
  __sanitizer_metadata_atomics_add(2, sstart(&at), sstop(&at));
  __sanitizer_metadata_covered_add(2, sstart(&cov), sstop(&cov));
  struct pcmap_stats s1 = stats();
  EXPECT_EQ("E: upstream", s1.modules, s0.modules + 1);
  EXPECT_EQ("E: upstream", s1.functions, s0.functions + 4);
  EXPECT_EQ("E: upstream", s1.atomics, s0.atomics + 2);
  EXPECT_EQ("E: upstream", s1.sections, s0.sections + 2);
  EXPECT_EQ("E: upstream", s1.sections_rejected, s0.sections_rejected);

  expect_atomic("E: atomic", TEXT_E + 0x10, PCMAP_KIND_UNKNOWN, 0,
                PCMAP_ORDER_UNKNOWN, 0, 0, PCMAP_ATOMIC_UPSTREAM, TEXT_E);
  expect_atomic("E: atomic 2", TEXT_E + 0x108, PCMAP_KIND_UNKNOWN, 0,
                PCMAP_ORDER_UNKNOWN, 0, 0, PCMAP_ATOMIC_UPSTREAM,
                TEXT_E + 0x100);
  EXPECT_EQ("E: not atomic", pcmap_is_atomic_pc(TEXT_E + 0x11), PCMAP_NO);
  EXPECT_EQ("E: not atomic", pcmap_is_atomic_pc(TEXT_E + 0x100), PCMAP_NO);
  EXPECT_EQ("E: no atomics feature", pcmap_is_atomic_pc(TEXT_E + 0x204),
            PCMAP_UNKNOWN);
  EXPECT_EQ("E: uar only", pcmap_is_atomic_pc(TEXT_E + 0x304), PCMAP_UNKNOWN);
  expect_unknown("E: between", TEXT_E + 0x80);
  EXPECT_EQ("E: before", before(TEXT_E + 0x14, 8), TEXT_E + 0x10);

  struct pcmap_function f;
  memset(&f, 0xa5, sizeof f);
  EXPECT_EQ("E: f0", pcmap_lookup_function(TEXT_E + 0x3f, &f), 1);
  EXPECT_EQ("E: f0", f.start, TEXT_E);
  EXPECT_EQ("E: f0", f.size, 0x40);
  EXPECT_EQ("E: f0", f.source, PCMAP_SOURCE_UPSTREAM);
  EXPECT_EQ("E: f0", f.upstream_features, 1);
  EXPECT_EQ("E: f0", f.upstream_stack_args, 0);
  EXPECT_EQ("E: f0", f.features, PCMAP_FEATURE_ATOMICS);
  EXPECT_EQ("E: f0", f.num_atomics, 1);
  memset(&f, 0xa5, sizeof f);
  EXPECT_EQ("E: f1", pcmap_lookup_function(TEXT_E + 0x100, &f), 1);
  EXPECT_EQ("E: f1", f.start, TEXT_E + 0x100);
  EXPECT_EQ("E: f1", f.upstream_features, 7);
  EXPECT_EQ("E: f1", f.upstream_stack_args, 24);
  EXPECT_EQ("E: f1", f.features, PCMAP_FEATURE_ATOMICS);
  EXPECT_EQ("E: f1", f.num_atomics, 1);
  memset(&f, 0xa5, sizeof f);
  EXPECT_EQ("E: f2", pcmap_lookup_function(TEXT_E + 0x200, &f), 1);
  EXPECT_EQ("E: f2", f.upstream_features, 0);
  EXPECT_EQ("E: f2", f.features, 0);
  EXPECT_EQ("E: f2", f.source, PCMAP_SOURCE_UPSTREAM);
  memset(&f, 0xa5, sizeof f);
  EXPECT_EQ("E: f3", pcmap_lookup_function(TEXT_E + 0x30f, &f), 1);
  EXPECT_EQ("E: f3", f.upstream_features, 2);
  EXPECT_EQ("E: f3", f.upstream_stack_args, 0);
  EXPECT_EQ("E: f3", f.features, 0);

  // Twice: counted once.
  __sanitizer_metadata_covered_add(2, sstart(&cov), sstop(&cov));
  __sanitizer_metadata_atomics_add(2, sstart(&at), sstop(&at));
  expect_unchanged("E: registered twice", &s1);

  __sanitizer_metadata_covered_del(2, sstart(&cov), sstop(&cov));
  __sanitizer_metadata_atomics_del(2, sstart(&at), sstop(&at));
  __pcmap_testing_remove_fake_module(mod_e);
  expect_unchanged("E: deleted", &s0);
  expect_unknown("E: deleted", TEXT_E + 0x10);
  expect_unknown("E: deleted", TEXT_E + 0x100);
}

int main(void) {
  __pcmap_testing_set_verbosity(0);
  const struct pcmap_stats s0 = stats();
  test_module_a();
  test_module_b();
  test_module_c();
  test_module_d();
  test_module_e();
  // Everything undone.
  expect_unchanged("end", &s0);
  struct pcmap_module m;
  EXPECT_EQ("end: no module left", pcmap_module_at(s0.modules, &m), 0);
  rt_out("registration: %d checks, %d failures\n", checks, failures);
  return failures != 0;
}
