//===- fragments.cpp - The fragments of split functions -------------------===//

#include "core/fragments.h"

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
  uint64_t Group; // the last STT_FILE symbol's index
  // Pass 1: count; pass 2: fill; pass 3: join.
  unsigned Pass;
  Candidate *Candidates;
  uint64_t Count;
  const uint64_t *ByHash; // (hash << 32 | candidate), sorted
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
  uint64_t Lo = 0, Hi = S.Count;
  while (Lo < Hi) {
    uint64_t Mid = Lo + (Hi - Lo) / 2;
    if ((S.ByHash[Mid] & ~0xffffffffull) < Key)
      Lo = Mid + 1;
    else
      Hi = Mid;
  }
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
  uint64_t *Tmp = SortScratch.get(N);
  if (!Tmp)
    return nullptr;
  sortByHighWord(ItemsData, Tmp, N);
  return ItemsData;
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
  uint64_t NamesSize = Sections.SymTabStrings.sh_size;
  if (NamesSize > (uint64_t(1) << 30))
    return;
  ArenaBuffer NamesBuf, CandidatesBuf;
  auto *Names = static_cast<char *>(NamesBuf.get(NamesSize + 1));
  if (!Names ||
      !readFileAt(Fd, Names, NamesSize, Sections.SymTabStrings.sh_offset))
    return;
  Names[NamesSize] = '\0';
  SymbolScan S{Names, NamesSize, Bias, &Code, kNoFile, 1, nullptr, 0, nullptr};
  if (!forEachSymbolChunk(Fd, Sections.SymTab, scanChunk, &S) || !S.Count ||
      S.Count > 0xffffffffu)
    return;
  uint64_t Count = S.Count;
  S.Candidates =
      static_cast<Candidate *>(CandidatesBuf.get(Count * sizeof(Candidate)));
  uint64_t *ByHash = Items.get(Count);
  if (!S.Candidates || !ByHash)
    return;
  S.Pass = 2;
  S.Count = 0;
  S.Group = kNoFile;
  if (!forEachSymbolChunk(Fd, Sections.SymTab, scanChunk, &S) ||
      S.Count != Count)
    return; // the file changed under us
  for (uint64_t I = 0; I < Count; ++I) {
    const Candidate &C = S.Candidates[I];
    ByHash[I] = uint64_t(hashName(Names + C.Name, C.BaseLength)) << 32 | I;
  }
  if (!sortItems(ByHash, Count))
    return;
  S.ByHash = ByHash;
  S.Pass = 3;
  S.Group = kNoFile;
  if (!forEachSymbolChunk(Fd, Sections.SymTab, scanChunk, &S))
    return;

  uint64_t Joined = 0;
  for (uint64_t I = 0; I < Count; ++I) {
    const Candidate &C = S.Candidates[I];
    if (C.Rank && !C.Ambiguous)
      ByHash[Joined++] = uint64_t(C.Entry) << 32 | I;
  }
  if (!Joined || !sortItems(ByHash, Joined))
    return;
  ArenaOffset Array = arenaAllocate(Joined * sizeof(Fragment));
  if (!Array)
    return;
  auto *F = static_cast<Fragment *>(arenaWritable(Array));
  for (uint64_t I = 0; I < Joined; ++I) {
    const Candidate &C = S.Candidates[ByHash[I] & 0xffffffffu];
    Fragment Frag{C.Start, C.Size, C.Entry};
    arenaStore(&F[I], &Frag, sizeof(Frag));
  }
  Out.Array = Array;
  Out.Count = uint32_t(Joined);
  if (Verbosity >= 2) {
    Message M;
    M << "found " << uint64_t(Joined) << " function fragments in " << Path;
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
  uint32_t Lo = 0, Hi = Count;
  while (Lo < Hi) {
    uint32_t Mid = Lo + (Hi - Lo) / 2;
    if (F[Mid].Entry < Entry)
      Lo = Mid + 1;
    else
      Hi = Mid;
  }
  First = Lo;
  while (Lo < Count && F[Lo].Entry == Entry)
    ++Lo;
  Last = Lo;
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
  const auto *In =
      static_cast<const FunctionRecord *>(arenaPointer(Section.Records));
  const auto *Frags = static_cast<const Fragment *>(arenaPointer(MF.Array));
  uint64_t Total = Section.Count;
  for (uint32_t I = 0; I < Section.Count; ++I) {
    if (!(In[I].Declared & kFeatureFragmented))
      continue;
    uint32_t First, Last;
    fragmentsOf(Frags, MF.Count, In[I].Start, First, Last);
    Total += Last - First;
  }
  if (Total == Section.Count || Total > 0xffffffffu)
    return false;

  // The records in section order, each function followed by its fragments;
  // then sorted by start.
  ArenaBuffer UnsortedBuf;
  auto *Unsorted = static_cast<FunctionRecord *>(
      UnsortedBuf.get(Total * sizeof(FunctionRecord)));
  uint64_t *Order = Items.get(Total);
  if (!Unsorted || !Order)
    return false;
  uint64_t N = 0;
  for (uint32_t I = 0; I < Section.Count; ++I) {
    auto Append = [&](const FunctionRecord &R) {
      Order[N] = uint64_t(R.Start) << 32 | N;
      Unsorted[N] = R;
      Unsorted[N++].NumAtomics = 0; // scratch: whether it holds an atomic
    };
    Append(In[I]);
    uint32_t From = 0, To = 0;
    if (In[I].Declared & kFeatureFragmented)
      fragmentsOf(Frags, MF.Count, In[I].Start, From, To);
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
  if (!sortItems(Order, N))
    return false;
  for (unsigned J = 0; J < NumAtomicSections; ++J)
    markHolders(Unsorted, Order, N, Atomics[J]);
  // A function that declares atomics has them if one of its pieces (which
  // follow one another in Unsorted) holds one; then its pieces without
  // atomics are complete as they are.
  for (uint64_t First = 0, End; First < N; First = End) {
    bool Any = Unsorted[First].NumAtomics;
    for (End = First + 1;
         End < N && (Unsorted[End].Source & PCMAP_SOURCE_FRAGMENT); ++End)
      Any |= Unsorted[End].NumAtomics;
    for (uint64_t K = First; K < End; ++K) {
      if (Any && End - First > 1 && !Unsorted[K].NumAtomics)
        Unsorted[K].Declared &= ~uint32_t(kFeatureHasAtomics);
      Unsorted[K].NumAtomics = 0;
    }
  }
  ArenaOffset Records = arenaAllocate(N * sizeof(FunctionRecord));
  if (!Records)
    return false;
  auto *Sorted = static_cast<FunctionRecord *>(arenaWritable(Records));
  // A fragment that overlaps another record (the symbol table does not
  // describe what is loaded) is left out: never a wrong function.
  uint64_t Kept = 0;
  for (uint64_t I = 0; I < N; ++I) {
    const FunctionRecord &R = Unsorted[Order[I] & 0xffffffffu];
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
  Out.Records = Records;
  Out.Count = uint32_t(Kept);
  Out.Capacity = uint32_t(N);
  return true;
}

} // namespace rt
} // namespace pcmap
