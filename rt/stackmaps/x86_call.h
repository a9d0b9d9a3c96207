//===- x86_call.h - Lengths of x86-64 calls and NOPs ------------*- C++ -*-===//
//
// A small x86-64 length decoder for the few instruction forms that surround
// a stack map record: calls (E8 rel32; FF /2 and FF /3 with any ModRM, SIB
// and displacement, after legacy and REX prefixes), the NOPs LLVM pads with
// (90, 66 90, 0F 1F /0 with prefixes) and the mov of an immediate into a
// register that starts a patchpoint's call sequence. Everything else is
// "not one of these" (length 0). Pure functions: no state, no allocation.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_RT_X86_CALL_H
#define PCMAP_RT_X86_CALL_H

#include <stddef.h>
#include <stdint.h>

namespace pcmap {
namespace rt {

constexpr unsigned kX86MaxInstructionLength = 15;

/// The length of the call instruction at Code (Avail bytes readable), or 0
/// if the bytes there do not start a call. For E8 rel32, *RelTarget (if not
/// null) receives the displacement (the target is the end of the call plus
/// it); for the indirect forms it is set to 0 and *Direct to false.
unsigned x86CallLength(const uint8_t *Code, size_t Avail,
                       int64_t *RelTarget = nullptr, bool *Direct = nullptr);

/// The length of the NOP at Code, or 0.
unsigned x86NopLength(const uint8_t *Code, size_t Avail);

/// The length of a mov of an immediate into a 64- or 32-bit register at
/// Code (B8+r imm32, REX.W B8+r imm64, REX.W C7 /0 imm32), or 0.
unsigned x86MovImmLength(const uint8_t *Code, size_t Avail);

/// The length of the call that ends exactly at Code + End, where Code is the
/// first byte that may belong to it (the function's start), or 0. Tries the
/// start offsets End - 2 .. End - 15 (those not before Code), shortest
/// first, and accepts the first whose bytes decode to a call of exactly
/// that length. A direct call is only accepted if its target lies in
/// [TargetLo, TargetHi) (the module's code): this rejects most of the
/// immediates and displacements of other instructions that happen to end
/// in a byte sequence shaped like a call.
unsigned x86CallEndingAt(const uint8_t *Code, size_t End, uintptr_t CodeAddress,
                         uintptr_t TargetLo, uintptr_t TargetHi);

/// The size of the patchable region LLVM reserves for a patchpoint whose
/// record is at Code (Avail bytes readable up to the end of the function or
/// the next record): an optional mov of the target into a scratch register
/// and a call (present when the patchpoint has a target), then the NOPs
/// that pad it to the requested size. 0 if the bytes at Code are neither a
/// call sequence nor a NOP.
unsigned x86PatchpointRegionSize(const uint8_t *Code, size_t Avail);

} // namespace rt
} // namespace pcmap

#endif // PCMAP_RT_X86_CALL_H
