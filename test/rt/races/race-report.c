// The race detector's reports (detect_races=1), as ThreadSanitizer's: each
// race written soon after it is found (by the runtime's reporter thread,
// before the program ends), never again at exit, where a summary counts
// them; the exit status becomes exitcode (66) when a race was reported,
// whatever main returned, or at once with halt_on_error; suppressions
// (race:PATTERN) by function, file or location are counted, not written;
// a suppressions file that cannot be read stops the process at start-up.
// The checks are sampled: run_until.py runs the program until a race shows
// (at race_hz=1000 and race_delay_us=100, one run in practice).
// Not under the sanitizers or qemu-user (race-detect.c says why).
// UNSUPPORTED: sanitizer, emulator

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -g -O2 -pthread -fsanitize-metadata=all %S/../Inputs/racy.c -o %t/racy
// DEFINE: %{opts} = detect_races=1:race_hz=1000:race_delay_us=100
// DEFINE: %{until} = %python %S/../Inputs/run_until.py 5

// At detection, once; the summary at exit with each race's count; the
// status is the program's with exitcode=0. All five phases run, a second
// each: the global counter's race, first, is written while the others run
// (the reporter starts an llvm-symbolizer: on a loaded machine that takes
// a while).
// RUN: env PCMAP_OPTIONS=%{opts}:exitcode=0 %{until} WARNING %run %t/racy 5 > %t/now
// RUN: FileCheck %s --check-prefix=NOW < %t/now
// RUN: %python %S/../Inputs/race_output.py < %t/now | FileCheck %s --check-prefix=ONCE
// NOW:      WARNING: pcmap: data race (pid={{[0-9]+}})
// NOW:        Location is {{global_counter|heap}}
// NOW:      SUMMARY: pcmap: data race {{.*}}racy.c:[[#]]:[[#]] in bump_{{global|heap}}
// NOW:      racy: done
// NOW:      pcmap: data races: {{[0-9]+}} found ({{[0-9]+}} detections, 0 dropped) in {{[0-9]+}} checks of plain accesses, 100 us each
// NOW-NEXT: pcmap:   {{[0-9]+}} time{{s?}}: data race {{.*}}racy.c:[[#]]:[[#]] in bump_{{global|heap}}
// NOW:      exit status: 0
// ONCE: warnings before racy: done: yes
// ONCE: warnings match the races found

// A race in an inlined helper: the stack and the summary name the helper
// and its line, as ThreadSanitizer's do (regression test: the summary named
// the helper's line but the function it was inlined into).
// RUN: env PCMAP_OPTIONS=%{opts} %{until} WARNING %run %t/racy 3 inlined | FileCheck %s --check-prefix=INLINED
// INLINED:      WARNING: pcmap: data race
// INLINED:        #0 add_one {{.*}}racy.c:[[#]]:[[#]] (racy+0x{{[0-9a-f]+}})
// INLINED-NEXT:   #1 bump_inlined {{.*}}racy.c:[[#]]:[[#]] (racy+0x{{[0-9a-f]+}})
// INLINED:      SUMMARY: pcmap: data race {{.*}}racy.c:[[#]]:[[#]] in add_one

// exitcode: 66 by default, whatever main returned (3 here), as TSan's;
// another value; no race, the program's own status.
// RUN: env PCMAP_OPTIONS=%{opts} %{until} WARNING %run %t/racy 5 global 3 | FileCheck %s --check-prefix=STATUS66
// STATUS66: racy: done
// STATUS66: exit status: 66
// RUN: env PCMAP_OPTIONS=%{opts}:exitcode=7 %{until} WARNING %run %t/racy 5 global | FileCheck %s --check-prefix=STATUS7
// STATUS7: exit status: 7
// RUN: env PCMAP_OPTIONS=%{opts} %{until} . %run %t/racy 0.5 locked 3 | FileCheck %s --check-prefix=NORACE
// NORACE-NOT: WARNING
// NORACE:     pcmap: data races: 0 found
// NORACE:     exit status: 3

// halt_on_error: the first report ends the process with exitcode, before
// the phases end (the first the reporter writes: the heap counter's when
// the global counter's race was missed, or found late).
// RUN: env PCMAP_OPTIONS=%{opts}:halt_on_error=1 %{until} WARNING %run %t/racy 5 | FileCheck %s --check-prefix=HALT
// HALT:     WARNING: pcmap: data race
// HALT:     SUMMARY: pcmap: data race {{.*}}racy.c:[[#]]:[[#]] in bump_{{global|heap}}
// HALT:     pcmap: data races: {{[1-9][0-9]*}} found
// HALT-NOT: racy: done
// HALT:     exit status: 66

// Suppressions: by function, by source file, by the location's name; TSan's
// other types and comments are read and ignored; '^' and '$' anchor.
// RUN: printf '# pcmap and TSan\nthread:worker\nrace:bump_global\n' > %t/by-function
// RUN: printf 'race:*/racy.c\n' > %t/by-file
// RUN: printf 'race:^global_counter$\n' > %t/by-location
// RUN: env PCMAP_OPTIONS=%{opts}:suppressions=%t/by-function %{until} suppressed %run %t/racy 5 global | FileCheck %s --check-prefix=SUPP
// RUN: env PCMAP_OPTIONS=%{opts}:suppressions=%t/by-file %{until} suppressed %run %t/racy 5 global | FileCheck %s --check-prefix=SUPP
// RUN: env PCMAP_OPTIONS=%{opts}:suppressions=%t/by-location %{until} suppressed %run %t/racy 5 global | FileCheck %s --check-prefix=SUPP
// SUPP-NOT: WARNING
// SUPP:     pcmap: data races: 0 found, {{[1-9][0-9]*}} suppressed
// SUPP:     exit status: 0
// RUN: printf 'race:^bump_glob$\n' > %t/anchored
// RUN: env PCMAP_OPTIONS=%{opts}:suppressions=%t/anchored %{until} WARNING %run %t/racy 5 global | FileCheck %s --check-prefix=NOTSUPP
// NOTSUPP: SUMMARY: pcmap: data race {{.*}} in bump_global
// NOTSUPP: exit status: 66

// A file that cannot be read, or a line that is not TYPE:PATTERN, stops
// the process at start-up with exitcode.
// RUN: env PCMAP_OPTIONS=%{opts}:suppressions=%t/missing %python %S/../Inputs/run_until.py 1 . %run %t/racy 5 global | FileCheck %s --check-prefix=MISSING
// MISSING:     pcmap: error: cannot read the suppressions file '{{.*}}missing'
// MISSING-NOT: racy: done
// MISSING:     exit status: 66
// RUN: printf 'race:ok\nbump_global\n' > %t/malformed
// RUN: env PCMAP_OPTIONS=%{opts}:suppressions=%t/malformed %python %S/../Inputs/run_until.py 1 . %run %t/racy 5 global | FileCheck %s --check-prefix=MALFORMED
// MALFORMED: pcmap: error: suppressions file '{{.*}}malformed', line 2: not TYPE:PATTERN
// MALFORMED: exit status: 66
