//===- aarch64_call.cpp - Calls and NOPs at AArch64 stack maps ------------===//
//
// LLVM's AArch64 AsmPrinter places a patchpoint's record at the start of its
// region: when it has a target, MOVZ and MOVK of the target into x16 and
// BLR x16, then NOPs up to the requested size; a statepoint's record (and a
// stack map right after a call) is at the return address of a BL or BLR.
// Every instruction is 4 bytes.
//
//===----------------------------------------------------------------------===//

#include "stackmaps/call_site.h"

#include "pcmap/pcmap.h"

#if defined(__aarch64__)

#include <string.h>

namespace pcmap {
namespace rt {

namespace {

constexpr uint32_t kNop = 0xd503201f;

uint32_t instructionAt(uintptr_t At) {
  uint32_t I;
  memcpy(&I, reinterpret_cast<const void *>(At), 4);
  return I;
}
bool isBL(uint32_t I) { return (I & 0xfc000000) == 0x94000000; }
bool isBLR(uint32_t I) { return (I & 0xfffffc1f) == 0xd63f0000; }
bool isMovz64(uint32_t I) { return (I & 0xff800000) == 0xd2800000; }
bool isMovk64(uint32_t I) { return (I & 0xff800000) == 0xf2800000; }

/// The target of the BL at At.
uintptr_t blTarget(uintptr_t At, uint32_t I) {
  int64_t Imm26 = int64_t(I & 0x03ffffff);
  if (Imm26 & 0x02000000)
    Imm26 -= 0x04000000;
  return At + uintptr_t(Imm26 * 4);
}

/// The patchable region at PC: MOVZ, MOVKs and BLR if Call, then NOPs.
uint32_t regionSize(uintptr_t PC, uintptr_t Hi, bool Call) {
  uintptr_t At = PC;
  if (Call) {
    At += 4; // MOVZ
    while (At + 4 <= Hi && isMovk64(instructionAt(At)))
      At += 4;
    At += 4; // BLR
  }
  while (At + 4 <= Hi && instructionAt(At) == kNop)
    At += 4;
  return uint32_t(At - PC);
}

} // namespace

CallSite callSiteAt(uintptr_t Lo, uintptr_t PC, uintptr_t Hi, uintptr_t CodeLo,
                    uintptr_t CodeHi) {
  if (PC % 4)
    return {stackmap::CK_None, 0};
  // A patchpoint with a target: movz x16; movk x16...; blr x16.
  if (PC + 8 <= Hi && isMovz64(instructionAt(PC))) {
    uintptr_t At = PC + 4;
    while (At + 4 <= Hi && isMovk64(instructionAt(At)))
      At += 4;
    if (At + 4 <= Hi && isBLR(instructionAt(At)))
      return {stackmap::CK_Patchpoint, regionSize(PC, Hi, true)};
  }
  // A call that returns to the record.
  if (PC >= Lo + 4) {
    uint32_t I = instructionAt(PC - 4);
    if (isBLR(I))
      return {stackmap::CK_Call, 4};
    if (isBL(I)) {
      uintptr_t Target = blTarget(PC - 4, I);
      if (Target >= CodeLo && Target < CodeHi)
        return {stackmap::CK_Call, 4};
    }
  }
  // A patchpoint without a target: NOPs only.
  if (PC + 4 <= Hi && instructionAt(PC) == kNop)
    return {stackmap::CK_Patchpoint, regionSize(PC, Hi, false)};
  return {stackmap::CK_None, 0};
}

} // namespace rt
} // namespace pcmap

#endif // __aarch64__
