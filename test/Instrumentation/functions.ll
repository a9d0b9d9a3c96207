; Every instrumented function gets a function entry, with or without atomics;
; the skip rules leave functions alone; the features follow what was asked.
; RUN: %opt-pcmap -passes=pcmap -S %s | FileCheck %s --check-prefixes=CHECK,ALL
; RUN: %opt-pcmap -passes='pcmap<functions>' -S %s | FileCheck %s --check-prefixes=CHECK,FUNCS
; Atomics imply function entries: without them "not atomic" and "unknown"
; could not be told apart.
; RUN: %opt-pcmap -passes='pcmap<atomics>' -S %s | FileCheck %s --check-prefixes=CHECK,ALL
; The same selection through the plugin's command-line options.
; RUN: %opt-pcmap -passes=pcmap -pcmap-atomics=0 -S %s | FileCheck %s --check-prefixes=CHECK,FUNCS
; Nothing asked, nothing done.
; RUN: %opt-pcmap -passes=pcmap -pcmap-atomics=0 -pcmap-functions=0 -S %s | FileCheck %s --check-prefix=NONE

target triple = "x86_64-unknown-linux-gnu"

; CHECK: define i32 @no_atomics(i32 %x) !pcsections ![[FN:[0-9]+]] {
define i32 @no_atomics(i32 %x) {
  %y = mul i32 %x, 2
  ret i32 %y
}

; ALL: define void @with_atomic(ptr %p) !pcsections ![[FNA:[0-9]+]] {
; FUNCS: define void @with_atomic(ptr %p) !pcsections ![[FN]] {
; ALL: store atomic i32 1, ptr %p release, align 4, !pcsections
; FUNCS: store atomic i32 1, ptr %p release, align 4{{$}}
define void @with_atomic(ptr %p) {
  store atomic i32 1, ptr %p release, align 4
  ret void
}

; CHECK: define internal void @internal_fn(ptr %p) !pcsections ![[FN]] {
define internal void @internal_fn(ptr %p) {
  ret void
}

; CHECK: define linkonce_odr void @inline_fn() !pcsections ![[FN]] {
define linkonce_odr void @inline_fn() {
  ret void
}

; The skip rules: declarations, naked, available_externally and
; disable_sanitizer_instrumentation.
; CHECK: declare void @declared(ptr){{$}}
declare void @declared(ptr)

; CHECK: define void @naked_fn() #[[NAKED:[0-9]+]] {
define void @naked_fn() naked {
  call void asm sideeffect "ret", ""()
  unreachable
}

; CHECK: define available_externally void @avail(ptr %p) {
; CHECK-NEXT: store atomic i32 1, ptr %p release, align 4{{$}}
define available_externally void @avail(ptr %p) {
  store atomic i32 1, ptr %p release, align 4
  ret void
}

; CHECK: define void @no_instrument(ptr %p) #[[DSI:[0-9]+]] {
; CHECK-NEXT: store atomic i32 1, ptr %p release, align 4{{$}}
define void @no_instrument(ptr %p) disable_sanitizer_instrumentation {
  store atomic i32 1, ptr %p release, align 4
  ret void
}

; optnone functions (-O0) are instrumented: the pass is required.
; CHECK: define void @optnone_fn(ptr %p) #[[OPTNONE:[0-9]+]] !pcsections ![[FN]] {
define void @optnone_fn(ptr %p) noinline optnone {
  ret void
}

; Complete for atomics (1); with_atomic also has atomics (2).
; ALL-DAG: ![[FN]] = !{!"pcmap_functions1!C", ![[F:[0-9]+]]}
; ALL-DAG: ![[F]] = !{i64 1}
; ALL-DAG: ![[FNA]] = !{!"pcmap_functions1!C", ![[FA:[0-9]+]]}
; ALL-DAG: ![[FA]] = !{i64 3}
; FUNCS-DAG: ![[FN]] = !{!"pcmap_functions1!C", ![[F:[0-9]+]]}
; FUNCS-DAG: ![[F]] = !{i64 0}

; NONE-NOT: pcsections
; NONE-NOT: module_ctor
