//===- access.h - The memory an instruction accesses, from its bytes ------===//
//
// What a sampled instruction reads or writes: decoded from the instruction's
// bytes alone into an addressing form (base, index, scale, displacement,
// segment: registers by number), then evaluated against the registers of a
// signal context. Decoding never guesses: an encoding it does not know in
// full (its length, whether and how it accesses memory, the size) is
// unknown, never a wrong address. One decoder per architecture
// (access_x86_64.cpp, ...), each held against LLVM's disassembler on real
// binaries (test/tools/access-check) and fuzzed.
//
// Async-signal-safe: no allocation, no locks, bounded time (an x86-64
// instruction is at most 15 bytes), a few hundred bytes of stack.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_RT_CORE_ACCESS_H
#define PCMAP_RT_CORE_ACCESS_H

#include <stddef.h>
#include <stdint.h>

namespace pcmap {
namespace rt {

/// What the decoder says of an instruction.
enum AccessDecode : uint8_t {
  AD_Unknown,  // not decoded: the bytes are not an encoding it knows in full
  AD_NoMemory, // decoded; accesses no data memory (LEA, NOP and prefetches
               // included: they compute an address and access nothing)
  AD_Memory,   // decoded; Form says which memory it accesses
};

/// Whether the access reads, writes or both (read-modify-write).
enum AccessKind : uint8_t { AK_Read = 1, AK_Write = 2, AK_ReadWrite = 3 };

/// Register numbers of an addressing form. x86-64: the hardware's (RAX = 0
/// ... R15 = 15) and RIP; AArch64: DWARF's (X0 = 0 ... X30 = 30, SP = 31)
/// and the PC.
enum : uint8_t {
  kX86RegRIP = 16,
  kAArch64RegSP = 31,
  kAArch64RegPC = 32,
  kNoRegister = 0xff
};

/// How an AArch64 index register is extended before it is scaled.
enum AccessExtend : uint8_t {
  AE_None, // the 64-bit register as it is
  AE_UXTW, // its low 32 bits, zero-extended
  AE_SXTW, // its low 32 bits, sign-extended
};

/// The segment of an x86-64 access: only FS and GS have a base in 64-bit
/// mode.
enum AccessSegment : uint8_t { AS_None, AS_FS, AS_GS };

/// How an instruction's memory operand is addressed, and what it does.
/// Address = Segment base + Base + Index * Scale + Displacement, wrapped to
/// 32 bits when AddressBytes is 4 (the 0x67 prefix); Base kX86RegRIP is
/// the address of the next instruction (PC + Length), kAArch64RegPC the
/// instruction's own; an AArch64 Index is extended first (IndexExtend).
struct AccessForm {
  uint8_t Length = 0;       // the instruction's bytes
  uint8_t Size = 0;         // bytes accessed; 0: not known (address is)
  uint8_t Kind = 0;         // AccessKind
  uint8_t Base = kNoRegister, Index = kNoRegister;
  uint8_t Scale = 1;        // 1, 2, 4 or 8
  uint8_t Segment = AS_None;
  uint8_t AddressBytes = 8; // 8, or 4 with the address-size prefix
  uint8_t IndexExtend = AE_None;
  /// Whether the instruction writes a register its address is formed from
  /// (`mov (%rax),%rax`, `cmpxchg` and %rax, string and stack operations):
  /// the form is then the address before the instruction ran, and says
  /// nothing of the address after it.
  bool WritesAddressRegister = false;
  /// Lock prefix (x86-64).
  bool Locked = false;
  int64_t Displacement = 0;
};

/// Decodes the x86-64 instruction at Bytes (Avail of them readable).
AccessDecode decodeX86_64Access(const uint8_t *Bytes, size_t Avail,
                                AccessForm &Form);

/// The registers an x86-64 address is formed from, as the instruction at PC
/// is about to run: the general registers by DWARF number (RAX RDX RCX RBX
/// RSI RDI RBP RSP R8..R15, as signalContextRegisters gives them), and the
/// FS and GS bases (0: not known).
struct X86_64Registers {
  const uintptr_t *Dwarf;
  uintptr_t PC, FSBase, GSBase;
};

/// The address Form accesses with registers Regs; false if it cannot be
/// known (a segment base not known).
bool evaluateX86_64Access(const AccessForm &Form, const X86_64Registers &Regs,
                          uintptr_t &Address);

/// Decodes the AArch64 instruction at Bytes (Avail of them readable).
AccessDecode decodeAArch64Access(const uint8_t *Bytes, size_t Avail,
                                 AccessForm &Form);

/// The address Form accesses as the AArch64 instruction at PC is about to
/// run, with the general registers by DWARF number (X0..X30, SP).
uintptr_t evaluateAArch64Access(const AccessForm &Form, const uintptr_t *Dwarf,
                                uintptr_t PC);

/// The access the instruction at a signal context's PC is about to make, on
/// the architecture the runtime runs on: AD_Memory with its Form and
/// Address; otherwise the decoder's answer (AD_Unknown also where the bytes
/// cannot be read or a segment's base is not known). Call it on the thread
/// the context is of (a segment base is the calling thread's).
/// Async-signal-safe.
AccessDecode accessAtSignalContext(const void *Context, AccessForm &Form,
                                   uintptr_t &Address);

/// The same for the instruction at At, which ended at the context's PC (an
/// atomic whose signal came as it retired): AD_Unknown unless it is At's
/// length before the PC and writes no register its address is formed from
/// (the registers are then still those it ran with).
AccessDecode accessEndingAtSignalContext(const void *Context, uintptr_t At,
                                         AccessForm &Form, uintptr_t &Address);

/// How an instruction may change the flow of control.
enum ControlFlow : uint8_t {
  CF_None,         // on to the next instruction
  CF_Jump,         // a direct jump or branch, conditional or not: Target
  CF_IndirectJump, // a jump through a register or memory: anywhere
  CF_Call,         // a call (the next instruction runs after a return)
  CF_Return,       // a return, a trap or a system call
};
/// What the decoded instruction at PC (Length bytes at Bytes) does to the
/// flow of control, and a direct jump's target.
ControlFlow x86_64ControlFlow(const uint8_t *Bytes, size_t Length, uintptr_t PC,
                              uintptr_t &Target);
ControlFlow aarch64ControlFlow(const uint8_t *Bytes, uintptr_t PC,
                               uintptr_t &Target);

/// The most bytes instructionEndingAt decodes.
constexpr uintptr_t kMaxCodeScan = 2048;

/// The instruction that ran just before PC in straight-line code [Begin,
/// End) (a covered function, whole: no other code jumps into it): where it
/// starts, found by decoding forward from Begin. 0 when that cannot be
/// known for sure: an instruction on the way the decoder does not know, PC
/// the target of a jump of the code or any indirect jump in it (control
/// may have come from elsewhere), the instruction before PC a jump, call or
/// return, or more than kMaxCodeScan bytes. Reads the code in place (it
/// runs). Async-signal-safe.
uintptr_t instructionEndingAt(uintptr_t PC, uintptr_t Begin, uintptr_t End);

/// The calling thread's thread pointer (x86-64: the TCB's self pointer at
/// %fs:0; AArch64: TPIDR_EL0), which static TLS lies at fixed offsets of.
/// Async-signal-safe.
uintptr_t threadPointer();

} // namespace rt
} // namespace pcmap

#endif // PCMAP_RT_CORE_ACCESS_H
