; Bad pass parameters are errors; targets that are not ELF are left alone
; with a warning.
; RUN: not %opt-pcmap -passes='pcmap<bogus>' -S %s 2>&1 | FileCheck %s --check-prefix=PARAM
; RUN: sed -e 's/x86_64-unknown-linux-gnu/x86_64-apple-macosx14.0.0/' %s | \
; RUN:   %opt-pcmap -passes=pcmap -S 2>&1 | FileCheck %s --check-prefix=MACHO

target triple = "x86_64-unknown-linux-gnu"

define void @f(ptr %p) {
  store atomic i32 1, ptr %p release, align 4
  ret void
}

; PARAM: invalid pcmap pass parameter 'bogus' (expected atomics, functions or lto-prelink)
; MACHO: warning: pcmap: target 'x86_64-apple-macosx14.0.0' does not use ELF; no pcmap metadata emitted
; MACHO-NOT: !pcsections
