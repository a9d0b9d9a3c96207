// Everything the runtime knows, as it answers queries: every module
// (pcmap_module_at), every function of it (pcmap_function_at), and every PC
// of every function asked with pcmap_is_atomic_pc, pcmap_lookup_atomic,
// pcmap_lookup_function and pcmap_lookup_atomic_before. Prints, for
// Inputs/compare_walk.py to compare with the decoder's view of the binary:
//
//   module path=P bias=0x.. text_start=0x.. text_end=0x.. functions=N atomics=N
//   function start=0x.. size=N features=N source=N upstream_features=N
//            upstream_stack_args=N num_atomics=N yes=N no=N unknown=N
//   atomic pc=0x.. kind=N size=N order=N failure_order=N rmw_op=N flags=N
//          function=0x..
//   walk-error ...        (answers that contradict each other)
//   walk-summary modules=N functions=N atomics=N errors=N
//
// The consistency checks made here (they need no decoder):
//  - functions are in address order, inside the module's text, and carry the
//    module's path and bias;
//  - every PC of a function: pcmap_lookup_function finds that function;
//    YES exactly when pcmap_lookup_atomic finds an atomic at that PC, whose
//    function is this one; NO only in functions with complete atomics
//    (PCMAP_FEATURE_ATOMICS) and UNKNOWN only in the others;
//  - pcmap_lookup_atomic_before(pc, 16) is the last YES PC in
//    [max(pc - 16, start), pc), for every pc in (start, start + size];
//  - num_atomics of a function is its number of YES PCs; the module's
//    counts are the sums; pcmap_get_stats agrees with the modules.

#ifndef PCMAP_TEST_WALK_H
#define PCMAP_TEST_WALK_H

#include "rt_test.h"

#define WALK_BEFORE_BYTES 16

static int walk_errors;

static void walk_error(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
static void walk_error(const char *fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (walk_errors < 50)
    rt_out("walk-error %s\n", buf);
  ++walk_errors;
}

static void walk_print_atomic(const struct pcmap_atomic *a) {
  rt_out("atomic pc=%#lx kind=%u size=%u order=%u failure_order=%u rmw_op=%u "
         "flags=%u function=%#lx\n",
         (unsigned long)a->pc, a->kind, a->size, a->order, a->failure_order,
         a->rmw_op, a->flags,
         (unsigned long)(a->has_function ? a->function.start : 0));
}

// Walks one function; returns its number of YES PCs.
static size_t walk_function(const struct pcmap_module *m,
                            const struct pcmap_function *f) {
  size_t yes = 0, no = 0, unknown = 0;
  uintptr_t last_yes = 0;
  int complete = (f->features & PCMAP_FEATURE_ATOMICS) != 0;
  for (uintptr_t pc = f->start; pc <= f->start + f->size; ++pc) {
    // pcmap_lookup_atomic_before first: it also looks at pc = end.
    if (pc > f->start) {
      struct pcmap_atomic b;
      int found = pcmap_lookup_atomic_before(pc, WALK_BEFORE_BYTES, &b);
      int want = last_yes && pc - last_yes <= WALK_BEFORE_BYTES;
      if (found != want || (found && b.pc != last_yes))
        walk_error("lookup_atomic_before(%#lx, %d) = %d (pc %#lx), expected "
                   "%d (pc %#lx)",
                   (unsigned long)pc, WALK_BEFORE_BYTES, found,
                   (unsigned long)(found ? b.pc : 0), want,
                   (unsigned long)(want ? last_yes : 0));
    }
    if (pc == f->start + f->size)
      break;
    struct pcmap_function g;
    if (!pcmap_lookup_function(pc, &g) || g.start != f->start ||
        g.size != f->size)
      walk_error("lookup_function(%#lx) does not give the function at %#lx",
                 (unsigned long)pc, (unsigned long)f->start);
    struct pcmap_atomic a;
    int answer = pcmap_is_atomic_pc(pc);
    int found = pcmap_lookup_atomic(pc, &a);
    if (answer == PCMAP_YES) {
      ++yes;
      last_yes = pc;
      if (!found)
        walk_error("%#lx: YES but lookup_atomic finds nothing",
                   (unsigned long)pc);
      else if (a.pc != pc || !a.has_function || a.function.start != f->start)
        walk_error("%#lx: lookup_atomic gives pc %#lx, function %#lx",
                   (unsigned long)pc, (unsigned long)a.pc,
                   (unsigned long)(a.has_function ? a.function.start : 0));
      else
        walk_print_atomic(&a);
    } else if (answer == PCMAP_NO) {
      ++no;
      if (!complete)
        walk_error("%#lx: NO in a function without complete atomics",
                   (unsigned long)pc);
      if (found)
        walk_error("%#lx: NO but lookup_atomic finds one", (unsigned long)pc);
    } else if (answer == PCMAP_UNKNOWN) {
      ++unknown;
      if (complete)
        walk_error("%#lx: UNKNOWN in a function with complete atomics",
                   (unsigned long)pc);
      if (found)
        walk_error("%#lx: UNKNOWN but lookup_atomic finds one",
                   (unsigned long)pc);
    } else {
      walk_error("%#lx: invalid answer %d", (unsigned long)pc, answer);
    }
  }
  if (yes != f->num_atomics)
    walk_error("function %#lx: num_atomics=%u, but %zu PCs are atomic",
               (unsigned long)f->start, f->num_atomics, yes);
  if (f->module_bias != m->bias ||
      (f->module_path != m->path &&
       (!f->module_path || !m->path || strcmp(f->module_path, m->path))))
    walk_error("function %#lx: module path/bias differ from the module's",
               (unsigned long)f->start);
  rt_out("function start=%#lx size=%lu features=%u source=%u "
         "upstream_features=%u upstream_stack_args=%llu num_atomics=%u "
         "yes=%zu no=%zu unknown=%zu\n",
         (unsigned long)f->start, (unsigned long)f->size, f->features,
         f->source, f->upstream_features,
         (unsigned long long)f->upstream_stack_args, f->num_atomics, yes, no,
         unknown);
  return yes;
}

// Walks everything; returns the number of errors.
static int rt_walk_all(void) {
  size_t modules = 0, functions = 0, atomics = 0;
  struct pcmap_module m;
  for (; pcmap_module_at(modules, &m); ++modules) {
    rt_out("module path=%s bias=%#lx text_start=%#lx text_end=%#lx "
           "functions=%zu atomics=%zu\n",
           m.path ? m.path : "(null)", (unsigned long)m.bias,
           (unsigned long)m.text_start, (unsigned long)m.text_end,
           m.num_functions, m.num_atomics);
    size_t nf = 0, na = 0;
    uintptr_t prev_end = 0;
    struct pcmap_function f;
    for (; pcmap_function_at(m.text_start, nf, &f); ++nf) {
      if (f.start < m.text_start || f.start + f.size > m.text_end ||
          f.size == 0)
        walk_error("function %#lx size %lu is not inside the module's text",
                   (unsigned long)f.start, (unsigned long)f.size);
      if (nf && f.start < prev_end)
        walk_error("function %#lx: not in address order or overlapping",
                   (unsigned long)f.start);
      prev_end = f.start + f.size;
      na += walk_function(&m, &f);
    }
    if (nf != m.num_functions || na != m.num_atomics)
      walk_error("module %s: %zu functions and %zu atomics found, module says "
                 "%zu and %zu",
                 m.path, nf, na, m.num_functions, m.num_atomics);
    functions += nf;
    atomics += na;
  }
  struct pcmap_stats s;
  pcmap_get_stats(&s);
  if (s.modules != modules || s.functions != functions || s.atomics != atomics)
    walk_error("stats say %zu modules, %zu functions, %zu atomics; the walk "
               "found %zu, %zu, %zu",
               s.modules, s.functions, s.atomics, modules, functions, atomics);
  rt_out("walk-summary modules=%zu functions=%zu atomics=%zu errors=%d\n",
         modules, functions, atomics, walk_errors);
  return walk_errors;
}

#endif
