; The ignorelist (SpecialCaseList syntax, as -fsanitize-ignorelist) removes
; functions (fun:) and whole translation units (src:), in a [pcmap] or
; [metadata] section (upstream's name) or in no section.
; RUN: rm -rf %t && mkdir -p %t
; RUN: echo 'fun:skip_me' > %t/fun.txt
; RUN: printf '[pcmap]\nfun:skip_*\n' > %t/glob.txt
; RUN: printf '[metadata]\nsrc:*ignorelist.ll\n' > %t/src.txt
; RUN: %opt-pcmap -passes=pcmap -pcmap-ignorelist=%t/fun.txt -S %s | FileCheck %s --check-prefix=FUN
; RUN: %opt-pcmap -passes=pcmap -pcmap-ignorelist=%t/glob.txt -S %s | FileCheck %s --check-prefix=GLOB
; RUN: %opt-pcmap -passes=pcmap -pcmap-ignorelist=%t/src.txt -S %s | FileCheck %s --check-prefix=SRC
; A missing or malformed file is an error, not a silent no-op.
; RUN: not %opt-pcmap -passes=pcmap -pcmap-ignorelist=%t/missing.txt -S %s 2>&1 | FileCheck %s --check-prefix=MISSING
; RUN: echo 'fun:[' > %t/bad.txt
; RUN: not %opt-pcmap -passes=pcmap -pcmap-ignorelist=%t/bad.txt -S %s 2>&1 | FileCheck %s --check-prefix=BAD

target triple = "x86_64-unknown-linux-gnu"

define void @skip_me(ptr %p) {
  store atomic i32 1, ptr %p release, align 4
  ret void
}
define void @skip_too(ptr %p) {
  ret void
}
define void @keep(ptr %p) {
  store atomic i32 1, ptr %p release, align 4
  ret void
}

; FUN: define void @skip_me(ptr %p) {
; FUN-NEXT: store atomic i32 1, ptr %p release, align 4{{$}}
; FUN: define void @skip_too(ptr %p) !pcsections
; FUN: define void @keep(ptr %p) !pcsections
; FUN-NEXT: store atomic i32 1, ptr %p release, align 4, !pcsections

; GLOB: define void @skip_me(ptr %p) {
; GLOB: define void @skip_too(ptr %p) {
; GLOB: define void @keep(ptr %p) !pcsections

; SRC-NOT: !pcsections
; SRC-NOT: module_ctor

; MISSING: error: pcmap: can't open file '{{.*}}missing.txt'
; BAD: error: pcmap: error parsing file '{{.*}}bad.txt'
