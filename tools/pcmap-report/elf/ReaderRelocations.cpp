//===- ReaderRelocations.cpp - Where relative PCs and relocations point ---===//
//
// The relative PCs of a metadata section: field address + value in a linked
// file; in a relocatable object the field is zero and the relocation that
// applies to it (S + A - P) says where it points, resolved with LLVM's
// RelocationResolver as the linker would.
//
//===----------------------------------------------------------------------===//

#include "Reader.h"
#include "Text.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/RelocationResolver.h"

#include <tuple>

using namespace llvm;
using namespace llvm::object;
using namespace pcmap::format;

namespace pcmap {
namespace report {

namespace {

/// Width of a relative-PC relocation the backend emits for the fields of
/// the metadata sections, or 0 for any other relocation.
unsigned relativePCRelocationWidth(uint16_t Machine, uint64_t Type) {
  switch (Machine) {
  case ELF::EM_X86_64:
    return Type == ELF::R_X86_64_PC32 ? 4 : Type == ELF::R_X86_64_PC64 ? 8 : 0;
  case ELF::EM_AARCH64:
    return Type == ELF::R_AARCH64_PREL32   ? 4
           : Type == ELF::R_AARCH64_PREL64 ? 8
                                           : 0;
  }
  return 0;
}

/// Relative PCs of a section of a linked file: field address + value.
class LinkedPCs : public PCResolver {
public:
  LinkedPCs(ArrayRef<uint8_t> Bytes, uint64_t SectionAddress,
            const CodeMap &Code)
      : Bytes(Bytes), SectionAddress(SectionAddress), Code(Code) {}

  Error resolve(uint64_t Offset, unsigned Width, CodeAddress &PC,
                bool &IsZero) override {
    int64_t Value = readRelativePC(Bytes.data() + Offset, Width);
    IsZero = Value == 0;
    PC.Address = SectionAddress + Offset + uint64_t(Value);
    PC.Section = kNoSection;
    return Error::success();
  }
  bool inCode(const CodeAddress &PC, uint64_t Size) const override {
    return Code.contains(PC, Size);
  }

private:
  ArrayRef<uint8_t> Bytes;
  uint64_t SectionAddress;
  const CodeMap &Code;
};

/// Relative PCs of a section of a relocatable object: the fields are zero
/// and a relocation (S + A - P) says where they point.
class RelocatedPCs : public PCResolver {
public:
  struct Target {
    CodeAddress PC;
    unsigned Width = 0;
    std::string Error; // why this relocation cannot be a relative PC
  };

  RelocatedPCs(ArrayRef<uint8_t> Bytes, const CodeMap &Code)
      : Bytes(Bytes), Code(Code) {}

  DenseMap<uint64_t, Target> Targets; // by offset in the section

  Error resolve(uint64_t Offset, unsigned Width, CodeAddress &PC,
                bool &IsZero) override {
    auto It = Targets.find(Offset);
    if (It == Targets.end()) {
      // Without a relocation the field points into the metadata section
      // itself (the assembler could not have resolved a PC in another
      // section): only the zero word of a pcmap record is like that.
      IsZero = readRelativePC(Bytes.data() + Offset, Width) == 0;
      if (!IsZero)
        return createStringError(inconvertibleErrorCode(),
                                 "relative PC without a relocation");
      return Error::success();
    }
    const Target &T = It->second;
    if (!T.Error.empty())
      return createStringError(inconvertibleErrorCode(), T.Error);
    if (T.Width != Width)
      return createStringError(inconvertibleErrorCode(),
                               Twine(T.Width) + "-byte relocation for a " +
                                   Twine(Width) + "-byte relative PC");
    ++Used;
    IsZero = false;
    PC = T.PC;
    return Error::success();
  }
  bool inCode(const CodeAddress &PC, uint64_t Size) const override {
    return Code.contains(PC, Size);
  }
  /// Relocations that no field consumed: they apply inside a field or past
  /// the section's entries, which a well-formed section never has.
  size_t unused() const { return Targets.size() - Used; }

private:
  ArrayRef<uint8_t> Bytes;
  const CodeMap &Code;
  size_t Used = 0;
};

} // namespace

/// Fn on each relocation that applies to Section (relocatable objects),
/// until one fails.
Error Reader::forEachRelocation(const SectionRef &Section,
                                function_ref<Error(const RelocationRef &)> Fn) {
  auto It = RelocationsOf.find(Section.getIndex());
  if (It == RelocationsOf.end())
    return Error::success();
  for (const SectionRef &RelSection : It->second)
    for (const RelocationRef &R : RelSection.relocations())
      if (Error E = Fn(R))
        return E;
  return Error::success();
}

/// The section index and value of the defined symbol a relocation refers
/// to; the error says why there is none.
Error Reader::relocationSymbol(const RelocationRef &R, uint64_t &SectionIndex,
                               uint64_t &Value) const {
  symbol_iterator Sym = R.getSymbol();
  if (Sym == Object->symbol_end())
    return createStringError(inconvertibleErrorCode(),
                             "relocation without a symbol");
  Expected<section_iterator> SymSection = Sym->getSection();
  Expected<uint64_t> SymValue = Sym->getValue();
  if (!SymSection || !SymValue) {
    std::string Why;
    if (!SymSection)
      Why = toString(SymSection.takeError());
    if (!SymValue)
      Why = toString(SymValue.takeError());
    return createStringError(inconvertibleErrorCode(), Why);
  }
  if (*SymSection == Object->section_end()) {
    Expected<StringRef> SymName = Sym->getName();
    std::string Why = "relocation against undefined symbol '" +
                      (SymName ? SymName->str() : std::string("?")) + "'";
    if (!SymName)
      consumeError(SymName.takeError());
    return createStringError(inconvertibleErrorCode(), Why);
  }
  SectionIndex = (*SymSection)->getIndex();
  Value = *SymValue;
  return Error::success();
}

Error Reader::preparePCs(const SectionRef &Section, ArrayRef<uint8_t> Bytes,
                         std::unique_ptr<PCResolver> &PCs) {
  if (!Relocatable) {
    if (!(ELFSectionRef(Section).getFlags() & ELF::SHF_ALLOC))
      return malformed(Section, "not an allocated section: its relative PCs "
                                "have no address");
    PCs = std::make_unique<LinkedPCs>(Bytes, Section.getAddress(), Code);
    return Error::success();
  }
  auto Resolved = std::make_unique<RelocatedPCs>(Bytes, Code);
  // Not auto [Supports, Resolver]: a C++17 lambda cannot capture those.
  SupportsRelocation Supports;
  RelocationResolver Resolver;
  std::tie(Supports, Resolver) = getRelocationResolver(*Object);
  uint16_t Machine = ELFBase->getEMachine();
  auto Add = [&](const RelocationRef &R) -> Error {
    RelocatedPCs::Target T;
    uint64_t Offset = R.getOffset();
    uint64_t Type = R.getType();
    T.Width = relativePCRelocationWidth(Machine, Type);
    SmallString<32> TypeName;
    R.getTypeName(TypeName);
    uint64_t SymSection = 0, SymValue = 0;
    // Every relocation must apply inside the section, whatever its type:
    // its offset is also the key of Targets, which must not be one of
    // DenseMap's reserved keys (~0 and ~0 - 1).
    if (Offset >= Bytes.size() ||
        (T.Width && Bytes.size() - Offset < T.Width)) {
      return malformed(Section, "relocation at offset " + hexAddress(Offset) +
                                    " lies outside the section");
    } else if (!T.Width || !Supports || !Supports(Type)) {
      T.Error = ("relocation " + TypeName + " is not a relative PC").str();
    } else if (Error E = relocationSymbol(R, SymSection, SymValue)) {
      T.Error = toString(std::move(E));
    } else {
      // Apply the relocation as the linker would, with the target section
      // at address 0 and the field at its offset: the field then holds
      // S + A - P, and P + field = S + A.
      uint64_t LocData =
          uint64_t(readRelativePC(Bytes.data() + Offset, T.Width));
      uint64_t Field = resolveRelocation(Resolver, R, SymValue, LocData);
      int64_t Relative =
          T.Width == 4 ? int64_t(int32_t(uint32_t(Field))) : int64_t(Field);
      T.PC.Address = Offset + uint64_t(Relative);
      T.PC.Section = SymSection;
    }
    if (!Resolved->Targets.try_emplace(Offset, std::move(T)).second)
      return malformed(Section,
                       "two relocations at offset " + hexAddress(Offset));
    return Error::success();
  };
  if (Error E = forEachRelocation(Section, Add))
    return E;
  PCs = std::move(Resolved);
  return Error::success();
}

Error Reader::checkRelocationsUsed(const SectionRef &Section, PCResolver &PCs) {
  if (!Relocatable)
    return Error::success();
  size_t Unused = static_cast<RelocatedPCs &>(PCs).unused();
  if (Unused)
    return malformed(Section,
                     Twine(Unused) + " relocation(s) apply to no relative PC");
  return Error::success();
}

} // namespace report
} // namespace pcmap
