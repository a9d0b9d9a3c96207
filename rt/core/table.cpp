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

/// Stretches wholly in one segment that the index build fills without a
/// loop (see IndexSweep), and so the entries past the index that it
/// may write.
constexpr unsigned kWholeRun = 8;

/// Entries NumStretches and NumStretches + 1 end the index: a query reads
/// the entry after its own, and the slow paths the one after that. The
/// build writes up to kWholeRun entries past them.
uint64_t indexBytes(uint64_t NumStretches) {
  return (NumStretches + 2 + kWholeRun) * sizeof(IndexEntry);
}

ScratchBuffer CountScratch;

/// The number of the first N (<= kWindow) sorted offsets at P below X,
/// without a branch. Reads kWindow offsets: P is in the arena, which is
/// mapped past any array's end. Sorted, the offsets below X are the first
/// lanes: their number is that of the trailing ones (a bit scan, where a
/// population count would cost a dozen instructions without POPCNT).
inline uint32_t countBelow(const uint32_t *P, uint32_t N, uint32_t X) {
#if defined(__SSE2__)
  static_assert(kWindow == 16, "four vectors of four offsets");
  // Unsigned compares, as signed ones of the values with the top bit
  // flipped.
  const __m128i Flip = _mm_set1_epi32(int(0x80000000u));
  const __m128i K = _mm_xor_si128(_mm_set1_epi32(int(X)), Flip);
  auto Below = [&](unsigned I) {
    __m128i V = _mm_loadu_si128(reinterpret_cast<const __m128i *>(P + 4 * I));
    return _mm_cmplt_epi32(_mm_xor_si128(V, Flip), K);
  };
  uint32_t Lanes = windowBits(Below(0), Below(1), Below(2), Below(3));
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
/// many as the one before. NumEntries + kWholeRun entries (the scratch
/// buffer's), or null when out of memory.
uint32_t *countAtomicsBefore(const uint32_t *Atomics, uint64_t NumAtomics,
                             uint64_t NumEntries) {
  auto *Before = reinterpret_cast<uint32_t *>(
      CountScratch.get((NumEntries + kWholeRun) / 2 + 1));
  if (!Before)
    return nullptr;
  memset(Before, 0, (NumEntries + kWholeRun) * sizeof(uint32_t));
  for (uint64_t A = 0; A < NumAtomics; ++A)
    Before[(Atomics[A] >> kStretchShift) + 1] = uint32_t(A + 1);
  // The running maximum is kept in a register, not reloaded from the entry
  // just stored.
  for (uint32_t I = 1, Max = 0; I < NumEntries; ++I) {
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
    if (__builtin_expect(N > kWindow, 0)) {
      while (First < NumAtomics && Atomics[First] < X)
        ++First;
      return First;
    }
    return First + countBelow(Atomics + First, uint32_t(N), uint32_t(X));
  }
};

/// Writes the index in one sweep over the code (see table.h): segment()
/// is called at every offset where a function starts or ends, in
/// increasing order; an entry is written when the sweep leaves its
/// stretch, and the stretches a segment covers whole get the same entry in
/// a tight loop.
class IndexSweep {
public:
  IndexSweep(uint64_t *Index, const uint32_t *AtomicsBefore)
      : Index(Index), AtomicsBefore(AtomicsBefore) {}

  /// The segment from offset P on has Bits (as segment 0 of a layout) and,
  /// when it starts a stretch, that stretch's FirstFunction is
  /// FirstIfStart. P never decreases; a segment of no bytes (the same P
  /// twice) is a function of no bytes.
  __attribute__((always_inline)) void segment(uint64_t P, uint64_t Bits,
                                              uint64_t FirstIfStart) {
    uint64_t T = P >> kStretchShift;
    if (T != S)
      enterStretch(T);
    unsigned Low = unsigned(P & ((1u << kStretchShift) - 1));
    if (!Low) {
      // The segment starts the stretch: it is segment 0 (once; a second
      // one here leaves a segment of no bytes at the start).
      Described &= !StartTaken;
      StartTaken = true;
      Layout = kUnusedBoundaries | Bits;
      First = FirstIfStart;
    } else if (NumSegments > kBoundaries) {
      Described = false;
    } else {
      unsigned Shift = 8 * (NumSegments - 1);
      Layout = (Layout & ~(uint64_t(0xff) << Shift)) |
               (uint64_t(Low - 1) << Shift) | (Bits << NumSegments);
      ++NumSegments;
    }
    CurrentBits = Bits;
    CurrentFirst = FirstIfStart;
  }

  /// Writes the last stretch the sweep is in and those after it, up to
  /// NumEntries.
  void finish(uint64_t NumEntries) {
    store(S, First, Described ? Layout | kDescribed : kUnusedBoundaries);
    for (uint64_t I = S + 1; I < NumEntries; ++I)
      store(I, CurrentFirst, kUnusedBoundaries | CurrentBits | kDescribed);
  }

private:
  __attribute__((always_inline)) void store(uint64_t I, uint64_t FirstFunction,
                                            uint64_t EntryLayout) {
    storeRelaxed(&Index[2 * I],
                 uint64_t(AtomicsBefore[I]) | (FirstFunction << 32));
    storeRelaxed(&Index[2 * I + 1], EntryLayout);
  }

  /// Leaves stretch S for stretch T > S.
  __attribute__((always_inline)) void enterStretch(uint64_t T) {
    store(S, First, Described ? Layout | kDescribed : kUnusedBoundaries);
    // The stretches up to T wholly in the current segment: a fixed run of
    // them, as a loop whose length varies from one function to the next
    // would be mispredicted at its end nearly every time. The entries of
    // the run from T on are written again later.
    uint64_t Whole = kUnusedBoundaries | CurrentBits | kDescribed;
    if (__builtin_expect(T - S <= kWholeRun + 1, 1)) {
      for (unsigned K = 1; K <= kWholeRun; ++K)
        store(S + K, CurrentFirst, Whole);
    } else {
      for (uint64_t I = S + 1; I < T; ++I)
        store(I, CurrentFirst, Whole);
    }
    S = T;
    Layout = kUnusedBoundaries | CurrentBits;
    First = CurrentFirst;
    NumSegments = 1;
    Described = true;
    StartTaken = false;
  }

  uint64_t *Index;
  const uint32_t *AtomicsBefore;
  // The segment the sweep is in: its bits as segment 0 of a layout, and
  // the FirstFunction of a stretch that starts in it.
  uint64_t CurrentBits = 0, CurrentFirst = 0;
  // The stretch the sweep is in, and its layout so far.
  uint64_t S = 0, Layout = kUnusedBoundaries, First = 0;
  unsigned NumSegments = 1;
  bool Described = true, StartTaken = false;
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
/// features the runtime relies on. Builds the index over [0, TextSize)
/// meanwhile (IndexSweep). A function holds the bytes from its start to
/// its end or to the next function's start, whichever comes first: the
/// function that the searches (table.h) find.
bool finishAndIndex(FunctionRecord *F, uint64_t NumFunctions,
                    const uint32_t *Atomics, uint64_t NumAtomics,
                    const ModuleAtomicsState &State, uint64_t TextSize,
                    ArenaOffset &IndexOut, uint64_t &NumStretches) {
  NumStretches = (TextSize + (1u << kStretchShift) - 1) >> kStretchShift;
  const uint64_t NumEntries = NumStretches + 2;
  const uint32_t *Before = countAtomicsBefore(Atomics, NumAtomics, NumEntries);
  IndexOut = Before ? arenaAllocate(indexBytes(NumStretches)) : 0;
  if (!IndexOut)
    return false;
  const AtomicsByStretch ByStretch = {Atomics, NumAtomics, Before};
  IndexSweep Sweep(static_cast<uint64_t *>(arenaWritable(IndexOut)), Before);

  uint64_t Below = 0, PreviousEnd = 0;
  for (uint64_t I = 0; I < NumFunctions; ++I) {
    FunctionRecord &R = F[I];
    uint64_t Start = R.Start, End = Start + R.Size;
    // The atomics before the function: as many as before the previous
    // one's end, unless some lie between the two (rare) or the functions
    // overlap; and its own, counted from there.
    uint64_t A = Below;
    if (__builtin_expect(
            Start < PreviousEnd || (A < NumAtomics && Atomics[A] < Start), 0))
      A = ByStretch.below(Start);
    uint64_t Left = NumAtomics - A;
    uint32_t InWindow = countBelow(
        Atomics + A, uint32_t(Left < kWindow ? Left : kWindow), uint32_t(End));
    uint64_t B = __builtin_expect(InWindow < kWindow, 1) ? A + InWindow
                                                         : ByStretch.below(End);
    Below = B;
    PreviousEnd = End;
    uint32_t Features = reliedFeatures(R, A, B, State);
    storeRelaxed(&R.Features, Features);
    storeRelaxed(&R.NumAtomics, uint32_t(B - A));
    storeRelaxed(&R.FirstAtomic, uint32_t(A));

    Sweep.segment(
        Start,
        (uint64_t(1) << kInFunctionShift) |
            (uint64_t((Features & kFeatureAtomics) != 0) << kCompleteShift),
        I);
    uint64_t Next = I + 1 < NumFunctions ? F[I + 1].Start : ~uint64_t(0);
    if (End < Next)
      Sweep.segment(End, 0, I + 1);
  }
  Sweep.finish(NumEntries);
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
                        TextSize, T.Index, T.NumStretches))
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
            indexBytes(T.NumStretches);
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
  arenaFree(TableOff, sizeof(ModuleTable));
}

} // namespace rt
} // namespace pcmap
