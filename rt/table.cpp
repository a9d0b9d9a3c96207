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

namespace {

uint64_t indexBytes(uint64_t NumBuckets) {
  return (NumBuckets + 1) * sizeof(uint32_t) +
         NumBuckets * kSubBuckets * sizeof(uint16_t);
}

/// Builds the bucket index of sorted keys Keys[0, N) over [0, TextSize).
bool buildIndex(const uint32_t *Keys, uint64_t N, uint64_t TextSize,
                BucketIndex &Out) {
  Out.NumBuckets = (TextSize + (1u << kBucketShift) - 1) >> kBucketShift;
  Out.Base = arenaAllocate((Out.NumBuckets + 1) * sizeof(uint32_t));
  Out.Sub = arenaAllocate(Out.NumBuckets * kSubBuckets * sizeof(uint16_t) + 1);
  if (!Out.Base || !Out.Sub)
    return false;
  auto *Base = static_cast<uint32_t *>(arenaWritable(Out.Base));
  auto *Sub = static_cast<uint16_t *>(arenaWritable(Out.Sub));
  uint64_t I = 0;
  for (uint64_t B = 0; B < Out.NumBuckets; ++B) {
    uint64_t BucketStart = B << kBucketShift;
    while (I < N && Keys[I] < BucketStart)
      ++I;
    uint64_t First = I;
    storeRelaxed(&Base[B], uint32_t(First));
    for (unsigned S = 0; S < kSubBuckets; ++S) {
      uint64_t SubStart = BucketStart + (uint64_t(S) << kSubBucketShift);
      while (I < N && Keys[I] < SubStart)
        ++I;
      storeRelaxed(&Sub[B * kSubBuckets + S], uint16_t(I - First));
    }
  }
  storeRelaxed(&Base[Out.NumBuckets], uint32_t(N));
  return true;
}

void freeIndex(const BucketIndex &Ix) {
  arenaFree(Ix.Base, (Ix.NumBuckets + 1) * sizeof(uint32_t));
  arenaFree(Ix.Sub, Ix.NumBuckets * kSubBuckets * sizeof(uint16_t) + 1);
}

/// Number of keys <= X, by the index. Tolerates garbage: every index it
/// computes is clamped to [0, N], and every load goes through the arena.
uint64_t upperBound(ArenaOffset Keys, uint64_t N, const BucketIndex &Ix,
                    uint32_t X) {
  uint64_t B = X >> kBucketShift;
  if (B >= Ix.NumBuckets)
    return N;
  unsigned S = (X >> kSubBucketShift) & (kSubBuckets - 1);
  uint64_t Base = arenaLoad<uint32_t>(Ix.Base, B);
  uint64_t Lo = Base + arenaLoad<uint16_t>(Ix.Sub, B * kSubBuckets + S);
  uint64_t Hi =
      S + 1 < kSubBuckets
          ? Base + arenaLoad<uint16_t>(Ix.Sub, B * kSubBuckets + S + 1)
          : arenaLoad<uint32_t>(Ix.Base, B + 1);
  if (Hi > N)
    Hi = N;
  if (Lo > Hi)
    Lo = Hi;
  while (Lo < Hi) {
    uint64_t Mid = Lo + (Hi - Lo) / 2;
    if (arenaLoad<uint32_t>(Keys, Mid) <= X)
      Lo = Mid + 1;
    else
      Hi = Mid;
  }
  return Lo;
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
      FunctionRecord &Prev = Out[Count - 1];
      Prev.Features |= R.Features; // upstream records contribute none
      Prev.Source |= R.Source;
      if (R.Source & PCMAP_SOURCE_UPSTREAM) {
        Prev.UpstreamFeatures = R.UpstreamFeatures;
        Prev.UpstreamStackArgs = R.UpstreamStackArgs;
      } else {
        Prev.Size = R.Size;
      }
      continue;
    }
    Out[Count++] = R;
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
      uint64_t End = uint64_t(F[I].Start) + F[I].Size;
      while (A < T.NumAtomics &&
             arenaLoad<uint32_t>(T.AtomicOffsets, A) < F[I].Start)
        ++A;
      F[I].AtomicsBegin = uint32_t(A);
      uint64_t B = A;
      while (B < T.NumAtomics && arenaLoad<uint32_t>(T.AtomicOffsets, B) < End)
        ++B;
      F[I].AtomicsEnd = uint32_t(B);

      // Whether the function's claim of completeness can be relied on.
      bool PCMapComplete = (F[I].Source & PCMAP_SOURCE_PCMAP) &&
                           (F[I].Features & kFeatureAtomics) &&
                           !State.PCMapAtomicsRejected &&
                           !((F[I].Features & kFeatureHasAtomics) && A == B);
      bool UpstreamComplete = (F[I].Source & PCMAP_SOURCE_UPSTREAM) &&
                              (F[I].UpstreamFeatures & kSanmdFeatureAtomics) &&
                              State.UpstreamAtomicsPresent &&
                              !State.UpstreamAtomicsRejected;
      F[I].Features = (F[I].Features & ~uint32_t(kFeatureAtomics)) |
                      (PCMapComplete || UpstreamComplete ? kFeatureAtomics : 0);
    }

    // The indexes, over the function starts and the atomic offsets.
    uint32_t *Starts = nullptr;
    ArenaOffset StartsOff = arenaAllocate((T.NumFunctions + 1) * 4);
    if (!StartsOff)
      goto Fail;
    Starts = static_cast<uint32_t *>(arenaWritable(StartsOff));
    for (uint64_t I = 0; I < T.NumFunctions; ++I)
      Starts[I] = F[I].Start;
    bool Ok = buildIndex(Starts, T.NumFunctions, TextSize, T.FunctionIndex) &&
              buildIndex(
                  static_cast<const uint32_t *>(arenaWritable(T.AtomicOffsets)),
                  T.NumAtomics, TextSize, T.AtomicIndex);
    arenaFree(StartsOff, (T.NumFunctions + 1) * 4);
    if (!Ok)
      goto Fail;
  }

  {
    size_t Len = Path ? strlen(Path) : 0;
    T.PathBytes = Len + 1;
    T.Path = arenaAllocate(T.PathBytes);
    if (!T.Path)
      goto Fail;
    memcpy(arenaWritable(T.Path), Path ? Path : "", Len);
    static_cast<char *>(arenaWritable(T.Path))[Len] = '\0';
  }

  T.Bytes = sizeof(ModuleTable) + T.PathBytes +
            (T.NumFunctions + 1) * sizeof(FunctionRecord) + T.NumAtomics * 8 +
            indexBytes(T.FunctionIndex.NumBuckets) +
            indexBytes(T.AtomicIndex.NumBuckets);
  memcpy(arenaWritable(TableOff), &T, sizeof(T));
  return TableOff;

Fail:
  memcpy(arenaWritable(TableOff), &T, sizeof(T));
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
  if (T.FunctionIndex.NumBuckets)
    freeIndex(T.FunctionIndex);
  if (T.AtomicIndex.NumBuckets)
    freeIndex(T.AtomicIndex);
  arenaFree(TableOff, sizeof(ModuleTable));
}

void readTableView(ArenaOffset Table, TableView &V) {
  auto Field = [Table](size_t Offset) {
    return loadRelaxed(
        static_cast<const uint64_t *>(arenaPointer(Table + Offset)));
  };
  V.TextLo = Field(offsetof(ModuleTable, TextLo));
  V.TextHi = Field(offsetof(ModuleTable, TextHi));
  V.Bias = Field(offsetof(ModuleTable, Bias));
  V.Path = Field(offsetof(ModuleTable, Path));
  V.NumFunctions = Field(offsetof(ModuleTable, NumFunctions));
  V.NumAtomics = Field(offsetof(ModuleTable, NumAtomics));
  V.Functions = Field(offsetof(ModuleTable, Functions));
  V.AtomicOffsets = Field(offsetof(ModuleTable, AtomicOffsets));
  V.AtomicDescriptors = Field(offsetof(ModuleTable, AtomicDescriptors));
  V.FunctionIndex.Base = Field(offsetof(ModuleTable, FunctionIndex.Base));
  V.FunctionIndex.Sub = Field(offsetof(ModuleTable, FunctionIndex.Sub));
  V.FunctionIndex.NumBuckets =
      Field(offsetof(ModuleTable, FunctionIndex.NumBuckets));
  V.AtomicIndex.Base = Field(offsetof(ModuleTable, AtomicIndex.Base));
  V.AtomicIndex.Sub = Field(offsetof(ModuleTable, AtomicIndex.Sub));
  V.AtomicIndex.NumBuckets =
      Field(offsetof(ModuleTable, AtomicIndex.NumBuckets));
}

FunctionRecord loadFunction(const TableView &V, uint64_t I) {
  FunctionRecord R;
  const auto *Words = static_cast<const uint32_t *>(
      arenaPointer(V.Functions + I * sizeof(FunctionRecord)));
  uint32_t W[sizeof(FunctionRecord) / 4];
  for (unsigned J = 0; J < sizeof(W) / 4; ++J)
    W[J] = loadRelaxed(&Words[J]);
  memcpy(&R, W, sizeof(R));
  return R;
}

int64_t lastFunctionAtOrBefore(const TableView &V, uint32_t Offset) {
  // Function starts are not stored apart; the index is over them, and the
  // binary search reads Start, the first field of each record.
  static_assert(offsetof(FunctionRecord, Start) == 0, "Start first");
  uint64_t B = Offset >> kBucketShift;
  uint64_t N = V.NumFunctions;
  uint64_t Lo, Hi;
  if (B >= V.FunctionIndex.NumBuckets) {
    Lo = Hi = N;
  } else {
    unsigned S = (Offset >> kSubBucketShift) & (kSubBuckets - 1);
    uint64_t Base = arenaLoad<uint32_t>(V.FunctionIndex.Base, B);
    Lo = Base + arenaLoad<uint16_t>(V.FunctionIndex.Sub, B * kSubBuckets + S);
    Hi = S + 1 < kSubBuckets
             ? Base + arenaLoad<uint16_t>(V.FunctionIndex.Sub,
                                          B * kSubBuckets + S + 1)
             : arenaLoad<uint32_t>(V.FunctionIndex.Base, B + 1);
    if (Hi > N)
      Hi = N;
    if (Lo > Hi)
      Lo = Hi;
    while (Lo < Hi) {
      uint64_t Mid = Lo + (Hi - Lo) / 2;
      uint32_t Start = loadRelaxed(static_cast<const uint32_t *>(
          arenaPointer(V.Functions + Mid * sizeof(FunctionRecord))));
      if (Start <= Offset)
        Lo = Mid + 1;
      else
        Hi = Mid;
    }
  }
  return int64_t(Lo) - 1;
}

int64_t lastAtomicAtOrBefore(const TableView &V, uint32_t Offset) {
  return int64_t(
             upperBound(V.AtomicOffsets, V.NumAtomics, V.AtomicIndex, Offset)) -
         1;
}

} // namespace rt
} // namespace pcmap
