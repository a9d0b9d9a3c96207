// The text report's callers are a short tree: each direct caller once,
// with its share and the frames all its stacks share, then the two
// heaviest ways on where they part (writer's two calls of middle(), which
// calls helper()). Regression test: each caller stack took a line of its
// own, the shared frames repeated, and a caller reached two ways showed
// as two unrelated stacks. (A sanitizer's thread start, asan_thread_start,
// may come before start_thread.)
// UNSUPPORTED: sanitize-thread, emulator

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -g -O2 -pthread -fsanitize-metadata=all %S/Inputs/caller_tree.c -o %t/prog
// RUN: env PCMAP_OPTIONS=trace_atomics=1:report_path=stdout:report_width=0 %t/prog | FileCheck %s
// CHECK:      pcmap: top 1 of {{[0-9]+}} atomic sites by samples:
// CHECK:      take+{{[0-9]+}}
// CHECK-NEXT: from {{ *[0-9]+}} ({{[0-9.]+}}%): reader caller_tree.c:{{[0-9:]+}} < {{.*}}start_thread
// CHECK-NEXT: from {{ *[0-9]+}} ({{[0-9.]+}}%): helper caller_tree.c:{{[0-9:]+}} < middle caller_tree.c:{{[0-9:]+}}{{$}}
// CHECK-NEXT:    < {{ *[0-9]+}} ({{[0-9.]+}}%): writer caller_tree.c:{{[0-9:]+}} < {{.*}}start_thread
// CHECK-NEXT:    < {{ *[0-9]+}} ({{[0-9.]+}}%): writer caller_tree.c:{{[0-9:]+}} < {{.*}}start_thread
// CHECK-NEXT: from {{ *[0-9]+}} ({{[0-9.]+}}%): other caller_tree.c:{{[0-9:]+}} < middle caller_tree.c:{{[0-9:]+}} < writer caller_tree.c:{{[0-9:]+}} < {{.*}}start_thread

// trace_sort=cumulative ranks the covered functions by the samples of the
// stacks they are in (the reader, the writer, middle under the writer),
// their callers from every such stack; trace_sort=self by their own.
// RUN: env PCMAP_OPTIONS=trace_atomics=1:report_path=stdout:report_width=0:trace_sort=cumulative:trace_callers=1 %t/prog | FileCheck %s --check-prefix=CUM
// CUM:      covered functions by cumulative samples (the stacks they are in), and the share spent on atomics:
// CUM-NEXT: cumulative   share   samples   on atomics  in uncovered callees  function
// CUM-NEXT: {{ *[0-9]+}} {{ *[0-9.]+}}% {{.*}} take (prog)
// CUM:      {{(reader|writer) \(prog\)}}
// CUM-NEXT: from {{ *[0-9]+}} (100.0%): {{.*}}start_thread
// CUM:      {{(reader|writer) \(prog\)}}
// CUM-NEXT: from {{ *[0-9]+}} (100.0%): {{.*}}start_thread
// CUM:      middle (prog)
// RUN: env PCMAP_OPTIONS=trace_atomics=1:report_path=stdout:trace_sort=self %t/prog | FileCheck %s --check-prefix=SELF
// SELF: covered functions by samples, and the share spent on atomics:
