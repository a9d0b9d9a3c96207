//===- table.h - A module's tables and their index --------------*- C++ -*-===//
//
// A module's functions and atomics as sorted arrays of 32-bit offsets from
// the start of its code (TextLo), and one index over the code they cover
// (see "Covered code" below), in the style
// of Go's findfunctab: a 16-byte entry per 256-byte stretch, and per stretch
// a few bytes that describe it (its "bytes", in one array for the module),
// so that nearly every query reads the entry and one or two cache lines of
// bytes and nothing else.
//
// A stretch's bytes are, in this order: the low byte of each of its NA
// atomics' offsets; the low byte of each of its NB boundaries, ascending (a
// boundary is where a function starts, or where one ends before the next
// starts); and the classes of its segments: at its start, then after each
// boundary. A class says whether the segment
// lies in a function, whether that function is complete for atomics, and
// how many functions start in the stretch up to the segment (so which
// function it is). Within a stretch the low byte of an offset is the
// offset, so:
//
//   - an offset X is an atomic when one of the NA low bytes equals X's;
//   - the segment of X is the number of boundaries at or below X's low byte
//     (they are sorted: the lanes at or below are the first ones), and its
//     class says YES-or-NO vs UNKNOWN, and which function holds X.
//
// A query compares kWindow (32) bytes at once for each, without a branch
// on the data; what limits a query is not its cache misses, which overlap
// with those of the queries around it, but its instruction count, which
// bounds how many queries the processor keeps in flight (and a mispredicted
// branch on loaded data throws the others away). A stretch with more than
// kWindow atomics or boundaries (one atomic every 8 bytes, or more than 16
// functions, over 256 bytes of code) is searched (binary search over the
// 32-bit arrays). Dense lock-free code and many small functions (accessors,
// wrappers, template instances) stay on the fast path: earlier versions
// held 16 atomic offsets and 6 boundaries in the entry itself, and fell back
// to a search on both.
//
// pcmap_lookup_function needs no atomic: where at most one function starts
// in a stretch (whatever padding lies between functions), the entry's
// first start and count of starts give the last function starting at or
// before X, and the function's record whether it reaches X; the stretch's
// bytes, often another cache miss, are read only where two or more start.
// That takes a branch on the stretch, which a module whose functions are
// small and close together would mispredict often: there (more than one
// covered stretch in kInlineLookupRatio with two starts or more) every
// entry says "read the bytes", which are then in the caches anyway.
//
// A small module (at most the answer_map_kib option's KiB of code, 256 by
// default) also gets two maps, in one block:
//
//   - an answer map for pcmap_is_atomic_pc: two bits per byte of code, its
//     answer plus one (UNKNOWN 0, NO 1, YES 2), built from the same
//     segments and atomics as the stretch bytes. The query reads one word.
//     Through the index, a query costs about 100 instructions, which a
//     small table's binary search (an L1-resident array of a few hundred
//     atomics) matches; from the map it costs about 30.
//   - a function map for pcmap_lookup_function: per 16-byte granule, the
//     functions that start at or before it and whether one starts inside
//     it (kGranuleShift), so that the function's record is one load away,
//     or two where a function starts inside the granule. Where functions
//     are aligned to 16 bytes (x86-64 at -O1 and above) none does.
//
// They cost 64 and 32 bytes per 256 bytes of code, 96 KiB at most.
//
// Covered code: the index and the maps describe only the offsets from the
// 256-byte stretch of the first function or atomic to the end of the last
// one, [IndexLo, IndexLo + IndexSize). Code outside it holds no function and
// no atomic of the module, and the queries treat it as no module's (their
// answer there is the same: UNKNOWN, no function). An executable whose
// instrumented code is a few functions beside much code that is not (a
// statically linked runtime, libraries) gets tables of the size of those
// functions. IndexLo is a multiple of 256, so that an offset's low byte is
// its low byte within its stretch whichever the index starts from; the
// published views (registry.cpp) hold the index's and the answer map's
// offsets less what IndexLo would add, so that the queries address them
// with the offset from TextLo as they are.
//
// Memory: the index costs 16 bytes per 256 bytes of code; the stretch bytes
// one per stretch, one per atomic and two per boundary (at most four per
// function); an atomic costs 8 bytes besides (offset, descriptor), a
// function its 40-byte record; a small module's maps 96 bytes per 256.
//
// Tables are immutable once published. Readers reach them by arena offset
// (arena.h) and read every field with relaxed loads (or, for the windows,
// loads the compiler cannot see), so that a reader that raced with an
// update reads garbage, never faults, and is then told to retry by the
// registry's generation check.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_RT_TABLE_H
#define PCMAP_RT_TABLE_H

#include "core/algorithm.h"
#include "core/arena.h"
#include "core/decode.h"

#include <stddef.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#elif defined(__aarch64__)
#include <arm_neon.h>
#endif

namespace pcmap {
namespace rt {

constexpr unsigned kStretchShift = 8; // 256 bytes of code per index entry
/// Atomics, and boundaries, a query compares at once (32 bytes each).
constexpr unsigned kWindow = 32;
/// A segment's class (one byte): bit 0, it lies in a function; bit 1, in a
/// function complete for atomics; bits 2 to 7, the functions that start in
/// the stretch at or before it (saturated: only stretches of at most
/// kWindow boundaries are read from their classes).
constexpr uint8_t kClassInFunction = 1;
constexpr uint8_t kClassComplete = 2;
constexpr unsigned kClassStartsShift = 2;
constexpr unsigned kMaxClassStarts = 63;
/// IndexEntry::Inline: bits 0 to 7, the low byte of the stretch's first
/// function start (when it has one); bits 8 and 9, the number of functions
/// that start in it, or 2 for "2 or more, or read the bytes".
/// pcmap_lookup_function needs no more of most stretches (see
/// Stretch::lastFunctionStart).
constexpr unsigned kInlineShift = 48;
constexpr unsigned kInlineStartsShift = kInlineShift + 8;
/// A module reads every stretch's bytes for pcmap_lookup_function when more
/// than one in kInlineLookupRatio of its covered stretches has two
/// function starts or more.
constexpr uint64_t kInlineLookupRatio = 10;
/// The answer map: a 64-bit word holds the answers for 32 bytes of code.
constexpr unsigned kMapBytesPerWordShift = 5;
/// The function map that follows it: one 16-bit entry per 16-byte granule
/// of code, (S << 1) | Inner, where S is the number of functions that
/// start at or before the granule's first byte and Inner whether one starts
/// inside it; kGranuleSearched where more than one does (or S does not fit:
/// the module has kGranuleSearched / 2 functions or more), and the index
/// tells.
constexpr unsigned kGranuleShift = 4;
constexpr uint16_t kGranuleSearched = 0xffff;
/// The bytes of a module's answer map, and where its function map begins.
inline uint64_t answerMapBytes(uint64_t TextSize) {
  return (TextSize + (1u << kMapBytesPerWordShift) - 1) >> kMapBytesPerWordShift
                                                               << 3;
}
inline uint64_t functionMapBytes(uint64_t TextSize) {
  uint64_t Granules = (TextSize + (1u << kGranuleShift) - 1) >> kGranuleShift;
  return (Granules * sizeof(uint16_t) + 7) & ~uint64_t(7); // whole words
}

struct IndexEntry {
  /// The atomics before the stretch (the index of its first atomic).
  uint32_t FirstAtomic;
  /// The functions that start before the stretch.
  uint32_t FirstFunction;
  /// Where the stretch's bytes begin in the module's StretchBytes.
  uint32_t Bytes;
  /// The stretch's atomics and boundaries, 255 for 255 or more (the
  /// stretch is then searched).
  uint8_t NumAtomics, NumBoundaries;
  /// What the entry says of the stretch without its bytes (see above).
  uint16_t Inline;
};
static_assert(sizeof(IndexEntry) == 16, "an entry is 16 bytes");

/// The header of a module's tables, in the arena. What a lookup reads comes
/// first, in one cache line.
struct ModuleTable {
  uint64_t TextLo, TextHi;
  /// The offsets the index and the maps describe (see "Covered code").
  uint64_t IndexLo, IndexSize;
  ArenaOffset Index; // IndexEntry[NumStretches + 2], from IndexLo on
  uint64_t NumStretches;
  ArenaOffset Functions;                        // FunctionRecord[NumFunctions]
  ArenaOffset AtomicOffsets, AtomicDescriptors; // uint32_t[NumAtomics]
  uint64_t NumFunctions, NumAtomics;
  uint64_t Bias;
  ArenaOffset Path; // NUL-terminated
  uint64_t PathBytes;
  /// Whether the atomics are this table's (merged, AtomicsCapacity of
  /// each array), or the one decoded atomics section's.
  uint64_t OwnsAtomics, AtomicsCapacity;
  /// Whether Functions is this table's (FunctionsCapacity records), or the
  /// one decoded functions section's.
  uint64_t OwnsFunctions, FunctionsCapacity;
  /// The stretches' bytes (see above), StretchBytesSize of them.
  ArenaOffset StretchBytes;
  uint64_t StretchBytesSize;
  /// The answer map and the function map after it (see above; 0: none),
  /// and their size in bytes.
  ArenaOffset AnswerMap;
  uint64_t AnswerMapBytes;
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
/// header. TextLo is published beside it. Index and AnswerMap are biased:
/// the offset of the entry, or the word, of offset 0 from TextLo, were the
/// index and the map to start there (see "Covered code").
struct ModuleView {
  uint32_t IndexLo, IndexSize;
  ArenaOffset Index, StretchBytes, Functions;
  ArenaOffset AnswerMap; // 0: none
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

  uint64_t indexLo() const { return loadRelaxed(&M->IndexLo); }
  uint64_t indexSize() const { return loadRelaxed(&M->IndexSize); }
  /// Whether Offset is in the covered code (any offset below TextLo wraps
  /// around to a large one).
  bool covers(uint64_t Offset) const {
    return Offset - indexLo() < indexSize();
  }
  ArenaOffset index() const { return loadRelaxed(&M->Index); }
  ArenaOffset stretchBytes() const { return loadRelaxed(&M->StretchBytes); }
  ArenaOffset functions() const { return loadRelaxed(&M->Functions); }
  ArenaOffset answerMap() const { return loadRelaxed(&M->AnswerMap); }
  ArenaOffset table() const { return loadRelaxed(&M->Table); }
  uint64_t bias() const { return loadRelaxed(&M->Bias); }
  const char *path() const { return loadRelaxed(&M->Path); }
  ArenaOffset atomicOffsets() const {
    return headerField(table(), offsetof(ModuleTable, AtomicOffsets));
  }
  ArenaOffset atomicDescriptors() const {
    return headerField(table(), offsetof(ModuleTable, AtomicDescriptors));
  }
  uint64_t numFunctions() const {
    return headerField(table(), offsetof(ModuleTable, NumFunctions));
  }
  uint64_t numAtomics() const {
    return headerField(table(), offsetof(ModuleTable, NumAtomics));
  }
  uint64_t numStretches() const {
    return headerField(table(), offsetof(ModuleTable, NumStretches));
  }
  /// The bytes of the module's code (TextHi - TextLo).
  uint64_t codeSize() const {
    return headerField(table(), offsetof(ModuleTable, TextHi)) -
           headerField(table(), offsetof(ModuleTable, TextLo));
  }
};

//===----------------------------------------------------------------------===//
// 32-byte windows
//===----------------------------------------------------------------------===//

/// Bit I set for each of the 32 bytes from P on that equals X (Match), or
/// that is at most X (AtMost). P may be anywhere in the arena: the bytes
/// past its arrays are other memory of the region, mapped, with a guard at
/// its end. The loads are in assembly: they may race with a writer reusing
/// the block (the generation check then discards the answer), and the
/// compiler must neither see a data race nor assume the memory unchanged.
struct Bytes16 {
  unsigned char B[16];
};
#if defined(__SSE2__)
inline __m128i loadWindowHalf(const unsigned char *P) {
  __m128i V;
  asm("movdqu %1, %0" : "=x"(V) : "m"(*reinterpret_cast<const Bytes16 *>(P)));
  return V;
}
inline __m128i broadcastByte(uint8_t X) {
  // movd and a multiply put X in every byte of the low word; pshufd the
  // rest (three instructions, where SSE2's byte broadcast takes four).
  return _mm_shuffle_epi32(_mm_cvtsi32_si128(int(0x01010101u * X)), 0);
}
inline uint32_t windowMatch(const unsigned char *P, uint8_t X) {
  __m128i K = broadcastByte(X);
  unsigned Lo =
      unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(loadWindowHalf(P), K)));
  unsigned Hi =
      unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(loadWindowHalf(P + 16), K)));
  return Lo | Hi << 16;
}
inline uint32_t windowAtMost(const unsigned char *P, uint8_t X) {
  // B <= X exactly when max(B, X) == X (unsigned).
  __m128i K = broadcastByte(X);
  __m128i A = loadWindowHalf(P), B = loadWindowHalf(P + 16);
  unsigned Lo =
      unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(A, K), K)));
  unsigned Hi =
      unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(B, K), K)));
  return Lo | Hi << 16;
}
#elif defined(__aarch64__)
inline uint8x16_t loadWindowHalf(const unsigned char *P) {
  uint8x16_t V;
  asm("ldr %q0, %1" : "=w"(V) : "m"(*reinterpret_cast<const Bytes16 *>(P)));
  return V;
}
/// One bit per lane of a vector of all-ones or all-zeros bytes.
inline uint32_t laneBits(uint8x16_t Lanes) {
  const uint8x16_t Weights = {1, 2, 4, 8, 16, 32, 64, 128,
                              1, 2, 4, 8, 16, 32, 64, 128};
  uint8x16_t W = vandq_u8(Lanes, Weights);
  return uint32_t(vaddv_u8(vget_low_u8(W))) |
         uint32_t(vaddv_u8(vget_high_u8(W))) << 8;
}
inline uint32_t windowMatch(const unsigned char *P, uint8_t X) {
  uint8x16_t K = vdupq_n_u8(X);
  return laneBits(vceqq_u8(loadWindowHalf(P), K)) |
         laneBits(vceqq_u8(loadWindowHalf(P + 16), K)) << 16;
}
inline uint32_t windowAtMost(const unsigned char *P, uint8_t X) {
  uint8x16_t K = vdupq_n_u8(X);
  return laneBits(vcleq_u8(loadWindowHalf(P), K)) |
         laneBits(vcleq_u8(loadWindowHalf(P + 16), K)) << 16;
}
#else
inline uint32_t windowMatch(const unsigned char *P, uint8_t X) {
  uint32_t Lanes = 0;
  for (unsigned I = 0; I < kWindow; ++I)
    Lanes |= uint32_t(loadRelaxed(P + I) == X) << I;
  return Lanes;
}
inline uint32_t windowAtMost(const unsigned char *P, uint8_t X) {
  uint32_t Lanes = 0;
  for (unsigned I = 0; I < kWindow; ++I)
    Lanes |= uint32_t(loadRelaxed(P + I) <= X) << I;
  return Lanes;
}
#endif

/// The lanes of a window that hold N values (all of them from kWindow on;
/// callers check N <= kWindow).
inline uint32_t windowLanes(uint32_t N) {
  return uint32_t((uint64_t(1) << (N & 63)) - 1);
}

//===----------------------------------------------------------------------===//
// Stretches
//===----------------------------------------------------------------------===//

/// The index entry of an offset's stretch, as a reader loads it, and what a
/// query makes of it. Everything is computed without branches.
struct Stretch {
  const uint64_t *Entry; // its first word is loaded where it is used
  uint64_t Word1;
  const unsigned char *Bytes; // the stretch's bytes

  uint32_t firstAtomic() const { return uint32_t(loadRelaxed(&Entry[0])); }
  uint32_t firstFunction() const {
    return uint32_t(loadRelaxed(&Entry[0]) >> 32);
  }
  uint32_t numAtomics() const { return uint32_t(Word1 >> 32) & 0xff; }
  uint32_t numBoundaries() const { return uint32_t(Word1 >> 40) & 0xff; }
  /// Whether the windows hold all of the stretch's atomics; boundaries.
  bool atomicsInWindow() const { return numAtomics() <= kWindow; }
  bool boundariesInWindow() const { return numBoundaries() <= kWindow; }
  /// Whether the windows describe the whole stretch.
  bool described() const {
    return unsigned(atomicsInWindow()) & unsigned(boundariesInWindow());
  }

  /// The stretch's atomics whose offset has low byte Low: at most one bit,
  /// for atomic firstAtomic() + its lane. Valid when atomicsInWindow().
  uint32_t atomicLanes(uint8_t Low) const {
    return windowMatch(Bytes, Low) & windowLanes(numAtomics());
  }
  /// The class of the segment of byte Low of the stretch: the class after
  /// the last boundary at or before it, or the one at its start. Valid when
  /// boundariesInWindow(). Inlined, so that the fast paths call nothing.
  __attribute__((always_inline)) uint8_t classAt(uint8_t Low) const {
    uint32_t NA = numAtomics(), NB = numBoundaries();
    // The boundaries at or before Low are the first lanes (ascending).
    uint64_t AtMost = windowAtMost(Bytes + NA, Low);
    unsigned Before =
        unsigned(__builtin_ctzll(~AtMost | (uint64_t(1) << (NB & 63))));
    // The class at the start, then the class after each boundary.
    return loadRelaxed(Bytes + NA + NB + Before);
  }
  /// The last function that starts at or before byte Low of the stretch
  /// (-1 if none), given the functions before the stretch: from the entry
  /// alone when at most one function starts in the stretch (most of the
  /// code, in most programs, whatever the padding between functions),
  /// which saves the loads of its bytes to the queries that need no atomic;
  /// else from the stretch's bytes (valid when boundariesInWindow()).
  /// Whether that function reaches Low is for its record to say.
  int64_t lastFunctionStart(uint8_t Low, uint64_t FirstFunction) const {
    unsigned Starts = unsigned(Word1 >> kInlineStartsShift) & 3;
    if (__builtin_expect(Starts <= 1, 1)) {
      uint8_t Start = uint8_t(Word1 >> kInlineShift);
      return int64_t(FirstFunction) - 1 + (Starts & unsigned(Low >= Start));
    }
    return int64_t(FirstFunction) - 1 + (classAt(Low) >> kClassStartsShift);
  }
};

/// Whether Offset (covered, or past the covered code) is beyond the index.
inline bool pastIndex(const TableView &V, uint32_t Offset) {
  return (Offset >> kStretchShift) - (V.indexLo() >> kStretchShift) >=
         V.numStretches();
}

/// The entry of stretch I, counted from offset 0 (the view's index is
/// biased): IndexLo / 256 <= I <= IndexLo / 256 + NumStretches + 1.
inline Stretch loadStretch(const TableView &V, uint64_t I) {
  const auto *W = static_cast<const uint64_t *>(
      arenaPointer(V.index() + I * sizeof(IndexEntry)));
  uint64_t W1 = loadRelaxed(&W[1]);
  const auto *Bytes = static_cast<const unsigned char *>(
      arenaPointer(V.stretchBytes() + uint32_t(W1)));
  return {W, W1, Bytes};
}

/// The function of a small module's function map that may hold Offset
/// (covered; -1: none), or -2 if the map does not tell. Map is the view's
/// (biased) answer map. Whether the function reaches Offset is for its
/// record to say.
__attribute__((always_inline)) inline int64_t
mappedFunction(const TableView &V, ArenaOffset Map, uint64_t Offset) {
  // The function map follows the answer map, which starts at Map + IndexLo
  // / 4 (a word per 32 bytes); its entry for Offset is the
  // ((Offset - IndexLo) / 16)th, two bytes each.
  const uint64_t Lo = V.indexLo();
  ArenaOffset Functions = Map + (Lo >> 2) - (Lo >> (kGranuleShift - 1)) +
                          answerMapBytes(V.indexSize());
  uint16_t G = loadRelaxed(static_cast<const uint16_t *>(
      arenaPointer(Functions + (Offset >> kGranuleShift) * sizeof(uint16_t))));
  if (__builtin_expect(G == kGranuleSearched, 0))
    return -2;
  // The function that starts inside the granule, if there is one, and
  // whether Offset is at or past its start (a load of garbage past the
  // records where there is none, masked out).
  uint64_t S = G >> 1;
  uint32_t NextStart = loadRelaxed(static_cast<const uint32_t *>(
      arenaPointer(V.functions() + S * sizeof(FunctionRecord) +
                   offsetof(FunctionRecord, Start))));
  return int64_t(S) - 1 + int64_t(G & unsigned(NextStart <= Offset));
}

/// pcmap_is_atomic_pc's answer at Offset (covered) from the view's (biased)
/// answer map Map.
inline int answerFromMap(ArenaOffset Map, uint64_t Offset) {
  const auto *Word = static_cast<const uint64_t *>(
      arenaPointer(Map + (Offset >> kMapBytesPerWordShift) * sizeof(uint64_t)));
  unsigned Shift = unsigned(Offset % (1u << kMapBytesPerWordShift)) * 2;
  return int((loadRelaxed(Word) >> Shift) & 3) - 1;
}

/// The number of keys <= X in a sorted array of uint32_t keys Stride bytes
/// apart, given that the keys before Lo are smaller and those from Hi on are
/// larger. Tolerates garbage: the bounds are clamped, and every load goes
/// through the arena.
inline uint64_t keysAtMost(ArenaOffset Keys, uint64_t Stride, uint64_t Lo,
                           uint64_t Hi, uint64_t N, uint32_t X) {
  if (Hi > N)
    Hi = N;
  if (Lo > Hi)
    Lo = Hi;
  return upperBound(Lo, Hi, X, [Keys, Stride](uint64_t I) {
    return loadRelaxed(
        static_cast<const uint32_t *>(arenaPointer(Keys + I * Stride)));
  });
}

/// Index of the last atomic at or before Offset, or -1.
inline int64_t lastAtomicAtOrBefore(const TableView &V, uint32_t Offset) {
  if (pastIndex(V, Offset))
    return int64_t(V.numAtomics()) - 1;
  uint64_t S = Offset >> kStretchShift;
  // The atomics before stretch S's FirstAtomic lie before it; those from
  // stretch S + 1's on, after it.
  return int64_t(keysAtMost(V.atomicOffsets(), sizeof(uint32_t),
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
  // The functions before stretch S's FirstFunction start before it; those
  // from stretch S + 1's on, after it.
  return int64_t(keysAtMost(V.functions(), sizeof(FunctionRecord),
                            loadStretch(V, S).firstFunction(),
                            loadStretch(V, S + 1).firstFunction(),
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
