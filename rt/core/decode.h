//===- decode.h - Decoding and validating PC sections -----------*- C++ -*-===//
//
// Turns one registered section (pcmap_atomics/functions, or upstream's
// sanmd_atomics/covered) into sorted arrays in the arena. A section that is
// malformed in any way (truncated values, a ULEB128 value that overflows, a
// PC outside the executable code of its module, a function that overruns
// it, an unknown version) is rejected whole: nothing of it is used.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_RT_DECODE_H
#define PCMAP_RT_DECODE_H

#include "core/arena.h"

#include "pcmap/Format.h"

#include <stddef.h>
#include <stdint.h>

namespace pcmap {
namespace rt {

/// Sections are named by kind as the format names them (Format.h).
using format::MetadataKind;
using format::MK_Atomics;
using format::MK_Functions;
using format::MK_UpstreamAtomics;
using format::MK_UpstreamCovered;

/// The executable code of a module: offsets below are relative to TextLo.
struct CodeRanges {
  static constexpr unsigned kMaxRanges = 16;
  uintptr_t TextLo = 0, TextHi = 0; // hull of the ranges
  uintptr_t Begin[kMaxRanges], End[kMaxRanges];
  unsigned NumRanges = 0;

  /// True if [PC, PC + Size) lies in one range (Size 0: PC itself).
  bool contains(uintptr_t PC, uint64_t Size) const;
};

/// Sections of one module (all kinds, versions and code models together).
constexpr unsigned kMaxSectionsPerModule = 32;

/// Descriptor stored for upstream atomics, which carry none.
constexpr uint32_t kUpstreamDescriptor = 0xffffffffu;

/// Function record, as decoded and as kept in module tables, where its
/// fields from Features on are laid out as pcmap_function's (pcmap.h), so
/// that a lookup copies them in pairs.
struct FunctionRecord {
  uint32_t Start; // offset from TextLo
  uint32_t Size;
  /// In module tables, the known pcmap features (kFeatureAtomics, ...) the
  /// runtime relies on: kFeatureAtomics only when the function's atomics
  /// are known (see buildModuleTable). 0 as decoded.
  uint32_t Features;
  uint32_t NumAtomics;       // module tables: the atomics in the function
  uint32_t Source;           // PCMAP_SOURCE_* bits
  uint32_t UpstreamFeatures; // sanmd feature bits
  /// sanmd UAR stack-arguments size (a larger one rejects the section).
  uint32_t UpstreamStackArgs;
  /// The offset of the function's entry: Start, or for a fragment
  /// (Source has PCMAP_SOURCE_FRAGMENT) that of its function's first
  /// fragment (core/fragments.h).
  uint32_t Entry;
  uint32_t FirstAtomic; // module tables: the index of its first atomic
  /// The pcmap features the section declares, from which module tables
  /// derive Features.
  uint32_t Declared;
};
static_assert(sizeof(FunctionRecord) == 40, "FunctionRecord layout");

/// Decoded atomics: Offsets (uint32_t, from TextLo) sorted and unique, and
/// Descriptors (uint32_t) in the same order.
struct DecodedAtomics {
  ArenaOffset Offsets = 0, Descriptors = 0;
  uint32_t Count = 0;
  uint32_t Capacity = 0; // entries allocated
};
/// Decoded functions, sorted by Start, with unique starts.
struct DecodedFunctions {
  ArenaOffset Records = 0;
  uint32_t Count = 0;
  uint32_t Capacity = 0; // records allocated
  /// Whether a module table has taken the records as its own array (which
  /// it then owns no more than the section does: see buildModuleTable).
  /// Records no published table has seen may be finished in place.
  bool Adopted = false;
};

/// The runtime's one way of saying why a section was not taken: what went
/// wrong (a static message), where in the section, and how many entries
/// were read before. Returned by the decoders, filled by the stack-map
/// builder; registration and discovery report it the same way.
struct DecodeError {
  const char *What = nullptr; // null: no error
  uint64_t Offset = 0;        // in the section
  uint64_t EntriesSeen = 0;   // entries decoded before the error

  /// Sets What (and keeps Offset, set as the reading goes); false, for
  /// `return E.fail(...)`.
  bool fail(const char *Why) {
    What = Why;
    return false;
  }
};

/// Decodes an atomics section (pcmap or sanmd) of the given version.
DecodeError decodeAtomics(MetadataKind Kind, uint32_t Version,
                          const uint8_t *Start, const uint8_t *Stop,
                          const CodeRanges &Code, DecodedAtomics &Out);
/// Decodes a functions section (pcmap functions or sanmd covered).
DecodeError decodeFunctions(MetadataKind Kind, uint32_t Version,
                            const uint8_t *Start, const uint8_t *Stop,
                            const CodeRanges &Code, DecodedFunctions &Out);

void freeDecoded(DecodedAtomics &A);
void freeDecoded(DecodedFunctions &F);

/// Writer scratch memory, outside the arena (readers never see it), kept
/// from one registration to the next. A small module's needs fit in the
/// buffer itself, which costs no system call (most libraries'; a program's
/// start-up then maps nothing for its scratch); larger ones are mapped.
struct ScratchBuffer {
  /// Enough for a small module's sections without a mapping, small enough
  /// for static data (mapped.h).
  static constexpr size_t kInlineItems = 24;
  uint64_t *Data = nullptr;
  size_t Capacity = 0; // items
  uint64_t Inline[kInlineItems];

  /// Room for Items 64-bit items (contents unspecified), or null.
  uint64_t *get(size_t Items);
};

/// The room sortByHighWord needs in its scratch beyond the items: its radix
/// sort's counts (kept there, not in static data).
constexpr size_t kSortScratchExtra = 1024;

/// Sorts N 64-bit items by their high 32 bits (stable); Scratch has room for
/// N + kSortScratchExtra items. Fast when the input is already sorted, or
/// nearly (unless the caller knows it is not: MaybeNearlySorted false goes
/// straight to the radix sort).
void sortByHighWord(uint64_t *Items, uint64_t *Scratch, size_t N,
                    bool MaybeNearlySorted = true);

} // namespace rt
} // namespace pcmap

#endif // PCMAP_RT_DECODE_H
