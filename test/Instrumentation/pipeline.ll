; The plugin adds the pass at the right extension points: after all IR
; optimisations of a normal compilation (OptimizerLastEP, also at -O0) and of
; a ThinLTO back end, and at the end of the full LTO link.
; RUN: %opt-pcmap -passes='default<O0>' -S %s | FileCheck %s --check-prefix=DONE
; RUN: %opt-pcmap -passes='default<O2>' -S %s | FileCheck %s --check-prefix=DONE
; RUN: %opt-pcmap -passes='default<O3>' -S %s | FileCheck %s --check-prefix=DONE
; RUN: %opt-pcmap -passes='thinlto<O2>' -S %s | FileCheck %s --check-prefix=DONE
; RUN: %opt-pcmap -passes='lto<O2>' -S %s | FileCheck %s --check-prefix=DONE
; RUN: %opt-pcmap -passes='default<O2>' -print-pipeline-passes %s -disable-output | FileCheck %s --check-prefix=LAST

target triple = "x86_64-unknown-linux-gnu"

define i32 @f(ptr %p) {
  %v = load atomic i32, ptr %p acquire, align 4
  ret i32 %v
}

; DONE: define i32 @f({{.*}}) {{.*}}!pcsections
; DONE: load atomic i32, ptr %p acquire, align 4, !pcsections
; DONE: define hidden void @__pcmap_sections1.module_ctor()

; The pass follows every optimisation pass of the pipeline.
; LAST: ,pcmap<atomics;functions>,
