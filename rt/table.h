//===- table.h - A module's tables and their index --------------*- C++ -*-===//
//
// A module's functions and atomics as sorted arrays of 32-bit offsets from
// the start of its code (TextLo), and one index over the code: a 16-byte
// entry per 256-byte stretch, in the style of Go's findfunctab, extended so
// that most queries need nothing else:
//
//   FirstAtomic    index of the first atomic at or after the stretch
//   FirstFunction  index of the first function starting at or after it
//   NumAtomics     atomics in the stretch (saturated at 255)
//   Flags          kStretchCovered: the stretch lies inside one function
//                  that is complete for atomics
//   Low[6]         the low bytes of the first six atomics of the stretch
//
// is_atomic at offset X reads entry X / 256 (one cache line): X is an atomic
// if its low byte is among Low, and is not one if the stretch has at most
// six atomics and is covered. Otherwise (a stretch at a function boundary,
// or dense with atomics) it reads the next entry and binary-searches the
// atomics and function starts of the stretch: at most 256 distinct
// offsets, usually none to two. Every lookup is O(1) in the size of the
// table. The index costs 16 bytes per 256 bytes of code (6 %); an atomic
// costs 8 bytes (offset, descriptor).
//
// Tables are immutable once published. Readers reach them by arena offset
// (arena.h) and read every field with relaxed loads, so that a reader that
// raced with an update reads garbage, never faults, and is then told to
// retry by the registry's generation check.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_RT_TABLE_H
#define PCMAP_RT_TABLE_H

#include "arena.h"
#include "decode.h"

#include <stddef.h>
#include <string.h>

namespace pcmap {
namespace rt {

constexpr unsigned kStretchShift = 8; // 256 bytes of code per index entry
constexpr unsigned kLowBytes = 6;
constexpr uint8_t kStretchCovered = 1;

struct IndexEntry {
  uint32_t FirstAtomic;
  uint32_t FirstFunction;
  uint8_t NumAtomics;
  uint8_t Flags;
  uint8_t Low[kLowBytes];
};
static_assert(sizeof(IndexEntry) == 16, "an entry is 16 bytes");

/// The header of a module's tables, in the arena. What a lookup reads comes
/// first, in one cache line.
struct ModuleTable {
  uint64_t TextLo, TextHi;
  ArenaOffset Index; // IndexEntry[NumStretches + 1]
  uint64_t NumStretches;
  ArenaOffset Functions; // FunctionRecord[NumFunctions], owned
  ArenaOffset AtomicOffsets, AtomicDescriptors; // uint32_t[NumAtomics]
  uint64_t NumFunctions, NumAtomics;
  uint64_t Bias;
  ArenaOffset Path; // NUL-terminated
  uint64_t PathBytes;
  uint64_t OwnsAtomics; // else they belong to the one decoded section
  uint64_t Bytes;       // memory of this table, for the stats
};

/// What a module has registered, beyond its decoded sections: whether its
/// functions' claims of completeness can be relied on.
struct ModuleAtomicsState {
  bool PCMapAtomicsRejected;    // a pcmap_atomics section was rejected
  bool UpstreamAtomicsPresent;  // a sanmd_atomics section is registered
  bool UpstreamAtomicsRejected; // a sanmd_atomics section was rejected
};

/// Builds a module's table from its decoded sections. A function is
/// complete for atomics (kFeatureAtomics in the table) only if its entry
/// says so and its atomics are there: not when it has atomics
/// (kFeatureHasAtomics) and none was registered, and not when an atomics
/// section of the module was rejected. Returns 0 when out of memory.
ArenaOffset buildModuleTable(const CodeRanges &Code, uintptr_t Bias,
                             const char *Path, const DecodedAtomics *Atomics,
                             unsigned NumAtomicSections,
                             const DecodedFunctions *Functions,
                             unsigned NumFunctionSections,
                             const ModuleAtomicsState &State);
/// Frees a table that no published view refers to any more.
void freeModuleTable(ArenaOffset Table);

//===----------------------------------------------------------------------===//
// Reader side (async-signal-safe)
//===----------------------------------------------------------------------===//

/// A reader's copy of the header fields a lookup needs.
struct TableView {
  uint64_t TextLo, TextHi;
  ArenaOffset Index;
  uint64_t NumStretches;
  ArenaOffset Functions, AtomicOffsets, AtomicDescriptors;
  uint64_t NumFunctions, NumAtomics;
  ArenaOffset Table; // for the fields below the first cache line
};

inline uint64_t headerField(ArenaOffset Table, size_t Offset) {
  return loadRelaxed(
      static_cast<const uint64_t *>(arenaPointer(Table + Offset)));
}

inline void readTableView(ArenaOffset Table, TableView &V) {
  V.TextLo = headerField(Table, offsetof(ModuleTable, TextLo));
  V.TextHi = headerField(Table, offsetof(ModuleTable, TextHi));
  V.Index = headerField(Table, offsetof(ModuleTable, Index));
  V.NumStretches = headerField(Table, offsetof(ModuleTable, NumStretches));
  V.Functions = headerField(Table, offsetof(ModuleTable, Functions));
  V.AtomicOffsets = headerField(Table, offsetof(ModuleTable, AtomicOffsets));
  V.AtomicDescriptors =
      headerField(Table, offsetof(ModuleTable, AtomicDescriptors));
  V.NumFunctions = headerField(Table, offsetof(ModuleTable, NumFunctions));
  V.NumAtomics = headerField(Table, offsetof(ModuleTable, NumAtomics));
  V.Table = Table;
}
inline uint64_t loadBias(const TableView &V) {
  return headerField(V.Table, offsetof(ModuleTable, Bias));
}
inline ArenaOffset loadPath(const TableView &V) {
  return headerField(V.Table, offsetof(ModuleTable, Path));
}

/// The index entry of an offset's stretch, as a reader loads it.
struct Stretch {
  uint64_t Words[2];
  uint32_t firstAtomic() const { return uint32_t(Words[0]); }
  uint32_t firstFunction() const { return uint32_t(Words[0] >> 32); }
  unsigned numAtomics() const { return unsigned(Words[1] & 0xff); }
  bool covered() const { return (Words[1] >> 8) & kStretchCovered; }
  /// The position among the stretch's first atomics whose low byte is Low,
  /// or -1. Only meaningful when numAtomics() <= kLowBytes. Branch-free: a
  /// byte-wise compare of the six low bytes in one word.
  int findLow(uint8_t Low) const {
    constexpr uint64_t Ones = 0x010101010101ull, Highs = 0x808080808080ull;
    unsigned N = numAtomics();
    uint64_t Valid = N >= kLowBytes ? Highs : (Highs & ((1ull << (8 * N)) - 1));
    uint64_t X = (Words[1] >> 16) ^ (Ones * Low); // zero bytes where equal
    // The lowest flagged byte is exact (borrows only flag bytes above it).
    uint64_t Zero = (X - Ones) & ~X & Valid;
    return Zero ? int(__builtin_ctzll(Zero) >> 3) : -1;
  }
};

/// Whether Offset is beyond the index (past the module's code).
inline bool pastIndex(const TableView &V, uint32_t Offset) {
  return (Offset >> kStretchShift) >= V.NumStretches;
}

/// Entry I of the index (I <= NumStretches).
inline Stretch loadStretch(const TableView &V, uint64_t I) {
  const auto *W = static_cast<const uint64_t *>(
      arenaPointer(V.Index + I * sizeof(IndexEntry)));
  return {{loadRelaxed(&W[0]), loadRelaxed(&W[1])}};
}

/// The number of keys <= X in a sorted array of uint32_t keys Stride bytes
/// apart, given that the keys before Lo are smaller and those from Hi on are
/// larger. Tolerates garbage: the bounds are clamped, and every load goes
/// through the arena.
inline uint64_t upperBound(ArenaOffset Keys, uint64_t Stride, uint64_t Lo,
                           uint64_t Hi, uint64_t N, uint32_t X) {
  if (Hi > N)
    Hi = N;
  if (Lo > Hi)
    Lo = Hi;
  while (Lo < Hi) {
    uint64_t Mid = Lo + (Hi - Lo) / 2;
    if (loadRelaxed(static_cast<const uint32_t *>(
            arenaPointer(Keys + Mid * Stride))) <= X)
      Lo = Mid + 1;
    else
      Hi = Mid;
  }
  return Lo;
}

/// Index of the last atomic at or before Offset, or -1.
inline int64_t lastAtomicAtOrBefore(const TableView &V, uint32_t Offset) {
  if (pastIndex(V, Offset))
    return int64_t(V.NumAtomics) - 1;
  uint64_t S = Offset >> kStretchShift;
  return int64_t(upperBound(
             V.AtomicOffsets, sizeof(uint32_t), loadStretch(V, S).firstAtomic(),
             loadStretch(V, S + 1).firstAtomic(), V.NumAtomics, Offset)) -
         1;
}
/// Index of the last function starting at or before Offset, or -1.
inline int64_t lastFunctionAtOrBefore(const TableView &V, uint32_t Offset) {
  if (pastIndex(V, Offset))
    return int64_t(V.NumFunctions) - 1;
  uint64_t S = Offset >> kStretchShift;
  static_assert(offsetof(FunctionRecord, Start) == 0, "Start first");
  return int64_t(upperBound(V.Functions, sizeof(FunctionRecord),
                            loadStretch(V, S).firstFunction(),
                            loadStretch(V, S + 1).firstFunction(),
                            V.NumFunctions, Offset)) -
         1;
}

/// The fields of a function record a query needs, and the whole record.
struct FunctionBounds {
  uint32_t Start, Size, Features;
};
inline FunctionBounds loadFunctionBounds(const TableView &V, uint64_t I) {
  const auto *W = static_cast<const uint32_t *>(
      arenaPointer(V.Functions + I * sizeof(FunctionRecord)));
  static_assert(offsetof(FunctionRecord, Size) == 4 &&
                    offsetof(FunctionRecord, Features) == 8,
                "FunctionBounds are the first fields");
  return {loadRelaxed(&W[0]), loadRelaxed(&W[1]), loadRelaxed(&W[2])};
}
inline FunctionRecord loadFunction(const TableView &V, uint64_t I) {
  FunctionRecord R;
  const auto *Words = static_cast<const uint32_t *>(
      arenaPointer(V.Functions + I * sizeof(FunctionRecord)));
  uint32_t W[sizeof(FunctionRecord) / 4];
  for (unsigned J = 0; J < sizeof(W) / 4; ++J)
    W[J] = loadRelaxed(&Words[J]);
  memcpy(&R, W, sizeof(R));
  return R;
}
inline uint32_t loadAtomicOffset(const TableView &V, uint64_t I) {
  return arenaLoad<uint32_t>(V.AtomicOffsets, I);
}
inline uint32_t loadAtomicDescriptor(const TableView &V, uint64_t I) {
  return arenaLoad<uint32_t>(V.AtomicDescriptors, I);
}

} // namespace rt
} // namespace pcmap

#endif // PCMAP_RT_TABLE_H
