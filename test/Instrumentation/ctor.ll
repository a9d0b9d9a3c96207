; Registration: one hidden, comdat constructor and destructor per section
; version, at priority 2, calling weak callbacks only when they are present,
; with the section version and the __start_/__stop_ bounds of both sections
; (weak: a module may lack one).
; RUN: %opt-pcmap -passes=pcmap -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

define void @f(ptr %p) #0 {
  store atomic i32 1, ptr %p release, align 4
  ret void
}

define void @g(ptr %p) #1 {
  ret void
}

; Every function has the CPU and the vector width: the pair gets them too,
; and is compiled for the same subtarget. The features differ: the pair gets
; none (never more of the CPU than the module's common ground).
attributes #0 = { "target-cpu"="x86-64" "target-features"="+sse2,+avx2" "min-legal-vector-width"="0" }
attributes #1 = { "target-cpu"="x86-64" "target-features"="+sse2" "min-legal-vector-width"="0" }

; CHECK: $__pcmap_sections1.module_ctor = comdat any
; CHECK: $__pcmap_sections1.module_dtor = comdat any
; CHECK: @__start_pcmap_atomics1 = extern_weak hidden global i8
; CHECK: @__stop_pcmap_atomics1 = extern_weak hidden global i8
; CHECK: @__start_pcmap_functions1 = extern_weak hidden global i8
; CHECK: @__stop_pcmap_functions1 = extern_weak hidden global i8
; CHECK: @llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 2, ptr @__pcmap_sections1.module_ctor, ptr @__pcmap_sections1.module_ctor }]
; CHECK: @llvm.global_dtors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 2, ptr @__pcmap_sections1.module_dtor, ptr @__pcmap_sections1.module_dtor }]

; CHECK: declare extern_weak void @__pcmap_sections_add(i32, ptr, ptr, ptr, ptr)
; CHECK: define hidden void @__pcmap_sections1.module_ctor() #[[ATTR:[0-9]+]] comdat {
; CHECK-NEXT: entry:
; CHECK-NEXT:   %present = icmp ne ptr @__pcmap_sections_add, null
; CHECK-NEXT:   br i1 %present, label %call, label %ret
; CHECK: call:
; CHECK-NEXT:   call void @__pcmap_sections_add(i32 1, ptr @__start_pcmap_atomics1, ptr @__stop_pcmap_atomics1, ptr @__start_pcmap_functions1, ptr @__stop_pcmap_functions1)
; CHECK: declare extern_weak void @__pcmap_sections_del(i32, ptr, ptr, ptr, ptr)
; CHECK: define hidden void @__pcmap_sections1.module_dtor() #[[ATTR]] comdat {
; CHECK:   call void @__pcmap_sections_del(i32 1, ptr @__start_pcmap_atomics1, ptr @__stop_pcmap_atomics1, ptr @__start_pcmap_functions1, ptr @__stop_pcmap_functions1)
; The constructors themselves are never instrumented. Run once, they are
; compiled as at -O0 (optnone: fast instruction selection, no optimising
; machine passes), with the module's common subtarget attributes, so that
; the code generator builds no second subtarget for them.
; CHECK: attributes #[[ATTR]] = { disable_sanitizer_instrumentation noinline nounwind optnone "min-legal-vector-width"="0" "target-cpu"="x86-64" }
