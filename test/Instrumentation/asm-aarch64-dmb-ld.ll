; Inline asm, AArch64: a load-load/load-store barrier.
; The pass labels the instruction and appends its record; the object's
; atomics table has it, flagged as inline asm, and nothing else (the plain
; stores around it stay plain).
; RUN: %opt-pcmap -passes=pcmap %s -S | FileCheck %s --check-prefix=IR
; RUN: %opt-pcmap -passes=pcmap %s | llc -O2 -mattr=+lse,+rcpc -filetype=obj -o %t.o
; RUN: %pcmap-report atomics %t.o | FileCheck %s

target triple = "aarch64-unknown-linux-gnu"

define void @f(ptr %p, i64 %v, i32 %w) {
  store volatile i32 0, ptr %p
  call void asm sideeffect "dmb ishld", "~{memory}"()
  store volatile i32 1, ptr %p
  ret void
}

; IR: store volatile i32 0, ptr %p, align 4{{$}}
; IR-NEXT: asm sideeffect ".Lpcmap_asm${:uid}_0: dmb ishld\0A\09.pushsection pcmap_atomics1,\22awo\22,@progbits,.Lpcmap_asm${:uid}_0\0A\09.long .Lpcmap_asm${:uid}_0 - .\0A\09.long 0\0A\09.uleb128 {{[0-9]+}}\0A\09.popsection"
; IR-NEXT: store volatile i32 1, ptr %p, align 4{{$}}
; IR: !{!"pcmap_functions1!C", ![[F:[0-9]+]]}
; IR: ![[F]] = !{i64 3}

; CHECK: ADDRESS SECTION KIND SIZE ORDER FAILURE OP FLAGS FUNCTION
; CHECK-NEXT: 0x{{[0-9a-f]+}} .text fence - acquire - - asm f+0x{{[0-9a-f]+}}
; CHECK-NEXT: TOTAL 1 atomic sites
