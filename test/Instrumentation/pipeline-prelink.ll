; LLVM 22's extension point says when a compilation prepares (Thin)LTO
; bitcode: the pass then only marks the functions.
; REQUIRES: llvm-22
; RUN: %opt-pcmap -passes='thinlto-pre-link<O2>' -S %s | FileCheck %s
; RUN: %opt-pcmap -passes='lto-pre-link<O2>' -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

define i32 @f(ptr %p) {
  %v = load atomic i32, ptr %p acquire, align 4
  ret i32 %v
}

; CHECK-NOT: !pcsections
; CHECK: attributes #{{[0-9]+}} = { {{.*}}"pcmap-features"="3"
