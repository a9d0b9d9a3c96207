//===- ReaderFragments.cpp - The fragments of split functions -------------===//
//
// A function compiled with -fbasic-block-sections=all|list= or
// -fsplit-machine-functions has fragments the linker places anywhere; its
// entry (kFeatureFragmented) covers the first. The others are local symbols
// "<function>.__part.<N>", ".cold", ".eh" (format::fragmentBaseLength),
// joined to the function symbol of the same name, in the same file's local
// symbols or else a global one, as the runtime does (rt/core/fragments.h);
// an ambiguous name is left out. The function's size and atomics then count
// every fragment.
//
//===----------------------------------------------------------------------===//

#include "Reader.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/BinaryFormat/ELF.h"

#include <map>
#include <tuple>

using namespace llvm;
using namespace llvm::object;

namespace pcmap {
namespace report {

namespace {

/// Where a function symbol of a name is, or that there are several.
struct NamedFunction {
  CodeAddress At;
  bool Ambiguous = false;
};

/// The symbol group of global symbols; a local symbol's group is the index
/// of the STT_FILE symbol before it, so that the static functions of two
/// translation units do not collide.
constexpr uint64_t kGlobal = ~uint64_t(0);

/// Function symbols by (group, name).
using FunctionsByName =
    std::map<std::pair<uint64_t, std::string>, NamedFunction>;

void note(FunctionsByName &Names, uint64_t Group, StringRef Name,
          CodeAddress At) {
  auto [It, New] = Names.try_emplace({Group, Name.str()}, NamedFunction{At});
  if (!New && (It->second.At < At || At < It->second.At))
    It->second.Ambiguous = true;
}

/// A local symbol named as a fragment ("<function>.cold", ...).
struct FragmentSymbol {
  uint64_t Group;
  CodeAddress At;
  uint64_t Size;
  StringRef Name;
  size_t BaseLength; // of "<function>"
};

/// The fragment symbols, and the function symbols they may belong to, each
/// with its group: one walk over the symbol table.
void collectFragmentSymbols(const ELFObjectFileBase &File, bool Relocatable,
                            FunctionsByName &Functions,
                            std::vector<FragmentSymbol> &Fragments) {
  uint64_t Group = kGlobal, Index = 0;
  for (const ELFSymbolRef &Sym : File.symbols()) {
    ++Index;
    uint8_t Type = Sym.getELFType();
    if (Type == ELF::STT_FILE) {
      Group = Index;
      continue;
    }
    if (Type != ELF::STT_FUNC && Type != ELF::STT_NOTYPE)
      continue;
    Expected<section_iterator> Sec = Sym.getSection();
    Expected<StringRef> Name = Sym.getName();
    Expected<uint64_t> Addr = Sym.getAddress();
    if (!Sec || !Name || !Addr) {
      consumeError(Sec.takeError());
      consumeError(Name.takeError());
      consumeError(Addr.takeError());
      continue;
    }
    if (*Sec == File.section_end())
      continue;
    CodeAddress At{*Addr, Relocatable ? (*Sec)->getIndex() : kNoSection};
    bool Local = Sym.getBinding() == ELF::STB_LOCAL;
    if (Type == ELF::STT_FUNC)
      note(Functions, Local ? Group : kGlobal, *Name, At);
    size_t Base = format::fragmentBaseLength(Name->data(), Name->size());
    if (Local && Base && Sym.getSize())
      Fragments.push_back({Group, At, Sym.getSize(), *Name, Base});
  }
}

/// The split function a fragment belongs to: the function symbol of its
/// base name in its group, or else a global one, if that names one
/// function entry that says it is fragmented.
FunctionInfo *functionOf(const FragmentSymbol &Frag,
                         const FunctionsByName &Functions,
                         std::vector<FunctionInfo> &Fs) {
  StringRef Base = Frag.Name.take_front(Frag.BaseLength);
  auto It = Functions.find({Frag.Group, Base.str()});
  if (It == Functions.end())
    It = Functions.find({kGlobal, Base.str()});
  if (It == Functions.end() || It->second.Ambiguous)
    return nullptr;
  CodeAddress Entry = It->second.At;
  auto F = llvm::lower_bound(Fs, Entry,
                             [](const FunctionInfo &F, const CodeAddress &K) {
                               return CodeAddress{F.Address, F.Section} < K;
                             });
  if (F == Fs.end() || F->Address != Entry.Address ||
      F->Section != Entry.Section ||
      !(F->Features & format::kFeatureFragmented))
    return nullptr;
  return &*F;
}

/// A fragment by its start: (start, function, fragment) indexes.
using PlacedFragment = std::tuple<CodeAddress, uint32_t, uint32_t>;

/// Sorts each function's fragments by address, adds their sizes to the
/// function's, and returns every fragment in address order.
std::vector<PlacedFragment> placeFragments(std::vector<FunctionInfo> &Fs) {
  std::vector<PlacedFragment> ByAddress;
  for (uint32_t I = 0; I < Fs.size(); ++I) {
    FunctionInfo &F = Fs[I];
    llvm::sort(F.Fragments,
               [](const FunctionFragment &A, const FunctionFragment &B) {
                 return CodeAddress{A.Address, A.Section} <
                        CodeAddress{B.Address, B.Section};
               });
    for (uint32_t J = 0; J < F.Fragments.size(); ++J) {
      F.Size += F.Fragments[J].Size;
      ByAddress.emplace_back(
          CodeAddress{F.Fragments[J].Address, F.Fragments[J].Section}, I, J);
    }
  }
  llvm::sort(ByAddress, [](const PlacedFragment &A, const PlacedFragment &B) {
    return std::get<0>(A) < std::get<0>(B);
  });
  return ByAddress;
}

/// Counts the atomic sites no function entry holds against the fragment
/// that does, and its function; with Details, names the site after the
/// fragment's symbol.
void countFragmentAtomics(ArrayRef<PlacedFragment> ByAddress,
                          BinaryReport &Report, bool Details) {
  for (AtomicSite &A : Report.Atomics) {
    if (A.Function != kNoFunction)
      continue;
    CodeAddress PC{A.Address, A.Section};
    auto It = llvm::upper_bound(
        ByAddress, PC, [](const CodeAddress &K, const PlacedFragment &E) {
          return K < std::get<0>(E);
        });
    if (It == ByAddress.begin())
      continue;
    --It;
    FunctionInfo &F = Report.Functions[std::get<1>(*It)];
    FunctionFragment &Frag = F.Fragments[std::get<2>(*It)];
    if (Frag.Section != A.Section || A.Address - Frag.Address >= Frag.Size)
      continue;
    A.Function = std::get<1>(*It);
    ++F.NumAtomics;
    ++F.AtomicsByKind[A.HasDescriptor ? unsigned(A.Descriptor.Kind)
                                      : unsigned(KC_Unknown)];
    ++Frag.NumAtomics;
    if (Details) {
      A.Symbol = Frag.Name;
      A.SymbolOffset = A.Address - Frag.Address;
    }
  }
}

} // namespace

void Reader::joinFragments() {
  std::vector<FunctionInfo> &Fs = Report.Functions;
  for (FunctionInfo &F : Fs)
    F.EntrySize = F.Size;
  if (llvm::none_of(Fs, [](const FunctionInfo &F) {
        return F.Features & format::kFeatureFragmented;
      }))
    return;
  FunctionsByName Functions;
  std::vector<FragmentSymbol> Symbols;
  collectFragmentSymbols(*ELFBase, Relocatable, Functions, Symbols);
  for (const FragmentSymbol &Sym : Symbols) {
    FunctionInfo *F = functionOf(Sym, Functions, Fs);
    if (!F)
      continue;
    FunctionFragment Frag;
    Frag.Address = Sym.At.Address;
    Frag.Section = Sym.At.Section;
    Frag.Size = Sym.Size;
    Frag.Name = Sym.Name.str();
    F->Fragments.push_back(std::move(Frag));
  }
  countFragmentAtomics(placeFragments(Fs), Report, Options.AtomicDetails);
}

} // namespace report
} // namespace pcmap
