//===- table.cpp - A module's tables and their index ----------------------===//

#include "core/table.h"

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

ScratchBuffer CountScratch, BoundaryScratch;

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

/// The atomics before each stretch, from the sorted offsets: entry S + 1
/// has those up to the last one in stretch S, and a stretch with none as
/// many as the one before. NumEntries + 1 entries (in the scratch
/// buffer), or null when out of memory.
uint32_t *countAtomicsBefore(const uint32_t *Atomics, uint64_t NumAtomics,
                             uint64_t NumEntries) {
  auto *Before =
      reinterpret_cast<uint32_t *>(CountScratch.get((NumEntries + 1) / 2 + 1));
  if (!Before)
    return nullptr;
  memset(Before, 0, (NumEntries + 1) * sizeof(uint32_t));
  for (uint64_t A = 0; A < NumAtomics; ++A)
    Before[(Atomics[A] >> kStretchShift) + 1] = uint32_t(A + 1);
  // The running maximum is kept in a register, not reloaded from the entry
  // just stored.
  for (uint32_t I = 1, Max = 0; I <= NumEntries; ++I) {
    uint32_t V = Before[I];
    Max = V > Max ? V : Max;
    Before[I] = Max;
  }
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
/// offset (high word), whether a function starts there (bit 8) and the
/// class of the segment it begins (low byte, without a count).
constexpr uint64_t kBoundaryStarts = uint64_t(1) << 8;
inline uint64_t boundary(uint64_t Offset, uint64_t Class, bool Starts) {
  return Offset << 32 | (Starts ? kBoundaryStarts : 0) | Class;
}

/// Writes the index and the stretches' bytes (table.h) in one sweep over
/// the stretches, from the sorted atomics (with the counts per stretch,
/// Before) and the boundaries.
class IndexWriter {
public:
  IndexWriter(uint64_t *Index, unsigned char *Bytes)
      : Index(Index), Bytes(Bytes) {}

  void write(const uint32_t *Atomics, const uint32_t *Before,
             const uint64_t *Bounds, uint64_t NumBounds, uint64_t NumEntries) {
    uint64_t B = 0, Pos = 0, FunctionsBefore = 0;
    uint8_t Current = 0; // the class the sweep is in
    for (uint64_t S = 0; S < NumEntries; ++S) {
      uint64_t End = (S + 1) << kStretchShift;
      uint64_t B0 = B;
      while (B < NumBounds && (Bounds[B] >> 32) < End)
        ++B;
      uint64_t A0 = Before[S], NA = Before[S + 1] - A0, NB = B - B0;
      storeRelaxed(&Index[2 * S], A0 | FunctionsBefore << 32);
      storeRelaxed(&Index[2 * S + 1], Pos | (NA < 255 ? NA : 255) << 32 |
                                          (NB < 255 ? NB : 255) << 40);
      for (uint64_t I = 0; I < NA; ++I)
        put(Pos + I, uint8_t(Atomics[A0 + I]));
      Pos += NA;
      for (uint64_t I = 0; I < NB; ++I)
        put(Pos + I, uint8_t(Bounds[B0 + I] >> 32));
      Pos += NB;
      put(Pos++, Current);
      uint64_t Starts = 0;
      for (uint64_t I = 0; I < NB; ++I) {
        uint64_t Bound = Bounds[B0 + I];
        Starts += (Bound & kBoundaryStarts) != 0;
        Current = uint8_t(Bound);
        uint64_t Count = Starts < kMaxClassStarts ? Starts : kMaxClassStarts;
        put(Pos++, uint8_t(Current | Count << kClassStartsShift));
      }
      FunctionsBefore += Starts;
    }
  }

private:
  void put(uint64_t At, uint8_t V) { storeRelaxed(&Bytes[At], V); }

  uint64_t *Index;
  unsigned char *Bytes;
};

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

/// Finishes the functions (sorted by start, with unique starts): sets each
/// one's atomics, the range of the sorted Atomics inside it, and the
/// features the runtime relies on; and builds the index over [0, TextSize)
/// with the stretches' bytes. A function holds the bytes from its start to
/// its end or to the next function's start, whichever comes first: the
/// function that the searches (table.h) find.
bool finishAndIndex(FunctionRecord *F, uint64_t NumFunctions,
                    const uint32_t *Atomics, uint64_t NumAtomics,
                    const ModuleAtomicsState &State, uint64_t TextSize,
                    ModuleTable &T) {
  T.NumStretches = (TextSize + (1u << kStretchShift) - 1) >> kStretchShift;
  const uint64_t NumEntries = T.NumStretches + 2;
  const uint64_t CodeEnd = T.NumStretches << kStretchShift;
  const uint32_t *Before = countAtomicsBefore(Atomics, NumAtomics, NumEntries);
  uint64_t *Bounds = BoundaryScratch.get(2 * NumFunctions + 1);
  if (!Before || !Bounds)
    return false;
  const AtomicsByStretch ByStretch = {Atomics, NumAtomics, Before};

  uint64_t Below = 0, PreviousEnd = 0, NumBounds = 0;
  for (uint64_t I = 0; I < NumFunctions; ++I) {
    FunctionRecord &R = F[I];
    uint64_t Start = R.Start, End = Start + R.Size;
    // The atomics before the function: as many as before the previous
    // one's end, unless some lie between the two (rare) or the functions
    // overlap; and its own, counted from there.
    uint64_t A = Below;
    if (__builtin_expect(
            Start < PreviousEnd || (A < NumAtomics && Atomics[A] < Start), 0))
      A = ByStretch.below(Start < CodeEnd ? Start : CodeEnd);
    uint64_t Left = NumAtomics - A;
    uint32_t InWindow = countBelow(
        Atomics + A, uint32_t(Left < kCountWindow ? Left : kCountWindow),
        uint32_t(End < CodeEnd ? End : CodeEnd));
    uint64_t B = __builtin_expect(InWindow < kCountWindow, 1)
                     ? A + InWindow
                     : ByStretch.below(End < CodeEnd ? End : CodeEnd);
    Below = B;
    PreviousEnd = End;
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
                   true);
    uint64_t Next = I + 1 < NumFunctions ? F[I + 1].Start : ~uint64_t(0);
    if (End < Next && End < CodeEnd)
      Bounds[NumBounds++] = boundary(End, 0, false);
  }

  T.StretchBytesSize = NumAtomics + 2 * NumBounds + NumEntries + kBytesSlack;
  T.Index = arenaAllocate(indexBytes(T.NumStretches));
  T.StretchBytes = T.Index ? arenaAllocate(T.StretchBytesSize) : 0;
  if (!T.StretchBytes)
    return false;
  IndexWriter W(static_cast<uint64_t *>(arenaWritable(T.Index)),
                static_cast<unsigned char *>(arenaWritable(T.StretchBytes)));
  W.write(Atomics, Before, Bounds, NumBounds, NumEntries);
  return true;
}

/// Merges K sorted atomics arrays into new ones, dropping duplicate PCs and
/// preferring a pcmap descriptor to an upstream one.
bool mergeAtomics(const DecodedAtomics *In, unsigned K, uint64_t Total,
                  ArenaOffset &OffsetsOut, ArenaOffset &DescsOut,
                  uint64_t &Count) {
  OffsetsOut = arenaAllocate(Total * sizeof(uint32_t));
  DescsOut = arenaAllocate(Total * sizeof(uint32_t));
  if (!OffsetsOut || !DescsOut)
    return false;
  auto *Offsets = static_cast<uint32_t *>(arenaWritable(OffsetsOut));
  auto *Descs = static_cast<uint32_t *>(arenaWritable(DescsOut));
  uint64_t Pos[kMaxSectionsPerModule] = {};
  Count = 0;
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
  return true;
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

} // namespace

ArenaOffset buildModuleTable(const CodeRanges &Code, uintptr_t Bias,
                             const char *Path, const DecodedAtomics *Atomics,
                             unsigned NumAtomicSections,
                             DecodedFunctions *const *Functions,
                             unsigned NumFunctionSections,
                             const ModuleAtomicsState &State) {
  ArenaOffset TableOff = arenaAllocate(sizeof(ModuleTable));
  if (!TableOff)
    return 0;
  ModuleTable T;
  memset(&T, 0, sizeof(T));
  T.TextLo = Code.TextLo;
  T.TextHi = Code.TextHi;
  T.Bias = Bias;
  uint64_t TextSize = Code.TextHi - Code.TextLo;

  // Atomics: the one section's arrays as they are, or a merge.
  uint64_t TotalAtomics = 0;
  for (unsigned I = 0; I < NumAtomicSections; ++I)
    TotalAtomics += Atomics[I].Count;
  if (NumAtomicSections == 1) {
    T.AtomicOffsets = Atomics[0].Offsets;
    T.AtomicDescriptors = Atomics[0].Descriptors;
    T.NumAtomics = Atomics[0].Count;
  } else if (TotalAtomics) {
    T.OwnsAtomics = 1;
    if (!mergeAtomics(Atomics, NumAtomicSections, TotalAtomics, T.AtomicOffsets,
                      T.AtomicDescriptors, T.NumAtomics))
      goto Fail;
  }

  {
    // Functions: the one section's records, finished in place if no table
    // has published them, else a copy or a merge.
    FunctionRecord *F;
    if (NumFunctionSections == 1 && !Functions[0]->Adopted) {
      Functions[0]->Adopted = true;
      T.Functions = Functions[0]->Records;
      T.NumFunctions = Functions[0]->Count;
    } else {
      uint64_t TotalFunctions = 0;
      for (unsigned I = 0; I < NumFunctionSections; ++I)
        TotalFunctions += Functions[I]->Count;
      T.OwnsFunctions = 1;
      T.FunctionsCapacity = TotalFunctions;
      T.Functions = arenaAllocate(TotalFunctions * sizeof(FunctionRecord));
      if (!T.Functions)
        goto Fail;
      T.NumFunctions = mergeFunctions(
          Functions, NumFunctionSections,
          static_cast<FunctionRecord *>(arenaWritable(T.Functions)));
    }
    F = static_cast<FunctionRecord *>(arenaWritable(T.Functions));
    const auto *Offsets =
        static_cast<const uint32_t *>(arenaWritable(T.AtomicOffsets));
    if (!finishAndIndex(F, T.NumFunctions, Offsets, T.NumAtomics, State,
                        TextSize, T))
      goto Fail;
  }

  {
    size_t Len = Path ? strlen(Path) : 0;
    T.PathBytes = Len + 1;
    T.Path = arenaAllocate(T.PathBytes);
    if (!T.Path)
      goto Fail;
    arenaStore(arenaWritable(T.Path), Path ? Path : "", Len);
    arenaStore(static_cast<char *>(arenaWritable(T.Path)) + Len, "", 1);
  }

  T.Bytes = sizeof(ModuleTable) + T.PathBytes +
            T.NumFunctions * sizeof(FunctionRecord) + T.NumAtomics * 8 +
            indexBytes(T.NumStretches) + T.StretchBytesSize;
  arenaStore(arenaWritable(TableOff), &T, sizeof(T));
  return TableOff;

Fail:
  arenaStore(arenaWritable(TableOff), &T, sizeof(T));
  freeModuleTable(TableOff);
  return 0;
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
    arenaFree(T.AtomicOffsets, T.NumAtomics * sizeof(uint32_t));
    arenaFree(T.AtomicDescriptors, T.NumAtomics * sizeof(uint32_t));
  }
  if (T.Index)
    arenaFree(T.Index, indexBytes(T.NumStretches));
  if (T.StretchBytes)
    arenaFree(T.StretchBytes, T.StretchBytesSize);
  arenaFree(TableOff, sizeof(ModuleTable));
}

} // namespace rt
} // namespace pcmap
