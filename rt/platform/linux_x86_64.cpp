//===- platform/linux_x86_64.cpp - Linux on x86-64 ------------------------===//

#include "platform/platform.h"

#if defined(__x86_64__)

#include <ucontext.h>

namespace pcmap {
namespace rt {

uintptr_t signalContextPC(const void *Context) {
  auto *UC = static_cast<const ucontext_t *>(Context);
  return uintptr_t(UC->uc_mcontext.gregs[REG_RIP]);
}

uintptr_t signalContextSP(const void *Context) {
  auto *UC = static_cast<const ucontext_t *>(Context);
  return uintptr_t(UC->uc_mcontext.gregs[REG_RSP]);
}

uintptr_t signalContextStackTop(const void *Context) {
  constexpr uintptr_t kRedZone = 128;
  return (signalContextSP(Context) - kRedZone) & ~uintptr_t(15);
}

// A call pushes its return address on the stack, and calls have several
// lengths; x86-64 has no outline-atomic helpers (atomics are one
// instruction).
uintptr_t signalContextReturnAddress(const void *) { return 0; }
uintptr_t callSiteOfReturnAddress(uintptr_t) { return 0; }
size_t outlineHelperSize(uintptr_t) { return 0; }

} // namespace rt
} // namespace pcmap

// callOnStack(Top, Fn, Arg): the frame pointer keeps the caller's stack
// pointer, and the call frame information describes the caller from it
// whatever the stack pointer is.
asm(R"(
  .text
  .globl _ZN5pcmap2rt11callOnStackEPvPFvS1_ES1_
  .hidden _ZN5pcmap2rt11callOnStackEPvPFvS1_ES1_
  .type _ZN5pcmap2rt11callOnStackEPvPFvS1_ES1_, @function
  .p2align 4
_ZN5pcmap2rt11callOnStackEPvPFvS1_ES1_:
  .cfi_startproc
  pushq %rbp
  .cfi_def_cfa_offset 16
  .cfi_offset %rbp, -16
  movq %rsp, %rbp
  .cfi_def_cfa_register %rbp
  andq $-16, %rdi
  movq %rdi, %rsp
  movq %rdx, %rdi
  callq *%rsi
  movq %rbp, %rsp
  popq %rbp
  .cfi_def_cfa %rsp, 8
  retq
  .cfi_endproc
  .size _ZN5pcmap2rt11callOnStackEPvPFvS1_ES1_, .-_ZN5pcmap2rt11callOnStackEPvPFvS1_ES1_
)");

#endif // __x86_64__
