; AArch64: the asm records per code model (R_AARCH64_PREL32 / PREL64), the
; same instruction bytes as without pcmap.
; RUN: sed -e 's/CM/1/' %s | %opt-pcmap -passes=pcmap | llc -O2 -mattr=+lse -o - | FileCheck %s --check-prefixes=CHECK,SMALL
; RUN: sed -e 's/CM/4/' %s | %opt-pcmap -passes=pcmap | llc -O2 -mattr=+lse -code-model=large -o - | FileCheck %s --check-prefixes=CHECK,LARGE
; RUN: sed -e 's/CM/1/' %s | %opt-pcmap -passes=pcmap | llc -O2 -mattr=+lse -filetype=obj -o %t.small.o
; RUN: sed -e 's/CM/4/' %s | %opt-pcmap -passes=pcmap | llc -O2 -mattr=+lse -code-model=large -filetype=obj -o %t.large.o
; RUN: sed -e 's/CM/1/' %s | llc -O2 -mattr=+lse -filetype=obj -o %t.plain.o
; RUN: llvm-objcopy --dump-section=.text=%t.small.text %t.small.o %t.ignored.o
; RUN: llvm-objcopy --dump-section=.text=%t.plain.text %t.plain.o %t.ignored.o
; RUN: cmp %t.small.text %t.plain.text
; RUN: llvm-readobj -r %t.small.o | FileCheck %s --check-prefix=RELOCS
; RUN: llvm-readobj -r %t.large.o | FileCheck %s --check-prefix=RELOCS64

target triple = "aarch64-unknown-linux-gnu"

define i32 @ldaddal(ptr %p, i32 %v) {
  store volatile i32 0, ptr %p
  %r = call i32 asm sideeffect "ldaddal ${1:w}, ${0:w}, [$2]", "=r,r,r,~{memory}"(i32 %v, ptr %p)
  store volatile i32 1, ptr %p
  ret i32 %r
}

!llvm.module.flags = !{!0}
!0 = !{i32 1, !"Code Model", i32 CM}

; CHECK-LABEL: ldaddal:
; CHECK: //APP
; CHECK-NEXT: .Lpcmap_asm[[U:[0-9]+]]_0:
; CHECK-NEXT: ldaddal w1, w{{[0-9]+}}, [x0]
; SMALL-NEXT: .section pcmap_atomics1,"awo",@progbits,.Lpcmap_asm[[U]]_0
; LARGE-NEXT: .section pcmap_atomics65537,"awo",@progbits,.Lpcmap_asm[[U]]_0
; CHECK-NEXT: .Ltmp[[T:[0-9]+]]:
; SMALL-NEXT: .word .Lpcmap_asm[[U]]_0-.Ltmp[[T]]
; SMALL-NEXT: .word 0
; LARGE-NEXT: .xword .Lpcmap_asm[[U]]_0-.Ltmp[[T]]
; LARGE-NEXT: .xword 0
; rmw add, 4 bytes, acq_rel, from asm: 3474 = ULEB128 92 1b
; CHECK-NEXT: .ascii "\222\033"
; CHECK-NEXT: .text
; CHECK: //NO_APP

; RELOCS: Section ({{[0-9]+}}) .relapcmap_atomics1 {
; RELOCS-NEXT: 0x0 R_AARCH64_PREL32 .text 0x{{[0-9A-F]+}}
; RELOCS64: Section ({{[0-9]+}}) .relapcmap_atomics65537 {
; RELOCS64-NEXT: 0x0 R_AARCH64_PREL64 .text 0x{{[0-9A-F]+}}
