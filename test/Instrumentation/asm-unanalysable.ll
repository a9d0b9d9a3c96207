; Inline asm that pcmap cannot analyse completely: its function stops
; claiming complete atomics and says why (features 4, kFeatureOpaqueAsm: the
; runtime answers UNKNOWN in it, never NO), the asm is left as it is, and a missed-optimisation remark
; names the function and quotes the statement.
; RUN: %opt-pcmap -passes=pcmap -pass-remarks-missed=pcmap %s -S -o %t.ll 2>&1 \
; RUN:   | FileCheck %s --check-prefix=REMARK
; RUN: FileCheck %s --input-file=%t.ll
; Without -pass-remarks-missed, nothing is printed.
; RUN: %opt-pcmap -passes=pcmap %s -S -o /dev/null 2>&1 | count 0

target triple = "x86_64-unknown-linux-gnu"

module asm ".macro file_scope_locked_inc p"
module asm "lock; incl \\p"
module asm ".endm"

define void @macro_def(ptr %p) {
  call void asm sideeffect ".macro m p\0Alock; incl \\p\0A.endm\0Am $0", "=*m"(ptr elementtype(i32) %p)
  ret void
}
; REMARK: remark: {{.*}}function 'macro_def' does not claim complete atomics: inline asm statement '.macro m p' is not analysed (directive '.macro')

define void @macro_call(ptr %p) {
  call void asm sideeffect "file_scope_locked_inc $0", "=*m"(ptr elementtype(i32) %p)
  ret void
}
; REMARK: remark: {{.*}}function 'macro_call' does not claim complete atomics: inline asm statement 'file_scope_locked_inc $0' is not analysed (assembler macro 'file_scope_locked_inc')

define void @irp(ptr %p) {
  call void asm sideeffect ".irp r,0,1\0Alock; incl $0\0A.endr", "=*m"(ptr elementtype(i32) %p)
  ret void
}
; REMARK: remark: {{.*}}function 'irp' {{.*}} statement '.irp r,0,1' is not analysed (directive '.irp')

define void @rept(ptr %p) {
  call void asm sideeffect ".rept 2; lock; incl $0; .endr", "=*m"(ptr elementtype(i32) %p)
  ret void
}
; REMARK: remark: {{.*}}function 'rept' {{.*}} statement '.rept 2' is not analysed (directive '.rept')

define void @if(ptr %p) {
  call void asm sideeffect ".if 1\0Alock; incl $0\0A.endif", "=*m"(ptr elementtype(i32) %p)
  ret void
}
; REMARK: remark: {{.*}}function 'if' {{.*}} statement '.if 1' is not analysed (directive '.if')

define void @byte(ptr %p) {
  call void asm sideeffect ".byte 0xf0; incl $0", "=*m"(ptr elementtype(i32) %p)
  ret void
}
; REMARK: remark: {{.*}}function 'byte' {{.*}} statement '.byte 0xf0' is not analysed (directive '.byte')

define void @long(ptr %p) {
  call void asm sideeffect ".long 0x0007f0f0", ""()
  ret void
}
; REMARK: remark: {{.*}}function 'long' {{.*}} statement '.long 0x0007f0f0' is not analysed (directive '.long')

define void @section(ptr %p) {
  call void asm sideeffect "lock; incl $0\0A.section .text.other,\22ax\22\0Alock; incl $0\0A.previous", "=*m"(ptr elementtype(i32) %p)
  ret void
}
; REMARK: remark: {{.*}}function 'section' {{.*}} statement '.section .text.other,"ax"' is not analysed (directive '.section')

define void @pushsection(ptr %p) {
  call void asm sideeffect ".pushsection .text.other\0Alock; incl $0\0A.popsection", "=*m"(ptr elementtype(i32) %p)
  ret void
}
; REMARK: remark: {{.*}}function 'pushsection' {{.*}} statement '.pushsection .text.other' is not analysed (directive '.pushsection')

define void @text(ptr %p) {
  call void asm sideeffect ".text\0Alock; incl $0", "=*m"(ptr elementtype(i32) %p)
  ret void
}
; REMARK: remark: {{.*}}function 'text' {{.*}} statement '.text' is not analysed (directive '.text')

define void @intel_syntax(ptr %p) {
  call void asm sideeffect ".intel_syntax noprefix\0Alock inc dword ptr [rdi]\0A.att_syntax", "{rdi}"(ptr %p)
  ret void
}
; REMARK: remark: {{.*}}function 'intel_syntax' {{.*}} statement '.intel_syntax noprefix' is not analysed (directive '.intel_syntax')

define void @intel_dialect(ptr %p) {
  call void asm sideeffect inteldialect "lock inc dword ptr [rdi]", "{rdi}"(ptr %p)
  ret void
}
; REMARK: remark: {{.*}}function 'intel_dialect' {{.*}} statement 'lock inc dword ptr [rdi]' is not analysed (Intel syntax is not analysed)

define void @lock_unknown(ptr %p) {
  call void asm sideeffect "lock; movl %eax, $0", "=*m"(ptr elementtype(i32) %p)
  ret void
}
; REMARK: remark: {{.*}}function 'lock_unknown' {{.*}} statement 'movl %eax, $0' is not analysed (lock prefix before 'movl')

define void @prefix_alone(ptr %p) {
  call void asm sideeffect "movl $$1, %eax; lock", ""()
  ret void
}
; REMARK: remark: {{.*}}function 'prefix_alone' {{.*}} statement 'lock' is not analysed (prefix at the end of the asm)

define void @xchg_rm(ptr %p, i32 %v) {
  %r = call i32 asm sideeffect "xchgl $0, $1", "=r,=*rm,0"(ptr elementtype(i32) %p, i32 %v)
  ret void
}
; REMARK: remark: {{.*}}function 'xchg_rm' {{.*}} statement 'xchgl $0, $1' is not analysed (xchg with an operand that may be in memory)

define void @alternatives(ptr %p) {
  call void asm sideeffect "$(lock; incl $0$|lock inc $0$)", "=*m"(ptr elementtype(i32) %p)
  ret void
}
; REMARK: remark: {{.*}}function 'alternatives' {{.*}} statement '$(lock; incl $0$|lock inc $0$)' is not analysed (dialect alternatives in the template)

; One analysable and one unanalysable asm: the first is recorded, the
; function still does not claim completeness (features 6: has atomics,
; opaque asm).
define void @mixed(ptr %p) {
  store volatile i32 0, ptr %p
  call void asm sideeffect "lock; incl $0", "=*m"(ptr elementtype(i32) %p)
  call void asm sideeffect ".byte 0xf0; incl $0", "=*m"(ptr elementtype(i32) %p)
  store volatile i32 1, ptr %p
  ret void
}
; REMARK: remark: {{.*}}function 'mixed' {{.*}} statement '.byte 0xf0' is not analysed (directive '.byte')

; The unanalysed asm are unchanged.
; CHECK-LABEL: define void @macro_def(
; CHECK-SAME: !pcsections ![[F0:[0-9]+]] {
; CHECK-NEXT: call void asm sideeffect ".macro m p\0Alock; incl \\p\0A.endm\0Am $0", "=*m"
; CHECK-LABEL: define void @byte(
; CHECK-SAME: !pcsections ![[F0]] {
; CHECK-NEXT: call void asm sideeffect ".byte 0xf0; incl $0", "=*m"
; CHECK-LABEL: define void @alternatives(
; CHECK-SAME: !pcsections ![[F0]] {
; CHECK-LABEL: define void @mixed(
; CHECK-SAME: !pcsections ![[F2:[0-9]+]] {
; CHECK-NEXT: store volatile i32 0, ptr %p, align 4{{$}}
; CHECK-NEXT: call void asm sideeffect ".Lpcmap_asm${:uid}_0: lock; incl $0\0A
; CHECK-NEXT: call void asm sideeffect ".byte 0xf0; incl $0", "=*m"
; CHECK-NEXT: store volatile i32 1, ptr %p, align 4{{$}}
; CHECK-DAG: ![[F0]] = !{!"pcmap_functions1!C", ![[Z:[0-9]+]]}
; CHECK-DAG: ![[Z]] = !{i64 4}
; CHECK-DAG: ![[F2]] = !{!"pcmap_functions1!C", ![[T:[0-9]+]]}
; CHECK-DAG: ![[T]] = !{i64 6}
