; What the backend emits for pcmap metadata, per code model: section names,
; 4- or 8-byte relative PCs, the zero word, the exact ULEB128 bytes of
; descriptors and function entries.
; RUN: sed -e 's/CM/1/' %s | %opt-pcmap -passes=pcmap | llc -O2 -code-model=small -o - | FileCheck %s --check-prefixes=CHECK,SMALL
; RUN: sed -e 's/CM/3/' %s | %opt-pcmap -passes=pcmap | llc -O2 -code-model=medium -o - | FileCheck %s --check-prefixes=CHECK,PTR
; RUN: sed -e 's/CM/4/' %s | %opt-pcmap -passes=pcmap | llc -O2 -code-model=large -o - | FileCheck %s --check-prefixes=CHECK,PTR
; The object file holds the same bytes; the relative PCs are relocations
; until the link.
; RUN: sed -e 's/CM/1/' %s | %opt-pcmap -passes=pcmap | llc -O2 -filetype=obj -o %t.small.o
; RUN: llvm-objdump -s -j pcmap_atomics1 -j pcmap_functions1 %t.small.o | FileCheck %s --check-prefix=BYTES
; RUN: llvm-readobj -r %t.small.o | FileCheck %s --check-prefix=RELOCS
; RUN: sed -e 's/CM/4/' %s | %opt-pcmap -passes=pcmap | llc -O2 -code-model=large -filetype=obj -o %t.large.o
; RUN: llvm-readobj -r %t.large.o | FileCheck %s --check-prefix=RELOCS64

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define i32 @loads(ptr %p, ptr %q) {
  %a = load atomic i32, ptr %p acquire, align 4
  %b = load atomic i32, ptr %q acquire, align 4
  %s = add i32 %a, %b
  ret i32 %s
}

define void @no_atomics() {
  ret void
}

!llvm.module.flags = !{!0}
!0 = !{i32 1, !"Code Model", i32 CM}

; Both loads share one record: two PCs, one zero word, one descriptor.
; CHECK-LABEL: loads:
; CHECK: .Lpcsection[[L0:[0-9]+]]:
; CHECK-NEXT: movl (%rdi), %ecx
; CHECK-NEXT: .Lpcsection[[L1:[0-9]+]]:
; CHECK-NEXT: movl (%rsi), %eax
; SMALL: .section pcmap_functions1,"awo",@progbits,.text
; PTR: .section pcmap_functions65537,"awo",@progbits,{{\.l?text}}
; CHECK-NEXT: .Lpcsection_base[[F0:[0-9]+]]:
; SMALL-NEXT: .long .Lfunc_begin0-.Lpcsection_base[[F0]]
; PTR-NEXT: .quad .Lfunc_begin0-.Lpcsection_base[[F0]]
; CHECK-NEXT: .uleb128 .Lfunc_end0-.Lfunc_begin0
; features: complete for atomics (1), has atomics (2)
; CHECK-NEXT: .byte 3
; SMALL-NEXT: .section pcmap_atomics1,"awo",@progbits,.text
; PTR-NEXT: .section pcmap_atomics65537,"awo",@progbits,{{\.l?text}}
; CHECK-NEXT: .Lpcsection_base[[B0:[0-9]+]]:
; SMALL-NEXT: .long .Lpcsection[[L0]]-.Lpcsection_base[[B0]]
; PTR-NEXT: .quad .Lpcsection[[L0]]-.Lpcsection_base[[B0]]
; CHECK-NEXT: .Lpcsection_base[[B1:[0-9]+]]:
; SMALL-NEXT: .long .Lpcsection[[L1]]-.Lpcsection_base[[B1]]
; PTR-NEXT: .quad .Lpcsection[[L1]]-.Lpcsection_base[[B1]]
; SMALL-NEXT: .zero 4
; PTR-NEXT: .zero 8
; load, 4 bytes, acquire = 272 = ULEB128 90 02
; CHECK-NEXT: .ascii "\220\002"

; A function without atomics still has an entry.
; CHECK-LABEL: no_atomics:
; CHECK: .Lpcsection_base{{[0-9]+}}:
; SMALL-NEXT: .long .Lfunc_begin1-.Lpcsection_base
; PTR-NEXT: .quad .Lfunc_begin1-.Lpcsection_base
; CHECK-NEXT: .uleb128 .Lfunc_end1-.Lfunc_begin1
; CHECK-NEXT: .byte 1

; Functions section: PC (relocated), size 7 and features 3 (loads), size 1
; and features 1 (no_atomics).
; Atomics section: two PCs, zero word, descriptor 90 02.
; BYTES-LABEL: Contents of section pcmap_functions1:
; BYTES-NEXT: 0000 00000000 07030000 00000101
; BYTES-LABEL: Contents of section pcmap_atomics1:
; BYTES-NEXT: 0000 00000000 00000000 00000000 9002

; RELOCS: Section ({{[0-9]+}}) .relapcmap_functions1 {
; RELOCS-NEXT: 0x0 R_X86_64_PC32 .text 0x0
; RELOCS-NEXT: 0x6 R_X86_64_PC32 .text 0x10
; RELOCS: Section ({{[0-9]+}}) .relapcmap_atomics1 {
; RELOCS-NEXT: 0x0 R_X86_64_PC32 .text 0x0
; RELOCS-NEXT: 0x4 R_X86_64_PC32 .text 0x2
; RELOCS64: Section ({{[0-9]+}}) .relapcmap_functions65537 {
; RELOCS64-NEXT: 0x0 R_X86_64_PC64 .ltext 0x0
; RELOCS64: Section ({{[0-9]+}}) .relapcmap_atomics65537 {
; RELOCS64-NEXT: 0x0 R_X86_64_PC64 .ltext 0x0
; RELOCS64-NEXT: 0x8 R_X86_64_PC64 .ltext 0x2
