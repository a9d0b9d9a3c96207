; LTO bitcode (clang's "EnableSplitLTOUnit" / "ThinLTO" module flags) without
; functions marked by a pcmap pre-link step comes from a translation unit
; built without pcmap, e.g. in a ThinLTO back end: it is left alone, with no
; metadata and no constructors (regression test: ThinLTO back ends used to
; instrument such modules).
; RUN: %opt-pcmap -passes=pcmap -S %s | FileCheck %s
; RUN: sed -e 's/"EnableSplitLTOUnit", i32 0/"ThinLTO", i32 0/' %s | %opt-pcmap -passes=pcmap -S | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

define void @f(ptr %p) {
  store atomic i32 1, ptr %p release, align 4
  ret void
}

!llvm.module.flags = !{!0}
!0 = !{i32 1, !"EnableSplitLTOUnit", i32 0}

; CHECK-NOT: !pcsections
; CHECK-NOT: module_ctor
; CHECK-NOT: pcmap-features
