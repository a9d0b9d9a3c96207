; Atomics that x86 expands (AtomicExpandPass turns atomicrmw nand and max
; into a compare-exchange loop) keep their metadata on every instruction of
; the loop: all of them, the locked cmpxchg included, are PCs of the atomic's
; record. So is cmpxchg16b with +cx16.
; RUN: %opt-pcmap -passes=pcmap %s | llc -O2 -o - | FileCheck %s
; RUN: %opt-pcmap -passes=pcmap %s | llc -O0 -o - | FileCheck %s --check-prefix=O0

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define i32 @nand(ptr %p, i32 %v) {
  %old = atomicrmw nand ptr %p, i32 %v seq_cst
  ret i32 %old
}

define i64 @max_used_later(ptr %p, i64 %v) {
  %old = atomicrmw max ptr %p, i64 %v acq_rel
  %r = add i64 %old, %v
  ret i64 %r
}

define i1 @cas16(ptr %p, i128 %e, i128 %n) #0 {
  %r = cmpxchg ptr %p, i128 %e, i128 %n seq_cst acquire
  %ok = extractvalue { i128, i1 } %r, 1
  ret i1 %ok
}

attributes #0 = { "target-features"="+cx16" }

; CHECK-LABEL: nand:
; CHECK: .Lpcsection[[N0:[0-9]+]]:
; CHECK-NEXT: movl (%rdi), %eax
; CHECK: .Lpcsection{{[0-9]+}}:{{[[:space:]]+}}lock cmpxchgl %ecx, (%rdi)
; CHECK: .section pcmap_atomics1
; CHECK-NEXT: .Lpcsection_base[[B0:[0-9]+]]:
; CHECK-NEXT: .long .Lpcsection[[N0]]-.Lpcsection_base[[B0]]
; CHECK-COUNT-4: .long .Lpcsection{{[0-9]+}}-.Lpcsection_base
; CHECK-NEXT: .zero 4
; rmw nand (4), 4 bytes, seq_cst = 8658 = ULEB128 d2 43
; CHECK-NEXT: .ascii "\322C"

; CHECK-LABEL: max_used_later:
; CHECK: .Lpcsection{{[0-9]+}}:{{[[:space:]]+}}lock cmpxchgq %rcx, (%rdi)
; CHECK: .section pcmap_atomics1
; CHECK-COUNT-5: .long .Lpcsection{{[0-9]+}}-.Lpcsection_base
; CHECK-NEXT: .zero 4
; rmw max (7), 8 bytes, acq_rel = 14746 = ULEB128 9a 73
; CHECK-NEXT: .ascii "\232s"

; CHECK-LABEL: cas16:
; CHECK: .Lpcsection{{[0-9]+}}:{{[[:space:]]+}}lock cmpxchg16b (%rdi)
; CHECK: .section pcmap_atomics1
; CHECK: .zero 4
; cmpxchg, 16 bytes, seq_cst, failure acquire = 8675 = ULEB128 e3 43
; CHECK-NEXT: .ascii "\343C"

; At -O0 the loops are the same shape; the locked instructions are labelled.
; O0-LABEL: nand:
; O0: .Lpcsection{{[0-9]+}}:{{[[:space:]]+}}lock cmpxchgl
; O0-LABEL: max_used_later:
; O0: .Lpcsection{{[0-9]+}}:{{[[:space:]]+}}lock cmpxchgq
; O0-LABEL: cas16:
; O0: .Lpcsection{{[0-9]+}}:{{[[:space:]]+}}lock cmpxchg16b
