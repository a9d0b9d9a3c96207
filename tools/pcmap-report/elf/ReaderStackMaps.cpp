//===- ReaderStackMaps.cpp - .llvm_stackmaps into the report --------------===//
//
// Decodes every blob of the stack map section with pcmap/StackMap.h, resolves
// the function address fields through the relocations that fill them, sizes
// and names the functions (pcmap's function table, then symbols) and reads
// each record's call site from the code (CallSites.cpp).
//
//===----------------------------------------------------------------------===//

#include "CallSites.h"
#include "Reader.h"
#include "Text.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/RelocationResolver.h"

#include <algorithm>
#include <tuple>

using namespace llvm;
using namespace llvm::object;

namespace pcmap {
namespace report {

namespace {

/// The relocations that fill a function address field.
uint32_t absolute64Relocation(uint16_t Machine) {
  if (Machine == ELF::EM_X86_64)
    return ELF::R_X86_64_64;
  return ELF::R_AARCH64_ABS64;
}
uint32_t relativeRelocation(uint16_t Machine) {
  if (Machine == ELF::EM_X86_64)
    return ELF::R_X86_64_RELATIVE;
  return ELF::R_AARCH64_RELATIVE;
}

} // namespace

/// The function address fields of .llvm_stackmaps are absolute (R_X86_64_64,
/// R_AARCH64_ABS64). In a relocatable object a relocation says where they
/// point; in a PIE or shared object linked with -z notext a dynamic
/// relocation (RELATIVE, or absolute against a symbol) fills them at load
/// time and the field itself may hold 0. Out maps the field's offset in the
/// section to the address it holds after relocation.
Error Reader::stackMapAddresses(const SectionRef &Section,
                                ArrayRef<uint8_t> Bytes,
                                StackMapAddresses &Out) {
  if (Relocatable)
    return relocatedStackMapAddresses(Section, Bytes, Out);
  return dynamicStackMapAddresses(Section, Bytes, Out);
}

Error Reader::relocatedStackMapAddresses(const SectionRef &Section,
                                         ArrayRef<uint8_t> Bytes,
                                         StackMapAddresses &Out) {
  uint32_t Abs64 = absolute64Relocation(ELFBase->getEMachine());
  // Not auto [Supports, Resolver]: a C++17 lambda cannot capture those.
  SupportsRelocation Supports;
  RelocationResolver Resolver;
  std::tie(Supports, Resolver) = getRelocationResolver(*Object);
  return forEachRelocation(Section, [&](const RelocationRef &R) -> Error {
    uint64_t Offset = R.getOffset();
    if (R.getType() != Abs64 || !Supports || !Supports(R.getType()))
      return Error::success(); // not a function address; unresolved
    if (Offset > Bytes.size() || Bytes.size() - Offset < 8)
      return malformed(Section, "relocation at offset " + hexAddress(Offset) +
                                    " lies outside the section");
    uint64_t SymSection, Value;
    if (Error E = relocationSymbol(R, SymSection, Value)) {
      consumeError(std::move(E)); // no defined symbol: unresolved
      return Error::success();
    }
    uint64_t Target = resolveRelocation(Resolver, R, Value, 0);
    Out[Offset] = CodeAddress{Target, SymSection};
    return Error::success();
  });
}

Error Reader::dynamicStackMapAddresses(const SectionRef &Section,
                                       ArrayRef<uint8_t> Bytes,
                                       StackMapAddresses &Out) {
  const ELFFile<ELF64LE> &EF = ELF->getELFFile();
  uint64_t Begin = Section.getAddress(), End = Begin + Bytes.size();
  uint16_t Machine = ELFBase->getEMachine();
  uint32_t Abs64 = absolute64Relocation(Machine);
  uint32_t Relative = relativeRelocation(Machine);
  Expected<ELF64LE::ShdrRange> Sections = EF.sections();
  if (!Sections)
    return malformed(toString(Sections.takeError()));
  for (const ELF64LE::Shdr &Sec : *Sections) {
    if (Sec.sh_type != ELF::SHT_RELA)
      continue;
    Expected<ELF64LE::RelaRange> Relas = EF.relas(Sec);
    if (!Relas)
      return malformed(toString(Relas.takeError()));
    Expected<const ELF64LE::Shdr *> SymTab = EF.getSection(Sec.sh_link);
    for (const ELF64LE::Rela &R : *Relas) {
      uint64_t Where = R.r_offset;
      if (Where < Begin || Where >= End || End - Where < 8)
        continue;
      uint32_t Type = R.getType(false);
      if (Type == Relative) {
        Out[Where - Begin] = CodeAddress{uint64_t(R.r_addend), kNoSection};
      } else if (Type == Abs64 && SymTab) {
        Expected<const ELF64LE::Sym *> Sym = EF.getRelocationSymbol(R, *SymTab);
        if (!Sym) {
          consumeError(Sym.takeError());
          continue;
        }
        if (*Sym && (*Sym)->st_shndx != ELF::SHN_UNDEF)
          Out[Where - Begin] =
              CodeAddress{(*Sym)->st_value + uint64_t(R.r_addend), kNoSection};
      }
    }
    if (!SymTab)
      consumeError(SymTab.takeError());
  }
  return Error::success();
}

/// Function sizes: pcmap's function table first, then symbols.
void Reader::sizeStackMapFunction(StackMapFunction &F) const {
  auto It =
      llvm::lower_bound(Report.Functions, CodeAddress{F.Address, F.Section},
                        [](const FunctionInfo &I, const CodeAddress &K) {
                          return CodeAddress{I.Address, I.Section} < K;
                        });
  if (It != Report.Functions.end() && It->Address == F.Address &&
      It->Section == F.Section && (It->Sources & FromPCMap)) {
    F.Size = It->Size;
    F.SizeFrom = SizeSource::PCMap;
    F.Name = It->Name;
    return;
  }
  if (const FunctionSymbol *S = symbolAt(F.Section, F.Address, 0)) {
    F.Name = S->Name.str();
    if (S->Size) {
      F.Size = S->Size;
      F.SizeFrom = SizeSource::Symbol;
    }
  }
}

/// Function I of the blob at BlobOffset, its address resolved, sized and
/// named.
StackMapFunction
Reader::stackMapFunction(const stackmap::Section &S, uint32_t I,
                         uint64_t BlobOffset,
                         const StackMapAddresses &Addresses) const {
  stackmap::Function SF = S.function(I);
  StackMapFunction F;
  F.StoredAddress = SF.Address;
  F.StackSize = SF.StackSize;
  F.RecordCount = SF.RecordCount;
  F.FirstRecord = S.NumRecords;
  uint64_t Field = BlobOffset + stackmap::kHeaderSize +
                   uint64_t(I) * stackmap::functionRecordSize(S.Version);
  auto It = Addresses.find(Field);
  if (It != Addresses.end()) {
    F.Address = It->second.Address;
    F.Section = It->second.Section;
  } else {
    F.Address = SF.Address;
    F.Section = kNoSection;
    // A relocatable object's address field means nothing without a
    // relocation.
    F.Resolved = !Relocatable;
  }
  if (F.Resolved)
    sizeStackMapFunction(F);
  return F;
}

/// Record SR of blob B, with its PC when its function is known; the
/// function's first record moves to it when it comes earlier.
StackMapRecord Reader::stackMapRecord(const stackmap::Record &SR,
                                      StackMapBlob &B) const {
  StackMapRecord R;
  R.ID = SR.ID;
  R.InstructionOffset = SR.InstructionOffset;
  R.Flags = SR.Flags;
  for (unsigned L = 0; L < SR.NumLocations; ++L) {
    stackmap::Location Loc = SR.location(L);
    R.Locations.push_back({Loc.Kind, Loc.Size, Loc.DwarfReg, Loc.Offset});
  }
  for (unsigned L = 0; L < SR.NumLiveOuts; ++L) {
    stackmap::LiveOut LO = SR.liveOut(L);
    R.LiveOuts.push_back({LO.DwarfReg, LO.Size});
  }
  if (SR.FunctionIndex != stackmap::kUnknownFunction) {
    R.Function = SR.FunctionIndex;
    StackMapFunction &F = B.Functions[SR.FunctionIndex];
    F.FirstRecord = std::min(F.FirstRecord, SR.Index);
    if (F.Resolved) {
      R.PC = F.Address + SR.InstructionOffset;
      R.Section = F.Section;
    }
  }
  return R;
}

StackMapBlob Reader::decodeStackMapBlob(const stackmap::Section &S,
                                        uint64_t Offset,
                                        const StackMapAddresses &Addresses) {
  StackMapBlob B;
  B.SectionOffset = Offset;
  B.Version = S.Version;
  for (uint32_t I = 0; I < S.NumFunctions; ++I)
    B.Functions.push_back(stackMapFunction(S, I, Offset, Addresses));
  for (uint32_t I = 0; I < S.NumConstants; ++I)
    B.Constants.push_back(S.constant(I));
  stackmap::Record SR;
  for (stackmap::RecordIterator It = S.records(); It.next(SR);)
    B.Records.push_back(stackMapRecord(SR, B));
  return B;
}

/// Call sites, once the records of every function are known: a patchable
/// region ends at the next record of its function at the latest (a
/// patchpoint's nops may be followed by another's).
void Reader::findCallSites(const CallSiteAnalyzer &Analyzer, StackMapBlob &B) {
  for (StackMapRecord &R : B.Records) {
    if (R.Function == kNoFunction || !B.Functions[R.Function].Resolved)
      continue;
    const StackMapFunction &F = B.Functions[R.Function];
    ArrayRef<uint8_t> Code = functionCode(F);
    uint64_t Limit = Code.size();
    for (const StackMapRecord &Other : B.Records)
      if (Other.Function == R.Function &&
          Other.InstructionOffset > R.InstructionOffset &&
          Other.InstructionOffset < Limit)
        Limit = Other.InstructionOffset;
    Analyzer.analyze(Code.take_front(Limit), F.Address, R.InstructionOffset,
                     R.CallKind, R.CallSize);
  }
}

Error Reader::decodeStackMaps() {
  const SectionRef &Section = *StackMapSection;
  ArrayRef<uint8_t> Bytes;
  if (Error E = sectionBytes(Section, Bytes))
    return E;
  StackMapAddresses Addresses;
  if (Error E = stackMapAddresses(Section, Bytes, Addresses))
    return E;
  std::string Why;
  std::unique_ptr<CallSiteAnalyzer> Analyzer =
      CallSiteAnalyzer::create(Object->makeTriple(), Why);
  size_t Offset = 0;
  while (Offset < Bytes.size()) {
    stackmap::Section S;
    const char *Err = "invalid stack map";
    if (!stackmap::parse(Bytes.data() + Offset, Bytes.size() - Offset, S, &Err))
      return malformed(Section,
                       Twine(Err) + (Offset ? " (in the stack map at offset " +
                                                  hexAddress(Offset) + ")"
                                            : Twine()));
    StackMapBlob B = decodeStackMapBlob(S, Offset, Addresses);
    if (Analyzer)
      findCallSites(*Analyzer, B);
    Report.StackMaps.push_back(std::move(B));
    Offset =
        stackmap::nextBlobOffset(Bytes.data(), Bytes.size(), Offset + S.Size);
  }
  return Error::success();
}

} // namespace report
} // namespace pcmap
