//===- x86_call.cpp - Lengths of x86-64 calls and NOPs --------------------===//

#include "stackmaps/x86_call.h"

#include "stackmaps/call_site.h"

#include "pcmap/pcmap.h"

namespace pcmap {
namespace rt {

namespace {

bool isLegacyPrefix(uint8_t B) {
  switch (B) {
  case 0x66: // operand size
  case 0x67: // address size
  case 0x2e: // cs (also "not taken"; ignored in 64-bit mode)
  case 0x3e: // ds (also CET's notrack)
  case 0x26:
  case 0x36:
  case 0x64: // fs
  case 0x65: // gs
  case 0xf2: // bnd
  case 0xf3:
    return true;
  default:
    return false;
  }
}

bool isRex(uint8_t B) { return (B & 0xf0) == 0x40; }

/// Bytes of a ModRM operand (the ModRM byte, SIB, displacement) at P, or 0
/// if they do not fit in Avail.
unsigned modRMLength(const uint8_t *P, size_t Avail) {
  if (Avail < 1)
    return 0;
  uint8_t ModRM = P[0];
  unsigned Mod = ModRM >> 6, RM = ModRM & 7;
  unsigned N = 1;
  if (Mod == 3)
    return N;
  if (RM == 4) { // SIB
    if (Avail < 2)
      return 0;
    uint8_t Base = P[1] & 7;
    ++N;
    if (Mod == 0 && Base == 5)
      N += 4; // disp32, no base
  } else if (Mod == 0 && RM == 5) {
    N += 4; // RIP-relative disp32
  }
  if (Mod == 1)
    N += 1;
  else if (Mod == 2)
    N += 4;
  return N <= Avail ? N : 0;
}

/// Skips legacy prefixes (at most 4) and one REX prefix right before the
/// opcode. Returns the number of prefix bytes; Rex receives the REX byte or
/// 0, OperandSize whether 66 was seen.
unsigned skipPrefixes(const uint8_t *P, size_t Avail, uint8_t &Rex,
                      bool &OperandSize) {
  unsigned N = 0;
  Rex = 0;
  OperandSize = false;
  while (N < Avail && N < 4 && isLegacyPrefix(P[N])) {
    OperandSize |= P[N] == 0x66;
    ++N;
  }
  if (N < Avail && isRex(P[N]))
    Rex = P[N++];
  return N;
}

} // namespace

unsigned x86CallLength(const uint8_t *Code, size_t Avail, int64_t *RelTarget,
                       bool *Direct) {
  if (RelTarget)
    *RelTarget = 0;
  if (Direct)
    *Direct = false;
  if (Avail > kX86MaxInstructionLength)
    Avail = kX86MaxInstructionLength;
  uint8_t Rex;
  bool OperandSize;
  unsigned N = skipPrefixes(Code, Avail, Rex, OperandSize);
  if (N >= Avail)
    return 0;
  uint8_t Op = Code[N++];
  if (Op == 0xe8) {
    // With 66, a 16-bit displacement on some processors: not what a
    // compiler emits in 64-bit code.
    if (OperandSize || N + 4 > Avail)
      return 0;
    int32_t Rel =
        int32_t(uint32_t(Code[N]) | uint32_t(Code[N + 1]) << 8 |
                uint32_t(Code[N + 2]) << 16 | uint32_t(Code[N + 3]) << 24);
    if (RelTarget)
      *RelTarget = Rel;
    if (Direct)
      *Direct = true;
    return N + 4;
  }
  if (Op != 0xff || N >= Avail)
    return 0;
  unsigned Reg = (Code[N] >> 3) & 7;
  unsigned Mod = Code[N] >> 6;
  // FF /2: call r/m64; FF /3: far call through memory (m16:32 or m16:64).
  if (Reg != 2 && !(Reg == 3 && Mod != 3))
    return 0;
  unsigned M = modRMLength(Code + N, Avail - N);
  if (!M)
    return 0;
  return N + M;
}

unsigned x86NopLength(const uint8_t *Code, size_t Avail) {
  if (Avail > kX86MaxInstructionLength)
    Avail = kX86MaxInstructionLength;
  unsigned N = 0;
  // LLVM's long NOPs: up to several 66 prefixes and a 2E before 0F 1F.
  while (N < Avail && (Code[N] == 0x66 || Code[N] == 0x2e))
    ++N;
  if (N >= Avail)
    return 0;
  if (Code[N] == 0x90)
    return N + 1;
  if (Code[N] != 0x0f || N + 1 >= Avail || Code[N + 1] != 0x1f)
    return 0;
  N += 2;
  if (N >= Avail || ((Code[N] >> 3) & 7) != 0)
    return 0;
  unsigned M = modRMLength(Code + N, Avail - N);
  return M ? N + M : 0;
}

unsigned x86MovImmLength(const uint8_t *Code, size_t Avail) {
  if (Avail < 5)
    return 0;
  unsigned N = 0;
  uint8_t Rex = 0;
  if (isRex(Code[0]))
    Rex = Code[N++];
  bool W = Rex & 8;
  uint8_t Op = Code[N++];
  if (Op >= 0xb8 && Op <= 0xbf) {
    unsigned Imm = W ? 8 : 4;
    return N + Imm <= Avail ? N + Imm : 0;
  }
  if (Op == 0xc7 && W && N < Avail && Code[N] >> 6 == 3 &&
      ((Code[N] >> 3) & 7) == 0)
    return N + 1 + 4 <= Avail ? N + 1 + 4 : 0;
  return 0;
}

unsigned x86CallEndingAt(const uint8_t *Code, size_t End, uintptr_t CodeAddress,
                         uintptr_t TargetLo, uintptr_t TargetHi) {
  auto Decodes = [&](unsigned Len) {
    int64_t Rel;
    bool Direct;
    if (Len > End || x86CallLength(Code + End - Len, Len, &Rel, &Direct) != Len)
      return false;
    if (Direct) {
      uintptr_t Target = CodeAddress + End + uintptr_t(Rel);
      if (Target < TargetLo || Target >= TargetHi)
        return false;
    }
    return true;
  };
  for (unsigned Len = 2; Len <= kX86MaxInstructionLength && Len <= End; ++Len) {
    if (!Decodes(Len))
      continue;
    // The shortest decoding may have left out prefixes of the call (ff d6
    // decodes as call *%rsi, 41 ff d6 as call *%r14): take the prefix bytes
    // right before it as long as the longer candidate still decodes.
    while (Len < kX86MaxInstructionLength && Len < End) {
      uint8_t Before = Code[End - Len - 1];
      if (!isRex(Before) && !isLegacyPrefix(Before))
        break;
      if (!Decodes(Len + 1))
        break;
      ++Len;
    }
    return Len;
  }
  return 0;
}

unsigned x86PatchpointRegionSize(const uint8_t *Code, size_t Avail) {
  size_t N = 0;
  // The call sequence: mov $target, %scratch; call *%scratch. LLVM uses a
  // register call; a direct call is accepted too.
  size_t Mov = x86MovImmLength(Code, Avail);
  size_t Call = x86CallLength(Code + Mov, Avail - Mov);
  if (Call)
    N = Mov + Call;
  bool Any = N != 0;
  while (N < Avail) {
    unsigned Nop = x86NopLength(Code + N, Avail - N);
    if (!Nop)
      break;
    N += Nop;
    Any = true;
  }
  return Any ? unsigned(N) : 0;
}

#if defined(__x86_64__)
CallSite callSiteAt(uintptr_t Lo, uintptr_t PC, uintptr_t Hi, uintptr_t CodeLo,
                    uintptr_t CodeHi) {
  const auto *Code = reinterpret_cast<const uint8_t *>(PC);
  size_t After = Hi - PC;
  // A patchpoint with a target: mov $target, %scratch; call *%scratch.
  if (unsigned Mov = x86MovImmLength(Code, After))
    if (x86CallLength(Code + Mov, After - Mov))
      return {stackmap::CK_Patchpoint, x86PatchpointRegionSize(Code, After)};
  // A call that returns to the record (statepoint, stack map after a call).
  if (unsigned Call = x86CallEndingAt(reinterpret_cast<const uint8_t *>(Lo),
                                      PC - Lo, Lo, CodeLo, CodeHi))
    return {stackmap::CK_Call, Call};
  // A patchpoint without a target: NOPs only.
  if (x86NopLength(Code, After))
    return {stackmap::CK_Patchpoint, x86PatchpointRegionSize(Code, After)};
  return {stackmap::CK_None, 0};
}
#endif // __x86_64__

} // namespace rt
} // namespace pcmap
