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
//   Flags          kStretch* below
//   Low[4]         the low bytes of the first four atomics of the stretch
//   PrefixEnd      bytes [0, PrefixEnd) lie in the function holding the
//                  stretch's first byte (0: the whole stretch)
//   SuffixStart    bytes [SuffixStart, 256) lie in the last function that
//                  starts inside the stretch
//
// A stretch thus describes its functions when it holds at most one
// function boundary with code on both sides, or one function that starts
// in it and one that ends in it: nearly all stretches. is_atomic at offset
// X reads entry X / 256 (one cache line): X is an atomic if its low byte is
// among Low; if the stretch has at most four atomics and X lies in the
// prefix or suffix of a function complete for atomics, it is not one.
// lookup_function finds the function of a prefix or suffix the same way.
// Otherwise (several functions start in the stretch, or it is dense with
// atomics) the query reads the next entry and binary-searches the atomics
// and function starts of the stretch: at most 256 distinct offsets, usually
// none to two. Every lookup is O(1) in the size of the table. The index
// costs 16 bytes per 256 bytes of code (6 %); an atomic costs 8 bytes
// (offset, descriptor).
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
constexpr unsigned kLowBytes = 4;
/// IndexEntry::Flags.
enum : uint8_t {
  kStretchPrefix = 1,         // PrefixEnd is meaningful
  kStretchPrefixComplete = 2, // the prefix's function is complete for atomics
  kStretchSuffix = 4,         // SuffixStart is meaningful
  kStretchSuffixComplete = 8, // the suffix's function is complete for atomics
  kStretchStartsFunction = 16 // a function starts at the stretch's first byte
};

struct IndexEntry {
  uint32_t FirstAtomic;
  uint32_t FirstFunction;
  uint8_t NumAtomics;
  uint8_t Flags;
  uint8_t Low[kLowBytes];
  uint8_t PrefixEnd;
  uint8_t SuffixStart;
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

inline uint64_t headerField(ArenaOffset Table, size_t Offset) {
  return loadRelaxed(
      static_cast<const uint64_t *>(arenaPointer(Table + Offset)));
}

/// A reader's copy of the header fields every lookup needs; the others are
/// loaded when used. (Relaxed loads cannot be dropped by the compiler when
/// unused, and a query that is not waiting for memory is as fast as its
/// instruction count: is_atomic reads four fields.)
struct TableView {
  uint64_t TextLo, TextHi;
  ArenaOffset Index;
  uint64_t NumStretches;
  ArenaOffset Table;

  ArenaOffset functions() const {
    return headerField(Table, offsetof(ModuleTable, Functions));
  }
  ArenaOffset atomicOffsets() const {
    return headerField(Table, offsetof(ModuleTable, AtomicOffsets));
  }
  ArenaOffset atomicDescriptors() const {
    return headerField(Table, offsetof(ModuleTable, AtomicDescriptors));
  }
  uint64_t numFunctions() const {
    return headerField(Table, offsetof(ModuleTable, NumFunctions));
  }
  uint64_t numAtomics() const {
    return headerField(Table, offsetof(ModuleTable, NumAtomics));
  }
};

inline void readTableView(ArenaOffset Table, TableView &V) {
  V.TextLo = headerField(Table, offsetof(ModuleTable, TextLo));
  V.TextHi = headerField(Table, offsetof(ModuleTable, TextHi));
  V.Index = headerField(Table, offsetof(ModuleTable, Index));
  V.NumStretches = headerField(Table, offsetof(ModuleTable, NumStretches));
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
  unsigned flags() const { return unsigned(Words[1] >> 8) & 0xff; }
  /// The end of the prefix, 1 to 256.
  unsigned prefixEnd() const {
    return ((unsigned(Words[1] >> 48) - 1) & 0xff) + 1;
  }
  unsigned suffixStart() const { return unsigned(Words[1] >> 56); }
  /// Whether the stretch's byte Low lies in its prefix or suffix function.
  /// Computed without branches, like the rest of the fast paths: a branch
  /// on index data waits for the load, and a mispredicted one throws away
  /// the loads of the queries that follow.
  bool inPrefix(uint8_t Low) const {
    return bool((flags() & kStretchPrefix) & unsigned(Low < prefixEnd()));
  }
  bool inSuffix(uint8_t Low) const {
    return bool((flags() & kStretchSuffix) & unsigned(Low >= suffixStart()));
  }
  /// Whether byte Low is known to lie in a function complete for atomics.
  bool inCompleteFunction(uint8_t Low) const {
    unsigned F = flags();
    unsigned P =
        ((F & kStretchPrefixComplete) >> 1) & unsigned(Low < prefixEnd());
    unsigned S =
        ((F & kStretchSuffixComplete) >> 3) & unsigned(Low >= suffixStart());
    return bool(P | S);
  }
  /// The index of the function holding the stretch's first byte (when the
  /// prefix is meaningful).
  uint64_t prefixFunction() const {
    return uint64_t(firstFunction()) - !(flags() & kStretchStartsFunction);
  }
  /// The position among the stretch's first atomics whose low byte is Low,
  /// or -1. Only meaningful when numAtomics() <= kLowBytes. Branch-free: a
  /// byte-wise compare of the four low bytes in one word.
  int findLow(uint8_t Low) const {
    constexpr uint64_t Ones = 0x01010101ull, Highs = 0x80808080ull;
    unsigned N = numAtomics();
    uint64_t Valid = N >= kLowBytes ? Highs : (Highs & ((1ull << (8 * N)) - 1));
    uint64_t X = ((Words[1] >> 16) & 0xffffffffull) ^ (Ones * Low);
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
    return int64_t(V.numAtomics()) - 1;
  uint64_t S = Offset >> kStretchShift;
  return int64_t(upperBound(V.atomicOffsets(), sizeof(uint32_t),
                            loadStretch(V, S).firstAtomic(),
                            loadStretch(V, S + 1).firstAtomic(), V.numAtomics(),
                            Offset)) -
         1;
}
/// Index of the last function starting at or before Offset, or -1.
inline int64_t lastFunctionAtOrBefore(const TableView &V, uint32_t Offset) {
  if (pastIndex(V, Offset))
    return int64_t(V.numFunctions()) - 1;
  uint64_t S = Offset >> kStretchShift;
  static_assert(offsetof(FunctionRecord, Start) == 0, "Start first");
  return int64_t(upperBound(V.functions(), sizeof(FunctionRecord),
                            loadStretch(V, S).firstFunction(),
                            loadStretch(V, S + 1).firstFunction(),
                            V.numFunctions(), Offset)) -
         1;
}

/// The fields of a function record a query needs, and the whole record.
struct FunctionBounds {
  uint32_t Start, Size, Features;
};
inline FunctionBounds loadFunctionBounds(const TableView &V, uint64_t I) {
  const auto *W = static_cast<const uint32_t *>(
      arenaPointer(V.functions() + I * sizeof(FunctionRecord)));
  static_assert(offsetof(FunctionRecord, Size) == 4 &&
                    offsetof(FunctionRecord, Features) == 8,
                "FunctionBounds are the first fields");
  return {loadRelaxed(&W[0]), loadRelaxed(&W[1]), loadRelaxed(&W[2])};
}
inline FunctionRecord loadFunction(const TableView &V, uint64_t I) {
  static_assert(sizeof(FunctionRecord) % 8 == 0, "whole words");
  FunctionRecord R;
  const auto *Words = static_cast<const uint64_t *>(
      arenaPointer(V.functions() + I * sizeof(FunctionRecord)));
  uint64_t W[sizeof(FunctionRecord) / 8];
  for (unsigned J = 0; J < sizeof(W) / 8; ++J)
    W[J] = loadRelaxed(&Words[J]);
  memcpy(&R, W, sizeof(R));
  return R;
}
inline uint32_t loadAtomicOffset(const TableView &V, uint64_t I) {
  return arenaLoad<uint32_t>(V.atomicOffsets(), I);
}
inline uint32_t loadAtomicDescriptor(const TableView &V, uint64_t I) {
  return arenaLoad<uint32_t>(V.atomicDescriptors(), I);
}

} // namespace rt
} // namespace pcmap

#endif // PCMAP_RT_TABLE_H
