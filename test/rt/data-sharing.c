// Contention by data: each phase of Inputs/data_sharing.c alone, and the
// tracer's data table at exit: the hottest lines, their sharing and their
// members, named by their data symbols (members offline: pcmap-report).
// Not under TSan (its signals wait for its runtime: no sample lands on the
// program's accesses), nor under ASan (its symbolizer names no data).
// UNSUPPORTED: sanitizer

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -g -O2 -pthread -fsanitize-metadata=all %S/Inputs/data_sharing.c -o %t/prog
// RUN: env PCMAP_OPTIONS=trace_atomics=1:trace_top=1 %run %t/prog 0 2>&1 | FileCheck %s --check-prefix=STRUCT
// STRUCT:      pcmap: data: [[#]] samples ({{[0-9.]+}}%) at memory accesses, in [[#]] cache lines of 64 bytes; the top 1 by samples:
// STRUCT-NEXT: 0x{{[0-9a-f]+}}  false sharing: [[#]] samples ({{[0-9.]+}}%), 2 threads
// STRUCT-NEXT: + 0  8 bytes  stats: [[#]] samples ({{[0-9.]+}}%), 1 thread, rmw [[#]]; bump {{.*}}data_sharing.c:[[#]]
// STRUCT-NEXT: + 8  8 bytes  stats+8: [[#]] samples ({{[0-9.]+}}%), 1 thread, rmw [[#]]; bump {{.*}}data_sharing.c:[[#]]
// STRUCT-NEXT: pcmap: resolution:

// The two padded counters' lines, each of one thread; other lines may come
// between (under qemu-user on a loaded machine a thread may get as few
// samples as the runtime's own start-up).
// RUN: env PCMAP_OPTIONS=trace_atomics=1:trace_top=4 %run %t/prog 1 2>&1 | FileCheck %s --check-prefix=PADDED
// PADDED:      pcmap: data:
// PADDED:      0x{{[0-9a-f]+}}  no sharing: [[#]] samples ({{[0-9.]+}}%), 1 thread
// PADDED-NEXT: + 0  8 bytes  {{padded|padded\+128}}: [[#]] samples
// PADDED:      0x{{[0-9a-f]+}}  no sharing: [[#]] samples ({{[0-9.]+}}%), 1 thread
// PADDED-NEXT: + 0  8 bytes  {{padded|padded\+128}}: [[#]] samples

// RUN: env PCMAP_OPTIONS=trace_atomics=1:trace_top=1 %run %t/prog 2 2>&1 | FileCheck %s --check-prefix=SHARED
// SHARED:      pcmap: data:
// SHARED-NEXT: 0x{{[0-9a-f]+}}  true sharing: [[#]] samples ({{[0-9.]+}}%), 2 threads
// SHARED-NEXT: + 0  8 bytes  shared_counter: [[#]] samples ({{[0-9.]+}}%), 2 threads, rmw [[#]]; bump
// SHARED-NEXT: pcmap: resolution:

// RUN: env PCMAP_OPTIONS=trace_atomics=1:trace_top=1 %run %t/prog 3 2>&1 | FileCheck %s --check-prefix=HEAP
// HEAP:      pcmap: data:
// HEAP-NEXT: 0x{{[0-9a-f]+}}  false sharing: [[#]] samples ({{[0-9.]+}}%), 2 threads
// HEAP-NEXT: + 0  8 bytes  heap: [[#]] samples ({{[0-9.]+}}%), 1 thread, rmw [[#]]; bump
// HEAP-NEXT: + 8  8 bytes  heap: [[#]] samples ({{[0-9.]+}}%), 1 thread, rmw [[#]]; bump
// HEAP-NEXT: pcmap: data: pcmap-report trace names heap, stack, shared and TLS members by the types the code accesses them as (report_format=json)
// HEAP-NEXT: pcmap: resolution:

// The plain counters' time is at the instruction after their increments
// (a timer's signal comes as the stalled instruction retires): the access
// is the one that ran just before the PC. Under qemu-user, signals come
// only between blocks of translated code: at the loads that start them,
// never at the stores; the store that follows a load to the same location
// in straight-line code makes it a read-modify-write, and the line falsely
// shared (regression test: the line's two members showed only reads, and
// no verdict). The emulation is slow enough that the main thread's read of
// the counts after the join may be sampled too (a third thread).
// RUN: env PCMAP_OPTIONS=trace_atomics=1:trace_top=1 %run %t/prog 4 2>&1 | FileCheck %s --check-prefixes=%if emulator %{PLAIN-EMU%} %else %{PLAIN%}
// PLAIN:      pcmap: data:
// PLAIN-NEXT: 0x{{[0-9a-f]+}}  false sharing: [[#]] samples ({{[0-9.]+}}%), 2 threads
// PLAIN-NEXT: + 0  8 bytes  plain_counts: [[#]] samples ({{[0-9.]+}}%), 1 thread, {{read [0-9]+, write [0-9]+|rmw [0-9]+|write [0-9]+}}; phase_plain
// PLAIN-NEXT: + 8  8 bytes  plain_counts+8: [[#]] samples ({{[0-9.]+}}%), 1 thread, {{read [0-9]+, write [0-9]+|rmw [0-9]+|write [0-9]+}}; phase_plain
// PLAIN-NEXT: pcmap: resolution:
// PLAIN-EMU:      pcmap: data:
// PLAIN-EMU-NEXT: 0x{{[0-9a-f]+}}  false sharing: [[#]] samples ({{[0-9.]+}}%), {{[23]}} threads
// PLAIN-EMU-NEXT: + 0  8 bytes  plain_counts: [[#]] samples ({{[0-9.]+}}%), {{1 thread|2 threads}}, {{.*}}rmw [[#]]{{.*}}; phase_plain
// PLAIN-EMU-NEXT: + 8  8 bytes  plain_counts+8: [[#]] samples ({{[0-9.]+}}%), {{1 thread|2 threads}}, {{.*}}rmw [[#]]{{.*}}; phase_plain

// A page the program unmapped before the report is still heap: the
// tracer's service thread saw it mapped (under qemu-user the service
// thread may not have looked in the run's 0.3 s: then it is said to be
// gone, never anything else).
// RUN: env PCMAP_OPTIONS=trace_atomics=1:trace_top=1 %run %t/prog 5 2>&1 | FileCheck %s --check-prefixes=PAGE,%if emulator %{PAGE-EMU%} %else %{PAGE-NATIVE%}
// PAGE:             pcmap: data:
// PAGE-NEXT:        0x{{[0-9a-f]+}}  false sharing: [[#]] samples ({{[0-9.]+}}%), 2 threads
// PAGE-NATIVE-NEXT: + 0  8 bytes  heap: [[#]] samples ({{[0-9.]+}}%), 1 thread, rmw [[#]]; bump
// PAGE-NATIVE-NEXT: + 8  8 bytes  heap: [[#]] samples ({{[0-9.]+}}%), 1 thread, rmw [[#]]; bump
// PAGE-EMU-NEXT:    + 0  8 bytes  {{heap|memory unmapped by the report}}: [[#]] samples
// PAGE-EMU-NEXT:    + 8  8 bytes  {{heap|memory unmapped by the report}}: [[#]] samples

// trace_data=0: no data table.
// RUN: env PCMAP_OPTIONS=trace_atomics=1:trace_data=0 %run %t/prog 0 2>&1 | FileCheck %s --check-prefix=OFF
// OFF-NOT: pcmap: data:
// OFF:     pcmap: resolution:
