; Before an LTO link the pass only marks the functions to instrument (the
; "pcmap-features" attribute: 1 atomics, 2 functions) and makes the
; registration constructors (in bitcode, so that the linker deduplicates
; their COMDATs); the link-time run instruments exactly the marked functions,
; after the link-time optimisations.
; RUN: %opt-pcmap -passes='pcmap<lto-prelink>' -S %s -o %t.pre.ll
; RUN: FileCheck %s --check-prefix=PRE < %t.pre.ll
; The options' equivalent, for LLVM 19 whose extension points do not say
; which LTO phase they run in.
; RUN: %opt-pcmap -passes=pcmap -pcmap-lto-prelink -S %s | FileCheck %s --check-prefix=PRE
; RUN: %opt-pcmap -passes='pcmap<functions;lto-prelink>' -S %s | FileCheck %s --check-prefix=PRE-FUNCS
; Link: @plain stands for code from a translation unit built without pcmap.
; RUN: sed -e 's/^define void @plain(\(.*\)) #[0-9]* {/define void @plain_from_other_tu(\1) {/' %t.pre.ll | \
; RUN:   %opt-pcmap -passes=pcmap -S | FileCheck %s --check-prefix=LINK

target triple = "x86_64-unknown-linux-gnu"

define void @f(ptr %p) {
  store atomic i32 1, ptr %p release, align 4
  ret void
}

define void @plain(ptr %p) {
  store atomic i32 1, ptr %p release, align 4
  ret void
}

; PRE-NOT: !pcsections
; PRE: define void @f(ptr %p) #[[A:[0-9]+]] {
; PRE-NOT: !pcsections
; PRE: define hidden void @__pcmap_sections1.module_ctor() {{.*}} comdat {
; PRE-NOT: !pcsections
; PRE: attributes #[[A]] = { "pcmap-features"="3" }
; PRE-FUNCS: @__pcmap_sections1.module_ctor()
; PRE-FUNCS: attributes #{{[0-9]+}} = { "pcmap-features"="2" }

; LINK-NOT: @__pcmap_sections1.module_ctor.{{[0-9]+}}
; LINK: define void @f(ptr %p) #{{[0-9]+}} !pcsections
; LINK-NEXT: store atomic i32 1, ptr %p release, align 4, !pcsections
; LINK: define void @plain_from_other_tu(ptr %p) {
; LINK-NEXT: store atomic i32 1, ptr %p release, align 4{{$}}
