; Calls into libatomic are atomics too: clang emits them for sizes the target
; cannot do inline (16 bytes without cmpxchg16b) and for odd sizes. The
; descriptor has the libcall flag; the order comes from the constant
; memory_order argument, or is "unknown" when it is not a constant.
; RUN: %opt-pcmap -passes=pcmap -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare i128 @__atomic_load_16(ptr, i32)
declare void @__atomic_store_16(ptr, i128, i32)
declare i64 @__atomic_fetch_add_8(ptr, i64, i32)
declare i1 @__atomic_compare_exchange_16(ptr, ptr, i128, i32, i32)
declare void @__atomic_load(i64, ptr, ptr, i32)
declare i32 @__atomic_is_lock_free(i64, ptr)
declare void @__atomic_other_thing(ptr)

define void @f(ptr %p, ptr %q, i32 %order) {
; CHECK: call i128 @__atomic_load_16(ptr %p, i32 5), !pcsections ![[L16:[0-9]+]]
  %a = call i128 @__atomic_load_16(ptr %p, i32 5)
; CHECK: call void @__atomic_store_16(ptr %p, i128 0, i32 %order), !pcsections ![[S16:[0-9]+]]
  call void @__atomic_store_16(ptr %p, i128 0, i32 %order)
; CHECK: call i64 @__atomic_fetch_add_8(ptr %p, i64 1, i32 0), !pcsections ![[ADD8:[0-9]+]]
  %b = call i64 @__atomic_fetch_add_8(ptr %p, i64 1, i32 0)
; CHECK: call i1 @__atomic_compare_exchange_16(ptr %p, ptr %q, i128 1, i32 5, i32 2), !pcsections ![[CX16:[0-9]+]]
  %c = call i1 @__atomic_compare_exchange_16(ptr %p, ptr %q, i128 1, i32 5, i32 2)
; A generic call with a size that is not a power of two: size "other".
; CHECK: call void @__atomic_load(i64 24, ptr %p, ptr %q, i32 2), !pcsections ![[GEN:[0-9]+]]
  call void @__atomic_load(i64 24, ptr %p, ptr %q, i32 2)
; Not memory operations:
; CHECK: call i32 @__atomic_is_lock_free(i64 16, ptr %p){{$}}
  %d = call i32 @__atomic_is_lock_free(i64 16, ptr %p)
; CHECK: call void @__atomic_other_thing(ptr %p){{$}}
  call void @__atomic_other_thing(ptr %p)
  ret void
}

; load, 2^4 bytes, seq_cst, libcall: 0 | 4<<3 | 7<<6 | 1<<10
; CHECK-DAG: ![[L16]] = !{!"pcmap_atomics1!C", ![[L16_D:[0-9]+]]}
; CHECK-DAG: ![[L16_D]] = !{[4 x i8] zeroinitializer, i64 1504}
; store, 2^4 bytes, order unknown, libcall: 1 | 4<<3 | 1<<10
; CHECK-DAG: ![[S16]] = !{!"pcmap_atomics1!C", ![[S16_D:[0-9]+]]}
; CHECK-DAG: ![[S16_D]] = !{[4 x i8] zeroinitializer, i64 1057}
; rmw add, 2^3 bytes, relaxed, libcall: 2 | 3<<3 | 2<<6 | 1<<10 | 1<<11
; CHECK-DAG: ![[ADD8]] = !{!"pcmap_atomics1!C", ![[ADD8_D:[0-9]+]]}
; CHECK-DAG: ![[ADD8_D]] = !{[4 x i8] zeroinitializer, i64 3226}
; cmpxchg, 2^4 bytes, seq_cst / acquire, libcall
; CHECK-DAG: ![[CX16]] = !{!"pcmap_atomics1!C", ![[CX16_D:[0-9]+]]}
; CHECK-DAG: ![[CX16_D]] = !{[4 x i8] zeroinitializer, i64 9699}
; load, size other (7), acquire, libcall: 0 | 7<<3 | 4<<6 | 1<<10
; CHECK-DAG: ![[GEN]] = !{!"pcmap_atomics1!C", ![[GEN_D:[0-9]+]]}
; CHECK-DAG: ![[GEN_D]] = !{[4 x i8] zeroinitializer, i64 1336}
