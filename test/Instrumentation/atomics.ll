; Every atomic instruction kind, size and ordering gets a descriptor that
; encodes exactly what it is (docs/FORMAT.md); instructions with the same
; descriptor share one node; singlethread atomics and plain or volatile
; non-atomic accesses are not recorded.
; RUN: %opt-pcmap -passes=pcmap -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK: define void @atomics(ptr %p) !pcsections ![[FN:[0-9]+]] {
define void @atomics(ptr %p) {
; CHECK-NEXT: %l8 = load atomic i8, ptr %p unordered, align 1, !pcsections ![[L8U:[0-9]+]]
  %l8 = load atomic i8, ptr %p unordered, align 1
; CHECK-NEXT: %l16 = load atomic i16, ptr %p monotonic, align 2, !pcsections ![[L16R:[0-9]+]]
  %l16 = load atomic i16, ptr %p monotonic, align 2
; CHECK-NEXT: %l32 = load atomic i32, ptr %p acquire, align 4, !pcsections ![[L32A:[0-9]+]]
  %l32 = load atomic i32, ptr %p acquire, align 4
; CHECK-NEXT: %l64 = load atomic i64, ptr %p seq_cst, align 8, !pcsections ![[L64S:[0-9]+]]
  %l64 = load atomic i64, ptr %p seq_cst, align 8
; CHECK-NEXT: %l128 = load atomic i128, ptr %p monotonic, align 16, !pcsections ![[L128R:[0-9]+]]
  %l128 = load atomic i128, ptr %p monotonic, align 16
; CHECK-NEXT: %lp = load atomic ptr, ptr %p acquire, align 8, !pcsections ![[LPA:[0-9]+]]
  %lp = load atomic ptr, ptr %p acquire, align 8
; CHECK-NEXT: %lf = load atomic float, ptr %p monotonic, align 4, !pcsections ![[LFR:[0-9]+]]
  %lf = load atomic float, ptr %p monotonic, align 4
; CHECK-NEXT: %ld = load atomic double, ptr %p monotonic, align 8, !pcsections ![[LDR:[0-9]+]]
  %ld = load atomic double, ptr %p monotonic, align 8
; CHECK-NEXT: %lv = load atomic volatile i32, ptr %p monotonic, align 4, !pcsections ![[LV:[0-9]+]]
  %lv = load atomic volatile i32, ptr %p monotonic, align 4
; CHECK-NEXT: store atomic i8 0, ptr %p unordered, align 1, !pcsections ![[S8U:[0-9]+]]
  store atomic i8 0, ptr %p unordered, align 1
; CHECK-NEXT: store atomic i32 0, ptr %p release, align 4, !pcsections ![[S32L:[0-9]+]]
  store atomic i32 0, ptr %p release, align 4
; CHECK-NEXT: store atomic i64 0, ptr %p seq_cst, align 8, !pcsections ![[S64S:[0-9]+]]
  store atomic i64 0, ptr %p seq_cst, align 8
; CHECK-NEXT: store atomic i128 0, ptr %p release, align 16, !pcsections ![[S128L:[0-9]+]]
  store atomic i128 0, ptr %p release, align 16
; CHECK-NEXT: store atomic volatile i16 0, ptr %p monotonic, align 2, !pcsections ![[SV:[0-9]+]]
  store atomic volatile i16 0, ptr %p monotonic, align 2
; CHECK-NEXT: %r_xchg = atomicrmw xchg ptr %p, i32 1 seq_cst, align 4, !pcsections ![[R_XCHG:[0-9]+]]
  %r_xchg = atomicrmw xchg ptr %p, i32 1 seq_cst
; CHECK-NEXT: %r_add = atomicrmw add ptr %p, i32 1 seq_cst, align 4, !pcsections ![[R_ADD:[0-9]+]]
  %r_add = atomicrmw add ptr %p, i32 1 seq_cst
; CHECK-NEXT: %r_sub = atomicrmw sub ptr %p, i32 1 seq_cst, align 4, !pcsections ![[R_SUB:[0-9]+]]
  %r_sub = atomicrmw sub ptr %p, i32 1 seq_cst
; CHECK-NEXT: %r_and = atomicrmw and ptr %p, i32 1 seq_cst, align 4, !pcsections ![[R_AND:[0-9]+]]
  %r_and = atomicrmw and ptr %p, i32 1 seq_cst
; CHECK-NEXT: %r_nand = atomicrmw nand ptr %p, i32 1 seq_cst, align 4, !pcsections ![[R_NAND:[0-9]+]]
  %r_nand = atomicrmw nand ptr %p, i32 1 seq_cst
; CHECK-NEXT: %r_or = atomicrmw or ptr %p, i32 1 seq_cst, align 4, !pcsections ![[R_OR:[0-9]+]]
  %r_or = atomicrmw or ptr %p, i32 1 seq_cst
; CHECK-NEXT: %r_xor = atomicrmw xor ptr %p, i32 1 seq_cst, align 4, !pcsections ![[R_XOR:[0-9]+]]
  %r_xor = atomicrmw xor ptr %p, i32 1 seq_cst
; CHECK-NEXT: %r_max = atomicrmw max ptr %p, i32 1 seq_cst, align 4, !pcsections ![[R_MAX:[0-9]+]]
  %r_max = atomicrmw max ptr %p, i32 1 seq_cst
; CHECK-NEXT: %r_min = atomicrmw min ptr %p, i32 1 seq_cst, align 4, !pcsections ![[R_MIN:[0-9]+]]
  %r_min = atomicrmw min ptr %p, i32 1 seq_cst
; CHECK-NEXT: %r_umax = atomicrmw umax ptr %p, i32 1 seq_cst, align 4, !pcsections ![[R_UMAX:[0-9]+]]
  %r_umax = atomicrmw umax ptr %p, i32 1 seq_cst
; CHECK-NEXT: %r_umin = atomicrmw umin ptr %p, i32 1 seq_cst, align 4, !pcsections ![[R_UMIN:[0-9]+]]
  %r_umin = atomicrmw umin ptr %p, i32 1 seq_cst
; CHECK-NEXT: %r_uinc_wrap = atomicrmw uinc_wrap ptr %p, i32 1 seq_cst, align 4, !pcsections ![[R_UINC_WRAP:[0-9]+]]
  %r_uinc_wrap = atomicrmw uinc_wrap ptr %p, i32 1 seq_cst
; CHECK-NEXT: %r_udec_wrap = atomicrmw udec_wrap ptr %p, i32 1 seq_cst, align 4, !pcsections ![[R_UDEC_WRAP:[0-9]+]]
  %r_udec_wrap = atomicrmw udec_wrap ptr %p, i32 1 seq_cst
; CHECK-NEXT: %r_fadd = atomicrmw fadd ptr %p, double 1.000000e+00 monotonic, align 8, !pcsections ![[R_FADD:[0-9]+]]
  %r_fadd = atomicrmw fadd ptr %p, double 1.0 monotonic
; CHECK-NEXT: %r_fsub = atomicrmw fsub ptr %p, double 1.000000e+00 monotonic, align 8, !pcsections ![[R_FSUB:[0-9]+]]
  %r_fsub = atomicrmw fsub ptr %p, double 1.0 monotonic
; CHECK-NEXT: %r_fmax = atomicrmw fmax ptr %p, double 1.000000e+00 monotonic, align 8, !pcsections ![[R_FMAX:[0-9]+]]
  %r_fmax = atomicrmw fmax ptr %p, double 1.0 monotonic
; CHECK-NEXT: %r_fmin = atomicrmw fmin ptr %p, double 1.000000e+00 monotonic, align 8, !pcsections ![[R_FMIN:[0-9]+]]
  %r_fmin = atomicrmw fmin ptr %p, double 1.0 monotonic
; CHECK-NEXT: %r8 = atomicrmw add ptr %p, i8 1 acquire, align 1, !pcsections ![[R8:[0-9]+]]
  %r8 = atomicrmw add ptr %p, i8 1 acquire
; CHECK-NEXT: %r128 = atomicrmw xchg ptr %p, i128 1 acq_rel, align 16, !pcsections ![[R128:[0-9]+]]
  %r128 = atomicrmw xchg ptr %p, i128 1 acq_rel
; CHECK-NEXT: %rv = atomicrmw volatile or ptr %p, i64 1 release, align 8, !pcsections ![[RV:[0-9]+]]
  %rv = atomicrmw volatile or ptr %p, i64 1 release
; CHECK-NEXT: %c1 = cmpxchg ptr %p, i32 0, i32 1 acq_rel monotonic, align 4, !pcsections ![[C1:[0-9]+]]
  %c1 = cmpxchg ptr %p, i32 0, i32 1 acq_rel monotonic
; CHECK-NEXT: %c2 = cmpxchg weak ptr %p, i64 0, i64 1 seq_cst seq_cst, align 8, !pcsections ![[C2:[0-9]+]]
  %c2 = cmpxchg weak ptr %p, i64 0, i64 1 seq_cst seq_cst
; CHECK-NEXT: %c3 = cmpxchg volatile ptr %p, i32 0, i32 1 release monotonic, align 4, !pcsections ![[C3:[0-9]+]]
  %c3 = cmpxchg volatile ptr %p, i32 0, i32 1 release monotonic
; CHECK-NEXT: %c4 = cmpxchg ptr %p, i128 0, i128 1 seq_cst acquire, align 16, !pcsections ![[C4:[0-9]+]]
  %c4 = cmpxchg ptr %p, i128 0, i128 1 seq_cst acquire
; CHECK-NEXT: fence acquire, !pcsections ![[F_ACQUIRE:[0-9]+]]
  fence acquire
; CHECK-NEXT: fence release, !pcsections ![[F_RELEASE:[0-9]+]]
  fence release
; CHECK-NEXT: fence acq_rel, !pcsections ![[F_ACQ_REL:[0-9]+]]
  fence acq_rel
; CHECK-NEXT: fence seq_cst, !pcsections ![[F_SEQ_CST:[0-9]+]]
  fence seq_cst
; A scope other than singlethread is recorded; same descriptor, same node.
; CHECK-NEXT: fence syncscope("agent") seq_cst, !pcsections ![[F_SEQ_CST]]
  fence syncscope("agent") seq_cst
; Same descriptor as %l32: same node, so one record in the section.
; CHECK-NEXT: %again = load atomic i32, ptr %p acquire, align 4, !pcsections ![[L32A]]
  %again = load atomic i32, ptr %p acquire, align 4
; Not atomics for pcmap:
; CHECK-NEXT: fence syncscope("singlethread") seq_cst{{$}}
  fence syncscope("singlethread") seq_cst
; CHECK-NEXT: load atomic i32, ptr %p syncscope("singlethread") acquire, align 4{{$}}
  %st = load atomic i32, ptr %p syncscope("singlethread") acquire, align 4
; CHECK-NEXT: store atomic i32 0, ptr %p syncscope("singlethread") release, align 4{{$}}
  store atomic i32 0, ptr %p syncscope("singlethread") release, align 4
; CHECK-NEXT: load i32, ptr %p, align 4{{$}}
  %plain = load i32, ptr %p
; CHECK-NEXT: load volatile i32, ptr %p, align 4{{$}}
  %vol = load volatile i32, ptr %p
; CHECK-NEXT: store volatile i32 0, ptr %p, align 4{{$}}
  store volatile i32 0, ptr %p
; CHECK-NEXT: ret void{{$}}
  ret void
}

; CHECK-DAG: ![[FN]] = !{!"pcmap_functions1!C", ![[FEAT:[0-9]+]]}
; Complete for atomics (1) and has atomics (2).
; CHECK-DAG: ![[FEAT]] = !{i64 3}
; CHECK-DAG: ![[L8U]] = !{!"pcmap_atomics1!C", ![[L8U_D:[0-9]+]]}
; CHECK-DAG: ![[L8U_D]] = !{[4 x i8] zeroinitializer, i64 64}
; CHECK-DAG: ![[L16R]] = !{!"pcmap_atomics1!C", ![[L16R_D:[0-9]+]]}
; CHECK-DAG: ![[L16R_D]] = !{[4 x i8] zeroinitializer, i64 136}
; CHECK-DAG: ![[L32A]] = !{!"pcmap_atomics1!C", ![[L32A_D:[0-9]+]]}
; CHECK-DAG: ![[L32A_D]] = !{[4 x i8] zeroinitializer, i64 272}
; CHECK-DAG: ![[L64S]] = !{!"pcmap_atomics1!C", ![[L64S_D:[0-9]+]]}
; CHECK-DAG: ![[L64S_D]] = !{[4 x i8] zeroinitializer, i64 472}
; CHECK-DAG: ![[L128R]] = !{!"pcmap_atomics1!C", ![[L128R_D:[0-9]+]]}
; CHECK-DAG: ![[L128R_D]] = !{[4 x i8] zeroinitializer, i64 160}
; CHECK-DAG: ![[LPA]] = !{!"pcmap_atomics1!C", ![[LPA_D:[0-9]+]]}
; CHECK-DAG: ![[LPA_D]] = !{[4 x i8] zeroinitializer, i64 280}
; CHECK-DAG: ![[LFR]] = !{!"pcmap_atomics1!C", ![[LFR_D:[0-9]+]]}
; CHECK-DAG: ![[LFR_D]] = !{[4 x i8] zeroinitializer, i64 144}
; CHECK-DAG: ![[LDR]] = !{!"pcmap_atomics1!C", ![[LDR_D:[0-9]+]]}
; CHECK-DAG: ![[LDR_D]] = !{[4 x i8] zeroinitializer, i64 152}
; CHECK-DAG: ![[LV]] = !{!"pcmap_atomics1!C", ![[LV_D:[0-9]+]]}
; CHECK-DAG: ![[LV_D]] = !{[4 x i8] zeroinitializer, i64 656}
; CHECK-DAG: ![[S8U]] = !{!"pcmap_atomics1!C", ![[S8U_D:[0-9]+]]}
; CHECK-DAG: ![[S8U_D]] = !{[4 x i8] zeroinitializer, i64 65}
; CHECK-DAG: ![[S32L]] = !{!"pcmap_atomics1!C", ![[S32L_D:[0-9]+]]}
; CHECK-DAG: ![[S32L_D]] = !{[4 x i8] zeroinitializer, i64 337}
; CHECK-DAG: ![[S64S]] = !{!"pcmap_atomics1!C", ![[S64S_D:[0-9]+]]}
; CHECK-DAG: ![[S64S_D]] = !{[4 x i8] zeroinitializer, i64 473}
; CHECK-DAG: ![[S128L]] = !{!"pcmap_atomics1!C", ![[S128L_D:[0-9]+]]}
; CHECK-DAG: ![[S128L_D]] = !{[4 x i8] zeroinitializer, i64 353}
; CHECK-DAG: ![[SV]] = !{!"pcmap_atomics1!C", ![[SV_D:[0-9]+]]}
; CHECK-DAG: ![[SV_D]] = !{[4 x i8] zeroinitializer, i64 649}
; CHECK-DAG: ![[R_XCHG]] = !{!"pcmap_atomics1!C", ![[R_XCHG_D:[0-9]+]]}
; CHECK-DAG: ![[R_XCHG_D]] = !{[4 x i8] zeroinitializer, i64 466}
; CHECK-DAG: ![[R_ADD]] = !{!"pcmap_atomics1!C", ![[R_ADD_D:[0-9]+]]}
; CHECK-DAG: ![[R_ADD_D]] = !{[4 x i8] zeroinitializer, i64 2514}
; CHECK-DAG: ![[R_SUB]] = !{!"pcmap_atomics1!C", ![[R_SUB_D:[0-9]+]]}
; CHECK-DAG: ![[R_SUB_D]] = !{[4 x i8] zeroinitializer, i64 4562}
; CHECK-DAG: ![[R_AND]] = !{!"pcmap_atomics1!C", ![[R_AND_D:[0-9]+]]}
; CHECK-DAG: ![[R_AND_D]] = !{[4 x i8] zeroinitializer, i64 6610}
; CHECK-DAG: ![[R_NAND]] = !{!"pcmap_atomics1!C", ![[R_NAND_D:[0-9]+]]}
; CHECK-DAG: ![[R_NAND_D]] = !{[4 x i8] zeroinitializer, i64 8658}
; CHECK-DAG: ![[R_OR]] = !{!"pcmap_atomics1!C", ![[R_OR_D:[0-9]+]]}
; CHECK-DAG: ![[R_OR_D]] = !{[4 x i8] zeroinitializer, i64 10706}
; CHECK-DAG: ![[R_XOR]] = !{!"pcmap_atomics1!C", ![[R_XOR_D:[0-9]+]]}
; CHECK-DAG: ![[R_XOR_D]] = !{[4 x i8] zeroinitializer, i64 12754}
; CHECK-DAG: ![[R_MAX]] = !{!"pcmap_atomics1!C", ![[R_MAX_D:[0-9]+]]}
; CHECK-DAG: ![[R_MAX_D]] = !{[4 x i8] zeroinitializer, i64 14802}
; CHECK-DAG: ![[R_MIN]] = !{!"pcmap_atomics1!C", ![[R_MIN_D:[0-9]+]]}
; CHECK-DAG: ![[R_MIN_D]] = !{[4 x i8] zeroinitializer, i64 16850}
; CHECK-DAG: ![[R_UMAX]] = !{!"pcmap_atomics1!C", ![[R_UMAX_D:[0-9]+]]}
; CHECK-DAG: ![[R_UMAX_D]] = !{[4 x i8] zeroinitializer, i64 18898}
; CHECK-DAG: ![[R_UMIN]] = !{!"pcmap_atomics1!C", ![[R_UMIN_D:[0-9]+]]}
; CHECK-DAG: ![[R_UMIN_D]] = !{[4 x i8] zeroinitializer, i64 20946}
; CHECK-DAG: ![[R_UINC_WRAP]] = !{!"pcmap_atomics1!C", ![[R_UINC_WRAP_D:[0-9]+]]}
; CHECK-DAG: ![[R_UINC_WRAP_D]] = !{[4 x i8] zeroinitializer, i64 31186}
; CHECK-DAG: ![[R_UDEC_WRAP]] = !{!"pcmap_atomics1!C", ![[R_UDEC_WRAP_D:[0-9]+]]}
; CHECK-DAG: ![[R_UDEC_WRAP_D]] = !{[4 x i8] zeroinitializer, i64 33234}
; CHECK-DAG: ![[R_FADD]] = !{!"pcmap_atomics1!C", ![[R_FADD_D:[0-9]+]]}
; CHECK-DAG: ![[R_FADD_D]] = !{[4 x i8] zeroinitializer, i64 22682}
; CHECK-DAG: ![[R_FSUB]] = !{!"pcmap_atomics1!C", ![[R_FSUB_D:[0-9]+]]}
; CHECK-DAG: ![[R_FSUB_D]] = !{[4 x i8] zeroinitializer, i64 24730}
; CHECK-DAG: ![[R_FMAX]] = !{!"pcmap_atomics1!C", ![[R_FMAX_D:[0-9]+]]}
; CHECK-DAG: ![[R_FMAX_D]] = !{[4 x i8] zeroinitializer, i64 26778}
; CHECK-DAG: ![[R_FMIN]] = !{!"pcmap_atomics1!C", ![[R_FMIN_D:[0-9]+]]}
; CHECK-DAG: ![[R_FMIN_D]] = !{[4 x i8] zeroinitializer, i64 28826}
; CHECK-DAG: ![[R8]] = !{!"pcmap_atomics1!C", ![[R8_D:[0-9]+]]}
; CHECK-DAG: ![[R8_D]] = !{[4 x i8] zeroinitializer, i64 2306}
; CHECK-DAG: ![[R128]] = !{!"pcmap_atomics1!C", ![[R128_D:[0-9]+]]}
; CHECK-DAG: ![[R128_D]] = !{[4 x i8] zeroinitializer, i64 418}
; CHECK-DAG: ![[RV]] = !{!"pcmap_atomics1!C", ![[RV_D:[0-9]+]]}
; CHECK-DAG: ![[RV_D]] = !{[4 x i8] zeroinitializer, i64 11098}
; CHECK-DAG: ![[C1]] = !{!"pcmap_atomics1!C", ![[C1_D:[0-9]+]]}
; CHECK-DAG: ![[C1_D]] = !{[4 x i8] zeroinitializer, i64 4499}
; CHECK-DAG: ![[C2]] = !{!"pcmap_atomics1!C", ![[C2_D:[0-9]+]]}
; CHECK-DAG: ![[C2_D]] = !{[4 x i8] zeroinitializer, i64 31195}
; CHECK-DAG: ![[C3]] = !{!"pcmap_atomics1!C", ![[C3_D:[0-9]+]]}
; CHECK-DAG: ![[C3_D]] = !{[4 x i8] zeroinitializer, i64 4947}
; CHECK-DAG: ![[C4]] = !{!"pcmap_atomics1!C", ![[C4_D:[0-9]+]]}
; CHECK-DAG: ![[C4_D]] = !{[4 x i8] zeroinitializer, i64 8675}
; CHECK-DAG: ![[F_ACQUIRE]] = !{!"pcmap_atomics1!C", ![[F_ACQUIRE_D:[0-9]+]]}
; CHECK-DAG: ![[F_ACQUIRE_D]] = !{[4 x i8] zeroinitializer, i64 260}
; CHECK-DAG: ![[F_RELEASE]] = !{!"pcmap_atomics1!C", ![[F_RELEASE_D:[0-9]+]]}
; CHECK-DAG: ![[F_RELEASE_D]] = !{[4 x i8] zeroinitializer, i64 324}
; CHECK-DAG: ![[F_ACQ_REL]] = !{!"pcmap_atomics1!C", ![[F_ACQ_REL_D:[0-9]+]]}
; CHECK-DAG: ![[F_ACQ_REL_D]] = !{[4 x i8] zeroinitializer, i64 388}
; CHECK-DAG: ![[F_SEQ_CST]] = !{!"pcmap_atomics1!C", ![[F_SEQ_CST_D:[0-9]+]]}
; CHECK-DAG: ![[F_SEQ_CST_D]] = !{[4 x i8] zeroinitializer, i64 452}
