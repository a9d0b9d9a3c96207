; No atomics: no atomics metadata, and a constructor that refers to the
; atomics section only weakly (the module may have none); no function
; definitions at all: nothing.
; RUN: %opt-pcmap -passes=pcmap -S %s | FileCheck %s
; RUN: sed -e 's/^define.*//' -e 's/^  ret void//' -e 's/^}//' %s | %opt-pcmap -passes=pcmap -S | FileCheck %s --check-prefix=EMPTY

target triple = "x86_64-unknown-linux-gnu"

define void @f() {
  ret void
}

; CHECK-NOT: pcmap_atomics1!C
; CHECK: @__start_pcmap_atomics1 = extern_weak hidden global i8
; CHECK: @llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 2, ptr @__pcmap_sections1.module_ctor, ptr @__pcmap_sections1.module_ctor }]
; CHECK-NOT: pcmap_atomics1!C

; EMPTY-NOT: pcmap
; EMPTY-NOT: global_ctors
