//===- table.h - A module's tables and their index --------------*- C++ -*-===//
//
// A module's functions and atomics as sorted arrays of 32-bit offsets from
// the start of its code (TextLo), and one index over the code: a 16-byte
// entry per 256-byte stretch, in the style of Go's findfunctab, extended so
// that nearly every query needs nothing else but the atomics it may hit.
//
// An entry holds where the stretch's atomics and functions begin in the
// arrays, and the stretch's layout: its bytes cut into up to seven segments
// at up to six boundaries, each segment either in no function, in a
// function, or in a function complete for atomics. Functions follow one
// another, so the function of the Nth segment that is in a function is the
// (N-1)th after the entry's FirstFunction. A stretch with more segments
// (more than two functions wholly inside it, each with padding around it)
// is not described by its entry; 256 bytes of code rarely are.
//
// A query at offset X reads entry X / 256, the next entry's first word (the
// stretch's number of atomics is the difference), and the kWindow atomic
// offsets from FirstAtomic on (one cache line), and compares all of those
// at once: X is an atomic or not; the segment of X says whether "not" is NO
// or UNKNOWN, and which function holds X. All of it without a branch on the
// data. What limits a query is not the cache misses, which overlap with
// those of the queries around it, but its instruction count, which bounds
// how many queries the processor keeps in flight (and a mispredicted branch
// on loaded data throws the others away): every instruction counts here.
// A stretch with more than kWindow atomics, or not described, is searched
// (binary search over at most 256 distinct offsets). Every lookup is O(1)
// in the size of the table. The index costs 16 bytes per 256 bytes of code
// (6 %); an atomic costs 8 bytes (offset, descriptor).
//
// Tables are immutable once published. Readers reach them by arena offset
// (arena.h) and read every field with relaxed loads (or, for the window,
// loads the compiler cannot see), so that a reader that raced with an
// update reads garbage, never faults, and is then told to retry by the
// registry's generation check.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_RT_TABLE_H
#define PCMAP_RT_TABLE_H

#include "core/arena.h"
#include "core/decode.h"

#include <stddef.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace pcmap {
namespace rt {

constexpr unsigned kStretchShift = 8; // 256 bytes of code per index entry
/// Atomics a query compares at once (one cache line of offsets).
constexpr unsigned kWindow = 16;
/// Segment boundaries an entry holds; a stretch has one segment more.
constexpr unsigned kBoundaries = 6;
/// IndexEntry::Layout: bytes 0 to 5, the boundaries (where segments 1 to 6
/// start) minus one, ascending, 0xff when unused; bits 48 to 54, which of
/// segments 0 to 6 lie in a function; bits 55 to 61, which lie in a
/// function complete for atomics; bit 62, whether the layout describes the
/// stretch.
constexpr unsigned kInFunctionShift = 48;
constexpr unsigned kCompleteShift = 55;
constexpr uint64_t kUnusedBoundaries = 0xffffffffffffull;
constexpr uint64_t kDescribed = uint64_t(1) << 62;

struct IndexEntry {
  /// The atomics before the stretch (the index of its first atomic).
  uint32_t FirstAtomic;
  /// The function of the stretch's first segment in a function: the number
  /// of functions starting before the stretch, less one if the last of them
  /// reaches into it.
  uint32_t FirstFunction;
  uint64_t Layout;
};
static_assert(sizeof(IndexEntry) == 16, "an entry is 16 bytes");

/// The header of a module's tables, in the arena. What a lookup reads comes
/// first, in one cache line.
struct ModuleTable {
  uint64_t TextLo, TextHi;
  ArenaOffset Index; // IndexEntry[NumStretches + 1]
  uint64_t NumStretches;
  ArenaOffset Functions;                        // FunctionRecord[NumFunctions]
  ArenaOffset AtomicOffsets, AtomicDescriptors; // uint32_t[NumAtomics]
  uint64_t NumFunctions, NumAtomics;
  uint64_t Bias;
  ArenaOffset Path; // NUL-terminated
  uint64_t PathBytes;
  uint64_t OwnsAtomics; // else they belong to the one decoded section
  /// Whether Functions is this table's (FunctionsCapacity records), or the
  /// one decoded functions section's.
  uint64_t OwnsFunctions, FunctionsCapacity;
  uint64_t Bytes; // memory of this table, for the stats
  /// The object's GNU build ID (BuildIdSize bytes; 0: none), for reports
  /// that are merged offline (the tracer's JSON).
  uint8_t BuildId[32];
  uint64_t BuildIdSize;
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
/// section of the module was rejected. The records of a single functions
/// section that no table has taken yet become the table's own array
/// (finished in place, and marked Adopted); otherwise they are copied, so
/// that a published table never changes. Returns 0 when out of memory.
ArenaOffset buildModuleTable(const CodeRanges &Code, uintptr_t Bias,
                             const char *Path, const DecodedAtomics *Atomics,
                             unsigned NumAtomicSections,
                             DecodedFunctions *const *Functions,
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

/// What the common queries need of a module's table, published with the
/// index of modules (registry.h) so that they read nothing from the table's
/// header. TextLo is published beside it.
struct ModuleView {
  uint64_t TextSize;
  ArenaOffset Index, AtomicOffsets, Functions;
  uint64_t NumFunctions;
  ArenaOffset Table;
  uint64_t Bias;
  const char *Path;
};
static_assert(sizeof(ModuleView) == 64, "a view is one cache line");

/// A reader's handle on a module's view: every field is loaded where it is
/// used (a relaxed load is never dropped, used or not, and a query's cost
/// is its instruction count), the rarely used ones from the table's header.
struct TableView {
  const ModuleView *M;
  uint64_t TextLo;

  uint64_t textSize() const { return loadRelaxed(&M->TextSize); }
  ArenaOffset index() const { return loadRelaxed(&M->Index); }
  ArenaOffset atomicOffsets() const { return loadRelaxed(&M->AtomicOffsets); }
  ArenaOffset functions() const { return loadRelaxed(&M->Functions); }
  uint64_t numFunctions() const { return loadRelaxed(&M->NumFunctions); }
  ArenaOffset table() const { return loadRelaxed(&M->Table); }
  uint64_t bias() const { return loadRelaxed(&M->Bias); }
  const char *path() const { return loadRelaxed(&M->Path); }
  ArenaOffset atomicDescriptors() const {
    return headerField(table(), offsetof(ModuleTable, AtomicDescriptors));
  }
  uint64_t numAtomics() const {
    return headerField(table(), offsetof(ModuleTable, NumAtomics));
  }
  uint64_t numStretches() const {
    return headerField(table(), offsetof(ModuleTable, NumStretches));
  }
};

/// The number of bits set in each 6-bit value.
struct BitCounts {
  uint8_t N[64];
};
constexpr BitCounts makeBitCounts() {
  BitCounts B{};
  for (unsigned I = 0; I < 64; ++I)
    B.N[I] = uint8_t((I & 1) + (I >> 1 & 1) + (I >> 2 & 1) + (I >> 3 & 1) +
                     (I >> 4 & 1) + (I >> 5 & 1));
  return B;
}
inline constexpr BitCounts kBitCounts = makeBitCounts();

/// The index entry of an offset's stretch, as a reader loads it, and what a
/// query makes of it. Everything is computed without branches.
struct Stretch {
  uint64_t Word0, Layout;
  const uint32_t *Next; // the next entry's FirstAtomic

  uint32_t firstAtomic() const { return uint32_t(Word0); }
  uint32_t firstFunction() const { return uint32_t(Word0 >> 32); }
  /// The stretch's atomics (garbage tolerated: callers compare it with
  /// kWindow).
  uint32_t numAtomics() const { return loadRelaxed(Next) - firstAtomic(); }
  bool described() const { return Layout & kDescribed; }

  /// The segment of byte Low of the stretch: how many boundaries are at or
  /// before it.
  unsigned segment(uint8_t Low) const {
#if defined(__SSE2__)
    // Stored boundaries are one less: a boundary B is at or before Low when
    // B - 1 < Low, and the lanes with B - 1 >= Low (unused ones included)
    // are the upper ones.
    __m128i B = _mm_cvtsi64_si128(int64_t(Layout));
    __m128i L = _mm_cvtsi64_si128(int64_t(0x0101010101010101ull * Low));
    unsigned AtOrAfter =
        unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(B, L), B)));
    return unsigned(__builtin_ctz((AtOrAfter & 0x3f) | 0x40));
#else
    unsigned N = 0;
    for (unsigned I = 0; I < kBoundaries; ++I)
      N += unsigned(((Layout >> (8 * I)) & 0xff) < Low);
    return N;
#endif
  }
  /// Whether segment Seg lies in a function; in one complete for atomics.
  unsigned inFunction(unsigned Seg) const {
    return unsigned(Layout >> (kInFunctionShift + Seg)) & 1;
  }
  unsigned inCompleteFunction(unsigned Seg) const {
    return unsigned(Layout >> (kCompleteShift + Seg)) & 1;
  }
  /// The function of segment Seg (when it is in one): FirstFunction plus
  /// the number of segments before it that are in a function.
  uint64_t functionOf(unsigned Seg) const {
    unsigned Before = unsigned(Layout >> kInFunctionShift) & ((1u << Seg) - 1);
    return uint64_t(firstFunction()) + kBitCounts.N[Before & 63];
  }
};

/// Whether Offset is beyond the index (past the module's code).
inline bool pastIndex(const TableView &V, uint32_t Offset) {
  return (Offset >> kStretchShift) >= V.numStretches();
}

/// Entry I of the index (I <= NumStretches), with the next entry's first
/// atomic.
inline Stretch loadStretch(const TableView &V, uint64_t I) {
  const auto *W = static_cast<const uint64_t *>(
      arenaPointer(V.index() + I * sizeof(IndexEntry)));
  // The next entry follows (past the region's end, in its guard).
  const auto *Next = reinterpret_cast<const uint32_t *>(W + 2);
  return {loadRelaxed(&W[0]), loadRelaxed(&W[1]), Next};
}

/// The window's lanes that hold a stretch's N atomics (N <= kWindow).
inline uint32_t windowLanes(uint32_t N) { return (1u << (N & 31)) - 1; }

#if defined(__SSE2__)
/// The 16 lanes of four vectors of 32-bit compare results, as bits.
inline uint32_t windowBits(__m128i A, __m128i B, __m128i C, __m128i D) {
  __m128i AB = _mm_packs_epi32(A, B), CD = _mm_packs_epi32(C, D);
  return uint32_t(_mm_movemask_epi8(_mm_packs_epi16(AB, CD)));
}
#endif

/// The lanes of the window of atomic offsets from atomic First on that equal
/// Offset: bit I for atomic First + I. The lanes past the array read other
/// memory of the arena (mapped, with a guard at its end); the caller masks
/// them with Stretch::windowLanes().
inline uint32_t matchWindow(const TableView &V, uint64_t First,
                            uint32_t Offset) {
  static_assert(kWindow == 16, "four vectors of four offsets");
  const char *P = static_cast<const char *>(
      arenaPointer(V.atomicOffsets() + First * sizeof(uint32_t)));
#if defined(__SSE2__)
  // The loads are in assembly: they may race with a writer reusing the
  // block (the generation check then discards the answer), and the
  // compiler must neither see a data race nor assume the memory unchanged.
  struct Bytes16 {
    char B[16];
  };
  const auto *Q = reinterpret_cast<const Bytes16 *>(P);
  __m128i A, B, C, D;
  asm("movdqu %1, %0" : "=x"(A) : "m"(Q[0]));
  asm("movdqu %1, %0" : "=x"(B) : "m"(Q[1]));
  asm("movdqu %1, %0" : "=x"(C) : "m"(Q[2]));
  asm("movdqu %1, %0" : "=x"(D) : "m"(Q[3]));
  __m128i K = _mm_set1_epi32(int(Offset));
  return windowBits(_mm_cmpeq_epi32(A, K), _mm_cmpeq_epi32(B, K),
                    _mm_cmpeq_epi32(C, K), _mm_cmpeq_epi32(D, K));
#else
  uint32_t Lanes = 0;
  for (unsigned I = 0; I < kWindow; ++I)
    Lanes |= uint32_t(loadRelaxed(reinterpret_cast<const uint32_t *>(P) + I) ==
                      Offset)
             << I;
  return Lanes;
#endif
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
  Stretch E = loadStretch(V, Offset >> kStretchShift);
  return int64_t(upperBound(V.atomicOffsets(), sizeof(uint32_t),
                            E.firstAtomic(), loadRelaxed(E.Next),
                            V.numAtomics(), Offset)) -
         1;
}
/// Index of the last function starting at or before Offset, or -1.
inline int64_t lastFunctionAtOrBefore(const TableView &V, uint32_t Offset) {
  if (pastIndex(V, Offset))
    return int64_t(V.numFunctions()) - 1;
  uint64_t S = Offset >> kStretchShift;
  static_assert(offsetof(FunctionRecord, Start) == 0, "Start first");
  // The functions before stretch S's FirstFunction start before it; those
  // after stretch S + 1's start after stretch S.
  return int64_t(upperBound(V.functions(), sizeof(FunctionRecord),
                            loadStretch(V, S).firstFunction(),
                            uint64_t(loadStretch(V, S + 1).firstFunction()) + 1,
                            V.numFunctions(), Offset)) -
         1;
}

/// Function record I.
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
