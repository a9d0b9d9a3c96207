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

/// The functions a module's index holds at most (less one); the index
/// counts them in 32 bits, but module tables have always been bounded so.
constexpr uint64_t kMaxFunctions = uint64_t(1) << 24;

ScratchBuffer BoundOffsetScratch, BoundStartScratch, BoundClassScratch;

/// Class bytes copied at once by the stretch writer (putBytes).
constexpr unsigned kCountWindow = 16;

/// Offsets a stretch's run takes at once (putRun): most stretches hold
/// fewer atomics, and fewer boundaries.
constexpr unsigned kRunWindow = 8;
/// What the boundaries' offsets end with (Boundaries): above any offset of
/// code, whose size is below 4 GiB.
constexpr uint32_t kNoOffset = 0xffffffffu;

/// The number of the first N (<= kRunWindow) sorted offsets at P below X,
/// without a branch. Reads kRunWindow offsets: P is in the arena, which is
/// mapped past any array's end. Sorted, the offsets below X are the first
/// lanes: their number is that of the trailing ones (a bit scan, where a
/// population count would cost a dozen instructions without POPCNT).
inline uint32_t countBelowInRun(const uint32_t *P, uint32_t N, uint32_t X) {
#if defined(__SSE2__)
  const __m128i Flip = _mm_set1_epi32(int(0x80000000u));
  const __m128i K = _mm_xor_si128(_mm_set1_epi32(int(X)), Flip);
  auto Below = [&](unsigned I) {
    __m128i V = _mm_loadu_si128(reinterpret_cast<const __m128i *>(P + 4 * I));
    return _mm_cmplt_epi32(_mm_xor_si128(V, Flip), K);
  };
  // Two bits of the mask per offset.
  unsigned Lanes =
      unsigned(_mm_movemask_epi8(_mm_packs_epi32(Below(0), Below(1))));
  return uint32_t(__builtin_ctz(~Lanes | (1u << (2 * N)))) / 2;
#else
  uint32_t Count = 0;
  for (uint32_t I = 0; I < N; ++I)
    Count += P[I] < X;
  return Count;
#endif
}

/// Writes the low bytes of the first Left sorted offsets at P that are
/// below X to Out, and returns their number. Without a branch on the data
/// where there are fewer than kRunWindow of them: the window's offsets are
/// compared and their low bytes stored at once, with garbage after them,
/// which whatever the writer puts there next overwrites (the stretches'
/// bytes have slack at their end). Reads kRunWindow offsets: P is in the
/// arena, which is mapped past any array's end, or has that many readable
/// after its end. Sentinel: the offsets end with kRunWindow of
/// kNoOffset, which no X exceeds, so that Left need not be checked.
template <bool Sentinel>
inline uint64_t putRun(unsigned char *Out, const uint32_t *P, uint64_t Left,
                       uint32_t X) {
  uint64_t N = 0;
#if defined(__SSE2__)
  static_assert(kRunWindow == 8, "two vectors of four offsets");
  const __m128i V0 = _mm_loadu_si128(reinterpret_cast<const __m128i *>(P));
  const __m128i V1 = _mm_loadu_si128(reinterpret_cast<const __m128i *>(P + 4));
  // Unsigned compares, as signed ones of the values with the top bit
  // flipped; two bits of the mask per offset.
  const __m128i Flip = _mm_set1_epi32(int(0x80000000u));
  const __m128i K = _mm_xor_si128(_mm_set1_epi32(int(X)), Flip);
  unsigned Lanes = unsigned(_mm_movemask_epi8(
      _mm_packs_epi32(_mm_cmplt_epi32(_mm_xor_si128(V0, Flip), K),
                      _mm_cmplt_epi32(_mm_xor_si128(V1, Flip), K))));
  const __m128i Low = _mm_set1_epi32(0xff);
  __m128i Bytes = _mm_packus_epi16(
      _mm_packs_epi32(_mm_and_si128(V0, Low), _mm_and_si128(V1, Low)),
      _mm_setzero_si128());
  // In assembly, as the readers' loads (table.h): a stale reader may read
  // these bytes, and the compiler must not see a race.
  asm volatile("movq %1, %0"
               : "=m"(*reinterpret_cast<uint64_t *>(Out))
               : "x"(Bytes));
  if (!Sentinel)
    Lanes &= (1u << 2 * (Left < kRunWindow ? Left : kRunWindow)) - 1;
  N = __builtin_ctz(~Lanes) / 2;
  if (__builtin_expect(N < kRunWindow, 1))
    return N;
#endif
  for (; (Sentinel || N < Left) && P[N] < X; ++N)
    storeRelaxed(&Out[N], uint8_t(P[N]));
  return N;
}

/// Copies N bytes from In to Out, and up to kCountWindow - N bytes of
/// garbage after them (see putRun).
inline void putBytes(unsigned char *Out, const uint8_t *In, uint64_t N) {
  uint64_t I = 0;
#if defined(__SSE2__)
  __m128i V = _mm_loadu_si128(reinterpret_cast<const __m128i *>(In));
  asm volatile("movdqu %1, %0"
               : "=m"(*reinterpret_cast<Bytes16 *>(Out))
               : "x"(V));
  I = kCountWindow;
#endif
  for (; I < N; ++I)
    storeRelaxed(&Out[I], In[I]);
}

/// The boundaries of a module's index (table.h), in order, as
/// finishFunctions collects them: where each one is, the functions that
/// start at or before it, and its class byte (the class of the segment it
/// begins, with the functions that start in its stretch up to it). Each
/// array has one slot before the first boundary (offset 0, no function,
/// class 0: the start of the code) and kCountWindow + 1 after the last
/// (offset kNoOffset, 0 otherwise), read by the stretch writer's windows.
/// Also: the stretches that functions cover, about (overlapping functions
/// count twice), the stretches where two functions or more start, and the
/// end of the function that ends last.
struct Boundaries {
  uint32_t *Offsets = nullptr, *Starts = nullptr;
  uint8_t *Classes = nullptr;
  uint64_t Num = 0;
  uint64_t Covered = 0, ManyStarts = 0, FunctionsEnd = 0;

  /// Room for the boundaries of NumFunctions functions; false when out of
  /// memory.
  bool reserve(uint64_t NumFunctions) {
    const uint64_t Slots = 2 * NumFunctions + kCountWindow + 2;
    Offsets =
        reinterpret_cast<uint32_t *>(BoundOffsetScratch.get(Slots / 2 + 1));
    Starts = reinterpret_cast<uint32_t *>(BoundStartScratch.get(Slots / 2 + 1));
    Classes = reinterpret_cast<uint8_t *>(BoundClassScratch.get(Slots / 8 + 1));
    if (!Offsets || !Starts || !Classes)
      return false;
    *Offsets++ = 0;
    *Starts++ = 0;
    *Classes++ = 0;
    return true;
  }
  /// Ends the arrays after the last boundary.
  void finish() {
    for (uint64_t K = Num; K < Num + kCountWindow + 1; ++K) {
      Offsets[K] = kNoOffset;
      Starts[K] = 0;
      Classes[K] = 0;
    }
  }
};

/// Writes the index and the stretches' bytes (table.h) in one pass over the
/// stretches, from the sorted atomics and boundaries, without a branch on
/// the data where a stretch has fewer than kRunWindow of each: the atomics
/// and boundaries of stretch S are counted by comparing a window of each,
/// and its bytes, which begin at
///
///   Pos(S) = (atomics before S) + 2 * (boundaries before S) + S
///
/// (an atomic's low byte, a boundary's low byte and the class after it, and
/// the class at each stretch's start), are written a window at a time, each
/// store overwriting the garbage past the end of the one before. The class
/// at a stretch's start, and the functions before it, are those of the
/// boundary before it. The stretches start at Lo (a multiple of 256, at or
/// below every atomic and boundary). AllMany: 2 if every entry says "read
/// the bytes" (table.h), else 0.
void writeStretches(const uint32_t *Atomics, uint64_t NumAtomics,
                    const Boundaries &B, uint64_t Lo, uint64_t NumEntries,
                    uint64_t AllMany, uint64_t *Index, unsigned char *Bytes) {
  const uint32_t *const Offsets = B.Offsets, *const Starts = B.Starts;
  const uint8_t *const Classes = B.Classes;
  uint64_t A = 0, K = 0, Pos = 0;
  for (uint64_t S = 0; S < NumEntries; ++S) {
    // Offsets are below 2^32; the entries past the code hold nothing.
    uint64_t End = Lo + ((S + 1) << kStretchShift);
    uint32_t Hi = uint32_t(End < 0xffffffffu ? End : 0xffffffffu);
    unsigned char *Out = Bytes + Pos;
    uint64_t NA = putRun<false>(Out, Atomics + A, NumAtomics - A, Hi);
    uint64_t NB = putRun<true>(Out + NA, Offsets + K, 0, Hi);
    storeRelaxed(&Out[NA + NB], uint8_t(Classes[int64_t(K) - 1] & 3));
    putBytes(Out + NA + NB + 1, Classes + K, NB);
    uint64_t Before = Starts[int64_t(K) - 1];
    uint64_t InStretch = Starts[int64_t(K + NB) - 1] - Before;
    InStretch = InStretch < 2 ? InStretch : 2;
    InStretch = InStretch > AllMany ? InStretch : AllMany;
    // The first start: the first boundary, or the one after it when the
    // first ends the function before the stretch.
    uint64_t First = Offsets[K + ((Classes[K] & kClassInFunction) == 0)];
    uint64_t Inline = (First & 0xff) | InStretch << 8;
    storeRelaxed(&Index[2 * S], A | Before << 32);
    // The boundaries' bytes follow the atomics': a stretch whose count of
    // atomics is saturated has its boundaries searched too.
    uint64_t SavedNB = NA < 255 && NB < 255 ? NB : 255;
    storeRelaxed(&Index[2 * S + 1], Pos | (NA < 255 ? NA : 255) << 32 |
                                        SavedNB << 40 | Inline << kInlineShift);
    A += NA;
    K += NB;
    Pos += NA + 2 * NB + 1;
  }
}
/// The bits of an answer map's word (table.h) for its bytes [From, To),
/// From < To <= 32.
inline uint64_t mapLanes(uint64_t From, uint64_t To) {
  uint64_t Below = To == 32 ? ~uint64_t(0) : (uint64_t(1) << (2 * To)) - 1;
  return Below & ~((uint64_t(1) << (2 * From)) - 1);
}

/// Writes the answer map (table.h) of the Words * 32 bytes of code from Lo
/// (a multiple of 32, at or below every atomic and boundary), a word at a
/// time in one pass, from the boundaries as the index has them (sorted)
/// and the atomics: NO in the segments of complete functions, YES at
/// atomics, UNKNOWN elsewhere.
void writeAnswerMap(uint64_t *Out, uint64_t Words, const Boundaries &B,
                    const uint32_t *Atomics, uint64_t NumAtomics, uint64_t Lo) {
  const uint32_t *const Offsets = B.Offsets;
  const uint64_t NumBounds = B.Num;
  constexpr uint64_t kPerWord = 1u << kMapBytesPerWordShift;
  constexpr uint64_t kNoInEveryLane = 0x5555555555555555; // answer 0, plus 1
  auto NoIn = [](uint64_t Class) {
    return (Class & kClassComplete) ? kNoInEveryLane : 0;
  };
  uint64_t K = 0, A = 0, Class = 0; // the class of the segment at WordLo
  for (uint64_t W = 0; W < Words; ++W) {
    const uint64_t WordLo = Lo + W * kPerWord, Hi = WordLo + kPerWord;
    uint64_t Word = NoIn(Class);
    if (K < NumBounds && Offsets[K] < Hi) {
      // Segments change inside the word.
      Word = 0;
      uint64_t From = WordLo;
      for (; K < NumBounds && Offsets[K] < Hi; ++K) {
        uint64_t To = Offsets[K];
        if (To > From) {
          Word |= NoIn(Class) & mapLanes(From - WordLo, To - WordLo);
          From = To;
        }
        Class = B.Classes[K];
      }
      Word |= NoIn(Class) & mapLanes(From - WordLo, kPerWord);
    }
    for (; A < NumAtomics && Atomics[A] < Hi; ++A) {
      unsigned Shift = unsigned(Atomics[A] - WordLo) * 2;
      Word = (Word & ~(uint64_t(3) << Shift)) | uint64_t(PCMAP_YES + 1)
                                                    << Shift;
    }
    storeRelaxed(&Out[W], Word);
  }
}

/// Writes the function map (table.h) of the granules of [Lo, Lo + Size),
/// four granules to a word, a function start at a time: the granules
/// between two starts share one entry. F: sorted by start, starts unique,
/// none below Lo (a multiple of 16).
void writeFunctionMap(uint64_t *Granules, const FunctionRecord *F,
                      uint64_t NumFunctions, uint64_t Lo, uint64_t Size) {
  const uint64_t NumGranules =
      (Size + (1u << kGranuleShift) - 1) >> kGranuleShift;
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
  while (I < NumFunctions && F[I].Start - Lo < Size) {
    const uint64_t Here = (F[I].Start - Lo) >> kGranuleShift;
    Fill(Here, EntryOf(I, 0));
    const uint64_t AtStart = F[I].Start - Lo == Here << kGranuleShift;
    uint64_t J = I;
    while (J < NumFunctions && (F[J].Start - Lo) >> kGranuleShift == Here)
      ++J;
    Put(EntryOf(I + AtStart, J - I - AtStart));
    I = J;
  }
  Fill(NumGranules, EntryOf(I, 0));
  if (G % 4)
    storeRelaxed(&Granules[G / 4], Word);
}

/// Builds a small module's maps (table.h) of [Lo, Lo + Size) straight
/// into one block of the arena: the answer map from the boundaries (as
/// writeAnswerMap takes them) and the atomics, then the function map from
/// the functions. False when out of memory: the module's queries then go
/// through its index.
bool buildMaps(const Boundaries &B, const uint32_t *Atomics,
               uint64_t NumAtomics, const FunctionRecord *F,
               uint64_t NumFunctions, uint64_t Lo, uint64_t Size,
               ArenaBlock &Maps) {
  const uint64_t AnswerBytes = answerMapBytes(Size);
  if (!Maps.allocate(AnswerBytes + functionMapBytes(Size)))
    return false;
  auto *Out = Maps.data<uint64_t>();
  writeAnswerMap(Out, AnswerBytes / sizeof(uint64_t), B, Atomics, NumAtomics,
                 Lo);
  writeFunctionMap(Out + AnswerBytes / sizeof(uint64_t), F, NumFunctions, Lo,
                   Size);
  return true;
}

/// The features of R that the runtime relies on, given that it holds the
/// atomics [A, B): a claim of complete atomics stands only if the section
/// that made it was accepted, and a function that says it has atomics
/// has some. Without a branch: State's part is worked out once, in the
/// constructor.
class ReliedFeatures {
public:
  explicit ReliedFeatures(const ModuleAtomicsState &State)
      : PCMapOk(State.PCMapAtomicsRejected ? 0 : 1),
        UpstreamOk(State.UpstreamAtomicsPresent &&
                           !State.UpstreamAtomicsRejected
                       ? 1
                       : 0) {}

  uint32_t operator()(const FunctionRecord &R, uint64_t A, uint64_t B) const {
    static_assert(kFeatureAtomics == 1 && kFeatureHasAtomics == 2 &&
                      PCMAP_SOURCE_PCMAP == 1 && PCMAP_SOURCE_UPSTREAM == 2 &&
                      pcmap::format::kUpstreamFeatureAtomics == 1,
                  "the bits below");
    uint32_t Declared = R.Declared, Source = R.Source;
    uint32_t PCMapComplete =
        Source & Declared & PCMapOk & ~((Declared >> 1) & uint32_t(A == B));
    uint32_t UpstreamComplete = (Source >> 1) & R.UpstreamFeatures & UpstreamOk;
    return uint32_t(Declared & kKnownFeatures & ~kFeatureAtomics) |
           ((PCMapComplete | UpstreamComplete) & 1);
  }

private:
  uint32_t PCMapOk, UpstreamOk;
};

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

/// The sorted atomics of each function in turn, by start: [A, B).
struct AtomicsOfFunctions {
  const uint32_t *Atomics;
  uint64_t NumAtomics;
  uint64_t CodeEnd;
  uint64_t Below = 0, PreviousEnd = 0;

  /// The atomics in [From, NumAtomics) below X (those before From are).
  uint64_t below(uint64_t From, uint64_t X) const {
    const uint32_t *P = Atomics;
    return lowerBound(From, NumAtomics, uint32_t(X < CodeEnd ? X : CodeEnd),
                      [P](uint64_t I) { return P[I]; });
  }

  __attribute__((always_inline)) void next(uint64_t Start, uint64_t End,
                                           uint64_t &A, uint64_t &B) {
    // The atomics before the function: as many as before the previous
    // one's end, unless some lie between the two (rare) or the functions
    // overlap (a search); and its own, counted from there.
    A = Below;
    if (__builtin_expect(
            Start < PreviousEnd || (A < NumAtomics && Atomics[A] < Start), 0))
      A = below(0, Start);
    uint64_t Left = NumAtomics - A;
    uint32_t InWindow = countBelowInRun(
        Atomics + A, uint32_t(Left < kRunWindow ? Left : kRunWindow),
        uint32_t(End < CodeEnd ? End : CodeEnd));
    B = __builtin_expect(InWindow < kRunWindow, 1) ? A + InWindow
                                                   : below(A, End);
    Below = B;
    PreviousEnd = End;
  }
};

/// Appends boundaries to Boundaries' arrays, in order, with each one's
/// class byte: the functions that start in its stretch up to it are those
/// at or before it less those before the stretch, which are those of the
/// boundary before the stretch's first.
struct BoundaryAppender {
  uint32_t *const Offsets, *const Starts;
  uint8_t *const Classes;
  uint64_t Num = 0, ManyStarts = 0;
  uint64_t Stretch = ~uint64_t(0), StartsBefore = 0, LastStarts = 0;

  /// A boundary at Offset whose segment has class Class, with Starts
  /// functions starting at or before it.
  __attribute__((always_inline)) void add(uint64_t Offset, uint64_t Class,
                                          uint64_t Starts) {
    uint64_t S = Offset >> kStretchShift;
    StartsBefore = S != Stretch ? LastStarts : StartsBefore;
    Stretch = S;
    LastStarts = Starts;
    uint64_t InStretch = Starts - StartsBefore;
    // A stretch where a second function starts (table.h, Inline).
    ManyStarts += (InStretch == 2) & Class & kClassInFunction;
    uint64_t Count = InStretch < kMaxClassStarts ? InStretch : kMaxClassStarts;
    Offsets[Num] = uint32_t(Offset);
    this->Starts[Num] = uint32_t(Starts);
    Classes[Num] = uint8_t(Class | Count << kClassStartsShift);
    ++Num;
  }
};

/// Finishes the functions (sorted by start, with unique starts): sets each
/// one's atomics, the range of the sorted atomics inside it, and the
/// features the runtime relies on; and collects the index's boundaries
/// below CodeEnd into Out (reserved). A function holds the bytes from its
/// start to its end or to the next function's start, whichever comes
/// first: the function that the searches (table.h) find.
void finishFunctions(FunctionRecord *F, uint64_t NumFunctions,
                     const uint32_t *Atomics, uint64_t NumAtomics,
                     const ModuleAtomicsState &State, uint64_t CodeEnd,
                     Boundaries &Out) {
  AtomicsOfFunctions Of{Atomics, NumAtomics, CodeEnd};
  const ReliedFeatures Relied(State);
  // In registers through the loop (the stores to the arrays may alias Out).
  BoundaryAppender Bounds{Out.Offsets, Out.Starts, Out.Classes};
  uint64_t Covered = 0, LastCovered = ~uint64_t(0), FunctionsEnd = 0;
  for (uint64_t I = 0; I < NumFunctions; ++I) {
    FunctionRecord &R = F[I];
    uint64_t Start = R.Start, End = Start + R.Size, A, B;
    FunctionsEnd = End > FunctionsEnd ? End : FunctionsEnd;
    Of.next(Start, End, A, B);
    // The stretches it covers, less the one it shares with the function
    // before (about: overlapping functions count twice).
    if (R.Size && Start < CodeEnd) {
      uint64_t FirstS = Start >> kStretchShift,
               LastS = (End - 1) >> kStretchShift;
      Covered += LastS - FirstS + 1 - (FirstS == LastCovered);
      LastCovered = LastS;
    }
    uint32_t Features = Relied(R, A, B);
    storeRelaxed(&R.Features, Features);
    storeRelaxed(&R.NumAtomics, uint32_t(B - A));
    storeRelaxed(&R.FirstAtomic, uint32_t(A));

    // Boundaries past the code describe no byte a query can ask about.
    if (Start < CodeEnd)
      Bounds.add(Start,
                 kClassInFunction |
                     ((Features & kFeatureAtomics) ? kClassComplete : 0),
                 I + 1);
    uint64_t Next = I + 1 < NumFunctions ? F[I + 1].Start : ~uint64_t(0);
    if (End < Next && End < CodeEnd)
      Bounds.add(End, 0, I + 1);
  }
  Out.Num = Bounds.Num;
  Out.ManyStarts = Bounds.ManyStarts;
  Out.Covered = Covered;
  Out.FunctionsEnd = FunctionsEnd;
}

/// Writes the index and the stretches' bytes (writeStretches) of the
/// sorted atomics and the boundaries, into blocks of their own.
bool writeIndex(const uint32_t *Atomics, const Boundaries &B,
                TableBuild &Build) {
  ModuleTable &T = Build.T;
  const uint64_t NumEntries = T.NumStretches + 2;
  // An atomic's low byte, a boundary's and the class after it, the class
  // at each stretch's start; and the slack the last windows write into.
  T.StretchBytesSize = T.NumAtomics + 2 * B.Num + NumEntries + kBytesSlack;
  static_assert(kBytesSlack >= 2 * kCountWindow + 1, "the last windows");
  if (!Build.Index.allocate(indexBytes(T.NumStretches)) ||
      !Build.StretchBytes.allocate(T.StretchBytesSize))
    return false;
  T.Index = Build.Index.offset();
  T.StretchBytes = Build.StretchBytes.offset();
  // 2 for every stretch: read the bytes (table.h).
  const uint64_t AllMany =
      B.ManyStarts * kInlineLookupRatio > B.Covered ? 2 : 0;
  writeStretches(Atomics, T.NumAtomics, B, T.IndexLo, NumEntries, AllMany,
                 Build.Index.data<uint64_t>(),
                 Build.StretchBytes.data<unsigned char>());
  return true;
}

/// Where the covered code (table.h) starts: the stretch of the first
/// function or atomic, whichever comes first (0 when there is neither).
uint64_t coveredStart(const FunctionRecord *F, uint64_t NumFunctions,
                      const uint32_t *Atomics, uint64_t NumAtomics) {
  uint64_t Lo = ~uint64_t(0);
  if (NumFunctions)
    Lo = F[0].Start;
  if (NumAtomics && Atomics[0] < Lo)
    Lo = Atomics[0];
  return NumFunctions || NumAtomics ? Lo >> kStretchShift << kStretchShift : 0;
}

/// Finishes the table's functions (finishFunctions), with its sorted
/// atomics, and builds the index of the code they cover (table.h) with the
/// stretches' bytes, and a small module's maps.
bool finishAndIndex(FunctionRecord *F, const uint32_t *Atomics,
                    const ModuleAtomicsState &State, uint64_t TextSize,
                    TableBuild &Build) {
  ModuleTable &T = Build.T;
  if (T.NumFunctions >= kMaxFunctions) {
    Message M;
    M << "a module of " << T.NumFunctions << " functions is more than the "
      << "index holds (" << kMaxFunctions - 1 << ")";
    M.emit();
    return false;
  }
  Boundaries B;
  if (!B.reserve(T.NumFunctions))
    return false;
  finishFunctions(F, T.NumFunctions, Atomics, T.NumAtomics, State, TextSize, B);
  B.finish();
  // From the first function or atomic to the end of the last, inside the
  // code: nothing of the module lies outside.
  uint64_t Lo = coveredStart(F, T.NumFunctions, Atomics, T.NumAtomics);
  uint64_t Hi = B.FunctionsEnd;
  if (T.NumAtomics && Atomics[T.NumAtomics - 1] + uint64_t(1) > Hi)
    Hi = Atomics[T.NumAtomics - 1] + uint64_t(1);
  Hi = Hi < TextSize ? Hi : TextSize;
  T.IndexLo = Lo < Hi ? Lo : 0;
  T.IndexSize = Lo < Hi ? Hi - Lo : 0;
  T.NumStretches = (T.IndexSize + (1u << kStretchShift) - 1) >> kStretchShift;
  if (!writeIndex(Atomics, B, Build))
    return false;
  const uint64_t MapLimit =
      Flags.answer_map_kib > 0 ? uint64_t(Flags.answer_map_kib) << 10 : 0;
  if (T.IndexSize && T.IndexSize <= MapLimit &&
      buildMaps(B, Atomics, T.NumAtomics, F, T.NumFunctions, T.IndexLo,
                T.IndexSize, Build.Maps)) {
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
