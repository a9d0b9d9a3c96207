// The race detector's races in the tracer's JSON dump (version 6), merged
// by pcmap-report trace over processes: each race's sides, frames in the
// dump's modules, the location's name and count; the report symbolizes the
// frames offline and writes each race in the sanitizers' form, counts
// summed; --suppressions leaves them out as the runtime's option does.
// With report_format=json the warnings go to the log (stderr), and the dump
// stays JSON.
// REQUIRES: pcmap-report
// UNSUPPORTED: sanitizer, emulator

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -g -O2 -pthread -fsanitize-metadata=all %S/../Inputs/racy.c -o %t/racy
// DEFINE: %{opts} = detect_races=1:race_hz=1000:race_delay_us=100:exitcode=0:report_format=json
// Two processes, each until it races; their dumps in two directories.
// RUN: mkdir %t/a %t/b
// RUN: env PCMAP_OPTIONS=%{opts}:report_path=%t/a/dump %python %S/../Inputs/run_until.py 5 WARNING %run %t/racy 5 global > %t/log-a
// RUN: env PCMAP_OPTIONS=%{opts}:report_path=%t/b/dump %python %S/../Inputs/run_until.py 5 WARNING %run %t/racy 5 global > %t/log-b
// RUN: FileCheck %s --check-prefix=LOG < %t/log-a
// LOG:     WARNING: pcmap: data race
// LOG:     pcmap: data races: {{[1-9][0-9]*}} found
// LOG-NOT: {"report"

// RUN: %pcmap-report trace %t/a/dump.* %t/b/dump.* > %t/report
// RUN: FileCheck %s --check-prefix=REPORT < %t/report
// REPORT:      WARNING: pcmap: data race (pid={{[0-9]+}})
// REPORT-NEXT:   {{(Read|Write|Read and write)}} of size 8 at 0x{{[0-9a-f]+}} by thread {{[0-9]+}} (pid {{[0-9]+}})
// REPORT-NEXT:     #0 bump_global {{.*}}racy.c:[[#]]:[[#]] (racy+0x{{[0-9a-f]+}})
// REPORT-NEXT:     #1 worker {{.*}}racy.c:[[#]]:[[#]] (racy+0x{{[0-9a-f]+}})
// REPORT:        Location is global_counter
// REPORT-NEXT:   Seen {{[0-9]+}} time{{s?}} in {{[12]}} process
// REPORT-NEXT: SUMMARY: pcmap: data race {{.*}}racy.c:[[#]]:[[#]] in bump_global
// REPORT:      data races: {{[1-9][0-9]*}} race{{s?}} in 2 processes (0 suppressed; {{[0-9]+}} detections, 0 dropped, in {{[0-9]+}} checks of plain accesses)

// RUN: %pcmap-report trace --format=json %t/a/dump.* %t/b/dump.* -o %t/merged.json
// RUN: %python %S/../Inputs/check_race_dumps.py %t/merged.json %t/a/dump.* %t/b/dump.* | FileCheck %s --check-prefix=DUMPS
// DUMPS: dumps with races: 2; locations: global_counter
// DUMPS: merged: counts add up
// RUN: %python %S/../../report/Inputs/compare.py schema %t/merged.json %S/../../../docs/report-json.schema.json | FileCheck %s --check-prefix=SCHEMA
// SCHEMA: OK: trace document validates

// RUN: printf 'race:bump_global\n' > %t/supp
// RUN: %pcmap-report trace --suppressions=%t/supp %t/a/dump.* %t/b/dump.* | FileCheck %s --check-prefix=SUPP
// SUPP-NOT: WARNING
// SUPP:     data races: 0 races ({{[1-9][0-9]*}} suppressed;
// RUN: %pcmap-report trace --format=html %t/a/dump.* %t/b/dump.* | FileCheck %s --check-prefix=HTML
// HTML: <h2>Data races</h2>
// HTML: <details class="race"><summary>#1 data race {{.*}}racy.c:{{[0-9]+}}:{{[0-9]+}} in bump_global: global_counter;
