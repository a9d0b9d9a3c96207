//===- table.cpp - A module's tables and their index
//-----------------------===//

#include "table.h"

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
/// the entry after its own, and the slow paths the one after that.
uint64_t indexBytes(uint64_t NumStretches) {
  return (NumStretches + 2) * sizeof(IndexEntry);
}

bool isComplete(const FunctionRecord &R) {
  return R.Features & kFeatureAtomics;
}

/// The layout of stretch [Start, End) (see table.h), given that functions
/// [F, NumFunctions) start at or after Start and that Holder (or None)
/// starts before it and reaches into it.
uint64_t stretchLayout(const FunctionRecord *Functions, uint64_t NumFunctions,
                       uint64_t Holder, uint64_t F, uint64_t Start,
                       uint64_t End) {
  constexpr uint64_t None = ~uint64_t(0);
  uint64_t Boundaries = kUnusedBoundaries, InFunction = 0, Complete = 0;
  unsigned NumSegments = 0;
  bool Described = true;
  // A segment from Begin on: in no function (F null) or in F.
  auto Add = [&](uint64_t Begin, const FunctionRecord *F) {
    if (NumSegments == kBoundaries + 1) {
      Described = false;
      return;
    }
    if (NumSegments) {
      unsigned Shift = 8 * (NumSegments - 1);
      Boundaries &= ~(uint64_t(0xff) << Shift);
      Boundaries |= (Begin - Start - 1) << Shift;
    }
    InFunction |= uint64_t(F != nullptr) << NumSegments;
    Complete |= uint64_t(F && isComplete(*F)) << NumSegments;
    ++NumSegments;
  };
  uint64_t Cursor = Start; // the bytes before it have their segment
  if (Holder != None) {
    const FunctionRecord &H = Functions[Holder];
    Add(Start, &H);
    uint64_t HEnd = uint64_t(H.Start) + H.Size;
    Cursor = HEnd < End ? HEnd : End;
  }
  for (uint64_t L = F; L < NumFunctions && Functions[L].Start < End; ++L) {
    const FunctionRecord &R = Functions[L];
    // A function of no bytes has no segment but an index; overlapping
    // functions have no layout. Neither is described.
    if (!R.Size || R.Start < Cursor) {
      Described = false;
      break;
    }
    if (R.Start > Cursor)
      Add(Cursor, nullptr);
    Add(R.Start, &R);
    uint64_t REnd = uint64_t(R.Start) + R.Size;
    Cursor = REnd < End ? REnd : End;
  }
  if (Cursor < End)
    Add(Cursor, nullptr);
  if (!Described)
    return kUnusedBoundaries;
  return Boundaries | (InFunction << kInFunctionShift) |
         (Complete << kCompleteShift) | kDescribed;
}

/// Builds the index over [0, TextSize) from the sorted atomic offsets and
/// the functions (sorted by start, with their final features).
bool buildIndex(ArenaOffset AtomicOffsets, uint64_t NumAtomics,
                const FunctionRecord *Functions, uint64_t NumFunctions,
                uint64_t TextSize, ArenaOffset &IndexOut,
                uint64_t &NumStretches) {
  NumStretches = (TextSize + (1u << kStretchShift) - 1) >> kStretchShift;
  IndexOut = arenaAllocate(indexBytes(NumStretches));
  if (!IndexOut)
    return false;
  auto *Index = static_cast<IndexEntry *>(arenaWritable(IndexOut));
  const auto *Atomics =
      static_cast<const uint32_t *>(arenaWritable(AtomicOffsets));
  constexpr uint64_t None = ~uint64_t(0);
  uint64_t A = 0, F = 0;
  for (uint64_t S = 0; S <= NumStretches + 1; ++S) {
    uint64_t Start = S << kStretchShift, End = Start + (1u << kStretchShift);
    while (A < NumAtomics && Atomics[A] < Start)
      ++A;
    while (F < NumFunctions && Functions[F].Start < Start)
      ++F;
    // F: the functions starting before the stretch.
    uint64_t Holder = None;
    if (F && uint64_t(Functions[F - 1].Start) + Functions[F - 1].Size > Start)
      Holder = F - 1;
    uint64_t FirstFunction = Holder != None ? Holder : F;
    uint64_t Layout =
        stretchLayout(Functions, NumFunctions, Holder, F, Start, End);
    auto *Out = reinterpret_cast<uint64_t *>(&Index[S]);
    storeRelaxed(&Out[0], A | (FirstFunction << 32));
    storeRelaxed(&Out[1], Layout);
  }
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

/// Merges function arrays by start; the records of one function from
/// several sections (pcmap and sanmd) become one.
uint64_t mergeFunctions(const DecodedFunctions *In, unsigned K,
                        FunctionRecord *Out) {
  if (K == 1) { // the common case: one section, already sorted and unique
    arenaStore(Out, arenaPointer(In[0].Records),
               uint64_t(In[0].Count) * sizeof(FunctionRecord));
    return In[0].Count;
  }
  uint64_t Pos[kMaxSectionsPerModule] = {};
  uint64_t Count = 0;
  for (;;) {
    int Best = -1;
    uint32_t BestStart = 0;
    for (unsigned J = 0; J < K; ++J) {
      if (Pos[J] == In[J].Count)
        continue;
      uint32_t S = arenaLoad<uint32_t>(
          In[J].Records + Pos[J] * sizeof(FunctionRecord), 0);
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
        arenaPointer(In[Best].Records + Pos[Best]++ * sizeof(FunctionRecord)),
        sizeof(R));
    if (Count && Out[Count - 1].Start == R.Start) {
      FunctionRecord Prev = Out[Count - 1];
      Prev.Features |= R.Features; // upstream records contribute none
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
                             const DecodedFunctions *Functions,
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
    // Functions, with the range of atomics each holds.
    uint64_t TotalFunctions = 0;
    for (unsigned I = 0; I < NumFunctionSections; ++I)
      TotalFunctions += Functions[I].Count;
    T.Functions = arenaAllocate((TotalFunctions + 1) * sizeof(FunctionRecord));
    if (!T.Functions)
      goto Fail;
    auto *F = static_cast<FunctionRecord *>(arenaWritable(T.Functions));
    T.NumFunctions = mergeFunctions(Functions, NumFunctionSections, F);
    uint64_t A = 0;
    for (uint64_t I = 0; I < T.NumFunctions; ++I) {
      FunctionRecord R = F[I];
      uint64_t End = uint64_t(R.Start) + R.Size;
      while (A < T.NumAtomics &&
             arenaLoad<uint32_t>(T.AtomicOffsets, A) < R.Start)
        ++A;
      R.FirstAtomic = uint32_t(A);
      uint64_t B = A;
      while (B < T.NumAtomics && arenaLoad<uint32_t>(T.AtomicOffsets, B) < End)
        ++B;
      R.NumAtomics = uint32_t(B - A);

      // Whether the function's claim of completeness can be relied on.
      bool PCMapComplete = (R.Source & PCMAP_SOURCE_PCMAP) &&
                           (R.Features & kFeatureAtomics) &&
                           !State.PCMapAtomicsRejected &&
                           !((R.Features & kFeatureHasAtomics) && A == B);
      bool UpstreamComplete =
          (R.Source & PCMAP_SOURCE_UPSTREAM) &&
          (R.UpstreamFeatures & pcmap::format::kUpstreamFeatureAtomics) &&
          State.UpstreamAtomicsPresent && !State.UpstreamAtomicsRejected;
      R.Features = (R.Features & kKnownFeatures & ~uint32_t(kFeatureAtomics)) |
                   (PCMapComplete || UpstreamComplete ? kFeatureAtomics : 0);
      arenaStore(&F[I], &R, sizeof(R));
    }

    if (!buildIndex(T.AtomicOffsets, T.NumAtomics, F, T.NumFunctions, TextSize,
                    T.Index, T.NumStretches))
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
            (T.NumFunctions + 1) * sizeof(FunctionRecord) + T.NumAtomics * 8 +
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
  arenaFree(T.Functions, (T.NumFunctions + 1) * sizeof(FunctionRecord));
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
