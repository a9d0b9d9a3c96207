//===- stackmap_discovery.cpp - Finding the stack maps of loaded objects --===//
//
// Discovery needs no help from the program: at the first query (so that a
// process that never asks opens no file at start-up), and from then on after
// every dlopen and dlclose (which the platform intercepts, as sanitizers do:
// platform/linux_dlopen.cpp), it walks the loaded objects
// (forEachLoadedObject). For an object it has not seen, it reads the section
// headers of its file (the executable's through /proc/self/exe) into arena
// buffers, finds .llvm_stackmaps (an allocated section), and decodes the
// copy in memory, at bias + sh_addr, which the dynamic loader has relocated.
// Function sizes come from the file's .symtab (else .dynsym). Objects that
// are gone are dropped after the real dlclose returned, before the
// interceptor returns.
//
//===----------------------------------------------------------------------===//

#include "stackmaps/stackmap.h"

#include "core/algorithm.h"
#include "core/arena.h"
#include "core/elf_file.h"
#include "core/log.h"
#include "core/mapped.h"
#include "core/options.h"
#include "core/publication.h"
#include "platform/hooks.h"
#include "platform/platform.h"

#include <elf.h>
#include <string.h>

namespace pcmap {
namespace rt {

namespace {

/// An object as discovery knows it (writers only).
struct KnownObject {
  uintptr_t Key;     // its first mapped address
  const void *Phdrs; // its program headers, in memory
  const char *Name;  // the loader's copy of its name (one per load)
  ArenaOffset Table; // 0: no (usable) stack maps
  bool Seen;
};
/// What discovery keeps, mapped at the first rescan (mapped.h): a process
/// that never asks for stack maps keeps none of it.
struct DiscoveryState {
  KnownObject Objects[kMaxStackMapModules];
  // A rescan's tables, and those of the objects no longer loaded.
  ArenaOffset Tables[kMaxStackMapModules], Removed[kMaxStackMapModules];
};
Mapped<DiscoveryState> State;
KnownObject *Objects; // State's, once Initialized
unsigned NumObjects;
bool Initialized;
bool TooManyReported;
/// Whether the loaded objects have been searched for stack maps: by the
/// first query (discoverStackMaps), not at start-up.
bool Discovered;

struct SymbolContext {
  int Fd;
  ElfW(Shdr) Table; // the symbol table in the file
  uintptr_t Bias;
  SMFunction *Fs;
  size_t N;
};

bool symbolizeChunk(uint64_t, const ElfW(Sym) * Chunk, size_t K, void *C) {
  const auto &Ctx = *static_cast<const SymbolContext *>(C);
  SMFunction *Fs = Ctx.Fs;
  size_t N = Ctx.N;
  for (size_t I = 0; I < K; ++I) {
    const ElfW(Sym) &S = Chunk[I];
    if (ELF64_ST_TYPE(S.st_info) != STT_FUNC || S.st_shndx == SHN_UNDEF ||
        !S.st_size)
      continue;
    uintptr_t Start = Ctx.Bias + S.st_value;
    uintptr_t End = Start + S.st_size;
    // The first function whose address is at or after Start.
    size_t Lo = lowerBound(size_t(0), N, Start,
                           [Fs](size_t I) { return Fs[I].Address; });
    for (; Lo < N && Fs[Lo].Address < End; ++Lo)
      if (!Fs[Lo].Size) {
        Fs[Lo].Start = Start;
        Fs[Lo].Size = S.st_size;
      }
  }
  return true;
}

/// SymbolizeFunctions over an ELF symbol table read in chunks.
void symbolize(void *C, SMFunction *Fs, size_t N) {
  auto &Ctx = *static_cast<SymbolContext *>(C);
  Ctx.Fs = Fs;
  Ctx.N = N;
  forEachSymbolChunk(Ctx.Fd, Ctx.Table, symbolizeChunk, &Ctx);
}

void reportRejected(const char *Path, uintptr_t Start, uint64_t Size,
                    const char *What, uint64_t Offset) {
  storeRelaxed(&StackMapStats.SectionsRejected,
               StackMapStats.SectionsRejected + 1);
  if (Verbosity < 1)
    return;
  Message M;
  M << "rejected section .llvm_stackmaps (" << Size << " bytes at ";
  M.hex(Start) << ") of " << Path << ": " << What << " (blob at byte " << Offset
               << ")";
  M.emit();
}

/// Fills In's code ranges from the object's executable segments; true if
/// [Start, Start + Size) lies in a readable loaded segment (the file may
/// not be what is mapped).
bool mapSection(const ObjectHeaders &H, uintptr_t Start, uint64_t Size,
                StackMapInput &In) {
  bool Mapped = false;
  for (unsigned I = 0; I < H.NumPhdrs; ++I) {
    const ElfW(Phdr) &P = H.Phdrs[I];
    if (P.p_type != PT_LOAD)
      continue;
    uintptr_t B = H.Bias + P.p_vaddr, End = B + P.p_memsz;
    if ((P.p_flags & PF_R) && Start >= B && Size <= End - Start && Start <= End)
      Mapped = true;
    if ((P.p_flags & PF_X) && In.NumRanges < StackMapInput::kMaxRanges) {
      In.CodeBegin[In.NumRanges] = B;
      In.CodeEnd[In.NumRanges] = End;
      ++In.NumRanges;
    }
  }
  return Mapped;
}

/// The stack-map table of the object whose file is open as Fd, or 0 if it
/// has none or its section is rejected (reported).
ArenaOffset loadFromFile(const ObjectHeaders &H, int Fd, const char *Path) {
  ElfFileSections Found;
  if (!readElfSections(Fd, Found) || !Found.StackMaps.sh_size)
    return 0;
  uintptr_t Start = H.Bias + Found.StackMaps.sh_addr;
  uint64_t Size = Found.StackMaps.sh_size;
  StackMapInput In;
  memset(&In, 0, sizeof(In));
  if (!mapSection(H, Start, Size, In)) {
    reportRejected(Path, Start, Size,
                   "the section is not inside a loaded segment", 0);
    return 0;
  }
  In.Section = reinterpret_cast<const uint8_t *>(Start);
  In.Size = size_t(Size);
  In.Bias = H.Bias;
  In.Path = Path;
  // Function sizes from .symtab, else .dynsym.
  const ElfW(Shdr) &Symbols =
      Found.SymTab.sh_size ? Found.SymTab : Found.DynSym;
  bool HaveSymbols = Symbols.sh_size != 0;
  SymbolContext Ctx{Fd, Symbols, H.Bias, nullptr, 0};
  DecodeError Error;
  ArenaOffset Table =
      buildStackMapTable(In, HaveSymbols ? symbolize : nullptr, &Ctx, Error);
  if (!Table) {
    reportRejected(Path, Start, Size, Error.What ? Error.What : "out of memory",
                   Error.Offset);
    return 0;
  }
  if (Verbosity >= 2) {
    const auto *T = static_cast<const StackMapTable *>(arenaPointer(Table));
    Message M;
    M << "registered .llvm_stackmaps (version " << T->Version << ") of " << Path
      << ": " << T->NumFunctions << " functions, " << T->NumRecords
      << " records";
    M.emit();
  }
  return Table;
}

ArenaOffset loadObject(const ObjectHeaders &H) {
  char Path[512];
  objectFilePath(H, Path, sizeof(Path));
  if (Path[0] != '/' && !strchr(Path, '/'))
    return 0; // the vDSO, or an object without a file name
  int Fd = openForReading(Path);
  if (Fd < 0)
    return 0;
  ArenaOffset Table = loadFromFile(H, Fd, Path);
  closeFd(Fd);
  return Table;
}

bool visit(const ObjectHeaders &H, void *) {
  for (unsigned I = 0; I < NumObjects; ++I)
    if (Objects[I].Key == H.Key && Objects[I].Phdrs == H.Phdrs &&
        Objects[I].Name == H.Name) {
      Objects[I].Seen = true;
      return false;
    }
  if (NumObjects == kMaxStackMapModules) {
    if (!TooManyReported && Verbosity >= 1) {
      Message M;
      M << "too many loaded objects; stack maps of further ones ignored";
      M.emit();
    }
    TooManyReported = true;
    return false;
  }
  KnownObject &O = Objects[NumObjects++];
  O.Key = H.Key;
  O.Phdrs = H.Phdrs;
  O.Name = H.Name;
  O.Seen = true;
  O.Table = loadObject(H);
  return false;
}

} // namespace

namespace {
/// Rescans the loaded objects; the writer lock is held.
void rescanLocked() {
  if (!Initialized) {
    initOptions();
    if (!arenaInit() || !State.get())
      return;
    Objects = State.get()->Objects;
    Initialized = true;
  }
  for (unsigned I = 0; I < NumObjects; ++I)
    Objects[I].Seen = false;
  forEachLoadedObject(visit, nullptr);
  // Objects no longer loaded: publish the index without them, then free
  // their tables (a reader may still be looking at them until then).
  ArenaOffset *Removed = State.get()->Removed, *Tables = State.get()->Tables;
  unsigned NumRemoved = 0, N = 0, J = 0;
  for (unsigned I = 0; I < NumObjects; ++I) {
    if (!Objects[I].Seen) {
      if (Objects[I].Table)
        Removed[NumRemoved++] = Objects[I].Table;
      continue;
    }
    if (Objects[I].Table)
      Tables[N++] = Objects[I].Table;
    Objects[J++] = Objects[I];
  }
  NumObjects = J;
  publishStackMapTables(Tables, N);
  for (unsigned I = 0; I < NumRemoved; ++I)
    freeStackMapTable(Removed[I]);
}

} // namespace

void rescanStackMaps() {
  WriterLock Lock;
  rescanLocked();
}

void discoverStackMaps() {
  if (__atomic_load_n(&Discovered, __ATOMIC_ACQUIRE))
    return;
  if (!lockWritersUnlessHeldHere())
    return; // this thread's own update was interrupted: what is published
  if (!Discovered) {
    rescanLocked();
    __atomic_store_n(&Discovered, true, __ATOMIC_RELEASE);
  }
  unlockWriters();
}

namespace {
/// After every dlopen and dlclose, once a query has asked for stack maps:
/// new objects are read then, gone ones dropped before dlclose returns.
/// Until then the objects' files are not opened (docs/design/Runtime.md,
/// "Start-up").
void rescanIfDiscovered() {
  WriterLock Lock; // then a discovery in progress has seen the change
  if (Discovered)
    rescanLocked();
}

PCMAP_SUBSCRIBE(StackMapHooks, 10,
                {{Event::ObjectsChanged, rescanIfDiscovered}});
} // namespace

} // namespace rt
} // namespace pcmap
