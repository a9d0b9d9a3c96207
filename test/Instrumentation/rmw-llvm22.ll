; RMW operations added after LLVM 19 have their own stable numbers.
; REQUIRES: llvm-22
; RUN: %opt-pcmap -passes=pcmap -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

define void @f(ptr %p) {
; CHECK: atomicrmw usub_cond ptr %p, i32 1 seq_cst, align 4, !pcsections ![[UC:[0-9]+]]
  %a = atomicrmw usub_cond ptr %p, i32 1 seq_cst
; CHECK: atomicrmw usub_sat ptr %p, i32 1 seq_cst, align 4, !pcsections ![[US:[0-9]+]]
  %b = atomicrmw usub_sat ptr %p, i32 1 seq_cst
; CHECK: atomicrmw fmaximum ptr %p, double 1.000000e+00 monotonic, align 8, !pcsections ![[FX:[0-9]+]]
  %c = atomicrmw fmaximum ptr %p, double 1.0 monotonic
; CHECK: atomicrmw fminimum ptr %p, double 1.000000e+00 monotonic, align 8, !pcsections ![[FN:[0-9]+]]
  %d = atomicrmw fminimum ptr %p, double 1.0 monotonic
  ret void
}

; op 17 (usub_cond): 2 | 2<<3 | 7<<6 | 17<<11
; CHECK-DAG: ![[UC]] = !{!"pcmap_atomics1!C", ![[UC_D:[0-9]+]]}
; CHECK-DAG: ![[UC_D]] = !{[4 x i8] zeroinitializer, i64 35282}
; CHECK-DAG: ![[US]] = !{!"pcmap_atomics1!C", ![[US_D:[0-9]+]]}
; CHECK-DAG: ![[US_D]] = !{[4 x i8] zeroinitializer, i64 37330}
; op 19 (fmaximum): 2 | 3<<3 | 2<<6 | 19<<11
; CHECK-DAG: ![[FX]] = !{!"pcmap_atomics1!C", ![[FX_D:[0-9]+]]}
; CHECK-DAG: ![[FX_D]] = !{[4 x i8] zeroinitializer, i64 39066}
; CHECK-DAG: ![[FN]] = !{!"pcmap_atomics1!C", ![[FN_D:[0-9]+]]}
; CHECK-DAG: ![[FN_D]] = !{[4 x i8] zeroinitializer, i64 41114}
