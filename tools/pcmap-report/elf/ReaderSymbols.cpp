//===- ReaderSymbols.cpp - Function symbols and the names they give -------===//
//
// The STT_FUNC and STT_GNU_IFUNC symbols of the file (.symtab, or .dynsym
// when stripped), sorted by place and rank, name the functions and the
// atomic sites of the report.
//
//===----------------------------------------------------------------------===//

#include "Reader.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/BinaryFormat/ELF.h"

#include <tuple>

using namespace llvm;
using namespace llvm::object;

namespace pcmap {
namespace report {

Error Reader::collectSymbols() {
  auto Add = [&](const ELFSymbolRef &Sym) -> Error {
    uint8_t Type = Sym.getELFType();
    if (Type != ELF::STT_FUNC && Type != ELF::STT_GNU_IFUNC)
      return Error::success();
    Expected<section_iterator> SecOrErr = Sym.getSection();
    if (!SecOrErr) {
      // A symbol with a bad section index names nothing we can use.
      consumeError(SecOrErr.takeError());
      return Error::success();
    }
    if (*SecOrErr == Object->section_end())
      return Error::success(); // undefined or absolute
    Expected<StringRef> NameOrErr = Sym.getName();
    Expected<uint64_t> AddrOrErr = Sym.getAddress();
    if (!NameOrErr || !AddrOrErr) {
      if (!NameOrErr)
        return malformed("symbol: " + toString(NameOrErr.takeError()));
      return malformed("symbol: " + toString(AddrOrErr.takeError()));
    }
    unsigned Binding = Sym.getBinding();
    unsigned Rank =
        (Type == ELF::STT_FUNC ? 0 : 4) + (Binding == ELF::STB_GLOBAL ? 0
                                           : Binding == ELF::STB_WEAK ? 1
                                                                      : 2);
    Symbols.push_back({Relocatable ? (*SecOrErr)->getIndex() : kNoSection,
                       *AddrOrErr, Sym.getSize(), *NameOrErr, Rank});
    return Error::success();
  };
  for (const ELFSymbolRef &Sym : ELFBase->symbols())
    if (Error E = Add(Sym))
      return E;
  if (Symbols.empty()) // stripped: the dynamic symbols are what is left
    for (const ELFSymbolRef &Sym : ELFBase->getDynamicSymbolIterators())
      if (Error E = Add(Sym))
        return E;
  llvm::sort(Symbols, [](const FunctionSymbol &A, const FunctionSymbol &B) {
    return std::tie(A.Section, A.Address, A.Rank, A.Name) <
           std::tie(B.Section, B.Address, B.Rank, B.Name);
  });
  return Error::success();
}

void Reader::functionsFromSymbols() {
  // Symbols are sorted by place, then rank: the first at a place names it.
  for (const FunctionSymbol &S : Symbols) {
    CodeAddress PC;
    PC.Address = S.Address;
    PC.Section = S.Section;
    if (!S.Size || !Code.contains(PC, S.Size))
      continue;
    std::vector<FunctionInfo> &Fs = Report.Functions;
    if (!Fs.empty() && Fs.back().Section == S.Section &&
        Fs.back().Address == S.Address)
      continue;
    Fs.emplace_back();
    FunctionInfo &F = Fs.back();
    F.Address = S.Address;
    F.Section = S.Section;
    F.Size = F.EntrySize = S.Size;
    F.Name = S.Name.str();
    F.Sources = FromSymbolTable;
  }
}

const FunctionSymbol *Reader::symbolAt(uint64_t Section, uint64_t Address,
                                       uint64_t Size) const {
  auto It = llvm::lower_bound(
      Symbols, std::make_pair(Section, Address),
      [](const FunctionSymbol &S, const std::pair<uint64_t, uint64_t> &K) {
        return std::make_pair(S.Section, S.Address) < K;
      });
  const FunctionSymbol *Best = nullptr;
  for (;
       It != Symbols.end() && It->Section == Section && It->Address == Address;
       ++It) {
    if (It->Size == Size)
      return &*It; // the best-ranked alias of the right size
    if (!Best)
      Best = &*It;
  }
  return Best;
}

const FunctionSymbol *Reader::symbolHolding(uint64_t Section,
                                            uint64_t Address) const {
  auto It = llvm::upper_bound(
      Symbols, std::make_pair(Section, Address),
      [](const std::pair<uint64_t, uint64_t> &K, const FunctionSymbol &S) {
        return K < std::make_pair(S.Section, S.Address);
      });
  // Symbols rarely nest; look at a few before the address.
  for (unsigned N = 0; N < 8 && It != Symbols.begin(); ++N) {
    --It;
    if (It->Section != Section)
      break;
    if (Address - It->Address < It->Size)
      return &*It;
  }
  return nullptr;
}

void Reader::nameFunctions() {
  for (FunctionInfo &F : Report.Functions)
    if (const FunctionSymbol *S = symbolAt(F.Section, F.Address, F.Size))
      F.Name = S->Name.str();
  if (!Options.AtomicDetails)
    return;
  for (AtomicSite &A : Report.Atomics) {
    if (A.Function != kNoFunction &&
        !Report.Functions[A.Function].Name.empty()) {
      const FunctionInfo &F = Report.Functions[A.Function];
      A.Symbol = F.Name;
      A.SymbolOffset = A.Address - F.Address;
    } else if (const FunctionSymbol *S = symbolHolding(A.Section, A.Address)) {
      A.Symbol = S->Name.str();
      A.SymbolOffset = A.Address - S->Address;
    }
  }
}

} // namespace report
} // namespace pcmap
