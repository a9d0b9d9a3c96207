; -pcmap-fragmented (what pcmap-clang passes with -fbasic-block-sections=all
; or =list=, and -fsplit-machine-functions) adds kFeatureFragmented (8) to
; every function entry: 9 for a function without atomics (1 complete), 11
; with atomics (2 has atomics), 8 with functions only. Before an LTO link it
; is kept in the request attribute (4), and the link adds the feature.
; RUN: %opt-pcmap -passes=pcmap -pcmap-fragmented -S %s | FileCheck %s --check-prefix=ALL
; RUN: %opt-pcmap -passes=pcmap -pcmap-fragmented -pcmap-atomics=0 -S %s | FileCheck %s --check-prefix=FUNCS
; RUN: %opt-pcmap -passes=pcmap -S %s | FileCheck %s --check-prefix=PLAIN
; RUN: %opt-pcmap -passes=pcmap -pcmap-fragmented -pcmap-lto-prelink -S %s -o %t.pre.ll
; RUN: FileCheck %s --check-prefix=PRE < %t.pre.ll
; RUN: %opt-pcmap -passes=pcmap -S %t.pre.ll | FileCheck %s --check-prefix=ALL

target triple = "x86_64-unknown-linux-gnu"

; ALL: define i32 @no_atomics(i32 %x) {{.*}}!pcsections ![[NA:[0-9]+]] {
; FUNCS: define i32 @no_atomics(i32 %x) {{.*}}!pcsections ![[F:[0-9]+]] {
; PLAIN: define i32 @no_atomics(i32 %x) {{.*}}!pcsections ![[P:[0-9]+]] {
define i32 @no_atomics(i32 %x) {
  %y = mul i32 %x, 2
  ret i32 %y
}

; ALL: define void @with_atomic(ptr %p) {{.*}}!pcsections ![[WA:[0-9]+]] {
; FUNCS: define void @with_atomic(ptr %p) {{.*}}!pcsections ![[F]] {
; PLAIN: define void @with_atomic(ptr %p) {{.*}}!pcsections ![[PA:[0-9]+]] {
define void @with_atomic(ptr %p) {
  store atomic i32 1, ptr %p release, align 4
  ret void
}

; ALL-DAG: ![[NA]] = !{!"pcmap_functions1!C", ![[NAF:[0-9]+]]}
; ALL-DAG: ![[NAF]] = !{i64 9}
; ALL-DAG: ![[WA]] = !{!"pcmap_functions1!C", ![[WAF:[0-9]+]]}
; ALL-DAG: ![[WAF]] = !{i64 11}
; FUNCS-DAG: ![[F]] = !{!"pcmap_functions1!C", ![[FF:[0-9]+]]}
; FUNCS-DAG: ![[FF]] = !{i64 8}
; PLAIN-DAG: ![[P]] = !{!"pcmap_functions1!C", ![[PF:[0-9]+]]}
; PLAIN-DAG: ![[PF]] = !{i64 1}
; PLAIN-DAG: ![[PA]] = !{!"pcmap_functions1!C", ![[PAF:[0-9]+]]}
; PLAIN-DAG: ![[PAF]] = !{i64 3}
; PRE: attributes #{{[0-9]+}} = { "pcmap-features"="7" }
