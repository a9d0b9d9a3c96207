//===- data_report.cpp - The tracer's data: lines, names, sharing ---------===//

#include "optional/data_report.h"

#include "core/access.h"
#include "core/algorithm.h"
#include "core/mapped.h"
#include "core/options.h"
#include "optional/describe.h"
#include "platform/platform.h"

#include "pcmap/TraceDump.h"

#include <string.h>

namespace pcmap {
namespace rt {

namespace {

constexpr unsigned kMaxMappings = 16384;
constexpr unsigned kMaxTlsBlocks = 64;
constexpr unsigned kMaxLineAccesses = 512;
constexpr unsigned kMaxMembers = 32;
constexpr unsigned kMaxTopLines = 100;
/// A module's TLS block this close to the thread pointer is static TLS (the
/// executable's and the libraries loaded with it, at the same offset in
/// every thread); farther, it is a block the C library allocated for one
/// thread (a library loaded later), whose offset differs by thread.
constexpr intptr_t kStaticTlsReach = 1 << 20;

/// A module's static TLS block, at [Begin, Begin + Size) from the thread
/// pointer.
struct TlsBlock {
  intptr_t Begin;
  uintptr_t Size, Key;
};

/// A row of the table, by address.
struct Sorted {
  uintptr_t Address;
  uint32_t K;
};

/// A member of a line in the text report: the accesses to the same bytes.
struct Member {
  uint32_t Offset, Size;
  uint64_t Samples, Reads, Writes, ReadWrites;
  uint32_t Tids[8];
  unsigned NumTids; // distinct threads (the first 8 kept)
  uintptr_t Site;   // the instruction with the most samples
  uint64_t SiteSamples;
  uintptr_t Address;
  uint8_t Flags;
  uint32_t AnyTid;
  uint8_t Hint; // DH_*: what a row saw at its address
};

struct DataReportMemory {
  MappingInfo Mappings[kMaxMappings];
  char Paths[1 << 16];
  unsigned NumMappings;
  bool MappingsRead; // read at the first address no module holds
  TlsBlock Tls[kMaxTlsBlocks];
  unsigned NumTls;
  LoadedObject Objects[ModuleList::kMax + 1];
  int32_t StackIndex[StackTable::kSlots];
  Sorted Rows[DataTable::kSlots];
  LineAccess Line[kMaxLineAccesses];
  Member Members[kMaxMembers];
  uint32_t TopStart[kMaxTopLines]; // a top line's first row in Rows
  uint64_t TopSamples[kMaxTopLines];
};
Mapped<DataReportMemory> Memory;

uintptr_t lineSize() {
  return Flags.trace_line_size == 128 ? 128 : trace::kDefaultLineSize;
}

bool noteTlsBlock(const ObjectHeaders &H, void *Data) {
  auto &M = *static_cast<DataReportMemory *>(Data);
  if (!H.TlsData || M.NumTls == kMaxTlsBlocks)
    return false;
  for (unsigned I = 0; I < H.NumPhdrs; ++I) {
    if (H.Phdrs[I].p_type != PT_TLS || !H.Phdrs[I].p_memsz)
      continue;
    intptr_t Begin = intptr_t(uintptr_t(H.TlsData) - threadPointer());
#if defined(__x86_64__)
    bool Static = Begin < 0 && Begin >= -kStaticTlsReach; // below the TCB
#else
    bool Static = Begin > 0 && Begin < kStaticTlsReach; // above it
#endif
    if (Static)
      M.Tls[M.NumTls++] = {Begin, uintptr_t(H.Phdrs[I].p_memsz), H.Key};
  }
  return false;
}

/// Where an access's address lies.
enum class Region { Module, TLS, Stack, Shared, Heap, Unknown };
struct Place {
  Region Kind;
  int Module;              // Module, TLS: the index in the module list
  uint64_t Offset;         // Module, TLS, Shared; Stack: the owner's id
  const MappingInfo *Map;  // Shared
};

/// The mapping of Maps[0..N) (in address order) that holds Address.
const MappingInfo *findIn(const MappingInfo *Maps, unsigned N,
                          uintptr_t Address) {
  unsigned Lo = 0, Hi = N;
  while (Lo < Hi) {
    unsigned Mid = Lo + (Hi - Lo) / 2;
    if (Maps[Mid].End <= Address)
      Lo = Mid + 1;
    else
      Hi = Mid;
  }
  return Lo < N && Maps[Lo].Begin <= Address ? &Maps[Lo] : nullptr;
}

const MappingInfo *mappingAt(DataReportMemory &M, uintptr_t Address) {
  // /proc/self/maps is read once a report, and only if an address needs it
  // (under qemu-user, reading it takes tens of milliseconds).
  if (!M.MappingsRead) {
    M.NumMappings =
        readMappings(M.Mappings, kMaxMappings, M.Paths, sizeof(M.Paths));
    M.MappingsRead = true;
  }
  return findIn(M.Mappings, M.NumMappings, Address);
}

/// Where A's address lies; Hint says what it was while the program ran,
/// for memory gone by now.
Place placeOf(DataReportMemory &M, const DataAccess &A, uint8_t Hint,
              ModuleList &Modules) {
  if (A.Flags & DF_OwnStack)
    return {Region::Stack, -1, A.Tid, nullptr};
  for (unsigned I = 0; I < M.NumTls; ++I) {
    const TlsBlock &B = M.Tls[I];
    if (A.TpOffset >= B.Begin && A.TpOffset < B.Begin + intptr_t(B.Size))
      return {Region::TLS, Modules.indexOf(B.Key),
              uint64_t(A.TpOffset - B.Begin), nullptr};
  }
  int Module = Modules.indexOf(A.Address);
  if (Module >= 0)
    return {Region::Module, Module, A.Address - Modules[unsigned(Module)].Bias,
            nullptr};
  const MappingInfo *Map = mappingAt(M, A.Address);
  if (!Map && Hint == DH_Heap)
    return {Region::Heap, -1, 0, nullptr};
  if (!Map && Hint == DH_Stack)
    return {Region::Stack, -1, uint64_t(currentProcessId()), nullptr};
  if (!Map)
    return {Region::Unknown, -1, 0, nullptr};
  const char *Path = M.Paths + Map->PathOffset;
  if (Map->Shared)
    return {Region::Shared, -1, Map->Offset + (A.Address - Map->Begin), Map};
  if (!strcmp(Path, "[stack]")) // the initial thread's
    return {Region::Stack, -1, uint64_t(currentProcessId()), nullptr};
  if (!*Path || !strcmp(Path, "[heap]"))
    return {Region::Heap, -1, 0, nullptr};
  return {Region::Unknown, -1, 0, nullptr};
}

const char *regionName(Region R) {
  switch (R) {
  case Region::Module:
    return trace::kRegionModule;
  case Region::TLS:
    return trace::kRegionTLS;
  case Region::Stack:
    return trace::kRegionStack;
  case Region::Shared:
    return trace::kRegionShared;
  case Region::Heap:
    return trace::kRegionHeap;
  case Region::Unknown:
    break;
  }
  return trace::kRegionUnknown;
}

const char *kindName(uint8_t Kind) {
  return Kind == AK_Read    ? trace::kAccessRead
         : Kind == AK_Write ? trace::kAccessWrite
                            : trace::kAccessReadWrite;
}

Writer &key(Writer &W, const char *Key, bool First = false) {
  return W << (First ? "\"" : ", \"") << Key << "\": ";
}

Writer &signedNumber(Writer &W, intptr_t V) {
  if (V < 0)
    return W << "-" << uint64_t(-(V + 1)) + 1;
  return W << uint64_t(V);
}

} // namespace

void writeModuleAddress(Writer &W, ModuleList &Modules, uintptr_t Address) {
  int M = Modules.indexOf(Address);
  W << "[";
  if (M < 0)
    W << "-1";
  else
    W << uint64_t(M);
  W << ", \"";
  W.hex(M < 0 ? Address : Address - Modules[unsigned(M)].Bias) << "\"]";
}

namespace {

void writePlace(Writer &W, const DataReportMemory &M, const Place &P,
                const DataAccess &A) {
  key(W, trace::kRegionKey) << "\"" << regionName(P.Kind) << "\"";
  if (P.Kind == Region::TLS)
    signedNumber(key(W, trace::kTpOffsetKey), A.TpOffset);
  if ((P.Kind == Region::Module || P.Kind == Region::TLS) && P.Module >= 0) {
    key(W, trace::kModuleKey) << uint64_t(P.Module);
    key(W, trace::kOffsetKey) << "\"";
    W.hex(P.Offset) << "\"";
  }
  if (P.Kind == Region::Stack)
    key(W, trace::kStackOwnerKey) << P.Offset;
  if (P.Kind == Region::Shared) {
    key(W, trace::kFileKey).json(M.Paths + P.Map->PathOffset);
    key(W, trace::kInodeKey) << P.Map->Inode;
    key(W, trace::kOffsetKey) << "\"";
    W.hex(P.Offset) << "\"";
  }
}

void writeJSONAccess(Writer &W, DataReportMemory &M, const DataAccess &A,
                     uint64_t Samples, uint8_t Hint, ModuleList &Modules,
                     bool First) {
  key(W << (First ? "{" : ", {"), trace::kSamplesKey, /*First=*/true)
      << Samples;
  key(W, trace::kThreadKey) << uint64_t(A.Tid);
  key(W, trace::kKindKey) << "\"" << kindName(A.Kind) << "\"";
  key(W, trace::kSizeKey) << uint64_t(A.Size);
  key(W, trace::kAddressKey) << "\"";
  W.hex(A.Address) << "\"";
  key(W, trace::kAtomicKey) << ((A.Flags & DF_Atomic) ? "true" : "false");
  key(W, trace::kSiteKey);
  writeModuleAddress(W, Modules, A.Site);
  int32_t Stack = A.Stack >= 0 && unsigned(A.Stack) < StackTable::kSlots
                      ? M.StackIndex[A.Stack]
                      : -1;
  signedNumber(key(W, trace::kStackKey), Stack);
  writePlace(W, M, placeOf(M, A, Hint, Modules), A);
  W << "}";
}

/// noteDataRegions's memory and state: it runs on one thread (the
/// service thread), apart from the reports'.
struct RegionNotes {
  MappingInfo Mappings[kMaxMappings];
  char Paths[1 << 16];
};
Mapped<RegionNotes> Notes;
unsigned RowsNoted;
uint64_t NotedAtCPU;
constexpr uint64_t kNoteEveryNanos = 1000000000;

uint8_t hintOf(const MappingInfo *Map, const char *Paths) {
  if (!Map)
    return DH_Gone;
  const char *Path = Paths + Map->PathOffset;
  if (!Map->Shared && (!*Path || !strcmp(Path, "[heap]")))
    return DH_Heap;
  return !Map->Shared && !strcmp(Path, "[stack]") ? DH_Stack : DH_Other;
}

} // namespace

void noteDataRegions(DataTable &Table) {
  unsigned N = Table.size();
  uint64_t Now = processCPUNanos();
  if (RowsNoted >= N || (NotedAtCPU && Now - NotedAtCPU < kNoteEveryNanos))
    return;
  RegionNotes *R = Notes.get();
  if (!R)
    return;
  NotedAtCPU = Now;
  unsigned NumMaps =
      readMappings(R->Mappings, kMaxMappings, R->Paths, sizeof(R->Paths));
  if (!NumMaps)
    return;
  for (; RowsNoted < N; ++RowsNoted) {
    DataTable::Entry E = Table.entry(RowsNoted);
    if (!E.Samples)
      break; // still being written: at the next look
    if (!(E.Access.Flags & DF_OwnStack))
      Table.setHint(
          RowsNoted,
          hintOf(findIn(R->Mappings, NumMaps, E.Access.Address), R->Paths));
  }
}

void resetDataRegions() {
  RowsNoted = 0;
  NotedAtCPU = 0;
}

unsigned lineSharing(const LineAccess *Accesses, unsigned N) {
  unsigned Sharing = 0;
  for (unsigned I = 0; I < N; ++I)
    for (unsigned J = I + 1; J < N; ++J) {
      const LineAccess &X = Accesses[I], &Y = Accesses[J];
      if (X.Tid == Y.Tid || !(X.Writes || Y.Writes) ||
          (X.OwnStack && Y.OwnStack))
        continue;
      uint32_t XSize = X.Size ? X.Size : 1, YSize = Y.Size ? Y.Size : 1;
      bool Overlap =
          X.Offset < Y.Offset + YSize && Y.Offset < X.Offset + XSize;
      Sharing |= Overlap ? kTrueSharing : kFalseSharing;
      if (Sharing == (kTrueSharing | kFalseSharing))
        return Sharing;
    }
  return Sharing;
}

bool prepareDataReport() {
  DataReportMemory *M = Memory.get();
  if (!M)
    return false;
  M->MappingsRead = false;
  M->NumTls = 0;
  forEachLoadedObject(noteTlsBlock, M);
  return true;
}

void collectDataModules(const DataTable &Table, ModuleList &Modules) {
  DataReportMemory *M = Memory.peek();
  if (!M)
    return;
  for (unsigned K = 0; K < Table.size(); ++K) {
    DataTable::Entry E = Table.entry(K);
    if (!E.Samples)
      continue;
    Modules.collect(E.Access.Site);
    if (!(E.Access.Flags & DF_OwnStack))
      Modules.collect(E.Access.Address);
  }
  for (unsigned I = 0; I < M->NumTls; ++I)
    Modules.collect(M->Tls[I].Key);
}

void writeJSONAccesses(Writer &W, const DataTable &Table, ModuleList &Modules,
                       const StackTable &Stacks) {
  DataReportMemory *M = Memory.peek();
  key(W, trace::kLineSizeKey) << uint64_t(lineSize());
  key(W, trace::kDataSamplesKey) << Table.samples();
  key(W, trace::kDataSamplesDroppedKey) << Table.dropped();
  key(W, trace::kAccessesKey) << "[";
  if (M) {
    for (int32_t &I : M->StackIndex)
      I = -1;
    int32_t Written = 0;
    for (unsigned K = 0; K < Stacks.size(); ++K) {
      unsigned Slot = Stacks.slotAt(K);
      if (Slot < StackTable::kSlots && Stacks.entry(Slot).Depth)
        M->StackIndex[Slot] = Written++;
    }
    bool First = true;
    for (unsigned K = 0; K < Table.size(); ++K) {
      DataTable::Entry E = Table.entry(K);
      if (!E.Samples)
        continue;
      writeJSONAccess(W, *M, E.Access, E.Samples, E.Hint, Modules, First);
      First = false;
    }
  }
  W << "]";
}

namespace {

/// The Top lines with the most samples: each one's first row in M.Rows.
unsigned topLines(DataReportMemory &M, const DataTable &Table, unsigned N,
                  unsigned Top, unsigned &NumLines) {
  uintptr_t Mask = ~(lineSize() - 1);
  unsigned Count = 0;
  NumLines = 0;
  for (unsigned I = 0; I < N;) {
    uintptr_t Line = M.Rows[I].Address & Mask;
    uint64_t Samples = 0;
    unsigned First = I;
    for (; I < N && (M.Rows[I].Address & Mask) == Line; ++I)
      Samples += Table.entry(M.Rows[I].K).Samples;
    ++NumLines;
    unsigned Pos = Count < Top ? Count++ : Top;
    if (Pos == Top && Samples <= M.TopSamples[Top - 1])
      continue;
    if (Pos == Top)
      Pos = Top - 1;
    for (; Pos > 0 && M.TopSamples[Pos - 1] < Samples; --Pos) {
      M.TopSamples[Pos] = M.TopSamples[Pos - 1];
      M.TopStart[Pos] = M.TopStart[Pos - 1];
    }
    M.TopSamples[Pos] = Samples;
    M.TopStart[Pos] = First;
  }
  return Count;
}

void addTid(Member &X, uint32_t Tid) {
  for (unsigned I = 0; I < X.NumTids && I < 8; ++I)
    if (X.Tids[I] == Tid)
      return;
  if (X.NumTids < 8)
    X.Tids[X.NumTids] = Tid;
  ++X.NumTids;
}

/// Gathers the line that starts at row First: its members (by offset and
/// size) and its accesses for the verdict. Returns the members.
unsigned gatherLine(DataReportMemory &M, const DataTable &Table, unsigned First,
                    unsigned N, unsigned &NumAccesses, unsigned &Threads) {
  uintptr_t Mask = ~(lineSize() - 1), Line = M.Rows[First].Address & Mask;
  unsigned NumMembers = 0;
  NumAccesses = 0;
  Member All = {};
  for (unsigned I = First; I < N && (M.Rows[I].Address & Mask) == Line; ++I) {
    DataTable::Entry E = Table.entry(M.Rows[I].K);
    const DataAccess &A = E.Access;
    uint32_t Offset = uint32_t(A.Address - Line);
    addTid(All, A.Tid);
    if (NumAccesses < kMaxLineAccesses)
      M.Line[NumAccesses++] = {Offset, A.Size, A.Tid, (A.Kind & AK_Write) != 0,
                               (A.Flags & DF_OwnStack) != 0};
    unsigned J = 0;
    while (J < NumMembers &&
           !(M.Members[J].Offset == Offset && M.Members[J].Size == A.Size))
      ++J;
    if (J == NumMembers) {
      if (NumMembers == kMaxMembers)
        continue;
      M.Members[NumMembers++] = {Offset,    A.Size,  0,     0,      0,
                                 0,         {},      0,     0,      0,
                                 A.Address, A.Flags, A.Tid, DH_None};
    }
    Member &X = M.Members[J];
    X.Samples += E.Samples;
    if (E.Hint != DH_None)
      X.Hint = E.Hint;
    (A.Kind == AK_Read    ? X.Reads
     : A.Kind == AK_Write ? X.Writes
                          : X.ReadWrites) += E.Samples;
    addTid(X, A.Tid);
    if (E.Samples > X.SiteSamples) {
      X.Site = A.Site;
      X.SiteSamples = E.Samples;
    }
  }
  Threads = All.NumTids;
  return NumMembers;
}

const char *sharingText(unsigned Sharing) {
  switch (Sharing) {
  case kFalseSharing:
    return "false sharing";
  case kTrueSharing:
    return "true sharing";
  case kFalseSharing | kTrueSharing:
    return "false and true sharing";
  }
  return "no sharing";
}

/// What the object at a member's address is called: the data symbol and
/// the offset in it (members are named offline from the debug
/// information, by pcmap-report trace), heap, a stack, TLS, shared memory.
/// Whether it is a region that pcmap-report names by the code's types.
bool writeObjectName(Writer &W, Symbolizer &Sym, DataReportMemory &M,
                     ModuleList &Modules, const Member &X) {
  DataAccess A = {};
  A.Address = X.Address;
  A.Flags = X.Flags;
  A.Tid = X.AnyTid;
  Place P = placeOf(M, A, X.Hint, Modules);
  switch (P.Kind) {
  case Region::Module: {
    SymbolizedData D;
    const LoadedObject &O = Modules[unsigned(P.Module)];
    if (Sym.symbolizeData(O.Path, P.Offset, D)) {
      W << D.Name;
      if (P.Offset != D.Start)
        W << "+" << uint64_t(P.Offset - D.Start);
      return false;
    }
    const char *Base = strrchr(O.Path, '/');
    W << (Base ? Base + 1 : O.Path) << "+";
    W.hex(P.Offset);
    return false;
  }
  case Region::TLS:
    W << "TLS+";
    W.hex(P.Offset);
    return true;
  case Region::Stack:
    W << "stack of thread " << P.Offset;
    return true;
  case Region::Shared:
    W << M.Paths + P.Map->PathOffset << "+";
    W.hex(P.Offset);
    return true;
  case Region::Heap:
    W << "heap";
    return true;
  case Region::Unknown:
    break;
  }
  W << "memory unmapped by the report";
  return false;
}

/// Writes a member's row; whether its object is one that pcmap-report names
/// by the code's types.
bool writeMember(Writer &W, Symbolizer &Sym, DataReportMemory &M,
                 ModuleList &Modules, const Member &X, uint64_t Total) {
  W << "      +";
  W.padNumber(X.Offset, 2) << " ";
  W.padNumber(X.Size, 2) << " bytes  ";
  bool Typed = writeObjectName(W, Sym, M, Modules, X);
  W << ": " << X.Samples << " samples (";
  W.fixed(Total ? 100.0 * double(X.Samples) / double(Total) : 0, 1)
      << "%), " << uint64_t(X.NumTids)
      << (X.NumTids == 1 ? " thread" : " threads");
  if (X.Reads)
    W << ", read " << X.Reads;
  if (X.Writes)
    W << ", write " << X.Writes;
  if (X.ReadWrites)
    W << ", rmw " << X.ReadWrites;
  char Path[512];
  uintptr_t Bias;
  SymbolizedPC Sy;
  if (moduleOf(X.Site, Path, sizeof(Path), Bias) &&
      Sym.symbolize(X.Site, Path, X.Site - Bias, Sy) && Sy.Function[0]) {
    W << "; " << Sy.Function;
    if (Sy.Location[0])
      W << " " << Sy.Location;
  } else {
    W << "; ";
    W.hex(X.Site);
  }
  W << "\n";
  return Typed;
}

} // namespace

void writeJSONAddressPlace(Writer &W, ModuleList &Modules, uintptr_t Address) {
  DataReportMemory *M = Memory.peek();
  if (!M) {
    key(W, trace::kRegionKey) << "\"" << trace::kRegionUnknown << "\"";
    return;
  }
  DataAccess A = {};
  A.Address = Address;
  // Not a TLS offset: the thread pointer it would be taken from is not
  // the one of the thread that waits.
  A.TpOffset = INTPTR_MIN;
  writePlace(W, *M, placeOf(*M, A, DH_None, Modules), A);
}

void writeAddressName(Writer &W, Symbolizer &Sym, ModuleList &Modules,
                      uintptr_t Address) {
  DataReportMemory *M = Memory.peek();
  if (!M) {
    W.hex(Address);
    return;
  }
  Member X = {};
  X.Address = Address;
  X.Hint = DH_None;
  writeObjectName(W, Sym, *M, Modules, X);
}

void writeTextData(Writer &W, Symbolizer &Sym, const DataTable &Table,
                   uint64_t Total, unsigned Top) {
  DataReportMemory *M = Memory.peek();
  if (!M || !Table.ready())
    return;
  unsigned N = 0;
  for (unsigned K = 0; K < Table.size(); ++K) {
    DataTable::Entry E = Table.entry(K);
    if (E.Samples)
      M->Rows[N++] = {E.Access.Address, K};
  }
  heapSort(M->Rows, N, [](const Sorted &X, const Sorted &Y) {
    return X.Address < Y.Address;
  });
  Top = Top < 1 ? 1 : Top > kMaxTopLines ? kMaxTopLines : Top;
  unsigned NumLines = 0;
  unsigned Count = topLines(*M, Table, N, Top, NumLines);
  ModuleList Modules(M->Objects);
  collectDataModules(Table, Modules);
  W << "pcmap: data: " << Table.samples() << " samples (";
  W.fixed(Total ? 100.0 * double(Table.samples()) / double(Total) : 0, 1)
      << "%) at memory accesses, in " << uint64_t(NumLines) << " cache lines of "
      << uint64_t(lineSize()) << " bytes";
  if (Table.dropped())
    W << " (" << Table.dropped() << " samples' accesses dropped: table full)";
  W << "; the top " << uint64_t(Count) << " by samples:\n";
  bool ByCode = false;
  for (unsigned L = 0; L < Count; ++L) {
    unsigned NumAccesses, Threads;
    unsigned NumMembers =
        gatherLine(*M, Table, M->TopStart[L], N, NumAccesses, Threads);
    W << "  ";
    W.hex(M->Rows[M->TopStart[L]].Address & ~(lineSize() - 1))
        << "  " << sharingText(lineSharing(M->Line, NumAccesses)) << ": "
        << M->TopSamples[L] << " samples (";
    W.fixed(Total ? 100.0 * double(M->TopSamples[L]) / double(Total) : 0, 1)
        << "%), " << uint64_t(Threads)
        << (Threads == 1 ? " thread\n" : " threads\n");
    for (unsigned I = 0; I < NumMembers; ++I)
      ByCode |= writeMember(W, Sym, *M, Modules, M->Members[I], Total);
  }
  if (ByCode)
    W << "pcmap: data: pcmap-report trace names heap, stack, shared and TLS "
         "members by the types the code accesses them as "
         "(report_format=json)\n";
}

} // namespace rt
} // namespace pcmap
