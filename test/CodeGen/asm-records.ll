; What llc makes of the asm records, per target and code model: the label at
; the lock prefix, the record in a section of the backend's name and flags
; ("awo", linked to the label), 4- or 8-byte relative PCs, and the same
; instruction bytes as the asm without pcmap.
; RUN: sed -e 's/CM/1/' %s | %opt-pcmap -passes=pcmap | llc -O2 -code-model=small -o - | FileCheck %s --check-prefixes=CHECK,SMALL
; RUN: sed -e 's/CM/4/' %s | %opt-pcmap -passes=pcmap | llc -O2 -code-model=large -o - | FileCheck %s --check-prefixes=CHECK,LARGE
; RUN: sed -e 's/CM/1/' %s | %opt-pcmap -passes=pcmap | llc -O2 -filetype=obj -o %t.small.o
; RUN: sed -e 's/CM/4/' %s | %opt-pcmap -passes=pcmap | llc -O2 -code-model=large -filetype=obj -o %t.large.o
; RUN: sed -e 's/CM/1/' %s | llc -O2 -filetype=obj -o %t.plain.o
; RUN: llvm-objdump -d --no-show-raw-insn %t.small.o | FileCheck %s --check-prefix=CODE
; RUN: llvm-objcopy --dump-section=.text=%t.small.text %t.small.o %t.ignored.o
; RUN: llvm-objcopy --dump-section=.text=%t.plain.text %t.plain.o %t.ignored.o
; RUN: cmp %t.small.text %t.plain.text
; RUN: llvm-readobj -r %t.small.o | FileCheck %s --check-prefix=RELOCS
; RUN: llvm-readobj -r %t.large.o | FileCheck %s --check-prefix=RELOCS64
; RUN: %pcmap-report atomics %t.small.o | FileCheck %s --check-prefix=REPORT

target triple = "x86_64-unknown-linux-gnu"

define void @lock_xadd(ptr %p, i32 %v) {
  store volatile i32 0, ptr %p
  %r = call i32 asm sideeffect "lock; xaddl $0, $1", "=r,=*m,0,~{memory}"(ptr elementtype(i32) %p, i32 %v)
  store volatile i32 1, ptr %p
  ret void
}

!llvm.module.flags = !{!0}
!0 = !{i32 1, !"Code Model", i32 CM}

; CHECK-LABEL: lock_xadd:
; CHECK: movl $0, (%rdi)
; CHECK-NEXT: #APP
; CHECK-NEXT: .Lpcmap_asm[[U:[0-9]+]]_0:
; CHECK-NEXT: lock
; CHECK-NEXT: xaddl %esi, (%rdi)
; SMALL-NEXT: .section pcmap_atomics1,"awo",@progbits,.Lpcmap_asm[[U]]_0
; LARGE-NEXT: .section pcmap_atomics65537,"awo",@progbits,.Lpcmap_asm[[U]]_0
; CHECK-NEXT: .Ltmp[[T:[0-9]+]]:
; SMALL-NEXT: .long .Lpcmap_asm[[U]]_0-.Ltmp[[T]]
; SMALL-NEXT: .long 0
; LARGE-NEXT: .quad .Lpcmap_asm[[U]]_0-.Ltmp[[T]]
; LARGE-NEXT: .quad 0
; rmw add, 4 bytes, seq_cst, from asm: 3538 = ULEB128 d2 1b
; CHECK-NEXT: .ascii "\322\033"
; SMALL-NEXT: .text
; LARGE-NEXT: .section .ltext,"axl",@progbits
; CHECK: #NO_APP
; CHECK-NEXT: movl $1, (%rdi)

; CODE: movl $0x0, (%rdi)
; CODE-NEXT: lock
; CODE-NEXT: xaddl %esi, (%rdi)
; CODE-NEXT: movl $0x1, (%rdi)

; RELOCS: Section ({{[0-9]+}}) .relapcmap_atomics1 {
; RELOCS-NEXT: 0x0 R_X86_64_PC32 .text 0x6
; RELOCS64: Section ({{[0-9]+}}) .relapcmap_atomics65537 {
; RELOCS64-NEXT: 0x0 R_X86_64_PC64 .ltext 0x6

; REPORT: 0x6 .text rmw 4 seq_cst - add asm lock_xadd+0x6
