; Calls into libatomic are not recorded: LLVM's call lowering drops
; !pcsections from calls (SelectionDAG silently, FastISel with a warning), so
; such entries would appear now and then. The access happens inside
; libatomic, whose PCs are unknown to pcmap; the caller stays complete for the
; instructions it contains (docs/FORMAT.md).
; RUN: %opt-pcmap -passes=pcmap -S %s | FileCheck %s
; RUN: %opt-pcmap -passes=pcmap %s | llc -O0 -o /dev/null 2>&1 | count 0

target triple = "x86_64-unknown-linux-gnu"

declare i128 @__atomic_load_16(ptr, i32)
declare i64 @__atomic_fetch_add_8(ptr, i64, i32)

; CHECK: define void @f(ptr %p) !pcsections ![[FN:[0-9]+]] {
define void @f(ptr %p) {
; CHECK-NEXT: call i128 @__atomic_load_16(ptr %p, i32 5){{$}}
  %a = call i128 @__atomic_load_16(ptr %p, i32 5)
; CHECK-NEXT: call i64 @__atomic_fetch_add_8(ptr %p, i64 1, i32 0){{$}}
  %b = call i64 @__atomic_fetch_add_8(ptr %p, i64 1, i32 0)
  ret void
}

; CHECK: ![[FN]] = !{!"pcmap_functions1!C", ![[F:[0-9]+]]}
; CHECK: ![[F]] = !{i64 1}
