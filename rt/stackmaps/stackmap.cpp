//===- stackmap.cpp - Stack map tables, their index and the C API ---------===//

#include "stackmaps/stackmap.h"

#include "core/algorithm.h"
#include "core/publication.h"
#include "pcmap/StackMap.h"
#include "pcmap/pcmap.h"
#include "stackmaps/call_site.h"

#include <stddef.h>
#include <string.h>

namespace pcmap {
namespace rt {

StackMapCounters StackMapStats;

namespace {

namespace sm = pcmap::stackmap;

// SMRecord::CallKind goes out as pcmap_stackmap_record::call_kind: the C
// API's values are the shared numbering's (pcmap/StackMap.h).
static_assert(int(PCMAP_STACKMAP_CALL_NONE) == sm::CK_None &&
                  int(PCMAP_STACKMAP_CALL) == sm::CK_Call &&
                  int(PCMAP_STACKMAP_PATCHPOINT) == sm::CK_Patchpoint,
              "pcmap_stackmap_call_kind numbers stackmap::CallSiteKind");

struct SMIndexCopy {
  uint64_t Count;
  /// kMaxStackMapModules starts, then as many ends and tables: mapped by
  /// the first writer (publication.h), null until then.
  uint64_t *Lo;
  static uint64_t *hi(uint64_t *Lo) { return Lo + kMaxStackMapModules; }
  static ArenaOffset *table(uint64_t *Lo) {
    return reinterpret_cast<ArenaOffset *>(Lo + 2 * kMaxStackMapModules);
  }
  bool mapEntries() {
    return mapIndexEntries(&Lo, kMaxStackMapModules * (2 * sizeof(uint64_t) +
                                                       sizeof(ArenaOffset)));
  }
};
/// Published as the module index is (publication.h).
Published<SMIndexCopy> StackMapIndex;
uint64_t NextSerial = 1;

//===----------------------------------------------------------------------===//
// Building (writers)
//===----------------------------------------------------------------------===//

/// The executable range of In holding [Begin, End), or -1.
int codeRange(const StackMapInput &In, uintptr_t Begin, uintptr_t End) {
  for (unsigned I = 0; I < In.NumRanges; ++I)
    if (Begin >= In.CodeBegin[I] && End <= In.CodeEnd[I] && Begin <= End)
      return int(I);
  return -1;
}

/// The call kind and size of record R (sorted records Rs, R is Rs[I]) of
/// function F, read from the code.
void findCallSite(const StackMapInput &In, SMRecord *Rs, size_t NumRecords,
                  size_t I, const SMFunction &F) {
  SMRecord &R = Rs[I];
  R.CallKind = sm::CK_None;
  R.CallSize = 0;
  int Range = codeRange(In, R.PC, R.PC);
  if (Range < 0)
    return;
  uintptr_t RangeLo = In.CodeBegin[Range], RangeHi = In.CodeEnd[Range];
  uintptr_t Lo = F.Start >= RangeLo && F.Start <= R.PC ? F.Start : R.PC;
  uintptr_t Hi =
      F.Size && F.Start + F.Size <= RangeHi ? F.Start + F.Size : RangeHi;
  // A patchable region ends at the next record of the function.
  for (size_t J = I + 1; J < NumRecords; ++J)
    if (Rs[J].PC > R.PC) {
      if (Rs[J].Function == R.Function && Rs[J].PC < Hi)
        Hi = Rs[J].PC;
      break;
    }
  if (Hi < R.PC)
    Hi = R.PC;
  CallSite C = callSiteAt(Lo, R.PC, Hi, RangeLo, RangeHi);
  R.CallKind = C.Kind;
  R.CallSize = C.Size;
}

struct Counts {
  uint64_t Functions = 0, Records = 0, Locations = 0, LiveOuts = 0;
  unsigned Version = 0;
};

/// Walks the blobs of the section; calls Visit(const sm::Section &, size_t
/// BlobOffset) for each. Returns false with an error (at the blob's offset).
template <class VisitFn>
bool forEachBlob(const StackMapInput &In, DecodeError &Error, VisitFn Visit) {
  size_t Offset = 0;
  while (Offset < In.Size) {
    sm::Section S;
    Error.Offset = Offset;
    if (!sm::parse(In.Section + Offset, In.Size - Offset, S, &Error.What))
      return false;
    if (!Visit(S, Offset))
      return false;
    size_t Next = sm::nextBlobOffset(In.Section, In.Size, Offset + S.Size);
    if (Next <= Offset)
      return Error.fail("stack map blob does not advance");
    Offset = Next;
  }
  return true;
}

/// Validates every blob of the section and counts what the table holds.
/// False with an error.
bool countBlobs(const StackMapInput &In, DecodeError &Error, Counts &C) {
  bool Ok = forEachBlob(In, Error, [&](const sm::Section &S, size_t) {
    if (!C.Version)
      C.Version = S.Version;
    if (S.Version == 1 && S.NumFunctions > 1 && S.NumRecords)
      return Error.fail("version 1 section with several functions: its "
                        "records cannot be attributed to them");
    if (S.NumRecords && !S.NumFunctions)
      return Error.fail("records without a function");
    C.Functions += S.NumFunctions;
    C.Records += S.NumRecords;
    sm::Record R;
    for (sm::RecordIterator It = S.records(); It.next(R);) {
      C.Locations += R.NumLocations;
      C.LiveOuts += R.NumLiveOuts;
    }
    return true;
  });
  if (Ok && (C.Records > 0xffffffffu || C.Locations > 0xffffffffu ||
             C.LiveOuts > 0xffffffffu || C.Functions > 0xffffffffu))
    return Error.fail("too many stack map records");
  return Ok;
}

/// A module's table while it is built: its arrays, owned until publish()
/// hands them over to the header, from which freeStackMapTable gives them
/// back. A build that fails frees them all.
struct StackMapBuild {
  Counts C;
  ArenaBlock Header, Records, Functions, Locations, LiveOuts, Path, Buckets;
  uint64_t NF = 0, NR = 0, NL = 0, NO = 0; // filled so far
  uint64_t Lo = 0, Hi = 0;                 // the code the table covers
  uint64_t NumBuckets = 0;

  SMRecord *records() const { return Records.data<SMRecord>(); }
  SMFunction *functions() const { return Functions.data<SMFunction>(); }

  /// The arrays, for what countBlobs counted; false when out of memory.
  bool allocate(size_t PathLen) {
    return Header.allocate(sizeof(StackMapTable)) &&
           Records.allocate(C.Records * sizeof(SMRecord)) &&
           Functions.allocate(C.Functions * sizeof(SMFunction)) &&
           Locations.allocate(C.Locations * sizeof(SMLocation)) &&
           LiveOuts.allocate(C.LiveOuts * sizeof(SMLiveOut)) &&
           Path.allocate(PathLen + 1);
  }

  /// Copies one blob's functions, and its records with their locations and
  /// live-outs. Function indexes are global over the blobs.
  void copyBlob(const sm::Section &S) {
    uint64_t FirstFunction = NF;
    for (uint32_t I = 0; I < S.NumFunctions; ++I) {
      sm::Function F = S.function(I);
      SMFunction &G = functions()[NF++];
      memset(&G, 0, sizeof(G));
      G.Address = F.Address;
      G.StackSize = F.StackSize;
      G.Start = F.Address;
    }
    sm::Record R;
    for (sm::RecordIterator It = S.records(); It.next(R);)
      copyRecord(S, R, FirstFunction);
  }

  void copyRecord(const sm::Section &S, const sm::Record &R,
                  uint64_t FirstFunction) {
    SMRecord &Out = records()[NR];
    memset(&Out, 0, sizeof(Out));
    uint32_t FI = R.FunctionIndex == sm::kUnknownFunction ? 0 : R.FunctionIndex;
    Out.Function = uint32_t(FirstFunction + FI);
    Out.PC = functions()[Out.Function].Address + R.InstructionOffset;
    Out.ID = R.ID;
    Out.InstructionOffset = R.InstructionOffset;
    Out.Flags = R.Flags;
    Out.NumLocations = R.NumLocations;
    Out.NumLiveOuts = R.NumLiveOuts;
    Out.RecordIndex = uint32_t(NR);
    Out.FirstLocation = uint32_t(NL);
    Out.FirstLiveOut = uint32_t(NO);
    ++NR;
    for (unsigned I = 0; I < R.NumLocations; ++I)
      copyLocation(S, R.location(I), Locations.data<SMLocation>()[NL++]);
    for (unsigned I = 0; I < R.NumLiveOuts; ++I) {
      sm::LiveOut L = R.liveOut(I);
      SMLiveOut &M = LiveOuts.data<SMLiveOut>()[NO++];
      M.DwarfReg = L.DwarfReg;
      M.Size = L.Size;
      M.Padding = 0;
    }
  }

  static void copyLocation(const sm::Section &S, const sm::Location &L,
                           SMLocation &M) {
    memset(&M, 0, sizeof(M));
    M.Kind = L.Kind;
    M.Size = L.Size;
    M.DwarfReg = L.DwarfReg;
    M.Offset = L.Offset;
    if (L.Kind == sm::LK_Constant)
      M.Value = uint64_t(int64_t(L.Offset));
    else if (L.Kind == sm::LK_ConstantIndex)
      M.Value = S.constant(uint32_t(L.Offset)); // checked by parse()
  }

  /// The header, written to its block, which owns the others from now on.
  ArenaOffset publish(const StackMapInput &In) {
    StackMapTable *T = Header.data<StackMapTable>();
    memset(T, 0, sizeof(*T));
    T->Serial = NextSerial++;
    T->Lo = Lo;
    T->Hi = Hi;
    T->NumBuckets = NumBuckets;
    T->NumRecords = NR;
    T->NumFunctions = NF;
    T->NumLocations = NL;
    T->NumLiveOuts = NO;
    T->PathBytes = Path.size();
    T->Bias = In.Bias;
    T->Version = C.Version;
    T->Bytes = Header.size() + Records.size() + Functions.size() +
               Locations.size() + LiveOuts.size() + Path.size() +
               Buckets.size();
    T->Buckets = Buckets.release();
    T->Records = Records.release();
    T->Functions = Functions.release();
    T->Locations = Locations.release();
    T->LiveOuts = LiveOuts.release();
    T->Path = Path.release();
    return Header.release();
  }
};

/// Sorts the functions by address (stable); records refer to them through
/// the permutation. False when out of memory.
bool sortFunctions(StackMapBuild &B) {
  const uint64_t NF = B.NF;
  SMFunction *Fs = B.functions();
  ArenaBlock Perm, Sorted, Inverse;
  if (!Perm.allocate(NF * sizeof(uint32_t)) ||
      !Sorted.allocate(NF * sizeof(SMFunction)) ||
      !Inverse.allocate(NF * sizeof(uint32_t)))
    return false;
  uint32_t *P = Perm.data<uint32_t>();
  for (uint64_t I = 0; I < NF; ++I)
    P[I] = uint32_t(I);
  heapSort(P, NF, [Fs](uint32_t A, uint32_t B) {
    return Fs[A].Address < Fs[B].Address ||
           (Fs[A].Address == Fs[B].Address && A < B);
  });
  // Fs[I] becomes the old Fs[P[I]]; records follow through the inverse.
  SMFunction *S = Sorted.data<SMFunction>();
  uint32_t *Inv = Inverse.data<uint32_t>();
  for (uint64_t I = 0; I < NF; ++I) {
    S[I] = Fs[P[I]];
    Inv[P[I]] = uint32_t(I);
  }
  if (NF)
    memcpy(Fs, S, NF * sizeof(SMFunction));
  SMRecord *Rs = B.records();
  for (uint64_t I = 0; I < B.NR; ++I)
    Rs[I].Function = Inv[Rs[I].Function];
  return true;
}

/// Starts must keep the functions sorted; a symbol that does not (the
/// section's address is not inside it) is ignored.
void dropUnsortedSymbols(SMFunction *Fs, uint64_t NF) {
  for (uint64_t I = 0; I < NF; ++I) {
    SMFunction &F = Fs[I];
    bool Bad = F.Start > F.Address ||
               (F.Size && F.Address >= F.Start + F.Size) ||
               (I && F.Start < Fs[I - 1].Start);
    if (Bad) {
      F.Start = F.Address;
      F.Size = 0;
    }
  }
}

/// Sorts the records by PC, counts each function's, and sets the code the
/// table covers: from the first function's start past the last record and
/// the end of every function. False when that is more than 4 GiB.
bool sortRecords(StackMapBuild &B) {
  SMRecord *Rs = B.records();
  SMFunction *Fs = B.functions();
  heapSort(Rs, B.NR, [](const SMRecord &A, const SMRecord &B) {
    return A.PC < B.PC || (A.PC == B.PC && A.RecordIndex < B.RecordIndex);
  });
  uint64_t Lo = B.NF ? Fs[0].Start : 0, Hi = Lo;
  for (uint64_t I = 0; I < B.NR; ++I) {
    SMFunction &F = Fs[Rs[I].Function];
    ++F.RecordCount;
    if (Rs[I].PC > F.LastRecordPC)
      F.LastRecordPC = Rs[I].PC;
    if (Rs[I].PC + 1 > Hi)
      Hi = Rs[I].PC + 1;
  }
  for (uint64_t I = 0; I < B.NF; ++I) {
    uint64_t End = Fs[I].Start + (Fs[I].Size ? Fs[I].Size : 1);
    if (End > Hi)
      Hi = End;
  }
  B.Lo = Lo;
  B.Hi = Hi;
  return Hi - Lo <= 0xffffffffull;
}

/// The buckets (stackmap.h): per 256 bytes of [Lo, Hi), and one more at
/// the end, the first record and the first function at or after its start.
/// False when out of memory.
bool fillBuckets(StackMapBuild &B) {
  B.NumBuckets = ((B.Hi - B.Lo) >> kStackMapBucketShift) + 1;
  if (!B.Buckets.allocate((B.NumBuckets + 1) * 2 * sizeof(uint32_t)))
    return false;
  uint32_t *Out = B.Buckets.data<uint32_t>();
  const SMRecord *Rs = B.records();
  const SMFunction *Fs = B.functions();
  uint64_t R = 0, F = 0;
  for (uint64_t I = 0; I <= B.NumBuckets; ++I) {
    uint64_t At = B.Lo + (I << kStackMapBucketShift);
    while (R < B.NR && Rs[R].PC < At)
      ++R;
    while (F < B.NF && Fs[F].Start < At)
      ++F;
    Out[2 * I] = uint32_t(R);
    Out[2 * I + 1] = uint32_t(F);
  }
  return true;
}

/// No table, for the error What.
ArenaOffset failedBuild(DecodeError &Error, const char *What) {
  Error.fail(What);
  return 0;
}

} // namespace

ArenaOffset buildStackMapTable(const StackMapInput &In,
                               SymbolizeFunctions Symbolize, void *Context,
                               DecodeError &Error) {
  Error = DecodeError();
  StackMapBuild B;
  if (!countBlobs(In, Error, B.C))
    return 0;
  size_t PathLen = In.Path ? strlen(In.Path) : 0;
  if (!B.allocate(PathLen))
    return failedBuild(Error, "out of memory");
  forEachBlob(In, Error, [&B](const sm::Section &S, size_t) {
    B.copyBlob(S);
    return true;
  });
  if (!sortFunctions(B))
    return failedBuild(Error, "out of memory");
  if (Symbolize && B.NF)
    Symbolize(Context, B.functions(), size_t(B.NF));
  dropUnsortedSymbols(B.functions(), B.NF);
  if (!sortRecords(B))
    return failedBuild(Error, "stack map functions span more than 4 GiB");
  for (uint64_t I = 0; I < B.NR; ++I)
    findCallSite(In, B.records(), size_t(B.NR), size_t(I),
                 B.functions()[B.records()[I].Function]);
  if (!fillBuckets(B))
    return failedBuild(Error, "out of memory");
  char *PathOut = B.Path.data<char>();
  if (PathLen)
    memcpy(PathOut, In.Path, PathLen);
  PathOut[PathLen] = '\0';
  return B.publish(In);
}

void freeStackMapTable(ArenaOffset Table) {
  if (!Table)
    return;
  const StackMapTable *T =
      static_cast<const StackMapTable *>(arenaPointer(Table));
  StackMapTable Copy = *T;
  auto Free = [](ArenaOffset Off, uint64_t Bytes) {
    arenaFree(Off, Bytes ? Bytes : 8);
  };
  Free(Copy.Buckets, (Copy.NumBuckets + 1) * 2 * sizeof(uint32_t));
  Free(Copy.Records, Copy.NumRecords * sizeof(SMRecord));
  Free(Copy.Functions, Copy.NumFunctions * sizeof(SMFunction));
  Free(Copy.Locations, Copy.NumLocations * sizeof(SMLocation));
  Free(Copy.LiveOuts, Copy.NumLiveOuts * sizeof(SMLiveOut));
  Free(Copy.Path, Copy.PathBytes);
  arenaFree(Table, sizeof(StackMapTable));
}

void publishStackMapTables(const ArenaOffset *Tables, size_t Count) {
  SMIndexCopy *NextCopy = StackMapIndex.next();
  if (!NextCopy)
    return; // no memory: the index stays as it was
  SMIndexCopy &Next = *NextCopy;
  uint64_t *Hi = SMIndexCopy::hi(Next.Lo);
  ArenaOffset *Table = SMIndexCopy::table(Next.Lo);
  uint64_t N = 0, Functions = 0, Records = 0, Bytes = 0;
  for (size_t I = 0; I < Count && N < kMaxStackMapModules; ++I) {
    if (!Tables[I])
      continue;
    const auto *T = static_cast<const StackMapTable *>(arenaPointer(Tables[I]));
    Functions += T->NumFunctions;
    Records += T->NumRecords;
    Bytes += T->Bytes;
    uint64_t J = openSortedSlot(Next.Lo, N, T->Lo, [&](uint64_t To) {
      storeRelaxed(&Next.Lo[To], loadRelaxed(&Next.Lo[To - 1]));
      storeRelaxed(&Hi[To], loadRelaxed(&Hi[To - 1]));
      storeRelaxed(&Table[To], loadRelaxed(&Table[To - 1]));
    });
    storeRelaxed(&Next.Lo[J], T->Lo);
    storeRelaxed(&Hi[J], T->Hi);
    storeRelaxed(&Table[J], Tables[I]);
    ++N;
  }
  storeRelaxed(&Next.Count, N);
  StackMapIndex.publish();
  storeRelaxed(&StackMapStats.Modules, N);
  storeRelaxed(&StackMapStats.Functions, Functions);
  storeRelaxed(&StackMapStats.Records, Records);
  storeRelaxed(&StackMapStats.TableBytes, Bytes);
}

} // namespace rt
} // namespace pcmap

//===----------------------------------------------------------------------===//
// Reader side and the C interface (async-signal-safe)
//===----------------------------------------------------------------------===//

using namespace pcmap::rt;

namespace {

/// A struct of the arena as a reader sees it: word by word, relaxed.
template <class T> T loadStruct(ArenaOffset Off) {
  static_assert(sizeof(T) % 4 == 0, "whole words");
  T R;
  char *Dst = reinterpret_cast<char *>(&R);
  for (size_t I = 0; I < sizeof(T); I += 4) {
    uint32_t V =
        loadRelaxed(static_cast<const uint32_t *>(arenaPointer(Off + I)));
    memcpy(Dst + I, &V, 4);
  }
  return R;
}

/// The table whose range holds PC, or 0.
ArenaOffset findTable(const SMIndexCopy &Copy, uintptr_t PC) {
  uint64_t *Lo = __atomic_load_n(&Copy.Lo, __ATOMIC_ACQUIRE);
  if (!Lo) // not mapped yet: no stack maps
    return 0;
  return findInRanges(&Copy.Count, Lo, SMIndexCopy::hi(Lo),
                      SMIndexCopy::table(Lo), kMaxStackMapModules, PC);
}

struct Found {
  bool Ok = false;
  StackMapTable T;
  SMRecord R;
  SMFunction F;
};

/// Bucket I's {first record, first function}.
inline void loadBucket(const StackMapTable &T, uint64_t I, uint32_t &R,
                       uint32_t &F) {
  if (I > T.NumBuckets)
    I = T.NumBuckets;
  const auto *W = static_cast<const uint32_t *>(
      arenaPointer(T.Buckets + I * 2 * sizeof(uint32_t)));
  R = loadRelaxed(&W[0]);
  F = loadRelaxed(&W[1]);
}

inline uint64_t loadRecordPC(const StackMapTable &T, uint64_t I) {
  return loadRelaxed(static_cast<const uint64_t *>(
      arenaPointer(T.Records + I * sizeof(SMRecord))));
}
inline uint64_t loadFunctionStart(const StackMapTable &T, uint64_t I) {
  return loadRelaxed(static_cast<const uint64_t *>(arenaPointer(
      T.Functions + I * sizeof(SMFunction) + offsetof(SMFunction, Start))));
}

/// PC's bucket in the table that holds PC (copied to Out.T): the first
/// record and function of the bucket and of the next one. False if no table
/// holds PC.
bool findBucket(const SMIndexCopy &Copy, uintptr_t PC, Found &Out,
                uint32_t (&Records)[2], uint32_t (&Functions)[2]) {
  ArenaOffset Table = findTable(Copy, PC);
  if (!Table)
    return false;
  Out.T = loadStruct<StackMapTable>(Table);
  const StackMapTable &T = Out.T;
  if (PC < T.Lo || PC >= T.Hi)
    return false;
  uint64_t B = (PC - T.Lo) >> kStackMapBucketShift;
  loadBucket(T, B, Records[0], Functions[0]);
  loadBucket(T, B + 1, Records[1], Functions[1]);
  return true;
}

/// The first record at PC (exact), with its table and function.
Found findRecord(const SMIndexCopy &Copy, uintptr_t PC) {
  Found Out;
  uint32_t R[2], F[2];
  if (!findBucket(Copy, PC, Out, R, F))
    return Out;
  const StackMapTable &T = Out.T;
  uint64_t Lo = R[0], Hi = R[1] < T.NumRecords ? R[1] : T.NumRecords;
  // The first record at or after PC.
  uint64_t I = lowerBound(Lo, Hi, uint64_t(PC),
                          [&T](uint64_t J) { return loadRecordPC(T, J); });
  if (I >= T.NumRecords || loadRecordPC(T, I) != PC)
    return Out;
  Out.R = loadStruct<SMRecord>(T.Records + I * sizeof(SMRecord));
  if (Out.R.Function >= T.NumFunctions)
    return Out;
  Out.F = loadStruct<SMFunction>(T.Functions +
                                 uint64_t(Out.R.Function) * sizeof(SMFunction));
  Out.Ok = true;
  return Out;
}

/// The last function starting at or before PC.
Found findFunction(const SMIndexCopy &Copy, uintptr_t PC) {
  Found Out;
  uint32_t R[2], F[2];
  if (!findBucket(Copy, PC, Out, R, F))
    return Out;
  const StackMapTable &T = Out.T;
  uint64_t Lo = F[0], Hi = F[1] < T.NumFunctions ? F[1] : T.NumFunctions;
  if (Lo > Hi)
    Lo = Hi;
  // The first function starting after PC.
  Lo = upperBound(Lo, Hi, uint64_t(PC),
                  [&T](uint64_t I) { return loadFunctionStart(T, I); });
  if (Lo == 0)
    return Out;
  Out.F = loadStruct<SMFunction>(T.Functions + (Lo - 1) * sizeof(SMFunction));
  Out.Ok = true;
  return Out;
}

/// Function bounds: pcmap's function table when the function is
/// instrumented, else its symbol, else up to its last record.
void fillFunction(const StackMapTable &T, const SMFunction &F,
                  pcmap_stackmap_function &Out) {
  Out = pcmap_stackmap_function();
  Out.address = uintptr_t(F.Address);
  Out.stack_size = F.StackSize;
  Out.num_records = F.RecordCount;
  Out.module_path = static_cast<const char *>(arenaPointer(T.Path));
  Out.module_bias = uintptr_t(T.Bias);
  Out.version = uint32_t(T.Version);
  pcmap_function PF;
  if (pcmap_lookup_function(uintptr_t(F.Address), &PF)) {
    Out.start = PF.start;
    Out.size = PF.size;
    Out.size_source = PCMAP_STACKMAP_SIZE_PCMAP;
  } else if (F.Size) {
    Out.start = uintptr_t(F.Start);
    Out.size = F.Size;
    Out.size_source = PCMAP_STACKMAP_SIZE_SYMBOL;
  } else {
    Out.start = uintptr_t(F.Start);
    Out.size = F.LastRecordPC + 1 - F.Start;
    Out.size_source = PCMAP_STACKMAP_SIZE_RECORDS;
  }
}

/// The table with Serial holding PC, for the accessors.
bool findSerial(const SMIndexCopy &Copy, uintptr_t PC, uint64_t Serial,
                StackMapTable &T) {
  ArenaOffset Table = findTable(Copy, PC);
  if (!Table)
    return false;
  T = loadStruct<StackMapTable>(Table);
  return T.Serial == Serial;
}

/// Element Index of one of the arrays of R's table (Array, with Count
/// elements), if R's module is still the one loaded at its PC.
template <class Elem>
bool loadRecordElement(const pcmap_stackmap_record &R, uint64_t Index,
                       ArenaOffset StackMapTable::*Array,
                       uint64_t StackMapTable::*Count, Elem &Out) {
  struct Result {
    bool Ok;
    Elem E;
  };
  uintptr_t PC = R.pc;
  uint64_t Serial = R.opaque[0];
  Result Res = StackMapIndex.readRetrying([=](const SMIndexCopy &Copy) {
    Result X{false, {}};
    StackMapTable T;
    if (!findSerial(Copy, PC, Serial, T) || Index >= T.*Count)
      return X;
    X.E = loadStruct<Elem>(T.*Array + Index * sizeof(Elem));
    X.Ok = true;
    return X;
  });
  Out = Res.E;
  return Res.Ok;
}

} // namespace

#pragma GCC visibility push(default)
extern "C" {

int pcmap_lookup_stackmap(uintptr_t PC, struct pcmap_stackmap_record *Out) {
  if (!Out)
    return 0;
  discoverStackMaps();
  Found F = StackMapIndex.readRetrying(
      [PC](const SMIndexCopy &Copy) { return findRecord(Copy, PC); });
  if (!F.Ok)
    return 0;
  *Out = pcmap_stackmap_record();
  Out->pc = uintptr_t(F.R.PC);
  Out->id = F.R.ID;
  Out->instruction_offset = F.R.InstructionOffset;
  Out->flags = F.R.Flags;
  Out->num_locations = F.R.NumLocations;
  Out->num_live_outs = F.R.NumLiveOuts;
  Out->call_kind = F.R.CallKind;
  Out->call_size = F.R.CallSize;
  Out->record_index = F.R.RecordIndex;
  fillFunction(F.T, F.F, Out->function);
  Out->opaque[0] = F.T.Serial;
  Out->opaque[1] = uint64_t(F.R.FirstLocation) | uint64_t(F.R.FirstLiveOut)
                                                     << 32;
  return 1;
}

int pcmap_lookup_stackmap_function(uintptr_t PC,
                                   struct pcmap_stackmap_function *Out) {
  if (!Out)
    return 0;
  discoverStackMaps();
  Found F = StackMapIndex.readRetrying(
      [PC](const SMIndexCopy &Copy) { return findFunction(Copy, PC); });
  if (!F.Ok)
    return 0;
  pcmap_stackmap_function Fn;
  fillFunction(F.T, F.F, Fn);
  if (PC < Fn.start || PC - Fn.start >= Fn.size)
    return 0;
  *Out = Fn;
  return 1;
}

int pcmap_stackmap_location(const struct pcmap_stackmap_record *R, unsigned I,
                            struct pcmap_stackmap_location *Out) {
  SMLocation L;
  if (!Out || !R || I >= R->num_locations ||
      !loadRecordElement(*R, (R->opaque[1] & 0xffffffffu) + I,
                         &StackMapTable::Locations,
                         &StackMapTable::NumLocations, L))
    return 0;
  Out->kind = L.Kind;
  Out->size = L.Size;
  Out->dwarf_reg = L.DwarfReg;
  Out->offset = L.Offset;
  Out->value = L.Value;
  return 1;
}

int pcmap_stackmap_live_out(const struct pcmap_stackmap_record *R, unsigned I,
                            struct pcmap_stackmap_live_out *Out) {
  SMLiveOut L;
  if (!Out || !R || I >= R->num_live_outs ||
      !loadRecordElement(*R, (R->opaque[1] >> 32) + I, &StackMapTable::LiveOuts,
                         &StackMapTable::NumLiveOuts, L))
    return 0;
  Out->dwarf_reg = L.DwarfReg;
  Out->size = L.Size;
  return 1;
}

void pcmap_get_stackmap_stats(struct pcmap_stackmap_stats *Out) {
  if (!Out)
    return;
  discoverStackMaps();
  Out->modules = size_t(loadRelaxed(&StackMapStats.Modules));
  Out->functions = size_t(loadRelaxed(&StackMapStats.Functions));
  Out->records = size_t(loadRelaxed(&StackMapStats.Records));
  Out->table_bytes = size_t(loadRelaxed(&StackMapStats.TableBytes));
  Out->sections_rejected = size_t(loadRelaxed(&StackMapStats.SectionsRejected));
  Out->generation = size_t(StackMapIndex.generation());
}

} // extern "C"
#pragma GCC visibility pop
