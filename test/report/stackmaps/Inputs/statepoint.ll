; gc.statepoint: two safepoints with gc-live pointers. Each record's PC is
; the return address of its call.

declare void @safepoint()
declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)
declare ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token, i32, i32)

define ptr addrspace(1) @gcfunc(ptr addrspace(1) %obj, ptr addrspace(1) %obj2) gc "statepoint-example" {
entry:
  %tok = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 42, i32 0, ptr elementtype(void ()) @safepoint, i32 0, i32 0, i32 0, i32 0) ["gc-live"(ptr addrspace(1) %obj, ptr addrspace(1) %obj2)]
  %rel = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %tok, i32 0, i32 0)
  %rel2 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %tok, i32 1, i32 1)
  %tok2 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 43, i32 0, ptr elementtype(void ()) @safepoint, i32 0, i32 0, i32 0, i32 0) ["gc-live"(ptr addrspace(1) %rel2)]
  %rel3 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %tok2, i32 0, i32 0)
  ret ptr addrspace(1) %rel3
}
