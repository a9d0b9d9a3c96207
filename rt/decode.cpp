//===- decode.cpp - Decoding and validating PC sections -------------------===//

#include "decode.h"

#include "pcmap/Format.h"
#include "pcmap/pcmap.h"
#include "platform.h"

#include <string.h>

namespace pcmap {
namespace rt {

using namespace pcmap::format;

const char *sectionKindName(SectionKind K) {
  switch (K) {
  case SectionKind::PCMapAtomics:
    return "pcmap_atomics";
  case SectionKind::PCMapFunctions:
    return "pcmap_functions";
  case SectionKind::SanmdAtomics:
    return kUpstreamAtomicsSectionBase;
  case SectionKind::SanmdCovered:
    return kUpstreamCoveredSectionBase;
  }
  return "?";
}

bool CodeRanges::contains(uintptr_t PC, uint64_t Size) const {
  for (unsigned I = 0; I < NumRanges; ++I)
    if (PC >= Begin[I] && PC < End[I] && Size <= End[I] - PC)
      return true;
  return false;
}

namespace {

/// Writer scratch memory, outside the arena: readers never see it.
struct ScratchBuffer {
  uint64_t *Data = nullptr;
  size_t Capacity = 0; // items

  uint64_t *get(size_t Items) {
    if (Items <= Capacity)
      return Data;
    size_t NewCapacity = Capacity ? Capacity : 4096;
    while (NewCapacity < Items)
      NewCapacity *= 2;
    void *P = reserveAddressSpace(NewCapacity * sizeof(uint64_t));
    if (!P)
      return nullptr;
    // The old buffer's address space is kept (it is small next to the new
    // one and only backed where written); its pages go back.
    if (Data)
      releasePages(Data, Capacity * sizeof(uint64_t));
    Data = static_cast<uint64_t *>(P);
    Capacity = NewCapacity;
    return Data;
  }
};
ScratchBuffer Items, SortScratch, RecordScratch;

inline uint64_t readWord(const uint8_t *P, unsigned Width) {
  if (Width == 4) {
    int32_t V;
    memcpy(&V, P, 4);
    return uint64_t(int64_t(V));
  }
  int64_t V;
  memcpy(&V, P, 8);
  return uint64_t(V);
}

/// Reads one ULEB128 value; 0 bytes consumed means truncated or overflowing.
inline unsigned readULEB(const uint8_t *P, const uint8_t *End, uint64_t &V) {
  if (P < End && !(*P & 0x80)) { // the common one-byte case
    V = *P;
    return 1;
  }
  return readULEB128(P, End, V);
}

struct Cursor {
  const uint8_t *Start, *P, *Stop;
  DecodeError Error;
  bool fail(const char *What, uint64_t Entries) {
    Error.What = What;
    Error.Offset = uint64_t(P - Start);
    Error.EntriesSeen = Entries;
    return false;
  }
};

bool versionOk(SectionKind Kind, uint32_t Version) {
  uint32_t Base = versionBase(Version);
  if (Version & ~(kVersionBaseMask | kVersionPtrSizeRel))
    return false;
  if (Kind == SectionKind::PCMapAtomics || Kind == SectionKind::PCMapFunctions)
    return Base == kVersionBase;
  return Base == kUpstreamVersionV1 || Base == kUpstreamVersionV2;
}

} // namespace

void sortByHighWord(uint64_t *A, uint64_t *Tmp, size_t N) {
  // Sections come sorted by function, with the records of one function in
  // any order: an insertion sort moves each item a short way. It gives up
  // after a budget of moves proportional to N (input in no useful order)
  // and leaves the rest to the radix sort, which is linear on any input.
  uint64_t Budget = 8 * uint64_t(N) + 64;
  size_t I = 1;
  for (; I < N && Budget; ++I) {
    uint64_t V = A[I];
    size_t J = I;
    for (; J && (A[J - 1] >> 32) > (V >> 32) && Budget; --J, --Budget)
      A[J] = A[J - 1];
    A[J] = V;
  }
  if (I >= N && Budget)
    return;
  // LSD radix sort on the 32-bit key in three passes (11, 11, 10 bits);
  // a pass whose digit is the same for all keys is skipped.
  static const unsigned Shifts[3] = {32, 43, 54};
  static uint32_t Count[2048];
  uint64_t *From = A, *To = Tmp;
  for (unsigned Shift : Shifts) {
    unsigned Bits = Shift == 54 ? 10 : 11;
    uint32_t Mask = (1u << Bits) - 1;
    memset(Count, 0, sizeof(uint32_t) << Bits);
    for (size_t I = 0; I < N; ++I)
      ++Count[(From[I] >> Shift) & Mask];
    if (Count[(From[0] >> Shift) & Mask] == N)
      continue;
    uint32_t Sum = 0;
    for (uint32_t D = 0; D <= Mask; ++D) {
      uint32_t C = Count[D];
      Count[D] = Sum;
      Sum += C;
    }
    for (size_t I = 0; I < N; ++I)
      To[Count[(From[I] >> Shift) & Mask]++] = From[I];
    uint64_t *T = From;
    From = To;
    To = T;
  }
  if (From != A)
    memcpy(A, From, N * sizeof(uint64_t));
}

DecodeError decodeAtomics(SectionKind Kind, uint32_t Version,
                          const uint8_t *Start, const uint8_t *Stop,
                          const CodeRanges &Code, DecodedAtomics &Out) {
  Cursor C{Start, Start, Stop, {}};
  Out = DecodedAtomics();
  if (!versionOk(Kind, Version)) {
    C.fail("unsupported section version", 0);
    return C.Error;
  }
  const unsigned Width = relativePCSize(Version, sizeof(void *));
  const bool Upstream = Kind == SectionKind::SanmdAtomics;
  uint64_t *Buf = Items.get(size_t(Stop - Start) / Width + 1);
  if (!Buf) {
    C.fail("out of memory", 0);
    return C.Error;
  }
  size_t N = 0;
  bool Ok = true;
  while (Ok && C.P < Stop) {
    size_t RecordStart = N;
    for (;;) {
      if (size_t(Stop - C.P) < Width) {
        Ok = C.fail("truncated relative PC", N);
        break;
      }
      uint64_t Rel = readWord(C.P, Width);
      if (Rel == 0) {
        if (Upstream) {
          Ok = C.fail("zero relative PC", N);
          break;
        }
        C.P += Width; // the zero word ending the record
        break;
      }
      uintptr_t PC = uintptr_t(C.P) + uintptr_t(Rel);
      if (!Code.contains(PC, 0)) {
        Ok = C.fail("PC outside the module's executable code", N);
        break;
      }
      Buf[N++] = (uint64_t(PC - Code.TextLo) << 32) | kUpstreamDescriptor;
      C.P += Width;
      if (Upstream)
        break; // upstream entries are single PCs
    }
    if (!Ok || Upstream)
      continue;
    if (N == RecordStart) {
      Ok = C.fail("record without PCs", N);
      break;
    }
    uint64_t Value;
    unsigned Len = readULEB(C.P, Stop, Value);
    AtomicDescriptor D;
    if (!Len) {
      Ok = C.fail("truncated or overlong descriptor", N);
      break;
    }
    if (!decodeDescriptor(Value, D)) {
      Ok = C.fail("invalid descriptor", N);
      break;
    }
    // Keep what this version defines; reserved bits are for newer readers.
    uint32_t Desc = uint32_t(encodeDescriptor(D));
    for (size_t I = RecordStart; I < N; ++I)
      Buf[I] = (Buf[I] & ~uint64_t(0xffffffff)) | Desc;
    C.P += Len;
  }
  if (!Ok)
    return C.Error;

  uint64_t *Tmp = SortScratch.get(N + 1);
  if (!Tmp) {
    C.fail("out of memory", N);
    return C.Error;
  }
  sortByHighWord(Buf, Tmp, N);
  // A PC may be listed twice (a zero-size instruction at the same address).
  size_t Unique = 0;
  for (size_t I = 0; I < N; ++I)
    if (!Unique || (Buf[I] >> 32) != (Buf[Unique - 1] >> 32))
      Buf[Unique++] = Buf[I];

  if (Unique) {
    Out.Offsets = arenaAllocate(Unique * sizeof(uint32_t));
    Out.Descriptors = arenaAllocate(Unique * sizeof(uint32_t));
    if (!Out.Offsets || !Out.Descriptors) {
      freeDecoded(Out);
      C.fail("out of memory", N);
      return C.Error;
    }
    auto *Offsets = static_cast<uint32_t *>(arenaWritable(Out.Offsets));
    auto *Descs = static_cast<uint32_t *>(arenaWritable(Out.Descriptors));
    for (size_t I = 0; I < Unique; ++I) {
      storeRelaxed(&Offsets[I], uint32_t(Buf[I] >> 32));
      storeRelaxed(&Descs[I], uint32_t(Buf[I]));
    }
  }
  Out.Count = uint32_t(Unique);
  return C.Error;
}

DecodeError decodeFunctions(SectionKind Kind, uint32_t Version,
                            const uint8_t *Start, const uint8_t *Stop,
                            const CodeRanges &Code, DecodedFunctions &Out) {
  Cursor C{Start, Start, Stop, {}};
  Out = DecodedFunctions();
  if (!versionOk(Kind, Version)) {
    C.fail("unsupported section version", 0);
    return C.Error;
  }
  const unsigned Width = relativePCSize(Version, sizeof(void *));
  const bool Upstream = Kind == SectionKind::SanmdCovered;
  const bool SanmdV1 = Upstream && versionBase(Version) == kUpstreamVersionV1;
  // Records are decoded into writer scratch memory (already mapped and
  // reused from one registration to the next), then copied in sorted order
  // into the arena. A function entry is at least Width + 2 bytes, so the
  // section bounds their number.
  size_t MaxEntries = size_t(Stop - Start) / (Width + 2) + 1;
  uint64_t *Keys = Items.get(MaxEntries);
  uint64_t *RecordWords =
      RecordScratch.get(MaxEntries * sizeof(FunctionRecord) / 8);
  if (!Keys || !RecordWords) {
    C.fail("out of memory", 0);
    return C.Error;
  }
  auto *Records = reinterpret_cast<FunctionRecord *>(RecordWords);
  size_t N = 0;
  auto Read = [&](uint64_t &V, bool Fixed32) -> bool {
    if (Fixed32) {
      if (size_t(Stop - C.P) < 4)
        return false;
      uint32_t W;
      memcpy(&W, C.P, 4);
      V = W;
      C.P += 4;
      return true;
    }
    unsigned Len = readULEB(C.P, Stop, V);
    C.P += Len;
    return Len != 0;
  };
  bool Ok = true;
  while (C.P < Stop) {
    if (size_t(Stop - C.P) < Width) {
      Ok = C.fail("truncated relative PC", N);
      break;
    }
    const uint8_t *Entry = C.P;
    uint64_t Rel = readWord(C.P, Width);
    uintptr_t PC = uintptr_t(C.P) + uintptr_t(Rel);
    C.P += Width;
    uint64_t Size, Features, StackArgs = 0;
    if (!Read(Size, SanmdV1) || !Read(Features, SanmdV1)) {
      Ok = C.fail("truncated function size or features", N);
      break;
    }
    bool HasStackArgs =
        Upstream && upstreamHasStackArgs(versionBase(Version), Features);
    if (HasStackArgs && !Read(StackArgs, SanmdV1)) {
      Ok = C.fail("truncated stack-arguments size", N);
      break;
    }
    // Feature bits 32 and up are reserved: ignored like the other bits
    // this reader does not know (FunctionRecord keeps 32 of them).
    if (Rel == 0 || Size > 0xffffffffu || !Code.contains(PC, Size)) {
      C.P = Entry; // the error is the entry's, not that of what follows
      Ok = C.fail("function outside the module's executable code", N);
      break;
    }
    FunctionRecord R{};
    R.Start = uint32_t(PC - Code.TextLo);
    R.Size = uint32_t(Size);
    if (Upstream) {
      // Features (pcmap's meaning) are derived when the module's table is
      // built, from UpstreamFeatures and what else the module registered.
      R.Source = PCMAP_SOURCE_UPSTREAM;
      R.UpstreamFeatures = uint32_t(Features);
      R.UpstreamStackArgs = StackArgs;
    } else {
      R.Source = PCMAP_SOURCE_PCMAP;
      R.Features = uint32_t(Features);
    }
    Records[N] = R;
    Keys[N] = (uint64_t(R.Start) << 32) | N;
    ++N;
  }
  if (!Ok)
    return C.Error;

  uint64_t *Tmp = SortScratch.get(N + 1);
  size_t Unique = 0;
  ArenaOffset Sorted = N ? arenaAllocate(N * sizeof(FunctionRecord)) : 0;
  if (N && (!Tmp || !Sorted)) {
    C.fail("out of memory", N);
    return C.Error;
  }
  sortByHighWord(Keys, Tmp, N);
  auto *Out_ = static_cast<FunctionRecord *>(arenaWritable(Sorted));
  for (size_t I = 0; I < N; ++I) {
    const FunctionRecord &R = Records[uint32_t(Keys[I])];
    // Functions folded by identical-code folding share a start: keep one.
    if (Unique && Out_[Unique - 1].Start == R.Start)
      continue;
    arenaStore(&Out_[Unique++], &R, sizeof(R));
  }
  Out.Records = Sorted;
  Out.Count = uint32_t(Unique);
  Out.Capacity = uint32_t(N);
  return C.Error;
}

void freeDecoded(DecodedAtomics &A) {
  arenaFree(A.Offsets, uint64_t(A.Count) * sizeof(uint32_t));
  arenaFree(A.Descriptors, uint64_t(A.Count) * sizeof(uint32_t));
  A = DecodedAtomics();
}

void freeDecoded(DecodedFunctions &F) {
  arenaFree(F.Records, uint64_t(F.Capacity) * sizeof(FunctionRecord));
  F = DecodedFunctions();
}

} // namespace rt
} // namespace pcmap
