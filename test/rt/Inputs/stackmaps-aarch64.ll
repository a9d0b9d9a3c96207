; Stack maps for test/rt/stackmaps*.c on AArch64 (Inputs/stackmaps.ll on
; x86-64): llvm.experimental.stackmap (after direct and indirect calls and not, small and large constants), patchpoints
; (with a target, and anyregcc without one; with live-outs) and a
; gc.statepoint. Patchpoints 10 and 11 reserve 20 bytes each (AArch64: a
; multiple of 4; patchpoint 10's call sequence is 16, and a NOP after it
; keeps patchpoint 11 from being taken for a call's return address). Stack
; map 2 has no shadow: AArch64 pads a shadow with NOPs, which the runtime
; would take for a patchpoint without a target (docs/design/Runtime.md,
; "Call-site sizes").
;
; No ordinary call follows a patchpoint: llc (19 and 22) crashes on that when
; it computes live-outs (StackMaps::parseRegisterLiveOutMask).

target triple = "aarch64-unknown-linux-gnu"

declare void @llvm.experimental.stackmap(i64, i32, ...)
declare void @llvm.experimental.patchpoint.void(i64, i32, ptr, i32, ...)
declare i64 @llvm.experimental.patchpoint.i64(i64, i32, ptr, i32, ...)
declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)
declare ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token, i32, i32)
declare void @sm_callee(i64)

@sm_sink = global i64 0

define i64 @sm_target(i64 %a, i64 %b) {
  %s = add i64 %a, %b
  ret i64 %s
}

define i64 @sm_calls(i64 %a, i64 %b, ptr %p) {
entry:
  call void @sm_callee(i64 %a)
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 1, i32 0, i64 %a, i64 %b, i64 42, i64 -7, i64 1234567890123, ptr %p)
  %x = mul i64 %a, %b
  store volatile i64 %x, ptr @sm_sink
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 2, i32 0, i64 %x, i64 9223372036854775807)
  call void @sm_callee(i64 %x)
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 3, i32 0, i64 %x, i64 -4294967296)
  ret i64 %x
}

define void @sm_indirect(ptr %fp, i64 %a) {
  call void %fp(i64 %a)
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 4, i32 0, ptr %fp, i64 %a)
  ret void
}

; LLVM's AArch64 back end materialises a patchpoint's target as an
; immediate, without a relocation: the target is a constant, and the
; patchpoints are not executed (the test calls sm_patch(3, 4)).
define i64 @sm_patch(i64 %a, i64 %b) {
entry:
  %x = mul i64 %a, %b
  %never = icmp eq i64 %a, 12345
  br i1 %never, label %patch, label %out
patch:
  call void (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.void(i64 10, i32 20, ptr inttoptr (i64 305419896 to ptr), i32 2, i64 %a, i64 %b)
  %r = call anyregcc i64 (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.i64(i64 11, i32 20, ptr null, i32 1, i64 %x)
  %y = add i64 %r, %x
  br label %out
out:
  %v = phi i64 [ %y, %patch ], [ %x, %entry ]
  %z = add i64 %v, %a
  ret i64 %z
}

define ptr addrspace(1) @sm_gc(ptr addrspace(1) %obj) gc "statepoint-example" {
  %tok = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 20, i32 0, ptr elementtype(void (i64)) @sm_callee, i32 1, i32 0, i64 5, i32 0, i32 0) ["gc-live"(ptr addrspace(1) %obj)]
  %rel = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %tok, i32 0, i32 0)
  ret ptr addrspace(1) %rel
}
