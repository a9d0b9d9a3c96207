// The text report at exit is read at a terminal: its lines are cut at
// report_width columns (160 where the report does not go to a terminal),
// "..." marking the cut, and source paths have no "dir/.." in them.
// Regression test: the demo's report had lines of 500 characters and paths
// such as /usr/lib/gcc/x86_64-linux-gnu/12/../../../../include/c++/...
// Not under the sanitizers, whose thread starts make the demo's stacks
// shorter than the width (nothing to cut), nor qemu-user.
// UNSUPPORTED: sanitizer, emulator

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang++ -O2 -g -pthread -fsanitize-metadata=all %S/../../examples/refcache.cpp -o %t/refcache
// RUN: env PCMAP_OPTIONS=trace_atomics=1 %run %t/refcache --lookups 1000000 2>&1 >/dev/null | %python %S/Inputs/line_widths.py | FileCheck %s --check-prefix=DEFAULT
// DEFAULT:      lines: some
// DEFAULT-NEXT: longest: {{(1[0-5][0-9]|160)$}}
// DEFAULT-NEXT: cut: some
// DEFAULT-NEXT: paths with /../: 0
// RUN: env PCMAP_OPTIONS=trace_atomics=1:report_width=100 %run %t/refcache --lookups 1000000 2>&1 >/dev/null | %python %S/Inputs/line_widths.py | FileCheck %s --check-prefix=NARROW
// NARROW: longest: {{([0-9][0-9]|100)$}}
// RUN: env PCMAP_OPTIONS=trace_atomics=1:report_width=0 %run %t/refcache --lookups 1000000 2>&1 >/dev/null | %python %S/Inputs/line_widths.py | FileCheck %s --check-prefix=WHOLE
// WHOLE:      longest: {{[2-9][0-9][0-9]$}}
// WHOLE-NEXT: cut: none
// WHOLE-NEXT: paths with /../: 0
