; Inline asm atomics, x86-64: the pass puts a label before each atomic (at
; its first prefix) and appends, from the same asm, one record per
; descriptor to the atomics section, linked to the label's section and in
; the function's COMDAT group. Plain accesses around the asm stay plain, and
; the function keeps claiming complete atomics (features 3).
; RUN: sed -e 's/CM/1/' %s | %opt-pcmap -passes=pcmap -S | FileCheck %s --check-prefixes=CHECK,SMALL
; RUN: sed -e 's/CM/3/' %s | %opt-pcmap -passes=pcmap -S | FileCheck %s --check-prefixes=CHECK,PTR
; The pass is idempotent: a second run rewrites the original asm again.
; RUN: sed -e 's/CM/1/' %s | %opt-pcmap -passes=pcmap,pcmap -S | FileCheck %s --check-prefixes=CHECK,SMALL
; Functions only: the asm is left alone.
; RUN: sed -e 's/CM/1/' %s | %opt-pcmap -passes='pcmap<functions>' -S | FileCheck %s --check-prefix=NOATOMICS

target triple = "x86_64-unknown-linux-gnu"

$"inline$fn" = comdat any

define void @two(ptr %p) {
  store volatile i32 0, ptr %p
  call void asm sideeffect "1: lock; xchgb %al, $0\0A\09jne 1b\0A\09xchgl %eax, %eax # not atomic: registers\0A\09lock incl $0", "=*m,~{memory}"(ptr elementtype(i32) %p)
  store volatile i32 1, ptr %p
  ret void
}

; Two atomics with the same descriptor share one record.
define void @same(ptr %p) {
  store volatile i32 0, ptr %p
  call void asm sideeffect "lock; incl $0; lock; addl $$1, $0", "=*m,~{memory}"(ptr elementtype(i32) %p)
  store volatile i32 1, ptr %p
  ret void
}

define linkonce_odr void @"inline$fn"(ptr %p) comdat {
  call void asm sideeffect "mfence", "~{memory}"()
  ret void
}

; An asm without atomics is left alone.
define void @plain(ptr %p) {
  call void asm sideeffect "pause; movl $$1, $0; rep; nop", "=*m"(ptr elementtype(i32) %p)
  call void asm sideeffect "", "~{memory}"()
  ret void
}

!llvm.module.flags = !{!0}
!0 = !{i32 1, !"Code Model", i32 CM}

; CHECK-LABEL: define void @two(
; CHECK-NEXT: store volatile i32 0, ptr %p, align 4{{$}}
; SMALL-NEXT: call void asm sideeffect "1: .Lpcmap_asm${:uid}_0: lock; xchgb %al, $0\0A\09jne 1b\0A\09xchgl %eax, %eax # not atomic: registers\0A\09.Lpcmap_asm${:uid}_1: lock incl $0\0A\09.pushsection pcmap_atomics1,\22awo\22,@progbits,.Lpcmap_asm${:uid}_0\0A\09.long .Lpcmap_asm${:uid}_0 - .\0A\09.long 0\0A\09.uleb128 1474\0A\09.long .Lpcmap_asm${:uid}_1 - .\0A\09.long 0\0A\09.uleb128 3538\0A\09.popsection", "=*m,~{memory}"(ptr elementtype(i32) %p)
; PTR-NEXT: call void asm sideeffect "1: .Lpcmap_asm${:uid}_0: lock; xchgb %al, $0\0A\09jne 1b\0A\09xchgl %eax, %eax # not atomic: registers\0A\09.Lpcmap_asm${:uid}_1: lock incl $0\0A\09.pushsection pcmap_atomics65537,\22awo\22,@progbits,.Lpcmap_asm${:uid}_0\0A\09.quad .Lpcmap_asm${:uid}_0 - .\0A\09.quad 0\0A\09.uleb128 1474\0A\09.quad .Lpcmap_asm${:uid}_1 - .\0A\09.quad 0\0A\09.uleb128 3538\0A\09.popsection", "=*m,~{memory}"(ptr elementtype(i32) %p)
; CHECK-NEXT: store volatile i32 1, ptr %p, align 4{{$}}

; CHECK-LABEL: define void @same(
; SMALL: call void asm sideeffect ".Lpcmap_asm${:uid}_0: lock; incl $0; .Lpcmap_asm${:uid}_1: lock; addl $$1, $0\0A\09.pushsection pcmap_atomics1,\22awo\22,@progbits,.Lpcmap_asm${:uid}_0\0A\09.long .Lpcmap_asm${:uid}_0 - .\0A\09.long .Lpcmap_asm${:uid}_1 - .\0A\09.long 0\0A\09.uleb128 3538\0A\09.popsection"

; A COMDAT function's record is in its group; names are quoted and `$`
; escaped as the template syntax needs.
; CHECK-LABEL: define linkonce_odr void @"inline$fn"(
; SMALL-NEXT: call void asm sideeffect ".Lpcmap_asm${:uid}_0: mfence\0A\09.pushsection pcmap_atomics1,\22awoG\22,@progbits,.Lpcmap_asm${:uid}_0,inline$$fn,comdat\0A\09.long .Lpcmap_asm${:uid}_0 - .\0A\09.long 0\0A\09.uleb128 1476\0A\09.popsection", "~{memory}"()

; CHECK-LABEL: define void @plain(
; CHECK-NEXT: call void asm sideeffect "pause; movl $$1, $0; rep; nop", "=*m"(ptr elementtype(i32) %p)
; CHECK-NEXT: call void asm sideeffect "", "~{memory}"()

; Descriptors: 1474 = rmw xchg, 1 byte, seq_cst, from asm; 3538 = rmw add,
; 4 bytes, seq_cst, from asm; 1476 = fence seq_cst, from asm.
; Features 3 (complete, has atomics) for all but @plain (1: complete).
; CHECK-DAG: ![[F3:[0-9]+]] = !{i64 3}
; CHECK-DAG: ![[F1:[0-9]+]] = !{i64 1}

; NOATOMICS-NOT: pcmap_asm
; NOATOMICS-NOT: .pushsection
