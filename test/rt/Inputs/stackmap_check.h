// Checks the runtime's stack map answers against an expectations file
// written by stackmap_expect.py (from llvm-readobj, llvm-nm and
// llvm-objdump). Addresses in the file are relative to function symbols;
// the caller resolves them.

#ifndef PCMAP_TEST_RT_STACKMAP_CHECK_H
#define PCMAP_TEST_RT_STACKMAP_CHECK_H

#include "rt_test.h"

#include <stdlib.h>

typedef uintptr_t (*sm_resolve_fn)(const char *name, void *ctx);

static int sm_failures;
// Where function bounds must come from (PCMAP_STACKMAP_SIZE_*).
static unsigned sm_expected_source = PCMAP_STACKMAP_SIZE_SYMBOL;

#define SM_EXPECT(cond, ...)                                                   \
  do {                                                                         \
    if (!(cond)) {                                                             \
      ++sm_failures;                                                           \
      rt_out("FAIL: " __VA_ARGS__);                                            \
      rt_out(" [%s]\n", #cond);                                                \
    }                                                                          \
  } while (0)

struct sm_counts {
  int records, locations, live_outs, calls, patchpoints, misses, functions;
};

// When present is 0, checks that no record, function or accessor answers.
static struct sm_counts sm_check_file(const char *path, sm_resolve_fn resolve,
                                      void *ctx, int present,
                                      struct pcmap_stackmap_record *saved) {
  struct sm_counts n = {0, 0, 0, 0, 0, 0, 0};
  FILE *f = fopen(path, "r");
  if (!f) {
    rt_out("FAIL: cannot open %s\n", path);
    ++sm_failures;
    return n;
  }
  char line[512], name[128];
  struct pcmap_stackmap_record r;
  int have = 0;
  unsigned next_loc = 0, next_live = 0;
  while (fgets(line, sizeof line, f)) {
    unsigned long long off, id, stack, nrec, kind, size, nloc, nlive, a, b, c;
    long long o;
    unsigned long long v;
    if (sscanf(line, "F %127s %llu", name, &size) == 2) {
      uintptr_t start = resolve(name, ctx);
      struct pcmap_stackmap_function fn;
      int found = pcmap_lookup_stackmap_function(start + size / 2, &fn);
      if (!present) {
        SM_EXPECT(!found, "%s: function still found", name);
        continue;
      }
      ++n.functions;
      SM_EXPECT(found, "%s: function not found", name);
      if (found) {
        SM_EXPECT(fn.start == start && fn.size == size &&
                      fn.size_source == sm_expected_source,
                  "%s: function %#lx+%llu source %u, expected %#lx+%llu", name,
                  (unsigned long)fn.start, (unsigned long long)fn.size,
                  fn.size_source, (unsigned long)start, size);
      }
      SM_EXPECT(!pcmap_lookup_stackmap_function(start + size, &fn) ||
                    fn.start != start,
                "%s: function found past its end", name);
    } else if (sscanf(line, "R %127s %llu %llu %llu %llu %llu %llu %llu %llu",
                      name, &off, &id, &stack, &nrec, &kind, &size, &nloc,
                      &nlive) == 9) {
      uintptr_t pc = resolve(name, ctx) + off;
      have = pcmap_lookup_stackmap(pc, &r);
      next_loc = next_live = 0;
      if (!present) {
        SM_EXPECT(!have, "%s+%llu: record still found", name, off);
        if (have)
          have = 0;
        continue;
      }
      ++n.records;
      SM_EXPECT(have, "%s+%llu: record %llu not found", name, off, id);
      if (!have)
        continue;
      if (saved && n.records == 1)
        *saved = r;
      n.calls += r.call_kind == PCMAP_STACKMAP_CALL;
      n.patchpoints += r.call_kind == PCMAP_STACKMAP_PATCHPOINT;
      SM_EXPECT(r.pc == pc && r.id == id && r.instruction_offset == off &&
                    r.num_locations == nloc && r.num_live_outs == nlive,
                "%s+%llu: record id %llu locations %u live-outs %u", name, off,
                (unsigned long long)r.id, r.num_locations, r.num_live_outs);
      SM_EXPECT(r.function.stack_size == stack &&
                    r.function.num_records == nrec &&
                    r.function.start == resolve(name, ctx),
                "%s+%llu: function stack %llu records %llu", name, off,
                (unsigned long long)r.function.stack_size,
                (unsigned long long)r.function.num_records);
      SM_EXPECT(r.call_kind == kind && r.call_size == size,
                "%s+%llu (id %llu): call kind %u size %u, expected %llu %llu",
                name, off, id, r.call_kind, r.call_size, kind, size);
      struct pcmap_stackmap_location l;
      SM_EXPECT(!pcmap_stackmap_location(&r, r.num_locations, &l),
                "%s+%llu: location past the end", name, off);
    } else if (sscanf(line, "L %llu %llu %llu %lld %llu", &a, &b, &c, &o, &v) ==
               5) {
      if (!have)
        continue;
      struct pcmap_stackmap_location l;
      int ok = pcmap_stackmap_location(&r, next_loc, &l);
      ++n.locations;
      SM_EXPECT(ok && l.kind == a && l.size == b &&
                    (a == PCMAP_STACKMAP_CONSTANT ||
                     a == PCMAP_STACKMAP_CONSTANT_INDEX || l.dwarf_reg == c) &&
                    l.offset == o && l.value == v,
                "id %llu location %u: kind %u size %u reg %u offset %d value "
                "%llu, expected %llu %llu %llu %lld %llu",
                (unsigned long long)r.id, next_loc, l.kind, l.size, l.dwarf_reg,
                l.offset, (unsigned long long)l.value, a, b, c, o, v);
      ++next_loc;
    } else if (sscanf(line, "O %llu %llu", &a, &b) == 2) {
      if (!have)
        continue;
      struct pcmap_stackmap_live_out l;
      int ok = pcmap_stackmap_live_out(&r, next_live, &l);
      ++n.live_outs;
      SM_EXPECT(ok && l.dwarf_reg == a && l.size == b,
                "id %llu live-out %u: reg %u size %u, expected %llu %llu",
                (unsigned long long)r.id, next_live, l.dwarf_reg, l.size, a, b);
      ++next_live;
    } else if (sscanf(line, "N %127s %llu", name, &off) == 2) {
      struct pcmap_stackmap_record x;
      ++n.misses;
      SM_EXPECT(!pcmap_lookup_stackmap(resolve(name, ctx) + off, &x),
                "%s+%llu: not a record, found id %llu", name, off,
                (unsigned long long)x.id);
    }
  }
  fclose(f);
  return n;
}

static void sm_print_counts(const char *when, struct sm_counts n) {
  rt_out("%s: functions=%d records=%d locations=%d live-outs=%d calls=%d "
         "patchpoints=%d misses=%d\n",
         when, n.functions, n.records, n.locations, n.live_outs, n.calls,
         n.patchpoints, n.misses);
}

#endif // PCMAP_TEST_RT_STACKMAP_CHECK_H
