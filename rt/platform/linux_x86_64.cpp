//===- platform/linux_x86_64.cpp - Linux on x86-64 ------------------------===//

#include "platform/platform.h"

#if defined(__x86_64__)

#include <asm/prctl.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

namespace pcmap {
namespace rt {

uintptr_t threadSegmentBase(bool GS) {
  unsigned long Base = 0;
  if (syscall(SYS_arch_prctl, GS ? ARCH_GET_GS : ARCH_GET_FS, &Base) != 0)
    return 0;
  return uintptr_t(Base);
}

uintptr_t signalContextPC(const void *Context) {
  auto *UC = static_cast<const ucontext_t *>(Context);
  return uintptr_t(UC->uc_mcontext.gregs[REG_RIP]);
}

uintptr_t signalContextSP(const void *Context) {
  auto *UC = static_cast<const ucontext_t *>(Context);
  return uintptr_t(UC->uc_mcontext.gregs[REG_RSP]);
}

uintptr_t signalContextFP(const void *Context) {
  auto *UC = static_cast<const ucontext_t *>(Context);
  return uintptr_t(UC->uc_mcontext.gregs[REG_RBP]);
}

void signalContextRegisters(const void *Context, uintptr_t *Regs) {
  auto *UC = static_cast<const ucontext_t *>(Context);
  const greg_t *G = UC->uc_mcontext.gregs;
  // DWARF's order, RAX RDX RCX RBX RSI RDI RBP RSP R8..R15, then the PC.
  static constexpr int kGregOfDwarf[kDwarfRegisters] = {
      REG_RAX, REG_RDX, REG_RCX, REG_RBX, REG_RSI, REG_RDI,
      REG_RBP, REG_RSP, REG_R8,  REG_R9,  REG_R10, REG_R11,
      REG_R12, REG_R13, REG_R14, REG_R15, REG_RIP};
  for (unsigned I = 0; I < kDwarfRegisters; ++I)
    Regs[I] = uintptr_t(G[kGregOfDwarf[I]]);
}

StubReturn pltStubAt(uintptr_t PC) {
  auto Code = [](uintptr_t At) {
    return *reinterpret_cast<const uint8_t *>(At);
  };
  // ENDBR64 (F3 0F 1E FA), which IBT PLTs start with, then the jump.
  if (Code(PC) == 0xF3 && Code(PC + 1) == 0x0F && Code(PC + 2) == 0x1E &&
      Code(PC + 3) == 0xFA)
    PC += 4;
  if (Code(PC) == 0xF2) // BND, of MPX PLTs
    ++PC;
  // JMP *disp32(%rip): FF 25.
  return Code(PC) == 0xFF && Code(PC + 1) == 0x25 ? StubReturn::AtStackPointer
                                                  : StubReturn::None;
}

uintptr_t stripPointerAuthentication(uintptr_t ReturnAddress) {
  return ReturnAddress;
}

bool followsCall(uintptr_t ReturnAddress, uintptr_t Floor) {
  auto Byte = [&](unsigned Back) -> int {
    uintptr_t At = ReturnAddress - Back;
    return ReturnAddress >= Back && At >= Floor
               ? *reinterpret_cast<const uint8_t *>(At)
               : -1;
  };
  // CALL rel32: E8 and four bytes.
  if (Byte(5) == 0xE8)
    return true;
  // CALL r/m64: FF /2, with a ModRM (and SIB, displacement) of 1 to 6
  // bytes after the opcode, which a REX prefix may precede.
  for (unsigned Length = 2; Length <= 7; ++Length)
    if (Byte(Length) == 0xFF) {
      int ModRM = Byte(Length - 1);
      if (ModRM >= 0 && ((ModRM >> 3) & 7) == 2)
        return true;
    }
  return false;
}

bool followsSystemCall(uintptr_t PC) {
  if ((PC & 4095) < 2)
    return false;
  const auto *At = reinterpret_cast<const uint8_t *>(PC - 2);
  return At[0] == 0x0F && At[1] == 0x05; // SYSCALL
}

// Reads the interrupted code's stack, not this function's: not
// instrumented by ASan.
__attribute__((no_sanitize("address", "hwaddress"))) uintptr_t
unlinkedReturnAddress(const void *Context, uintptr_t FunctionStart,
                      size_t FunctionSize) {
  uintptr_t PC = signalContextPC(Context), SP = signalContextSP(Context);
  auto Code = [](uintptr_t At) {
    return *reinterpret_cast<const uint8_t *>(At);
  };
  constexpr uint8_t kRet = 0xC3;
  if (PC == FunctionStart || Code(PC) == kRet)
    return *reinterpret_cast<const uintptr_t *>(SP);
  // The frame record is linked by PUSH RBP; MOV RBP, RSP (55 48 89 E5),
  // which shrink-wrapping may move past code that needs no frame (an
  // atomic on a fast path): before it, the return address is at the stack
  // pointer; between the two, one word above.
  constexpr size_t kPrologueReach = 512;
  uintptr_t End =
      FunctionStart +
      (FunctionSize < kPrologueReach ? FunctionSize : kPrologueReach);
  for (uintptr_t At = FunctionStart; At + 4 <= End; ++At) {
    if (Code(At) != 0x55 || Code(At + 1) != 0x48 || Code(At + 2) != 0x89 ||
        Code(At + 3) != 0xE5)
      continue;
    if (PC < At)
      return *reinterpret_cast<const uintptr_t *>(SP);
    if (PC == At + 1)
      return *reinterpret_cast<const uintptr_t *>(SP + 8);
    return 0;
  }
  return 0;
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
