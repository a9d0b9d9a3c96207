; Live-out registers of a patchpoint (x86-64): r8 and r9 are live across
; the patchpoint, which the anyregcc call preserves.
target triple = "x86_64-unknown-linux-gnu"

declare void @llvm.experimental.patchpoint.void(i64, i32, ptr, i32, ...)

define void @liveouts(i64 %a) "frame-pointer"="all" {
entry:
  %x = call i64 asm sideeffect "", "={r8}"()
  %y = call i64 asm sideeffect "", "={r9}"()
  call anyregcc void (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.void(i64 6, i32 20, ptr inttoptr (i64 4096 to ptr), i32 0)
  call void asm sideeffect "", "{r8},{r9}"(i64 %x, i64 %y)
  ret void
}
