//===- fragments.cpp - The fragments of split functions -------------------===//

#include "core/fragments.h"

#include "core/algorithm.h"
#include "core/elf_file.h"
#include "core/log.h"
#include "core/options.h"
#include "platform/platform.h"

#include "pcmap/Format.h"
#include "pcmap/pcmap.h"

#include <elf.h>
#include <string.h>

namespace pcmap {
namespace rt {

using format::kFeatureFragmented;
using format::kFeatureHasAtomics;

namespace {

/// A fragment symbol while its function is looked for.
struct Candidate {
  uint32_t Start, Size; // offsets from TextLo
  uint32_t Name, BaseLength;
  uint64_t Group; // the symbol-table index of its file's STT_FILE symbol
  uint32_t Entry;
  uint8_t Rank; // 0: no function yet; 1: a global one; 2: a local one
  bool Ambiguous;
};

/// FNV-1a, 32 bits.
uint32_t hashName(const char *S, size_t N) {
  uint32_t H = 2166136261u;
  for (size_t I = 0; I < N; ++I)
    H = (H ^ uint8_t(S[I])) * 16777619u;
  return H;
}

constexpr uint64_t kNoFile = ~uint64_t(0);

struct SymbolScan {
  const char *Names;
  uint64_t NamesSize;
  uintptr_t Bias;
  const CodeRanges *Code;
  uint64_t Group = kNoFile; // the last STT_FILE symbol's index
  // Pass 1: count; pass 2: fill; pass 3: join.
  unsigned Pass = 1;
  Candidate *Candidates = nullptr;
  uint64_t Count = 0;
  const uint64_t *ByHash = nullptr; // (hash << 32 | candidate), sorted
};

/// The symbol's name, or null.
const char *nameOf(const SymbolScan &S, const ElfW(Sym) & Sym, size_t &Len) {
  if (Sym.st_name >= S.NamesSize)
    return nullptr;
  const char *N = S.Names + Sym.st_name;
  Len = strnlen(N, size_t(S.NamesSize - Sym.st_name));
  return Len ? N : nullptr;
}

/// The offset of a defined symbol that lies in the module's code.
bool codeOffset(const SymbolScan &S, const ElfW(Sym) & Sym, uint32_t &Off) {
  if (Sym.st_shndx == SHN_UNDEF || Sym.st_shndx >= SHN_LORESERVE ||
      !Sym.st_size)
    return false;
  uintptr_t A = S.Bias + Sym.st_value;
  if (!S.Code->contains(A, Sym.st_size))
    return false;
  Off = uint32_t(A - S.Code->TextLo);
  return true;
}

void joinFunction(SymbolScan &S, const ElfW(Sym) & Sym, uint64_t Group) {
  size_t Len;
  const char *Name = nameOf(S, Sym, Len);
  uint32_t Off;
  if (!Name || !codeOffset(S, Sym, Off))
    return;
  bool Global = ELF64_ST_BIND(Sym.st_info) != STB_LOCAL;
  uint64_t Key = uint64_t(hashName(Name, Len)) << 32;
  // The first candidate with this hash.
  uint64_t Lo = lowerBound(uint64_t(0), S.Count, Key, [&S](uint64_t I) {
    return S.ByHash[I] & ~0xffffffffull;
  });
  for (; Lo < S.Count && (S.ByHash[Lo] & ~0xffffffffull) == Key; ++Lo) {
    Candidate &C = S.Candidates[S.ByHash[Lo] & 0xffffffffu];
    if (C.BaseLength != Len || memcmp(S.Names + C.Name, Name, Len))
      continue;
    uint8_t Rank = Global ? 1 : Group == C.Group ? 2 : 0;
    if (!Rank || Rank < C.Rank)
      continue;
    if (Rank == C.Rank && C.Entry != Off)
      C.Ambiguous = true;
    else if (Rank > C.Rank)
      C.Ambiguous = false;
    C.Rank = Rank;
    C.Entry = Off;
  }
}

bool scanChunk(uint64_t First, const ElfW(Sym) * Syms, size_t N, void *Data) {
  SymbolScan &S = *static_cast<SymbolScan *>(Data);
  for (size_t I = 0; I < N; ++I) {
    const ElfW(Sym) &Sym = Syms[I];
    unsigned Type = ELF64_ST_TYPE(Sym.st_info);
    bool Local = ELF64_ST_BIND(Sym.st_info) == STB_LOCAL;
    if (Type == STT_FILE) {
      S.Group = First + I;
      continue;
    }
    if (S.Pass == 3) {
      if (Type == STT_FUNC)
        joinFunction(S, Sym, Local ? S.Group : kNoFile);
      continue;
    }
    // LLVM gives fragments local symbols without a type (basic-block
    // sections) or of type function.
    if (!Local || (Type != STT_NOTYPE && Type != STT_FUNC))
      continue;
    size_t Len;
    const char *Name = nameOf(S, Sym, Len);
    uint32_t Off;
    size_t Base = Name ? format::fragmentBaseLength(Name, Len) : 0;
    if (!Base || !codeOffset(S, Sym, Off))
      continue;
    if (S.Pass == 2) {
      Candidate &C = S.Candidates[S.Count];
      memset(&C, 0, sizeof(C));
      C.Start = Off;
      C.Size = uint32_t(Sym.st_size);
      C.Name = uint32_t(Sym.st_name);
      C.BaseLength = uint32_t(Base);
      C.Group = S.Group;
    }
    ++S.Count;
  }
  return true;
}

ScratchBuffer Items, SortScratch;

/// Items[0, N) sorted by their high words; null when out of memory.
uint64_t *sortItems(uint64_t *ItemsData, size_t N) {
  uint64_t *Tmp = SortScratch.get(N + kSortScratchExtra);
  if (!Tmp)
    return nullptr;
  sortByHighWord(ItemsData, Tmp, N);
  return ItemsData;
}

/// Reads the names of a symbol table, NUL-terminated, into Names; false if
/// they cannot be read.
bool readNames(int Fd, const ElfW(Shdr) & Strings, ArenaBlock &Names) {
  uint64_t Size = Strings.sh_size;
  if (Size > (uint64_t(1) << 30) || !Names.allocate(Size + 1) ||
      !readFileAt(Fd, Names.data(), Size, Strings.sh_offset))
    return false;
  Names.data<char>()[Size] = '\0';
  return true;
}

/// Finds the fragment symbols of the symbol table SymTab (scanChunk's
/// passes 1 and 2) and joins each to its function (pass 3): S.Count
/// candidates at S.Candidates, in Candidates. False if there are none, or
/// the file cannot be read or changed under us.
bool joinCandidates(int Fd, const ElfW(Shdr) & SymTab, SymbolScan &S,
                    ArenaBlock &Candidates) {
  if (!forEachSymbolChunk(Fd, SymTab, scanChunk, &S) || !S.Count ||
      S.Count > 0xffffffffu)
    return false;
  const uint64_t Count = S.Count;
  uint64_t *ByHash = Items.get(Count);
  if (!ByHash || !Candidates.allocate(Count * sizeof(Candidate)))
    return false;
  S.Candidates = Candidates.data<Candidate>();
  S.Pass = 2;
  S.Count = 0;
  S.Group = kNoFile;
  if (!forEachSymbolChunk(Fd, SymTab, scanChunk, &S) || S.Count != Count)
    return false; // the file changed under us
  for (uint64_t I = 0; I < Count; ++I) {
    const Candidate &C = S.Candidates[I];
    ByHash[I] = uint64_t(hashName(S.Names + C.Name, C.BaseLength)) << 32 | I;
  }
  if (!sortItems(ByHash, Count))
    return false;
  S.ByHash = ByHash;
  S.Pass = 3;
  S.Group = kNoFile;
  return forEachSymbolChunk(Fd, SymTab, scanChunk, &S);
}

/// The fragments of the candidates that joined one function, sorted by
/// entry, to Out; false if there are none or out of memory.
bool storeFragments(const SymbolScan &S, ModuleFragments &Out) {
  uint64_t *Order = Items.get(S.Count);
  if (!Order)
    return false;
  uint64_t Joined = 0;
  for (uint64_t I = 0; I < S.Count; ++I) {
    const Candidate &C = S.Candidates[I];
    if (C.Rank && !C.Ambiguous)
      Order[Joined++] = uint64_t(C.Entry) << 32 | I;
  }
  ArenaBlock Array;
  if (!Joined || !sortItems(Order, Joined) ||
      !Array.allocate(Joined * sizeof(Fragment)))
    return false;
  auto *F = Array.data<Fragment>();
  for (uint64_t I = 0; I < Joined; ++I) {
    const Candidate &C = S.Candidates[Order[I] & 0xffffffffu];
    Fragment Frag{C.Start, C.Size, C.Entry};
    arenaStore(&F[I], &Frag, sizeof(Frag));
  }
  Out.Array = Array.release();
  Out.Count = uint32_t(Joined);
  return true;
}

void readFromFile(int Fd, const char *Path, uintptr_t Bias,
                  const CodeRanges &Code, ModuleFragments &Out) {
  ElfFileSections Sections;
  if (!readElfSections(Fd, Sections))
    return;
  if (!Sections.SymTab.sh_size || !Sections.SymTabStrings.sh_size) {
    if (Verbosity >= 1) {
      Message M;
      M << "no symbol table in " << Path
        << ": the fragments of its split functions are unknown (PCs in them "
           "answer UNKNOWN)";
      M.emit();
    }
    return;
  }
  ArenaBlock Names, Candidates;
  if (!readNames(Fd, Sections.SymTabStrings, Names))
    return;
  SymbolScan S{Names.data<char>(), Sections.SymTabStrings.sh_size, Bias, &Code};
  if (!joinCandidates(Fd, Sections.SymTab, S, Candidates) ||
      !storeFragments(S, Out))
    return;
  if (Verbosity >= 2) {
    Message M;
    M << "found " << uint64_t(Out.Count) << " function fragments in " << Path;
    M.emit();
  }
}

/// Marks (NumAtomics = 1) the records of Records, in the order Order sorts
/// them (by start), that hold one of the sorted Atomics: one merge pass.
void markHolders(FunctionRecord *Records, const uint64_t *Order, uint64_t N,
                 const DecodedAtomics &Atomics) {
  // Writers read their own arrays directly.
  const auto *Offsets =
      static_cast<const uint32_t *>(arenaPointer(Atomics.Offsets));
  uint64_t A = 0;
  for (uint64_t I = 0; I < N && A < Atomics.Count; ++I) {
    FunctionRecord &R = Records[Order[I] & 0xffffffffu];
    while (A < Atomics.Count && Offsets[A] < R.Start)
      ++A;
    if (A < Atomics.Count && Offsets[A] - R.Start < R.Size)
      R.NumAtomics = 1;
  }
}

/// The fragments of the function whose entry is at Entry: [First, Last).
void fragmentsOf(const Fragment *F, uint32_t Count, uint32_t Entry,
                 uint32_t &First, uint32_t &Last) {
  uint32_t Lo = lowerBound(uint32_t(0), Count, Entry,
                           [F](uint32_t I) { return F[I].Entry; });
  First = Lo;
  while (Lo < Count && F[Lo].Entry == Entry)
    ++Lo;
  Last = Lo;
}

/// A functions section's records and the fragments of the functions that
/// may be split: the pieces of each function.
struct FunctionPieces {
  const FunctionRecord *In;
  uint32_t Count;
  const Fragment *Frags;
  uint32_t NumFrags;

  /// The fragments of In[I]: [From, To).
  void fragmentsOfRecord(uint32_t I, uint32_t &From, uint32_t &To) const {
    From = To = 0;
    if (In[I].Declared & kFeatureFragmented)
      fragmentsOf(Frags, NumFrags, In[I].Start, From, To);
  }
  /// The records and fragments.
  uint64_t count() const {
    uint64_t Total = Count;
    for (uint32_t I = 0; I < Count; ++I) {
      uint32_t From, To;
      fragmentsOfRecord(I, From, To);
      Total += To - From;
    }
    return Total;
  }
  /// Writes every record, each followed by its fragments' records, to Out,
  /// with NumAtomics 0 (scratch: whether the piece holds an atomic), and
  /// (start << 32 | index) of each to Order. Returns their number.
  uint64_t write(FunctionRecord *Out, uint64_t *Order) const {
    uint64_t N = 0;
    auto Append = [&](const FunctionRecord &R) {
      Order[N] = uint64_t(R.Start) << 32 | N;
      Out[N] = R;
      Out[N++].NumAtomics = 0;
    };
    for (uint32_t I = 0; I < Count; ++I) {
      Append(In[I]);
      uint32_t From, To;
      fragmentsOfRecord(I, From, To);
      for (uint32_t J = From; J < To; ++J) {
        FunctionRecord P{};
        P.Start = Frags[J].Start;
        P.Size = Frags[J].Size;
        P.Entry = In[I].Start;
        P.Source = PCMAP_SOURCE_PCMAP | PCMAP_SOURCE_FRAGMENT;
        P.Declared = In[I].Declared;
        Append(P);
      }
    }
    return N;
  }
};

/// A function that declares atomics has them if one of its pieces (which
/// follow one another in Pieces, marked by markHolders) holds one; then its
/// pieces without atomics are complete as they are. Clears the marks.
void settleAtomics(FunctionRecord *Pieces, uint64_t N) {
  for (uint64_t First = 0, End; First < N; First = End) {
    bool Any = Pieces[First].NumAtomics;
    for (End = First + 1;
         End < N && (Pieces[End].Source & PCMAP_SOURCE_FRAGMENT); ++End)
      Any |= Pieces[End].NumAtomics;
    for (uint64_t K = First; K < End; ++K) {
      if (Any && End - First > 1 && !Pieces[K].NumAtomics)
        Pieces[K].Declared &= ~uint32_t(kFeatureHasAtomics);
      Pieces[K].NumAtomics = 0;
    }
  }
}

/// Copies the pieces, in the order Order sorts them (by start), to Sorted,
/// but for a fragment that overlaps another record (the symbol table does
/// not describe what is loaded): never a wrong function. Returns the
/// records kept.
uint64_t keepDisjoint(const FunctionRecord *Pieces, const uint64_t *Order,
                      uint64_t N, FunctionRecord *Sorted) {
  uint64_t Kept = 0;
  for (uint64_t I = 0; I < N; ++I) {
    const FunctionRecord &R = Pieces[Order[I] & 0xffffffffu];
    bool IsFragment = R.Source & PCMAP_SOURCE_FRAGMENT;
    if (Kept) {
      const FunctionRecord &Prev = Sorted[Kept - 1];
      bool Overlaps =
          uint64_t(Prev.Start) + Prev.Size > R.Start || Prev.Start == R.Start;
      if (Overlaps && IsFragment)
        continue;
      if (Overlaps && (Prev.Source & PCMAP_SOURCE_FRAGMENT))
        --Kept;
    }
    arenaStore(&Sorted[Kept++], &R, sizeof(R));
  }
  return Kept;
}

} // namespace

void readFragments(const char *Path, uintptr_t Bias, const CodeRanges &Code,
                   ModuleFragments &Out) {
  Out.Read = true;
  int Fd = Path && *Path ? openForReading(Path) : -1;
  if (Fd < 0) {
    if (Verbosity >= 1) {
      Message M;
      M << "cannot read " << (Path ? Path : "")
        << ": the fragments of its split functions are unknown";
      M.emit();
    }
    return;
  }
  readFromFile(Fd, Path, Bias, Code, Out);
  closeFd(Fd);
}

void freeFragments(ModuleFragments &F) {
  if (F.Array)
    arenaFree(F.Array, uint64_t(F.Count) * sizeof(Fragment));
  F = ModuleFragments();
}

bool hasFragmentedFunctions(const DecodedFunctions &F) {
  const auto *R = static_cast<const FunctionRecord *>(arenaPointer(F.Records));
  for (uint32_t I = 0; I < F.Count; ++I)
    if (R[I].Declared & kFeatureFragmented)
      return true;
  return false;
}

bool addFragments(const DecodedFunctions &Section, const ModuleFragments &MF,
                  const DecodedAtomics *Atomics, unsigned NumAtomicSections,
                  DecodedFunctions &Out) {
  Out = DecodedFunctions();
  if (!MF.Count || !Section.Count)
    return false;
  const FunctionPieces P{
      static_cast<const FunctionRecord *>(arenaPointer(Section.Records)),
      Section.Count, static_cast<const Fragment *>(arenaPointer(MF.Array)),
      MF.Count};
  uint64_t Total = P.count();
  if (Total == Section.Count || Total > 0xffffffffu)
    return false;
  // The records in section order, each function followed by its fragments;
  // then sorted by start.
  ArenaBlock Unsorted, Records;
  uint64_t *Order = Items.get(Total);
  if (!Order || !Unsorted.allocate(Total * sizeof(FunctionRecord)))
    return false;
  FunctionRecord *Pieces = Unsorted.data<FunctionRecord>();
  uint64_t N = P.write(Pieces, Order);
  if (!sortItems(Order, N))
    return false;
  for (unsigned J = 0; J < NumAtomicSections; ++J)
    markHolders(Pieces, Order, N, Atomics[J]);
  settleAtomics(Pieces, N);
  if (!Records.allocate(N * sizeof(FunctionRecord)))
    return false;
  Out.Count =
      uint32_t(keepDisjoint(Pieces, Order, N, Records.data<FunctionRecord>()));
  Out.Capacity = uint32_t(N);
  Out.Records = Records.release();
  return true;
}

} // namespace rt
} // namespace pcmap
