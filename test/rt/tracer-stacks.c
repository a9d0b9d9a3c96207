// Every sample records its call stack: the report shows, under each hot
// site and function, its heaviest caller stacks down to the thread's entry,
// and charges time in code without tables (the C library's mutex code) to
// its nearest covered caller; the JSON dump (version 3) carries the stacks
// as module + offset frames, with the modules' build IDs.
// Not under TSan (it delivers signals only when a thread enters its
// runtime) or qemu-user (whose CPU clocks include the emulator's work).
// UNSUPPORTED: sanitize-thread, emulator

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -g -O2 -fno-omit-frame-pointer -pthread -fsanitize-metadata=all %S/Inputs/callers.c -o %t/prog
// RUN: env PCMAP_OPTIONS=trace_atomics=1 %run %t/prog 2>&1 | FileCheck %s --check-prefix=TEXT
// TEXT:      pcmap: top [[#]] of [[#]] atomic sites by samples:
// TEXT:      cmpxchg, 8 bytes, seq_cst (failure seq_cst), weak {{.*}} ref_get+{{.*}}callers.c:[[#]]:[[#]] (prog+0x{{[0-9a-f]+}})
// TEXT-NEXT: from [[#]] ({{[0-9.]+}}%): reader {{.*}}callers.c:30:{{[0-9]+}} < run_reader {{.*}}callers.c:[[#]]:[[#]] < {{start_thread|asan_thread_start}}
// TEXT:      samples share on atomics in uncovered callees function
// TEXT:      [[#]] {{[0-9.]+}}% {{[0-9.]+}}% [[#]] 0x{{[0-9a-f]+}} writer (prog)
// TEXT-NEXT: from [[#]] ({{[0-9.]+}}%): run_writer {{.*}}callers.c:[[#]]:[[#]] < {{start_thread|asan_thread_start}}

// RUN: env PCMAP_OPTIONS=trace_atomics=1:report_format=json:trace_symbolize_json=1:report_path=%t/trace %run %t/prog
// RUN: %python %S/Inputs/check_stacks.py %t/trace.* %t/prog llvm-nm ref_get reader writer | FileCheck %s --check-prefix=JSON
// JSON:      version: 6 depth: 32
// JSON-NEXT: program listed with a build ID: True
// JSON-NEXT: stacks hold every sample: True ([[#]] in stacks, [[#]] dropped, [[#]] samples)
// JSON-NEXT: hot site's samples in stacks: True
// JSON-NEXT: hot site's stacks through reader: True
// JSON-NEXT: writer charged with time in uncovered callees: True

// No stacks: no callers, an empty list.
// RUN: env PCMAP_OPTIONS=trace_atomics=1:trace_stack_depth=0 %run %t/prog 2>&1 | FileCheck %s --check-prefix=NONE
// NONE:     pcmap: atomic tracer:
// NONE-NOT: from
// RUN: env PCMAP_OPTIONS=trace_atomics=1:trace_stack_depth=0:report_format=json %run %t/prog 2>&1 | FileCheck %s --check-prefix=NONE-JSON
// NONE-JSON: "stack_depth": 0, "stack_samples_dropped": 0,
// NONE-JSON-SAME: "stacks": [], "line_size": 64,

// RUN: env PCMAP_OPTIONS=trace_atomics=1:trace_stack_depth=65 %run %t/prog 2>&1 | FileCheck %s --check-prefix=DEPTH
// DEPTH: pcmap: warning: trace_stack_depth must be 0 to 64; using 32
