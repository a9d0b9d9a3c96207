//===- pc_cache.h - Small answers about code, remembered by PC --*- C++ -*-===//
//
// What a signal handler works out from the code at a PC (decoding a
// function from its start, say) is the same at every sample of that PC, as
// long as the same object is loaded there. PCCache remembers a 4-bit answer
// for each PC: a direct-mapped table of 64-bit words, each read and written
// whole, so that threads and signal handlers share it without a lock and a
// reader never sees half a word. A word holds the bits of the PC its slot
// does not imply, the answer, and the generation of the loaded objects in
// which it was found; the owner advances the generation when objects are
// loaded or unloaded (another object may be mapped where one was), and a
// word of another generation is a miss. Two PCs of one slot replace each
// other. The table is mapped at the first answer remembered (mapped.h):
// the static part is two words.
//
// Async-signal-safe, bounded: one load or one store.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_RT_CORE_PC_CACHE_H
#define PCMAP_RT_CORE_PC_CACHE_H

#include "core/mapped.h"

#include <stddef.h>
#include <stdint.h>

namespace pcmap {
namespace rt {

class PCCache {
public:
  static constexpr unsigned kSlotBits = 12;
  static constexpr unsigned kValueBits = 4;
  static constexpr unsigned kGenerationBits = 24;

  /// Whether an answer for PC of the current generation is remembered; if
  /// so, Value.
  bool find(uintptr_t PC, unsigned &Value) const {
    uint64_t *Words = Table.peek();
    if (!Words || !cacheable(PC))
      return false;
    uint64_t W = __atomic_load_n(&Words[slot(PC)], __ATOMIC_RELAXED);
    if (W >> kTagShift != tag(PC) || (W & kGenerationMask) != generation())
      return false;
    Value = unsigned(W >> kGenerationBits) & kValueMask;
    return true;
  }
  /// Remembers Value (below 2^kValueBits) for PC, as found in Generation:
  /// the generation() read before the answer was worked out, so that an
  /// answer from an object unloaded meanwhile is never current.
  void remember(uintptr_t PC, unsigned Value, uint64_t Generation) {
    if (!cacheable(PC) || Value > kValueMask)
      return;
    uint64_t *Words = Table.get();
    if (!Words)
      return;
    __atomic_store_n(&Words[slot(PC)],
                     tag(PC) << kTagShift | uint64_t(Value) << kGenerationBits |
                         (Generation & kGenerationMask),
                     __ATOMIC_RELAXED);
  }
  uint64_t generation() const {
    return __atomic_load_n(&Generation, __ATOMIC_ACQUIRE) & kGenerationMask;
  }
  /// Forgets every answer (objects were loaded or unloaded).
  void newGeneration() { __atomic_add_fetch(&Generation, 1, __ATOMIC_ACQ_REL); }

  /// Whether PC can be remembered: a user-space address (below 2^48) past
  /// the first page, aligned as the architecture's instructions are.
  static bool cacheable(uintptr_t PC) {
    return PC >> kSlotBits && !(uint64_t(PC) >> 48) &&
           !(PC & ((uintptr_t(1) << kAlignBits) - 1));
  }

private:
  // AArch64's instructions are 4-byte aligned: a slot for every fourth
  // byte.
#if defined(__aarch64__)
  static constexpr unsigned kAlignBits = 2;
#else
  static constexpr unsigned kAlignBits = 0;
#endif
  static constexpr unsigned kTagShift = kGenerationBits + kValueBits;
  static constexpr uint64_t kValueMask = (uint64_t(1) << kValueBits) - 1;
  static constexpr uint64_t kGenerationMask =
      (uint64_t(1) << kGenerationBits) - 1;
  static_assert(48 - kSlotBits - kAlignBits + kTagShift <= 64,
                "a word holds the tag of any user-space PC");

  static size_t slot(uintptr_t PC) {
    return size_t(PC >> kAlignBits) & ((size_t(1) << kSlotBits) - 1);
  }
  static uint64_t tag(uintptr_t PC) {
    return uint64_t(PC) >> (kAlignBits + kSlotBits);
  }

  mutable MappedArray<uint64_t, size_t(1) << kSlotBits> Table;
  uint64_t Generation;
};

} // namespace rt
} // namespace pcmap

#endif // PCMAP_RT_CORE_PC_CACHE_H
