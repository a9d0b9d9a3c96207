; Running the pass again (as an LTO link does after its optimisations)
; changes nothing, and !pcsections of other producers (upstream sanmd) are
; kept next to pcmap's.
; RUN: %opt-pcmap -passes=pcmap -S < %s -o %t.once.ll
; RUN: %opt-pcmap -passes=pcmap -S < %t.once.ll -o %t.twice.ll
; RUN: diff %t.once.ll %t.twice.ll
; RUN: FileCheck %s < %t.twice.ll

target triple = "x86_64-unknown-linux-gnu"

define void @f(ptr %p) !pcsections !0 {
  %v = load atomic i32, ptr %p acquire, align 4, !pcsections !2
  ret void
}

!0 = !{!"sanmd_covered2!C", !1}
!1 = !{i64 1}
!2 = !{!"sanmd_atomics2!C"}

; CHECK: define void @f(ptr %p) !pcsections ![[FN:[0-9]+]] {
; CHECK: load atomic i32, ptr %p acquire, align 4, !pcsections ![[AT:[0-9]+]]
; CHECK: @__pcmap_sections1.module_ctor()
; CHECK-NOT: @__pcmap_sections1.module_ctor.{{[0-9]+}}()
; CHECK-DAG: ![[FN]] = !{!"sanmd_covered2!C", ![[ONE:[0-9]+]], !"pcmap_functions1!C", ![[THREE:[0-9]+]]}
; CHECK-DAG: ![[ONE]] = !{i64 1}
; CHECK-DAG: ![[THREE]] = !{i64 3}
; CHECK-DAG: ![[AT]] = !{!"sanmd_atomics2!C", !"pcmap_atomics1!C", ![[D:[0-9]+]]}
; CHECK-DAG: ![[D]] = !{[4 x i8] zeroinitializer, i64 272}
