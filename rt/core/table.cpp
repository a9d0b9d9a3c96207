//===- table.cpp - A module's tables and their index ----------------------===//

#include "core/table.h"

#include "core/log.h"
#include "core/options.h"

#include "pcmap/Format.h"
#include "pcmap/pcmap.h"

#include <stddef.h>
#include <string.h>

namespace pcmap {
namespace rt {

using format::kFeatureAtomics;
using format::kFeatureHasAtomics;
using format::kKnownFeatures;

namespace {

/// Entries NumStretches and NumStretches + 1 end the index: a query reads
/// the entry of its stretch, and the slow paths the one after it.
uint64_t indexBytes(uint64_t NumStretches) {
  return (NumStretches + 2) * sizeof(IndexEntry);
}

/// The stretch bytes past the last stretch's that a window may read: the
/// region is mapped past any block, but a block of its own keeps a stale
/// reader's garbage out of other blocks' pages.
constexpr uint64_t kBytesSlack = 2 * kWindow;

ScratchBuffer AtomicCountScratch, BoundaryScratch, BoundaryCountScratch;

/// Offsets counted at once by countBelow (one cache line of them).
constexpr unsigned kCountWindow = 16;

/// The number of the first N (<= kCountWindow) sorted offsets at P below
/// X, without a branch. Reads kCountWindow offsets: P is in the arena,
/// which is mapped past any array's end. Sorted, the offsets below X are
/// the first lanes: their number is that of the trailing ones (a bit scan,
/// where a population count would cost a dozen instructions without
/// POPCNT).
inline uint32_t countBelow(const uint32_t *P, uint32_t N, uint32_t X) {
#if defined(__SSE2__)
  static_assert(kCountWindow == 16, "four vectors of four offsets");
  // Unsigned compares, as signed ones of the values with the top bit
  // flipped.
  const __m128i Flip = _mm_set1_epi32(int(0x80000000u));
  const __m128i K = _mm_xor_si128(_mm_set1_epi32(int(X)), Flip);
  auto Below = [&](unsigned I) {
    __m128i V = _mm_loadu_si128(reinterpret_cast<const __m128i *>(P + 4 * I));
    return _mm_cmplt_epi32(_mm_xor_si128(V, Flip), K);
  };
  __m128i AB = _mm_packs_epi32(Below(0), Below(1));
  __m128i CD = _mm_packs_epi32(Below(2), Below(3));
  uint32_t Lanes = uint32_t(_mm_movemask_epi8(_mm_packs_epi16(AB, CD)));
  return uint32_t(__builtin_ctz(~Lanes | (1u << N)));
#else
  uint32_t Count = 0;
  for (uint32_t I = 0; I < N; ++I)
    Count += P[I] < X;
  return Count;
#endif
}

/// Makes C[S] (S <= NumEntries) the number of items before stretch S, from
/// C[S + 1] = one past the last item in stretch S, set for the stretches
/// that have items (and 0 elsewhere): a running maximum.
void runningMaximum(uint32_t *C, uint64_t NumEntries) {
  // The maximum is kept in a register, not reloaded from the entry just
  // stored.
  for (uint32_t I = 1, Max = 0; I <= NumEntries; ++I) {
    uint32_t V = C[I];
    Max = V > Max ? V : Max;
    C[I] = Max;
  }
}

/// Room for NumEntries + 1 counts, zeroed, or null when out of memory.
uint32_t *zeroedCounts(ScratchBuffer &Scratch, uint64_t NumEntries) {
  auto *C = reinterpret_cast<uint32_t *>(Scratch.get((NumEntries + 1) / 2 + 1));
  if (C)
    memset(C, 0, (NumEntries + 1) * sizeof(uint32_t));
  return C;
}

/// The atomics before each stretch, from the sorted offsets (NumEntries + 1
/// counts, in the scratch buffer), or null when out of memory.
uint32_t *countAtomicsBefore(const uint32_t *Atomics, uint64_t NumAtomics,
                             uint64_t NumEntries) {
  uint32_t *Before = zeroedCounts(AtomicCountScratch, NumEntries);
  if (!Before)
    return nullptr;
  for (uint64_t A = 0; A < NumAtomics; ++A)
    Before[(Atomics[A] >> kStretchShift) + 1] = uint32_t(A + 1);
  runningMaximum(Before, NumEntries);
  return Before;
}

/// The sorted atomics of a module and the counts per stretch above.
struct AtomicsByStretch {
  const uint32_t *Atomics;
  uint64_t NumAtomics;
  const uint32_t *Before;

  /// The atomics before offset X (X <= the code's size).
  __attribute__((always_inline)) uint64_t below(uint64_t X) const {
    uint64_t S = X >> kStretchShift;
    uint64_t First = Before[S], N = Before[S + 1] - First;
    if (__builtin_expect(N > kCountWindow, 0)) {
      while (First < NumAtomics && Atomics[First] < X)
        ++First;
      return First;
    }
    return First + countBelow(Atomics + First, uint32_t(N), uint32_t(X));
  }
};

/// A boundary of the index, as the build collects them in order: its
/// offset (high word), the functions that start at or before it (bits 8
/// to 31: a module has fewer than kMaxFunctions), and the class of the
/// segment it begins (low byte, without a count).
constexpr uint64_t kMaxFunctions = uint64_t(1) << 24;
inline uint64_t boundary(uint64_t Offset, uint64_t Class, uint64_t Starts) {
  return Offset << 32 | Starts << 8 | Class;
}
inline uint64_t startsOf(uint64_t Bound) { return (Bound >> 8) & 0xffffff; }

/// Writes the index and the stretches' bytes (table.h), from the sorted
/// atomics and boundaries, in passes without a branch on the data (a loop
/// per stretch over its atomics and boundaries mispredicts the end of each):
/// with the atomics (AtomicsBefore) and boundaries (BoundsBefore) before
/// each stretch S, its bytes begin at
///
///   Pos(S) = AtomicsBefore[S] + 2 * BoundsBefore[S] + S
///
/// (an atomic's low byte, a boundary's low byte and the class after it, and
/// the class at each stretch's start), so that every item's place is known.
/// The class at a stretch's start, and the functions before it, are those
/// of the boundary before it.
class IndexWriter {
public:
  IndexWriter(uint64_t *Index, unsigned char *Bytes, const uint32_t *Before,
              const uint32_t *BoundsBefore)
      : Index(Index), Bytes(Bytes), AtomicsBefore(Before),
        BoundsBefore(BoundsBefore) {}

  static uint64_t bytesNeeded(uint64_t NumAtomics, uint64_t NumBounds,
                              uint64_t NumEntries) {
    return NumAtomics + 2 * NumBounds + NumEntries;
  }

  /// Bounds[-1], Bounds[NumBounds] and Bounds[NumBounds + 1] must be
  /// readable, and 0. Covered: the stretches that functions cover, about.
  void write(const uint32_t *Atomics, uint64_t NumAtomics,
             const uint64_t *Bounds, uint64_t NumBounds, uint64_t NumEntries,
             uint64_t Covered) {
    for (uint64_t I = 0; I < NumAtomics; ++I) {
      uint64_t S = Atomics[I] >> kStretchShift;
      put(I + 2 * BoundsBefore[S] + S, uint8_t(Atomics[I]));
    }
    uint64_t ManyStarts = 0; // stretches where two functions or more start
    for (uint64_t K = 0; K < NumBounds; ++K) {
      uint64_t Bound = Bounds[K], S = Bound >> (32 + kStretchShift);
      uint64_t InStretch =
          startsOf(Bound) - startsOf(Bounds[int64_t(BoundsBefore[S]) - 1]);
      ManyStarts += (InStretch == 2) & Bound & kClassInFunction;
      uint64_t Count =
          InStretch < kMaxClassStarts ? InStretch : kMaxClassStarts;
      put(AtomicsBefore[S + 1] + BoundsBefore[S] + S + K, uint8_t(Bound >> 32));
      put(AtomicsBefore[S + 1] + BoundsBefore[S + 1] + S + 1 + K,
          uint8_t((Bound & 3) | Count << kClassStartsShift));
    }
    // 2 for every stretch: read the bytes (table.h).
    const uint64_t AllMany = ManyStarts * kInlineLookupRatio > Covered ? 2 : 0;
    for (uint64_t S = 0; S < NumEntries; ++S) {
      uint64_t A0 = AtomicsBefore[S], NA = AtomicsBefore[S + 1] - A0;
      uint64_t B0 = BoundsBefore[S], NB = BoundsBefore[S + 1] - B0;
      uint64_t Pos = A0 + 2 * B0 + S;
      uint64_t Before = Bounds[int64_t(B0) - 1];
      put(Pos + NA + NB, uint8_t(Before & 3));
      uint64_t Starts =
          startsOf(Bounds[int64_t(B0 + NB) - 1]) - startsOf(Before);
      Starts = Starts < 2 ? Starts : 2;
      Starts = Starts > AllMany ? Starts : AllMany;
      // The first start: the first boundary, or the one after it when the
      // first ends the function before the stretch.
      uint64_t First = Bounds[B0 + ((Bounds[B0] & kClassInFunction) == 0)];
      uint64_t Inline = (First >> 32 & 0xff) | Starts << 8;
      storeRelaxed(&Index[2 * S], A0 | startsOf(Before) << 32);
      // The boundaries' bytes follow the atomics': a stretch whose count
      // of atomics is saturated has its boundaries searched too.
      NB = NA < 255 && NB < 255 ? NB : 255;
      storeRelaxed(&Index[2 * S + 1], Pos | (NA < 255 ? NA : 255) << 32 |
                                          NB << 40 | Inline << kInlineShift);
    }
  }

private:
  void put(uint64_t At, uint8_t V) { storeRelaxed(&Bytes[At], V); }

  uint64_t *Index;
  unsigned char *Bytes;
  const uint32_t *AtomicsBefore, *BoundsBefore;
};

/// The bits of an answer map's word (table.h) for its bytes [From, To),
/// From < To <= 32.
inline uint64_t mapLanes(uint64_t From, uint64_t To) {
  uint64_t Below = To == 32 ? ~uint64_t(0) : (uint64_t(1) << (2 * To)) - 1;
  return Below & ~((uint64_t(1) << (2 * From)) - 1);
}

/// Writes the answer map (table.h) of the code's first Words * 32 bytes, a
/// word at a time in one pass, from the boundaries as the index has them
/// (sorted; Bounds[-1] is the class 0 at offset 0) and the atomics: NO in
/// the segments of complete functions, YES at atomics, UNKNOWN elsewhere.
void writeAnswerMap(uint64_t *Out, uint64_t Words, const uint64_t *Bounds,
                    uint64_t NumBounds, const uint32_t *Atomics,
                    uint64_t NumAtomics) {
  constexpr uint64_t kPerWord = 1u << kMapBytesPerWordShift;
  constexpr uint64_t kNoInEveryLane = 0x5555555555555555; // answer 0, plus 1
  auto NoIn = [](uint64_t Class) {
    return (Class & kClassComplete) ? kNoInEveryLane : 0;
  };
  uint64_t K = 0, A = 0, Class = 0; // the class of the segment at Lo
  for (uint64_t W = 0; W < Words; ++W) {
    const uint64_t Lo = W * kPerWord, Hi = Lo + kPerWord;
    uint64_t Word = NoIn(Class);
    if (K < NumBounds && (Bounds[K] >> 32) < Hi) {
      // Segments change inside the word.
      Word = 0;
      uint64_t From = Lo;
      for (; K < NumBounds && (Bounds[K] >> 32) < Hi; ++K) {
        uint64_t To = Bounds[K] >> 32;
        if (To > From) {
          Word |= NoIn(Class) & mapLanes(From - Lo, To - Lo);
          From = To;
        }
        Class = Bounds[K] & 0xff;
      }
      Word |= NoIn(Class) & mapLanes(From - Lo, kPerWord);
    }
    for (; A < NumAtomics && Atomics[A] < Hi; ++A) {
      unsigned Shift = unsigned(Atomics[A] - Lo) * 2;
      Word = (Word & ~(uint64_t(3) << Shift)) | uint64_t(PCMAP_YES + 1)
                                                    << Shift;
    }
    storeRelaxed(&Out[W], Word);
  }
}

/// Writes the function map (table.h) of the granules of [0, TextSize), four
/// granules to a word, a function start at a time: the granules between two
/// starts share one entry. F: sorted by start, starts unique.
void writeFunctionMap(uint64_t *Granules, const FunctionRecord *F,
                      uint64_t NumFunctions, uint64_t TextSize) {
  const uint64_t NumGranules =
      (TextSize + (1u << kGranuleShift) - 1) >> kGranuleShift;
  auto EntryOf = [](uint64_t S, uint64_t Inner) -> uint64_t {
    return Inner > 1 || S >= kGranuleSearched / 2 ? kGranuleSearched
                                                  : S << 1 | Inner;
  };
  uint64_t G = 0, Word = 0; // the next granule; the lanes before it
  auto Put = [&](uint64_t Entry) {
    Word |= Entry << (16 * (G % 4));
    if (G % 4 == 3) {
      storeRelaxed(&Granules[G / 4], Word);
      Word = 0;
    }
    ++G;
  };
  auto Fill = [&](uint64_t End, uint64_t Entry) { // granules [G, End)
    while (G < End && G % 4)
      Put(Entry);
    for (; G + 4 <= End; G += 4)
      storeRelaxed(&Granules[G / 4], Entry * 0x0001000100010001);
    while (G < End)
      Put(Entry);
  };
  // I: the functions that start before granule G.
  uint64_t I = 0;
  while (I < NumFunctions && F[I].Start < TextSize) {
    const uint64_t Here = F[I].Start >> kGranuleShift;
    Fill(Here, EntryOf(I, 0));
    const uint64_t AtStart = F[I].Start == Here << kGranuleShift;
    uint64_t J = I;
    while (J < NumFunctions && F[J].Start >> kGranuleShift == Here)
      ++J;
    Put(EntryOf(I + AtStart, J - I - AtStart));
    I = J;
  }
  Fill(NumGranules, EntryOf(I, 0));
  if (G % 4)
    storeRelaxed(&Granules[G / 4], Word);
}

/// Builds a small module's maps (table.h) of [0, TextSize) straight into
/// one block of the arena: the answer map from the boundaries (as
/// writeAnswerMap takes them) and the atomics, then the function map from
/// the functions. False when out of memory: the module's queries then go
/// through its index.
bool buildMaps(const uint64_t *Bounds, uint64_t NumBounds,
               const uint32_t *Atomics, uint64_t NumAtomics,
               const FunctionRecord *F, uint64_t NumFunctions,
               uint64_t TextSize, ArenaBlock &Maps) {
  const uint64_t AnswerBytes = answerMapBytes(TextSize);
  if (!Maps.allocate(AnswerBytes + functionMapBytes(TextSize)))
    return false;
  auto *Out = Maps.data<uint64_t>();
  writeAnswerMap(Out, AnswerBytes / sizeof(uint64_t), Bounds, NumBounds,
                 Atomics, NumAtomics);
  writeFunctionMap(Out + AnswerBytes / sizeof(uint64_t), F, NumFunctions,
                   TextSize);
  return true;
}

/// The features of R that the runtime relies on, given that it holds the
/// atomics [A, B): a claim of complete atomics stands only if the section
/// that made it was accepted, and a function that says it has atomics
/// has some.
uint32_t reliedFeatures(const FunctionRecord &R, uint64_t A, uint64_t B,
                        const ModuleAtomicsState &State) {
  uint32_t Declared = R.Declared;
  bool PCMapComplete = (R.Source & PCMAP_SOURCE_PCMAP) &&
                       (Declared & kFeatureAtomics) &&
                       !State.PCMapAtomicsRejected &&
                       !((Declared & kFeatureHasAtomics) && A == B);
  bool UpstreamComplete =
      (R.Source & PCMAP_SOURCE_UPSTREAM) &&
      (R.UpstreamFeatures & pcmap::format::kUpstreamFeatureAtomics) &&
      State.UpstreamAtomicsPresent && !State.UpstreamAtomicsRejected;
  return uint32_t((Declared & kKnownFeatures & ~kFeatureAtomics) |
                  (PCMapComplete || UpstreamComplete ? kFeatureAtomics : 0));
}

/// A module's table while it is built: its header, and the blocks it owns
/// until publish() hands them over to the header, from which
/// freeModuleTable gives them back. A build that fails frees them all.
struct TableBuild {
  ModuleTable T;
  ArenaBlock Header, AtomicOffsets, AtomicDescriptors, Functions, Index,
      StretchBytes, Maps, Path;

  TableBuild() { memset(&T, 0, sizeof(T)); }

  /// The header, written to its block, which owns the others from now on.
  ArenaOffset publish() {
    T.Bytes = sizeof(ModuleTable) + T.PathBytes +
              T.NumFunctions * sizeof(FunctionRecord) + T.NumAtomics * 8 +
              indexBytes(T.NumStretches) + T.StretchBytesSize +
              T.AnswerMapBytes;
    AtomicOffsets.release();
    AtomicDescriptors.release();
    Functions.release();
    Index.release();
    StretchBytes.release();
    Maps.release();
    Path.release();
    arenaStore(Header.data(), &T, sizeof(T));
    return Header.release();
  }
};

/// The boundaries of a module's index, as finishFunctions collects them in
/// order (see boundary()), after one and before two of class 0
/// (IndexWriter); those before each stretch; and the stretches that
/// functions cover, about (overlapping functions count twice).
struct Boundaries {
  uint64_t *Bounds = nullptr;
  uint64_t Num = 0;
  uint32_t *Before = nullptr; // NumEntries + 1 counts
  uint64_t Covered = 0;

  /// Room for the boundaries of NumFunctions functions, and the counts;
  /// false when out of memory.
  bool reserve(uint64_t NumFunctions, uint64_t NumEntries) {
    Bounds = BoundaryScratch.get(2 * NumFunctions + 4);
    Before = zeroedCounts(BoundaryCountScratch, NumEntries);
    if (!Bounds || !Before)
      return false;
    *Bounds++ = 0;
    return true;
  }
  /// Ends the list and counts the boundaries before each stretch.
  void finish(uint64_t NumEntries) {
    Bounds[Num] = Bounds[Num + 1] = 0;
    for (uint64_t K = 0; K < Num; ++K)
      Before[(Bounds[K] >> (32 + kStretchShift)) + 1] = uint32_t(K + 1);
    runningMaximum(Before, NumEntries);
  }
};

/// The sorted atomics of each function in turn, by start: [A, B).
struct AtomicsOfFunctions {
  AtomicsByStretch ByStretch;
  uint64_t CodeEnd;
  uint64_t Below = 0, PreviousEnd = 0;

  __attribute__((always_inline)) void next(uint64_t Start, uint64_t End,
                                           uint64_t &A, uint64_t &B) {
    const uint32_t *Atomics = ByStretch.Atomics;
    const uint64_t NumAtomics = ByStretch.NumAtomics;
    // The atomics before the function: as many as before the previous
    // one's end, unless some lie between the two (rare) or the functions
    // overlap; and its own, counted from there.
    A = Below;
    if (__builtin_expect(
            Start < PreviousEnd || (A < NumAtomics && Atomics[A] < Start), 0))
      A = ByStretch.below(Start < CodeEnd ? Start : CodeEnd);
    uint64_t Left = NumAtomics - A;
    uint32_t InWindow = countBelow(
        Atomics + A, uint32_t(Left < kCountWindow ? Left : kCountWindow),
        uint32_t(End < CodeEnd ? End : CodeEnd));
    B = __builtin_expect(InWindow < kCountWindow, 1)
            ? A + InWindow
            : ByStretch.below(End < CodeEnd ? End : CodeEnd);
    Below = B;
    PreviousEnd = End;
  }
};

/// Finishes the functions (sorted by start, with unique starts): sets each
/// one's atomics, the range of the sorted atomics inside it, and the
/// features the runtime relies on; and collects the index's boundaries
/// below CodeEnd into Out (reserved). A function holds the bytes from its
/// start to its end or to the next function's start, whichever comes
/// first: the function that the searches (table.h) find.
void finishFunctions(FunctionRecord *F, uint64_t NumFunctions,
                     const AtomicsByStretch &ByStretch,
                     const ModuleAtomicsState &State, uint64_t CodeEnd,
                     Boundaries &Out) {
  AtomicsOfFunctions Of{ByStretch, CodeEnd};
  // In registers through the loop (the stores to Bounds may alias Out).
  uint64_t *const Bounds = Out.Bounds;
  uint64_t NumBounds = 0, Covered = 0, LastCovered = ~uint64_t(0);
  for (uint64_t I = 0; I < NumFunctions; ++I) {
    FunctionRecord &R = F[I];
    uint64_t Start = R.Start, End = Start + R.Size, A, B;
    Of.next(Start, End, A, B);
    // The stretches it covers, less the one it shares with the function
    // before (about: overlapping functions count twice).
    if (R.Size && Start < CodeEnd) {
      uint64_t FirstS = Start >> kStretchShift,
               LastS = (End - 1) >> kStretchShift;
      Covered += LastS - FirstS + 1 - (FirstS == LastCovered);
      LastCovered = LastS;
    }
    uint32_t Features = reliedFeatures(R, A, B, State);
    storeRelaxed(&R.Features, Features);
    storeRelaxed(&R.NumAtomics, uint32_t(B - A));
    storeRelaxed(&R.FirstAtomic, uint32_t(A));

    // Boundaries past the code describe no byte a query can ask about.
    if (Start < CodeEnd)
      Bounds[NumBounds++] =
          boundary(Start,
                   kClassInFunction |
                       ((Features & kFeatureAtomics) ? kClassComplete : 0),
                   I + 1);
    uint64_t Next = I + 1 < NumFunctions ? F[I + 1].Start : ~uint64_t(0);
    if (End < Next && End < CodeEnd)
      Bounds[NumBounds++] = boundary(End, 0, I + 1);
  }
  Out.Num = NumBounds;
  Out.Covered = Covered;
}

/// Writes the index and the stretches' bytes (IndexWriter) of the sorted
/// atomics, with the atomics before each stretch (AtomicsBefore) and the
/// boundaries, into blocks of their own.
bool writeIndex(const uint32_t *Atomics, const uint32_t *AtomicsBefore,
                const Boundaries &B, TableBuild &Build) {
  ModuleTable &T = Build.T;
  const uint64_t NumEntries = T.NumStretches + 2;
  T.StretchBytesSize =
      IndexWriter::bytesNeeded(T.NumAtomics, B.Num, NumEntries) + kBytesSlack;
  if (!Build.Index.allocate(indexBytes(T.NumStretches)) ||
      !Build.StretchBytes.allocate(T.StretchBytesSize))
    return false;
  T.Index = Build.Index.offset();
  T.StretchBytes = Build.StretchBytes.offset();
  IndexWriter W(Build.Index.data<uint64_t>(),
                Build.StretchBytes.data<unsigned char>(), AtomicsBefore,
                B.Before);
  W.write(Atomics, T.NumAtomics, B.Bounds, B.Num, NumEntries, B.Covered);
  return true;
}

/// Finishes the table's functions (finishFunctions), with its sorted
/// atomics, and builds the index over [0, TextSize) with the stretches'
/// bytes, and a small module's maps.
bool finishAndIndex(FunctionRecord *F, const uint32_t *Atomics,
                    const ModuleAtomicsState &State, uint64_t TextSize,
                    TableBuild &Build) {
  ModuleTable &T = Build.T;
  T.NumStretches = (TextSize + (1u << kStretchShift) - 1) >> kStretchShift;
  const uint64_t NumEntries = T.NumStretches + 2;
  const uint32_t *Before =
      countAtomicsBefore(Atomics, T.NumAtomics, NumEntries);
  if (T.NumFunctions >= kMaxFunctions) {
    Message M;
    M << "a module of " << T.NumFunctions << " functions is more than the "
      << "index holds (" << kMaxFunctions - 1 << ")";
    M.emit();
    return false;
  }
  Boundaries B;
  if (!Before || !B.reserve(T.NumFunctions, NumEntries))
    return false;
  finishFunctions(F, T.NumFunctions, {Atomics, T.NumAtomics, Before}, State,
                  T.NumStretches << kStretchShift, B);
  B.finish(NumEntries);
  if (!writeIndex(Atomics, Before, B, Build))
    return false;
  const uint64_t MapLimit =
      Flags.answer_map_kib > 0 ? uint64_t(Flags.answer_map_kib) << 10 : 0;
  if (TextSize && TextSize <= MapLimit &&
      buildMaps(B.Bounds, B.Num, Atomics, T.NumAtomics, F, T.NumFunctions,
                TextSize, Build.Maps)) {
    T.AnswerMap = Build.Maps.offset();
    T.AnswerMapBytes = Build.Maps.size();
  }
  return true;
}

/// Merges K sorted atomics arrays into Offsets and Descs (room for all of
/// theirs), dropping duplicate PCs and preferring a pcmap descriptor to an
/// upstream one. Returns the atomics written.
uint64_t mergeAtomics(const DecodedAtomics *In, unsigned K, uint32_t *Offsets,
                      uint32_t *Descs) {
  uint64_t Pos[kMaxSectionsPerModule] = {};
  uint64_t Count = 0;
  for (;;) {
    int Best = -1;
    uint32_t BestOffset = 0;
    for (unsigned J = 0; J < K; ++J) {
      if (Pos[J] == In[J].Count)
        continue;
      uint32_t O = arenaLoad<uint32_t>(In[J].Offsets, Pos[J]);
      if (Best < 0 || O < BestOffset) {
        Best = int(J);
        BestOffset = O;
      }
    }
    if (Best < 0)
      break;
    uint32_t Desc = arenaLoad<uint32_t>(In[Best].Descriptors, Pos[Best]++);
    if (Count && Offsets[Count - 1] == BestOffset) {
      if (Descs[Count - 1] == kUpstreamDescriptor)
        storeRelaxed(&Descs[Count - 1], Desc);
      continue;
    }
    storeRelaxed(&Offsets[Count], BestOffset);
    storeRelaxed(&Descs[Count], Desc);
    ++Count;
  }
  return Count;
}

/// Merges function arrays by start into Out; the records of one function
/// from several sections (pcmap and sanmd) become one.
uint64_t mergeFunctions(const DecodedFunctions *const *In, unsigned K,
                        FunctionRecord *Out) {
  if (K == 1) { // one section, already sorted and unique
    arenaStore(Out, arenaPointer(In[0]->Records),
               uint64_t(In[0]->Count) * sizeof(FunctionRecord));
    return In[0]->Count;
  }
  uint64_t Pos[kMaxSectionsPerModule] = {};
  uint64_t Count = 0;
  for (;;) {
    int Best = -1;
    uint32_t BestStart = 0;
    for (unsigned J = 0; J < K; ++J) {
      if (Pos[J] == In[J]->Count)
        continue;
      uint32_t S = arenaLoad<uint32_t>(
          In[J]->Records + Pos[J] * sizeof(FunctionRecord), 0);
      if (Best < 0 || S < BestStart) {
        Best = int(J);
        BestStart = S;
      }
    }
    if (Best < 0)
      break;
    FunctionRecord R;
    memcpy(
        &R,
        arenaPointer(In[Best]->Records + Pos[Best]++ * sizeof(FunctionRecord)),
        sizeof(R));
    if (Count && Out[Count - 1].Start == R.Start) {
      FunctionRecord Prev = Out[Count - 1];
      Prev.Declared |= R.Declared; // upstream records declare none
      Prev.Source |= R.Source;
      if (R.Source & PCMAP_SOURCE_UPSTREAM) {
        Prev.UpstreamFeatures = R.UpstreamFeatures;
        Prev.UpstreamStackArgs = R.UpstreamStackArgs;
      } else {
        Prev.Size = R.Size;
      }
      arenaStore(&Out[Count - 1], &Prev, sizeof(Prev));
      continue;
    }
    arenaStore(&Out[Count++], &R, sizeof(R));
  }
  return Count;
}

/// The module's atomics: the one section's arrays as they are, or a merge
/// of several into blocks of the table's own.
bool takeAtomics(const DecodedAtomics *Atomics, unsigned NumSections,
                 TableBuild &Build) {
  ModuleTable &T = Build.T;
  if (NumSections == 1) {
    T.AtomicOffsets = Atomics[0].Offsets;
    T.AtomicDescriptors = Atomics[0].Descriptors;
    T.NumAtomics = Atomics[0].Count;
    return true;
  }
  uint64_t Total = 0;
  for (unsigned I = 0; I < NumSections; ++I)
    Total += Atomics[I].Count;
  if (!Total)
    return true;
  if (!Build.AtomicOffsets.allocate(Total * sizeof(uint32_t)) ||
      !Build.AtomicDescriptors.allocate(Total * sizeof(uint32_t)))
    return false;
  T.OwnsAtomics = 1;
  T.AtomicsCapacity = Total;
  T.AtomicOffsets = Build.AtomicOffsets.offset();
  T.AtomicDescriptors = Build.AtomicDescriptors.offset();
  T.NumAtomics =
      mergeAtomics(Atomics, NumSections, Build.AtomicOffsets.data<uint32_t>(),
                   Build.AtomicDescriptors.data<uint32_t>());
  return true;
}

/// The module's functions: the one section's records, finished in place if
/// no table has published them, else a copy or a merge in a block of the
/// table's own.
bool takeFunctions(DecodedFunctions *const *Functions, unsigned NumSections,
                   TableBuild &Build) {
  ModuleTable &T = Build.T;
  if (NumSections == 1 && !Functions[0]->Adopted) {
    Functions[0]->Adopted = true;
    T.Functions = Functions[0]->Records;
    T.NumFunctions = Functions[0]->Count;
    return true;
  }
  uint64_t Total = 0;
  for (unsigned I = 0; I < NumSections; ++I)
    Total += Functions[I]->Count;
  if (!Build.Functions.allocate(Total * sizeof(FunctionRecord)))
    return false;
  T.OwnsFunctions = 1;
  T.FunctionsCapacity = Total;
  T.Functions = Build.Functions.offset();
  T.NumFunctions = mergeFunctions(Functions, NumSections,
                                  Build.Functions.data<FunctionRecord>());
  return true;
}

/// The module's path, NUL-terminated, in a block of the table's own.
bool copyPath(const char *Path, TableBuild &Build) {
  size_t Len = Path ? strlen(Path) : 0;
  if (!Build.Path.allocate(Len + 1))
    return false;
  arenaStore(Build.Path.data(), Path ? Path : "", Len);
  arenaStore(Build.Path.data<char>() + Len, "", 1);
  Build.T.Path = Build.Path.offset();
  Build.T.PathBytes = Len + 1;
  return true;
}

} // namespace

ArenaOffset buildModuleTable(const CodeRanges &Code, uintptr_t Bias,
                             const char *Path, const DecodedAtomics *Atomics,
                             unsigned NumAtomicSections,
                             DecodedFunctions *const *Functions,
                             unsigned NumFunctionSections,
                             const ModuleAtomicsState &State) {
  TableBuild Build;
  if (!Build.Header.allocate(sizeof(ModuleTable)))
    return 0;
  ModuleTable &T = Build.T;
  T.TextLo = Code.TextLo;
  T.TextHi = Code.TextHi;
  T.Bias = Bias;
  if (!takeAtomics(Atomics, NumAtomicSections, Build) ||
      !takeFunctions(Functions, NumFunctionSections, Build))
    return 0;
  // Writers read and finish their own arrays directly.
  auto *F = static_cast<FunctionRecord *>(arenaWritable(T.Functions));
  const auto *Offsets =
      static_cast<const uint32_t *>(arenaWritable(T.AtomicOffsets));
  if (!finishAndIndex(F, Offsets, State, Code.TextHi - Code.TextLo, Build) ||
      !copyPath(Path, Build))
    return 0;
  return Build.publish();
}

void freeModuleTable(ArenaOffset TableOff) {
  if (!TableOff)
    return;
  ModuleTable T;
  memcpy(&T, arenaPointer(TableOff), sizeof(T));
  arenaFree(T.Path, T.PathBytes);
  if (T.OwnsFunctions)
    arenaFree(T.Functions, T.FunctionsCapacity * sizeof(FunctionRecord));
  if (T.OwnsAtomics) {
    arenaFree(T.AtomicOffsets, T.AtomicsCapacity * sizeof(uint32_t));
    arenaFree(T.AtomicDescriptors, T.AtomicsCapacity * sizeof(uint32_t));
  }
  arenaFree(T.Index, indexBytes(T.NumStretches));
  arenaFree(T.StretchBytes, T.StretchBytesSize);
  arenaFree(T.AnswerMap, T.AnswerMapBytes);
  arenaFree(TableOff, sizeof(ModuleTable));
}

} // namespace rt
} // namespace pcmap
