//===- platform/linux_x86_64.cpp - Linux on x86-64 ------------------------===//

#include "platform/platform.h"

#if defined(__x86_64__)

#include <asm/prctl.h>
#include <string.h>
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

bool atSystemCall(uintptr_t PC) {
  if ((PC & 4095) > 4094)
    return false;
  const auto *At = reinterpret_cast<const uint8_t *>(PC);
  return At[0] == 0x0F && At[1] == 0x05; // SYSCALL
}

namespace {

/// The length of the instruction at Code if it is one of those the C
/// library's futex wrappers place between MOV $SYS_futex, %EAX and SYSCALL
/// (they set the other arguments: XOR $imm8, %SIL or %DL; AND $imm32,
/// %ESI; MOV %EDX, %ESI; MOV %ECX, %EDX; MOV $imm32, %EDX or %ESI; XOR
/// %EDX, %EDX; XOR %R10D, %R10D), none of which writes EAX or RDI; else 0.
/// Avail: the bytes readable at Code.
size_t futexArgumentSetup(const uint8_t *Code, size_t Avail) {
  // Each form: its opcode bytes, then the length of its immediate.
  static constexpr struct {
    uint8_t Opcode[3], OpcodeLength, ImmediateLength;
  } kForms[] = {
      {{0x40, 0x80, 0xF6}, 3, 1}, // XOR $imm8, %SIL
      {{0x80, 0xF2}, 2, 1},       // XOR $imm8, %DL
      {{0x81, 0xE6}, 2, 4},       // AND $imm32, %ESI
      {{0x89, 0xD6}, 2, 0},       // MOV %EDX, %ESI
      {{0x89, 0xCA}, 2, 0},       // MOV %ECX, %EDX
      {{0x31, 0xD2}, 2, 0},       // XOR %EDX, %EDX
      {{0xBA}, 1, 4},             // MOV $imm32, %EDX
      {{0xBE}, 1, 4},             // MOV $imm32, %ESI
      {{0x45, 0x31, 0xD2}, 3, 0}, // XOR %R10D, %R10D
  };
  for (const auto &F : kForms) {
    size_t Length = size_t(F.OpcodeLength) + F.ImmediateLength;
    if (Length <= Avail && !memcmp(Code, F.Opcode, F.OpcodeLength))
      return Length;
  }
  return 0;
}

} // namespace

namespace {

/// The futex word of a wait's registers: 0 unless Op is a wait's and Word a
/// futex's (4-aligned).
uintptr_t waitedWord(uintptr_t Word, unsigned long Op) {
  // The operation without FUTEX_PRIVATE_FLAG and FUTEX_CLOCK_REALTIME:
  // FUTEX_WAIT, FUTEX_LOCK_PI, FUTEX_WAIT_BITSET, FUTEX_WAIT_REQUEUE_PI,
  // FUTEX_LOCK_PI2: the waits, which read the word.
  Op &= 127;
  bool Wait = Op == 0 || Op == 6 || Op == 9 || Op == 11 || Op == 13;
  return Wait && Word && !(Word & 3) ? Word : 0;
}

constexpr long kSysFutex = 202;

} // namespace

uintptr_t futexWaitWordAtSignalContext(const void *Context, uintptr_t &CallPC) {
  uintptr_t PC = signalContextPC(Context);
  const greg_t *G = static_cast<const ucontext_t *>(Context)->uc_mcontext.gregs;
  if (atSystemCall(PC)) {
    uintptr_t Word = long(G[REG_RAX]) == kSysFutex
                         ? waitedWord(uintptr_t(G[REG_RDI]),
                                      static_cast<unsigned long>(G[REG_RSI]))
                         : 0;
    if (Word)
      CallPC = PC;
    return Word;
  }
  // The SYSCALL (0F 05) before the PC, and MOV $202, %EAX (B8 CA 00 00 00)
  // before it, directly or through the wrappers' argument set-up; all in
  // PC's page.
  constexpr size_t kReach = 32;
  size_t InPage = PC & 4095;
  if (InPage < 7 || !followsSystemCall(PC))
    return 0;
  size_t Back = InPage < kReach ? InPage : kReach;
  const auto *Code = reinterpret_cast<const uint8_t *>(PC - Back);
  const uint8_t *Call = reinterpret_cast<const uint8_t *>(PC - 2);
  bool Futex = false;
  for (const uint8_t *Mov = Call - 5; Mov >= Code && !Futex; --Mov) {
    if (Mov[0] != 0xB8 || Mov[1] != 0xCA || Mov[2] || Mov[3] || Mov[4])
      continue;
    const uint8_t *At = Mov + 5;
    while (At < Call)
      if (size_t N = futexArgumentSetup(At, size_t(Call - At)))
        At += N;
      else
        break;
    Futex = At == Call;
  }
  if (!Futex)
    return 0;
  // What a wait returns: woken, the word changed before it slept (EAGAIN),
  // a timeout, or a signal (EINTR).
  long Result = long(G[REG_RAX]);
  bool WaitResult =
      Result == 0 || Result == -11 || Result == -110 || Result == -4;
  uintptr_t Word = WaitResult
                       ? waitedWord(uintptr_t(G[REG_RDI]),
                                    static_cast<unsigned long>(G[REG_RSI]))
                       : 0;
  if (Word)
    CallPC = PC - 2;
  return Word;
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
