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

void note(std::map<std::pair<uint64_t, std::string>, NamedFunction> &Names,
          uint64_t Group, StringRef Name, CodeAddress At) {
  auto [It, New] = Names.try_emplace({Group, Name.str()}, NamedFunction{At});
  if (!New && (It->second.At < At || At < It->second.At))
    It->second.Ambiguous = true;
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

  constexpr uint64_t kGlobal = ~uint64_t(0);
  std::map<std::pair<uint64_t, std::string>, NamedFunction> Functions;
  struct Piece {
    uint64_t Group;
    CodeAddress At;
    uint64_t Size;
    StringRef Name;
    size_t BaseLength;
  };
  std::vector<Piece> Pieces;
  uint64_t Group = kGlobal, Index = 0;
  for (const ELFSymbolRef &Sym : ELFBase->symbols()) {
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
    if (*Sec == Object->section_end())
      continue;
    CodeAddress At{*Addr, Relocatable ? (*Sec)->getIndex() : kNoSection};
    bool Local = Sym.getBinding() == ELF::STB_LOCAL;
    if (Type == ELF::STT_FUNC)
      note(Functions, Local ? Group : kGlobal, *Name, At);
    size_t Base = format::fragmentBaseLength(Name->data(), Name->size());
    if (Local && Base && Sym.getSize())
      Pieces.push_back({Group, At, Sym.getSize(), *Name, Base});
  }

  // Each fragment to its function, and the fragments in address order for
  // the atomics: (start, function, fragment).
  std::vector<std::tuple<CodeAddress, uint32_t, uint32_t>> ByAddress;
  for (const Piece &P : Pieces) {
    StringRef Base = P.Name.take_front(P.BaseLength);
    auto It = Functions.find({P.Group, Base.str()});
    if (It == Functions.end())
      It = Functions.find({kGlobal, Base.str()});
    if (It == Functions.end() || It->second.Ambiguous)
      continue;
    CodeAddress Entry = It->second.At;
    auto F = llvm::lower_bound(Fs, Entry,
                               [](const FunctionInfo &F, const CodeAddress &K) {
                                 return CodeAddress{F.Address, F.Section} < K;
                               });
    if (F == Fs.end() || F->Address != Entry.Address ||
        F->Section != Entry.Section ||
        !(F->Features & format::kFeatureFragmented))
      continue;
    FunctionFragment Frag;
    Frag.Address = P.At.Address;
    Frag.Section = P.At.Section;
    Frag.Size = P.Size;
    Frag.Name = P.Name.str();
    F->Fragments.push_back(std::move(Frag));
  }
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
  llvm::sort(ByAddress, [](const auto &A, const auto &B) {
    return std::get<0>(A) < std::get<0>(B);
  });

  for (AtomicSite &A : Report.Atomics) {
    if (A.Function != kNoFunction)
      continue;
    CodeAddress PC{A.Address, A.Section};
    auto It = llvm::upper_bound(
        ByAddress, PC,
        [](const CodeAddress &K, const auto &E) { return K < std::get<0>(E); });
    if (It == ByAddress.begin())
      continue;
    --It;
    FunctionInfo &F = Fs[std::get<1>(*It)];
    FunctionFragment &Frag = F.Fragments[std::get<2>(*It)];
    if (Frag.Section != A.Section || A.Address - Frag.Address >= Frag.Size)
      continue;
    A.Function = std::get<1>(*It);
    ++F.NumAtomics;
    ++F.AtomicsByKind[A.HasDescriptor ? unsigned(A.Descriptor.Kind)
                                      : unsigned(KC_Unknown)];
    ++Frag.NumAtomics;
    if (Options.AtomicDetails) {
      A.Symbol = Frag.Name;
      A.SymbolOffset = A.Address - Frag.Address;
    }
  }
}

} // namespace report
} // namespace pcmap
