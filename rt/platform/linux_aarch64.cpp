//===- platform/linux_aarch64.cpp - Linux on AArch64 ----------------------===//
//
// What the runtime knows of AArch64: the registers of a signal context,
// calls (BL and BLR are 4 bytes), and the code of the outline-atomic
// helpers (Format.h). A third architecture is one more file like this one
// (and linux_x86_64.cpp).
//
//===----------------------------------------------------------------------===//

#include "platform/platform.h"

#if defined(__aarch64__)

#include <string.h>
#include <ucontext.h>

namespace pcmap {
namespace rt {

uintptr_t threadSegmentBase(bool) { return 0; }

uintptr_t signalContextPC(const void *Context) {
  auto *UC = static_cast<const ucontext_t *>(Context);
  return uintptr_t(UC->uc_mcontext.pc);
}

uintptr_t signalContextSP(const void *Context) {
  auto *UC = static_cast<const ucontext_t *>(Context);
  return uintptr_t(UC->uc_mcontext.sp);
}

uintptr_t signalContextFP(const void *Context) {
  auto *UC = static_cast<const ucontext_t *>(Context);
  return uintptr_t(UC->uc_mcontext.regs[29]);
}

void signalContextRegisters(const void *Context, uintptr_t *Regs) {
  auto *UC = static_cast<const ucontext_t *>(Context);
  for (unsigned I = 0; I < 31; ++I)
    Regs[I] = uintptr_t(UC->uc_mcontext.regs[I]);
  Regs[kDwarfSP] = uintptr_t(UC->uc_mcontext.sp);
}

StubReturn pltStubAt(uintptr_t PC) {
  if (PC & 3)
    return StubReturn::None;
  uint32_t Insn;
  memcpy(&Insn, reinterpret_cast<const void *>(PC), 4);
  // A PLT entry: ADRP X16; LDR X17, [X16, #lo]; ADD X16, X16, #lo; BR X17
  // (BTI C or a NOP may come first), all with IP0 and IP1 only.
  bool Adrp = (Insn & 0x9F00001Fu) == 0x90000010u;
  bool Ldr = (Insn & 0xFFC003FFu) == 0xF9400211u;
  bool Add = (Insn & 0xFFC003FFu) == 0x91000210u;
  bool Br = Insn == 0xD61F0220u;
  return Adrp || Ldr || Add || Br ? StubReturn::InLinkRegister
                                  : StubReturn::None;
}

uintptr_t stripPointerAuthentication(uintptr_t ReturnAddress) {
  // Code is mapped below 2^48 (Linux maps above it only on request, with
  // 52-bit addresses); the PAC is in the bits above the address.
  return ReturnAddress & ((uintptr_t(1) << 48) - 1);
}

bool followsCall(uintptr_t ReturnAddress, uintptr_t Floor) {
  if (ReturnAddress < 4 || ReturnAddress - 4 < Floor || (ReturnAddress & 3))
    return false;
  uint32_t Insn = *reinterpret_cast<const uint32_t *>(ReturnAddress - 4);
  bool BL = (Insn & 0xFC000000u) == 0x94000000u;
  bool BLR = (Insn & 0xFFFFFC1Fu) == 0xD63F0000u;
  return BL || BLR;
}

bool followsSystemCall(uintptr_t PC) {
  if ((PC & 3) || (PC & 4095) < 4)
    return false;
  return *reinterpret_cast<const uint32_t *>(PC - 4) == 0xD4000001u; // SVC #0
}

bool atSystemCall(uintptr_t PC) {
  return !(PC & 3) &&
         *reinterpret_cast<const uint32_t *>(PC) == 0xD4000001u; // SVC #0
}

uintptr_t futexWaitWordAtSignalContext(const void *Context, uintptr_t &CallPC) {
  // Only at the call (restarted, or about to be made): after it, X0 holds
  // the result, not the word.
  uintptr_t PC = signalContextPC(Context);
  auto *UC = static_cast<const ucontext_t *>(Context);
  constexpr uint64_t kSysFutex = 98;
  if (!atSystemCall(PC) || UC->uc_mcontext.regs[8] != kSysFutex)
    return 0;
  uintptr_t Word = uintptr_t(UC->uc_mcontext.regs[0]);
  // The waits (see the x86-64 version): FUTEX_WAIT, FUTEX_LOCK_PI,
  // FUTEX_WAIT_BITSET, FUTEX_WAIT_REQUEUE_PI, FUTEX_LOCK_PI2.
  uint64_t Op = UC->uc_mcontext.regs[1] & 127;
  bool Wait = Op == 0 || Op == 6 || Op == 9 || Op == 11 || Op == 13;
  if (!Wait || !Word || (Word & 3))
    return 0;
  CallPC = PC;
  return Word;
}

// Reads the interrupted code's stack, not this function's: not
// instrumented by ASan.
__attribute__((no_sanitize("address", "hwaddress"))) uintptr_t
unlinkedReturnAddress(const void *Context, uintptr_t FunctionStart, size_t) {
  uintptr_t PC = signalContextPC(Context);
  constexpr uint32_t kRet = 0xD65F03C0u; // RET (X30)
  bool AtRet = !(PC & 3) && *reinterpret_cast<const uint32_t *>(PC) == kRet;
  return PC == FunctionStart || AtRet ? signalContextReturnAddress(Context) : 0;
}

uintptr_t signalContextStackTop(const void *Context) {
  constexpr uintptr_t kRedZone = 0;
  return (signalContextSP(Context) - kRedZone) & ~uintptr_t(15);
}

uintptr_t signalContextReturnAddress(const void *Context) {
  auto *UC = static_cast<const ucontext_t *>(Context);
  return uintptr_t(UC->uc_mcontext.regs[30]); // x30, the link register
}

uintptr_t callSiteOfReturnAddress(uintptr_t ReturnAddress) {
  return ReturnAddress >= 4 ? ReturnAddress - 4 : 0;
}

/// libgcc's and compiler-rt's helpers (lse.S) are 11 to 16 instructions:
/// an optional BTI, a test of __aarch64_have_lse_atomics, the LSE
/// instruction and RET, then the LL/SC loop and RET. The helper ends after
/// its second RET.
size_t outlineHelperSize(uintptr_t Entry) {
  constexpr uint32_t kRet = 0xd65f03c0; // ret (x30)
  constexpr unsigned kMaxInstructions = 32;
  if (!Entry || Entry % 4)
    return 0;
  unsigned Rets = 0;
  for (unsigned I = 0; I < kMaxInstructions; ++I) {
    uint32_t Insn;
    memcpy(&Insn, reinterpret_cast<const void *>(Entry + 4 * I), 4);
    if (Insn == kRet && ++Rets == 2)
      return 4 * (I + 1);
  }
  return 0;
}

} // namespace rt
} // namespace pcmap

// callOnStack(Top, Fn, Arg): the frame pointer keeps the caller's stack
// pointer, and the call frame information describes the caller from it
// whatever the stack pointer is.
asm(R"(
  .text
  .globl _ZN5pcmap2rt11callOnStackEPvPFvS1_ES1_
  .hidden _ZN5pcmap2rt11callOnStackEPvPFvS1_ES1_
  .type _ZN5pcmap2rt11callOnStackEPvPFvS1_ES1_, %function
  .p2align 2
_ZN5pcmap2rt11callOnStackEPvPFvS1_ES1_:
  .cfi_startproc
  stp x29, x30, [sp, #-16]!
  .cfi_def_cfa_offset 16
  .cfi_offset w30, -8
  .cfi_offset w29, -16
  mov x29, sp
  .cfi_def_cfa w29, 16
  and x0, x0, #-16
  mov sp, x0
  mov x0, x2
  blr x1
  mov sp, x29
  .cfi_def_cfa wsp, 16
  ldp x29, x30, [sp], #16
  .cfi_def_cfa_offset 0
  .cfi_restore w30
  .cfi_restore w29
  ret
  .cfi_endproc
  .size _ZN5pcmap2rt11callOnStackEPvPFvS1_ES1_, .-_ZN5pcmap2rt11callOnStackEPvPFvS1_ES1_
)");

#endif // __aarch64__
