; AArch64 inline asm pcmap cannot analyse: instructions written as data
; (.inst), and load/store mnemonics it does not know (new atomic forms such
; as LSE128's swpp read as unknown, not as plain). The functions stop
; claiming complete atomics (features 4: kFeatureOpaqueAsm) and a remark says why.
; RUN: %opt-pcmap -passes=pcmap -pass-remarks-missed=pcmap %s -S -o %t.ll 2>&1 \
; RUN:   | FileCheck %s --check-prefix=REMARK
; RUN: FileCheck %s --input-file=%t.ll

target triple = "aarch64-unknown-linux-gnu"

define void @inst(ptr %p) {
  call void asm sideeffect ".inst 0xf8e00000 // ldaddal x0, x0, [x0]", "r,~{memory}"(ptr %p)
  ret void
}
; REMARK: remark: {{.*}}function 'inst' {{.*}} statement '.inst 0xf8e00000' is not analysed (directive '.inst')

define void @unknown_load_store(ptr %p) {
  call void asm sideeffect "swpp x0, x1, [$0]", "r,~{x0},~{x1},~{memory}"(ptr %p)
  ret void
}
; REMARK: remark: {{.*}}function 'unknown_load_store' {{.*}} statement 'swpp x0, x1, [$0]' is not analysed (unknown load/store mnemonic 'swpp')

; Plain loads, stores and other instructions are not atomics: complete.
define void @plain(ptr %p) {
  call void asm sideeffect ".arch_extension lse\0A\09ldr x0, [$0]\0A\09stp x0, x0, [$0]\0A\09isb\0A\09add x0, x0, #1 // a comment; not a statement", "r,~{x0},~{memory}"(ptr %p)
  ret void
}

; CHECK-LABEL: define void @inst(
; CHECK-SAME: !pcsections ![[F0:[0-9]+]]
; CHECK-LABEL: define void @unknown_load_store(
; CHECK-SAME: !pcsections ![[F0]]
; CHECK-LABEL: define void @plain(
; CHECK-SAME: !pcsections ![[F1:[0-9]+]]
; CHECK-NEXT: call void asm sideeffect ".arch_extension lse
; CHECK-DAG: ![[F0]] = !{!"pcmap_functions1!C", ![[Z:[0-9]+]]}
; CHECK-DAG: ![[Z]] = !{i64 4}
; CHECK-DAG: ![[F1]] = !{!"pcmap_functions1!C", ![[O:[0-9]+]]}
; CHECK-DAG: ![[O]] = !{i64 1}
