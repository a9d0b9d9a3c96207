/*===- testing/pcmap_testing.h - Hooks for tests, fuzzers and benchmarks --===*
 *
 * Test-only (rt/testing/, never installed). Lets a test register tables that do not live in a
 * loaded object: sections in [section_start, section_end) are taken to belong
 * to a fake module whose executable code is [text_start, text_end) (which
 * need not be mapped: the runtime never reads code). Everything else is the
 * real registration path: the sections are passed to the usual callbacks.
 *
 *===----------------------------------------------------------------------===*/

#ifndef PCMAP_PCMAP_TESTING_H
#define PCMAP_PCMAP_TESTING_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Returns 1 on success, 0 if the table of fake modules is full. */
int __pcmap_testing_add_fake_module(const void *section_start,
                                    const void *section_end,
                                    uintptr_t text_start, uintptr_t text_end,
                                    const char *name);
/* Forgets the fake module that holds section_start (after its sections have
 * been deleted). */
void __pcmap_testing_remove_fake_module(const void *section_start);

/* Verbosity of the runtime's own diagnostics (0: silent, 1: rejected
 * sections, 2: every registration), as the verbosity option sets it. */
void __pcmap_testing_set_verbosity(int level);

/* From now on, registration records sections without building their tables,
 * and the next query builds them, as before a process's first query
 * (lazy_tables, docs/design/Runtime.md "Start-up"). */
void __pcmap_testing_defer_tables(void);

/* Whether the queries at pc are answered from its stretch's index entry
 * and windows (1: the stretch has at most a window of atomics and of
 * function boundaries), or searched (0); -1 if no module's code holds pc.
 * Async-signal-safe. */
int __pcmap_testing_stretch_described(uintptr_t pc);

/* pcmap_is_atomic_pc's answer at pc from its module's index alone, as if
 * the module had no answer map (pcmap_is_atomic_pc takes it from the map
 * when there is one): tests check that both agree. Async-signal-safe. */
int __pcmap_testing_is_atomic_indexed(uintptr_t pc);

/* Whether the module whose code holds pc has an answer map (1) or not (0);
 * -1 if no module's code holds pc. */
int __pcmap_testing_has_answer_map(uintptr_t pc);

/* Whether pcmap_lookup_function finds the function holding pc from its
 * module's function map (1), or not (0: the module has no maps, pc is in
 * no function, or the map leaves it to the index); -1 if no module's code
 * holds pc. */
int __pcmap_testing_function_mapped(uintptr_t pc);

#ifdef __cplusplus
}
#endif

#endif /* PCMAP_PCMAP_TESTING_H */
