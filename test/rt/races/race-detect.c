// The race detector (detect_races=1): two threads increment a plain global
// counter, then a plain member of a heap object, without a lock; each race
// is reported in the sanitizers' form at its source line, with the
// location named. An atomic counter, a relaxed atomic flag and a counter
// under a mutex are never reported.
// Not under the sanitizers (TSan delivers the sampling signal only when a
// thread enters its runtime; ASan's globals, padded with redzones, are
// named by module and offset, as in the data tests) or qemu-user (its
// signals come between translated blocks, never at the access).
// UNSUPPORTED: sanitizer, emulator

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -g -O2 -pthread -fsanitize-metadata=all %S/../Inputs/racy.c -o %t/racy
// RUN: %python %S/../Inputs/check_races.py --run "%run" %t/racy 5 1 | FileCheck %s
// CHECK:      global: reported at racy.c:[[#]]:[[#]] in bump_global, location global_counter
// CHECK-NEXT: heap: reported at racy.c:[[#]]:[[#]] in bump_heap, location heap
// CHECK-NEXT: atomic, flag, locked: no report
// CHECK-NEXT: WARNING: pcmap: data race (pid={{[0-9]+}})
// CHECK-NEXT:   {{(Read|Write|Read and write)}} of size 8 at 0x{{[0-9a-f]+}} by thread {{[0-9]+}}{{( \(the location changed from 0x[0-9a-f]+ to 0x[0-9a-f]+ while the thread waited 30 us to access it\))?}}:
// CHECK-NEXT:     #0 bump_global {{.*}}racy.c:[[#]]:[[#]] (racy+0x{{[0-9a-f]+}})
// CHECK-NEXT:     #1 worker {{.*}}racy.c:[[#]]:[[#]] (racy+0x{{[0-9a-f]+}})
// CHECK:        Location is global_counter
// CHECK-NEXT:   Seen {{[0-9]+}} time
// CHECK-NEXT: SUMMARY: pcmap: data race {{.*}}racy.c:[[#]]:[[#]] in bump_global

// The detector needs no hardware breakpoint: with them opening but never
// firing, as in many virtual machines (Inputs/dead_breakpoints.c,
// preloaded), it finds the same races.
// RUN: %clang -O1 -shared -fPIC %S/../Inputs/dead_breakpoints.c -o %t/dead.so -ldl
// RUN: env LD_PRELOAD=%t/dead.so %python %S/../Inputs/check_races.py --run "%run" %t/racy 5 1 | FileCheck %s --check-prefix=DEAD
// DEAD:      global: reported at racy.c:[[#]]:[[#]] in bump_global, location global_counter
// DEAD-NEXT: heap: reported at racy.c:[[#]]:[[#]] in bump_heap, location heap
// DEAD-NEXT: atomic, flag, locked: no report

// Without races to report, the report says so.
// RUN: env PCMAP_OPTIONS=detect_races=1 %run %t/racy 0.5 locked 2>&1 | FileCheck %s --check-prefix=NONE
// NONE-NOT: WARNING
// NONE:     pcmap: data races: 0 found (0 detections, 0 dropped) in {{[0-9]+}} checks of plain accesses, 30 us each
