; Inline asm on a target pcmap does not analyse (here RISC-V): any asm with
; an instruction makes its function incomplete; an empty asm (a compiler
; barrier) does not.
; RUN: %opt-pcmap -passes=pcmap -pass-remarks-missed=pcmap %s -S -o %t.ll 2>&1 \
; RUN:   | FileCheck %s --check-prefix=REMARK
; RUN: FileCheck %s --input-file=%t.ll

target triple = "riscv64-unknown-linux-gnu"

define void @amo(ptr %p) {
  call void asm sideeffect "amoadd.w.aqrl zero, zero, ($0)", "r,~{memory}"(ptr %p)
  ret void
}
; REMARK: remark: {{.*}}function 'amo' {{.*}} statement 'amoadd.w.aqrl zero, zero, ($0)' is not analysed (inline asm for riscv64 is not analysed)

define void @barrier() {
  call void asm sideeffect "", "~{memory}"()
  call void asm sideeffect "  # only a comment", "~{memory}"()
  ret void
}

; CHECK-LABEL: define void @amo(
; CHECK-SAME: !pcsections ![[F0:[0-9]+]]
; CHECK-LABEL: define void @barrier(
; CHECK-SAME: !pcsections ![[F1:[0-9]+]]
; CHECK-DAG: ![[F0]] = !{!"pcmap_functions1!C", ![[Z:[0-9]+]]}
; CHECK-DAG: ![[Z]] = !{i64 4}
; CHECK-DAG: ![[F1]] = !{!"pcmap_functions1!C", ![[O:[0-9]+]]}
; CHECK-DAG: ![[O]] = !{i64 1}
