; The medium and large code models store pointer-sized relative PCs: the
; section version carries 1<<16 and the zero word is 8 bytes.
; RUN: sed -e 's/CM/1/' %s | %opt-pcmap -passes=pcmap -S | FileCheck %s --check-prefix=SMALL
; RUN: sed -e 's/CM/3/' %s | %opt-pcmap -passes=pcmap -S | FileCheck %s --check-prefix=PTR
; RUN: sed -e 's/CM/4/' %s | %opt-pcmap -passes=pcmap -S | FileCheck %s --check-prefix=PTR

target triple = "x86_64-unknown-linux-gnu"

define void @f(ptr %p) {
  %v = load atomic i32, ptr %p acquire, align 4
  ret void
}

!llvm.module.flags = !{!0}
!0 = !{i32 1, !"Code Model", i32 CM}

; SMALL: call void @__pcmap_sections_add(i32 1, ptr @__start_pcmap_atomics1, ptr @__stop_pcmap_atomics1, ptr @__start_pcmap_functions1, ptr @__stop_pcmap_functions1)
; SMALL-DAG: !{!"pcmap_atomics1!C", ![[D:[0-9]+]]}
; SMALL-DAG: ![[D]] = !{[4 x i8] zeroinitializer, i64 272}
; SMALL-DAG: !{!"pcmap_functions1!C", !{{[0-9]+}}}

; PTR: call void @__pcmap_sections_add(i32 65537, ptr @__start_pcmap_atomics65537, ptr @__stop_pcmap_atomics65537, ptr @__start_pcmap_functions65537, ptr @__stop_pcmap_functions65537)
; PTR-DAG: !{!"pcmap_atomics65537!C", ![[D:[0-9]+]]}
; PTR-DAG: ![[D]] = !{[8 x i8] zeroinitializer, i64 272}
; PTR-DAG: !{!"pcmap_functions65537!C", !{{[0-9]+}}}
