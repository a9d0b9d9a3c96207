//===- Reader.cpp - From an ELF file to a BinaryReport
//---------------------===//
//
// Opens the file with LLVM's Object library, finds the metadata sections by
// name, decodes them (resolving relative PCs through relocations in
// relocatable objects), names functions after their symbols and, when the
// file has DWARF, gives them source lines.
//
//===----------------------------------------------------------------------===//

#include "CallSites.h"
#include "Decoder.h"
#include "Report.h"

#include "pcmap/StackMap.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/BinaryFormat/Magic.h"
#include "llvm/DebugInfo/DWARF/DWARFContext.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Object/RelocationResolver.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/TargetParser/Triple.h"

#include <algorithm>
#include <optional>

using namespace llvm;
using namespace llvm::object;
using namespace pcmap::format;

namespace pcmap {
namespace report {

char ReportError::ID;

void ReportError::log(raw_ostream &OS) const { OS << Message; }

std::error_code ReportError::convertToErrorCode() const {
  return inconvertibleErrorCode();
}

Error makeError(ExitCode Code, const Twine &Message) {
  // One line, whatever names a broken file holds.
  std::string Line;
  for (char C : Message.str()) {
    if (uint8_t(C) < 0x20 || C == 0x7f)
      Line += "\\x" + utohexstr(uint8_t(C), /*LowerCase=*/true, 2);
    else
      Line += C;
  }
  return make_error<ReportError>(Code, std::move(Line));
}

const char *kindColumnName(unsigned Column) {
  if (Column < KC_Unknown)
    return atomicKindName(Column);
  return "unknown";
}

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

/// Executable code of the file: address ranges of a linked file, sizes of
/// the executable sections of a relocatable object.
class CodeMap {
public:
  void addLinked(uint64_t Begin, uint64_t Size) {
    Ranges.push_back({Begin, Begin + Size});
  }
  void addRelocatable(uint64_t Index, uint64_t Size) { Sizes[Index] = Size; }
  void finish() { llvm::sort(Ranges); }

  bool contains(const CodeAddress &PC, uint64_t Size) const {
    uint64_t End;
    if (PC.Section == kNoSection) {
      auto It =
          llvm::upper_bound(Ranges, PC.Address, [](uint64_t A, const Range &R) {
            return A < R.Begin;
          });
      if (It == Ranges.begin())
        return false;
      End = std::prev(It)->End;
    } else {
      auto It = Sizes.find(PC.Section);
      if (It == Sizes.end())
        return false;
      End = It->second;
    }
    if (PC.Address >= End)
      return false;
    return Size <= End - PC.Address;
  }

private:
  struct Range {
    uint64_t Begin, End;
    bool operator<(const Range &O) const { return Begin < O.Begin; }
  };
  std::vector<Range> Ranges;
  DenseMap<uint64_t, uint64_t> Sizes;
};

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

struct FunctionSymbol {
  uint64_t Section;
  uint64_t Address;
  uint64_t Size;
  StringRef Name;
  unsigned Rank; // lower is the better name for an address
};

/// The file being read and what has been found in it so far.
class Reader {
public:
  Reader(StringRef Path, const ReaderOptions &Options)
      : Path(Path.str()), Options(Options) {}
  Expected<BinaryReport> run();

private:
  Error open();
  Error validateTables();
  Error scanSections();
  Error collectSymbols();
  Error decodeSection(const SectionRef &Section,
                      const MetadataSectionName &Name);
  Error decodeUnsuffixedCovered(const SectionRef &Section,
                                ArrayRef<uint8_t> Bytes, PCResolver &PCs,
                                uint32_t &Version);
  Error preparePCs(const SectionRef &Section, ArrayRef<uint8_t> Bytes,
                   std::unique_ptr<PCResolver> &PCs);
  Error checkRelocationsUsed(const SectionRef &Section, PCResolver &PCs);
  void buildModel();
  void nameFunctions();
  void addSourceLines();
  Error decodeStackMaps();
  Error stackMapAddresses(const SectionRef &Section, ArrayRef<uint8_t> Bytes,
                          DenseMap<uint64_t, CodeAddress> &Out);
  ArrayRef<uint8_t> functionCode(const StackMapFunction &F);
  const FunctionSymbol *symbolAt(uint64_t Section, uint64_t Address,
                                 uint64_t Size) const;
  const FunctionSymbol *symbolHolding(uint64_t Section, uint64_t Address) const;

  Error malformed(const Twine &What) {
    return makeError(ExitCode::MalformedMetadata, "'" + Path + "': " + What);
  }
  Error malformed(const SectionRef &Section, const Twine &What) {
    Expected<StringRef> Name = Section.getName();
    std::string N = Name ? Name->str() : "?";
    if (!Name)
      consumeError(Name.takeError());
    return malformed("section '" + N + "': " + What);
  }

  std::string Path;
  ReaderOptions Options;
  std::unique_ptr<MemoryBuffer> Buffer;
  std::unique_ptr<ObjectFile> Object;
  const ELF64LEObjectFile *ELF = nullptr;
  const ELFObjectFileBase *ELFBase = nullptr; // the same file
  bool Relocatable = false;
  CodeMap Code;
  /// Relocation sections by the index of the section they apply to.
  DenseMap<uint64_t, SmallVector<SectionRef, 1>> RelocationsOf;
  std::vector<std::pair<SectionRef, MetadataSectionName>> MetadataSections;
  std::optional<SectionRef> StackMapSection;
  std::vector<FunctionSymbol> Symbols;

  struct PendingFunction {
    DecodedFunction F;
    bool Upstream;
    uint32_t UpstreamBase;
  };
  std::vector<PendingFunction> PendingFunctions;
  std::vector<std::pair<DecodedAtomic, bool /*Upstream*/>> PendingAtomics;
  BinaryReport Report;
};

Error Reader::open() {
  ErrorOr<std::unique_ptr<MemoryBuffer>> BufOrErr =
      MemoryBuffer::getFile(Path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (std::error_code EC = BufOrErr.getError())
    return makeError(ExitCode::FileError, "'" + Path + "': " + EC.message());
  Buffer = std::move(*BufOrErr);
  file_magic Magic = identify_magic(Buffer->getBuffer());
  bool IsELF =
      Magic == file_magic::elf || Magic == file_magic::elf_executable ||
      Magic == file_magic::elf_relocatable ||
      Magic == file_magic::elf_shared_object || Magic == file_magic::elf_core;
  if (!IsELF)
    return makeError(ExitCode::UnsupportedFile,
                     "'" + Path + "': not an ELF file");
  if (Magic == file_magic::elf_core)
    return makeError(ExitCode::UnsupportedFile,
                     "'" + Path + "': core files are not supported");
  Expected<std::unique_ptr<ObjectFile>> ObjOrErr =
      ObjectFile::createObjectFile(Buffer->getMemBufferRef());
  if (!ObjOrErr)
    return malformed("invalid ELF file: " + toString(ObjOrErr.takeError()));
  Object = std::move(*ObjOrErr);
  ELF = dyn_cast<ELF64LEObjectFile>(Object.get());
  ELFBase = ELF;
  if (!ELF)
    return makeError(ExitCode::UnsupportedFile,
                     "'" + Path + "': unsupported file format '" +
                         Object->getFileFormatName() +
                         "' (pcmap-report reads 64-bit little-endian ELF)");
  uint16_t Machine = ELFBase->getEMachine();
  if (Machine != ELF::EM_X86_64 && Machine != ELF::EM_AARCH64) {
    std::string Arch = Triple::getArchTypeName(Object->getArch()).str();
    if (Object->getArch() == Triple::UnknownArch)
      Arch = "machine " + std::to_string(Machine);
    return makeError(ExitCode::UnsupportedFile,
                     "'" + Path + "': unsupported architecture '" + Arch +
                         "' (pcmap-report reads x86-64 and AArch64)");
  }
  uint16_t Type = ELFBase->getEType();
  Relocatable = Type == ELF::ET_REL;
  Report.Path = Path;
  Report.FileFormat = Object->getFileFormatName().str();
  Report.Arch = Triple::getArchTypeName(Object->getArch()).str();
  if (Type == ELF::ET_REL)
    Report.FileType = "relocatable";
  else if (Type == ELF::ET_EXEC)
    Report.FileType = "executable";
  else if (Type == ELF::ET_DYN)
    Report.FileType = "shared-object"; // a PIE is told apart by .interp below
  else
    return makeError(ExitCode::UnsupportedFile,
                     "'" + Path + "': unsupported ELF file type " +
                         Twine(Type));
  return Error::success();
}

/// ELFObjectFile's symbol and relocation accessors end the process on a
/// malformed table (report_fatal_error, or a division by a zero sh_entsize),
/// and so would DWARFContext, which uses them. Check every symbol and
/// relocation table once with ELFFile's Expected-returning API first.
Error Reader::validateTables() {
  const ELFFile<ELF64LE> &EF = ELF->getELFFile();
  Expected<ELF64LE::ShdrRange> Sections = EF.sections();
  if (!Sections)
    return malformed(toString(Sections.takeError()));
  for (const ELF64LE::Shdr &Sec : *Sections) {
    auto Fail = [&](Error E) {
      Expected<StringRef> Name = EF.getSectionName(Sec);
      std::string N =
          Name ? ("section '" + *Name + "'").str()
               : "section " + std::to_string(&Sec - Sections->begin());
      if (!Name)
        consumeError(Name.takeError());
      return malformed(N + ": " + toString(std::move(E)));
    };
    switch (Sec.sh_type) {
    case ELF::SHT_SYMTAB:
    case ELF::SHT_DYNSYM: {
      if (Expected<ELF64LE::SymRange> Syms = EF.symbols(&Sec); !Syms)
        return Fail(Syms.takeError());
      if (Expected<StringRef> Strings = EF.getStringTableForSymtab(Sec);
          !Strings)
        return Fail(Strings.takeError());
      break;
    }
    case ELF::SHT_SYMTAB_SHNDX:
      if (Expected<ArrayRef<ELF64LE::Word>> Table = EF.getSHNDXTable(Sec);
          !Table)
        return Fail(Table.takeError());
      break;
    case ELF::SHT_REL:
    case ELF::SHT_RELA: {
      Expected<const ELF64LE::Shdr *> SymTab = EF.getSection(Sec.sh_link);
      if (!SymTab)
        return Fail(SymTab.takeError());
      auto Check = [&](const auto &Rel) -> Error {
        if (!Rel.getSymbol(false))
          return Error::success();
        Expected<const ELF64LE::Sym *> Sym =
            EF.getRelocationSymbol(Rel, *SymTab);
        return Sym ? Error::success() : Sym.takeError();
      };
      if (Sec.sh_type == ELF::SHT_RELA) {
        Expected<ELF64LE::RelaRange> Relas = EF.relas(Sec);
        if (!Relas)
          return Fail(Relas.takeError());
        for (const ELF64LE::Rela &R : *Relas)
          if (Error E = Check(R))
            return Fail(std::move(E));
      } else {
        Expected<ELF64LE::RelRange> Rels = EF.rels(Sec);
        if (!Rels)
          return Fail(Rels.takeError());
        for (const ELF64LE::Rel &R : *Rels)
          if (Error E = Check(R))
            return Fail(std::move(E));
      }
      break;
    }
    }
  }
  return Error::success();
}

Error Reader::scanSections() {
  for (const SectionRef &Section : Object->sections()) {
    Expected<StringRef> NameOrErr = Section.getName();
    if (!NameOrErr)
      return malformed(toString(NameOrErr.takeError()));
    StringRef Name = *NameOrErr;
    ELFSectionRef ES(Section);
    if (Name == ".interp" && Report.FileType == "shared-object")
      Report.FileType = "executable";
    if (ES.getType() == ELF::SHT_RELA || ES.getType() == ELF::SHT_REL) {
      Expected<section_iterator> Target = Section.getRelocatedSection();
      if (!Target)
        return malformed(Section, toString(Target.takeError()));
      if (*Target != Object->section_end())
        RelocationsOf[(*Target)->getIndex()].push_back(Section);
      continue;
    }
    if ((ES.getFlags() & ELF::SHF_EXECINSTR) &&
        ES.getType() != ELF::SHT_NOBITS) {
      if (Relocatable)
        Code.addRelocatable(Section.getIndex(), Section.getSize());
      else if (ES.getFlags() & ELF::SHF_ALLOC)
        Code.addLinked(Section.getAddress(), Section.getSize());
    }
    MetadataSectionName MD;
    if (parseMetadataSectionName(Name.data(), Name.size(), MD))
      MetadataSections.push_back({Section, MD});
    if (Name == stackmap::kSectionName && !StackMapSection)
      StackMapSection = Section;
  }
  Code.finish();
  if (Options.StackMaps) {
    if (!StackMapSection)
      return makeError(ExitCode::NoMetadata,
                       "'" + Path + "': no " + stackmap::kSectionName +
                           " section (stack maps come from "
                           "llvm.experimental.stackmap, "
                           "llvm.experimental.patchpoint and gc.statepoint)");
    return Error::success();
  }
  if (MetadataSections.empty())
    return makeError(ExitCode::NoMetadata,
                     "'" + Path +
                         "': no pcmap or sanmd metadata sections (build with "
                         "pcmap-clang -fsanitize-metadata=... or clang "
                         "-fexperimental-sanitize-metadata=...)");
  return Error::success();
}

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
  auto [Supports, Resolver] = getRelocationResolver(*Object);
  uint16_t Machine = ELFBase->getEMachine();
  auto It = RelocationsOf.find(Section.getIndex());
  if (It != RelocationsOf.end()) {
    for (const SectionRef &RelSection : It->second) {
      for (const RelocationRef &R : RelSection.relocations()) {
        RelocatedPCs::Target T;
        uint64_t Offset = R.getOffset();
        uint64_t Type = R.getType();
        T.Width = relativePCRelocationWidth(Machine, Type);
        SmallString<32> TypeName;
        R.getTypeName(TypeName);
        symbol_iterator Sym = R.getSymbol();
        // Every relocation must apply inside the section, whatever its
        // type: its offset is also the key of Targets, which must not be
        // one of DenseMap's reserved keys (~0 and ~0 - 1).
        if (Offset >= Bytes.size() ||
            (T.Width && Bytes.size() - Offset < T.Width)) {
          return malformed(Section, "relocation at offset " +
                                        hexString(Offset) +
                                        " lies outside the section");
        } else if (!T.Width || !Supports || !Supports(Type)) {
          T.Error = ("relocation " + TypeName + " is not a relative PC").str();
        } else if (Sym == Object->symbol_end()) {
          T.Error = "relocation without a symbol";
        } else {
          Expected<section_iterator> SymSection = Sym->getSection();
          Expected<uint64_t> Value = Sym->getValue();
          if (!SymSection || !Value) {
            if (!SymSection)
              T.Error = toString(SymSection.takeError());
            if (!Value)
              T.Error = toString(Value.takeError());
          } else if (*SymSection == Object->section_end()) {
            Expected<StringRef> SymName = Sym->getName();
            T.Error = "relocation against undefined symbol '" +
                      (SymName ? SymName->str() : std::string("?")) + "'";
            if (!SymName)
              consumeError(SymName.takeError());
          } else {
            // Apply the relocation as the linker would, with the target
            // section at address 0 and the field at its offset: the field
            // then holds S + A - P, and P + field = S + A.
            uint64_t LocData =
                uint64_t(readRelativePC(Bytes.data() + Offset, T.Width));
            uint64_t Field = resolveRelocation(Resolver, R, *Value, LocData);
            int64_t Relative = T.Width == 4 ? int64_t(int32_t(uint32_t(Field)))
                                            : int64_t(Field);
            T.PC.Address = Offset + uint64_t(Relative);
            T.PC.Section = (*SymSection)->getIndex();
          }
        }
        if (!Resolved->Targets.try_emplace(Offset, std::move(T)).second)
          return malformed(Section,
                           "two relocations at offset " + hexString(Offset));
      }
    }
  }
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

/// An unsuffixed sanmd_covered section is version 1 (LLVM 16) or 2 (LLVM 17
/// and 18); only its constructor knows. Unless the user said, decode it both
/// ways and keep the reading whose functions start at function symbols.
Error Reader::decodeUnsuffixedCovered(const SectionRef &Section,
                                      ArrayRef<uint8_t> Bytes, PCResolver &PCs,
                                      uint32_t &Version) {
  auto Try = [&](uint32_t V, std::vector<DecodedFunction> &Out) {
    return decodeFunctions(MK_UpstreamCovered, V, Bytes, PCs, Out);
  };
  if (Options.UnsuffixedUpstream != UpstreamVersionChoice::Auto) {
    Version = Options.UnsuffixedUpstream == UpstreamVersionChoice::V1
                  ? kUpstreamVersionV1
                  : kUpstreamVersionV2;
    std::vector<DecodedFunction> Out;
    if (Error E = Try(Version, Out))
      return malformed(Section, "as version " + Twine(Version) + ": " +
                                    toString(std::move(E)));
    for (const DecodedFunction &F : Out)
      PendingFunctions.push_back({F, true, Version});
    return Error::success();
  }
  // Both readings consume relocations; count them once.
  std::vector<DecodedFunction> V2, V1;
  Error E2 = Try(kUpstreamVersionV2, V2);
  std::unique_ptr<PCResolver> Fresh;
  if (Error E = preparePCs(Section, Bytes, Fresh))
    return E;
  Error E1 = decodeFunctions(MK_UpstreamCovered, kUpstreamVersionV1, Bytes,
                             *Fresh, V1);
  auto AtSymbols = [&](const std::vector<DecodedFunction> &Fs) {
    size_t N = 0;
    for (const DecodedFunction &F : Fs)
      N += symbolAt(F.PC.Section, F.PC.Address, F.Size) != nullptr;
    return N;
  };
  std::vector<DecodedFunction> *Chosen;
  if (E2 && E1) {
    consumeError(std::move(E1));
    return malformed(Section, toString(std::move(E2)));
  }
  if (E2) {
    consumeError(std::move(E2));
    Chosen = &V1;
    Version = kUpstreamVersionV1;
  } else if (E1) {
    consumeError(std::move(E1));
    Chosen = &V2;
    Version = kUpstreamVersionV2;
  } else if (AtSymbols(V1) > AtSymbols(V2)) {
    Chosen = &V1;
    Version = kUpstreamVersionV1;
  } else {
    Chosen = &V2;
    Version = kUpstreamVersionV2;
  }
  if (Version == kUpstreamVersionV1) {
    if (Error E = checkRelocationsUsed(Section, *Fresh))
      return E;
  } else if (Error E = checkRelocationsUsed(Section, PCs)) {
    return E;
  }
  for (const DecodedFunction &F : *Chosen)
    PendingFunctions.push_back({F, true, Version});
  return Error::success();
}

Error Reader::decodeSection(const SectionRef &Section,
                            const MetadataSectionName &Name) {
  ELFSectionRef ES(Section);
  if (ES.getType() == ELF::SHT_NOBITS)
    return malformed(Section, "has no contents (SHT_NOBITS)");
  Expected<StringRef> Contents = Section.getContents();
  if (!Contents)
    return malformed(Section, toString(Contents.takeError()));
  ArrayRef<uint8_t> Bytes(reinterpret_cast<const uint8_t *>(Contents->data()),
                          Contents->size());
  bool Upstream =
      Name.Kind == MK_UpstreamAtomics || Name.Kind == MK_UpstreamCovered;
  MetadataSection Info;
  Info.Name = Section.getName() ? *Section.getName() : "";
  Info.Kind = Name.Kind;
  Info.Size = Bytes.size();
  Info.VersionFromName = Name.HasVersion;
  uint32_t Version = Name.Version;
  if (!Name.HasVersion) {
    if (!Upstream)
      return malformed(Section, "pcmap sections carry their version in "
                                "their name; this one has none");
    Version = Options.UnsuffixedUpstream == UpstreamVersionChoice::V1
                  ? kUpstreamVersionV1
                  : kUpstreamVersionV2;
  }
  if (Error E = checkVersion(Name.Kind, Version))
    return malformed(Section, toString(std::move(E)));

  std::unique_ptr<PCResolver> PCs;
  if (Error E = preparePCs(Section, Bytes, PCs))
    return E;
  size_t FunctionsBefore = PendingFunctions.size();
  size_t AtomicsBefore = PendingAtomics.size();
  if (Name.Kind == MK_Functions || Name.Kind == MK_UpstreamCovered) {
    if (Upstream && !Name.HasVersion) {
      if (Error E = decodeUnsuffixedCovered(Section, Bytes, *PCs, Version))
        return E;
    } else {
      std::vector<DecodedFunction> Out;
      if (Error E = decodeFunctions(Name.Kind, Version, Bytes, *PCs, Out))
        return malformed(Section, toString(std::move(E)));
      if (Error E = checkRelocationsUsed(Section, *PCs))
        return E;
      for (const DecodedFunction &F : Out)
        PendingFunctions.push_back({F, Upstream, versionBase(Version)});
    }
  } else {
    std::vector<DecodedAtomic> Out;
    if (Error E = decodeAtomics(Name.Kind, Version, Bytes, *PCs, Out))
      return malformed(Section, toString(std::move(E)));
    if (Error E = checkRelocationsUsed(Section, *PCs))
      return E;
    for (const DecodedAtomic &A : Out)
      PendingAtomics.push_back({A, Upstream});
  }
  Info.Version = Version;
  Info.Entries = (PendingFunctions.size() - FunctionsBefore) +
                 (PendingAtomics.size() - AtomicsBefore);
  Report.Sections.push_back(std::move(Info));
  return Error::success();
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

void Reader::buildModel() {
  // Functions: one per place; pcmap and upstream entries for the same
  // function merge.
  // pcmap entries before upstream ones of the same function.
  llvm::sort(PendingFunctions,
             [](const PendingFunction &A, const PendingFunction &B) {
               if (A.F.PC < B.F.PC || B.F.PC < A.F.PC)
                 return A.F.PC < B.F.PC;
               return A.Upstream < B.Upstream;
             });
  std::vector<FunctionInfo> &Fs = Report.Functions;
  Fs.reserve(PendingFunctions.size());
  for (const PendingFunction &P : PendingFunctions) {
    if (Fs.empty() || Fs.back().Section != P.F.PC.Section ||
        Fs.back().Address != P.F.PC.Address) {
      Fs.emplace_back();
      Fs.back().Address = P.F.PC.Address;
      Fs.back().Section = P.F.PC.Section;
      Fs.back().Size = P.F.Size;
    }
    FunctionInfo &F = Fs.back();
    if (P.Upstream) {
      F.Sources |= FromUpstream;
      F.UpstreamFeatures |= P.F.Features;
      F.UpstreamVersion = P.UpstreamBase;
      if (P.F.HasStackArgs) {
        F.HasStackArgs = true;
        F.StackArgs = P.F.StackArgs;
      }
    } else {
      if (!(F.Sources & FromPCMap))
        F.Size = P.F.Size; // pcmap's size wins over upstream's
      F.Sources |= FromPCMap;
      F.Features |= P.F.Features;
    }
  }
  PendingFunctions.clear();
  PendingFunctions.shrink_to_fit();

  // Atomics: one per distinct PC; a pcmap descriptor wins over an upstream
  // entry for the same PC.
  llvm::sort(PendingAtomics, [](const auto &A, const auto &B) {
    if (A.first.PC < B.first.PC || B.first.PC < A.first.PC)
      return A.first.PC < B.first.PC;
    return A.first.HasDescriptor > B.first.HasDescriptor;
  });
  std::vector<AtomicSite> &As = Report.Atomics;
  As.reserve(PendingAtomics.size());
  for (const auto &[A, Upstream] : PendingAtomics) {
    if (As.empty() || As.back().Section != A.PC.Section ||
        As.back().Address != A.PC.Address) {
      As.emplace_back();
      As.back().Address = A.PC.Address;
      As.back().Section = A.PC.Section;
      As.back().HasDescriptor = A.HasDescriptor;
      As.back().Descriptor = A.Descriptor;
    }
    As.back().Sources |= Upstream ? FromUpstream : FromPCMap;
  }
  PendingAtomics.clear();
  PendingAtomics.shrink_to_fit();

  for (AtomicSite &A : As) {
    CodeAddress PC{A.Address, A.Section};
    auto It = llvm::upper_bound(
        Fs, PC, [](const CodeAddress &K, const FunctionInfo &F) {
          return K < CodeAddress{F.Address, F.Section};
        });
    if (It == Fs.begin())
      continue;
    FunctionInfo &F = *std::prev(It);
    if (F.Section != A.Section || A.Address - F.Address >= F.Size)
      continue;
    A.Function = uint32_t(&F - Fs.data());
    ++F.NumAtomics;
    ++F.AtomicsByKind[A.HasDescriptor ? unsigned(A.Descriptor.Kind)
                                      : unsigned(KC_Unknown)];
  }
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

void Reader::addSourceLines() {
  if (!Options.SourceLines)
    return;
  bool HasDebugLine = false;
  for (const SectionRef &Section : Object->sections()) {
    Expected<StringRef> Name = Section.getName();
    if (!Name) {
      consumeError(Name.takeError());
      continue;
    }
    if (*Name == ".debug_line" || *Name == ".zdebug_line")
      HasDebugLine = true;
  }
  if (!HasDebugLine)
    return;
  // Broken debug information costs the source lines, never the report.
  auto Ignore = [](Error E) { consumeError(std::move(E)); };
  std::unique_ptr<DWARFContext> DICtx = DWARFContext::create(
      *Object, DWARFContext::ProcessDebugRelocations::Process, nullptr, "",
      Ignore, Ignore);
  if (!DICtx || DICtx->getNumCompileUnits() == 0)
    return;
  Report.HasDebugInfo = true;
  using FileKind = DILineInfoSpecifier::FileLineInfoKind;
  DILineInfoSpecifier Spec(FileKind::AbsoluteFilePath, DINameKind::None);
  for (FunctionInfo &F : Report.Functions) {
    // The outermost frame is the function itself: its declaration line.
    DIInliningInfo Frames =
        DICtx->getInliningInfoForAddress({F.Address, F.Section}, Spec);
    if (!Frames.getNumberOfFrames())
      continue;
    const DILineInfo &Outer = Frames.getFrame(Frames.getNumberOfFrames() - 1);
    if (Outer.StartLine && Outer.StartFileName != DILineInfo::BadString) {
      F.Source.File = Outer.StartFileName;
      F.Source.Line = Outer.StartLine;
    } else if (Outer.Line && Outer.FileName != DILineInfo::BadString) {
      F.Source.File = Outer.FileName;
      F.Source.Line = Outer.Line;
    }
  }
  if (!Options.AtomicDetails)
    return;
  // A site's line is the one in the function that holds it (the outermost
  // frame): for an atomic inlined from <atomic>, the user's line that
  // called it.
  for (AtomicSite &A : Report.Atomics) {
    DIInliningInfo Frames =
        DICtx->getInliningInfoForAddress({A.Address, A.Section}, Spec);
    if (!Frames.getNumberOfFrames())
      continue;
    const DILineInfo &Outer = Frames.getFrame(Frames.getNumberOfFrames() - 1);
    if (Outer.Line && Outer.FileName != DILineInfo::BadString) {
      A.Source.File = Outer.FileName;
      A.Source.Line = Outer.Line;
    }
  }
}

/// The function address fields of .llvm_stackmaps are absolute (R_X86_64_64,
/// R_AARCH64_ABS64). In a relocatable object a relocation says where they
/// point; in a PIE or shared object linked with -z notext a dynamic
/// relocation (RELATIVE, or absolute against a symbol) fills them at load
/// time and the field itself may hold 0. Out maps the field's offset in the
/// section to the address it holds after relocation.
Error Reader::stackMapAddresses(const SectionRef &Section,
                                ArrayRef<uint8_t> Bytes,
                                DenseMap<uint64_t, CodeAddress> &Out) {
  uint16_t Machine = ELFBase->getEMachine();
  bool X86 = Machine == ELF::EM_X86_64;
  uint32_t Abs64 = X86 ? ELF::R_X86_64_64 : ELF::R_AARCH64_ABS64;
  if (Relocatable) {
    auto [Supports, Resolver] = getRelocationResolver(*Object);
    auto It = RelocationsOf.find(Section.getIndex());
    if (It == RelocationsOf.end())
      return Error::success();
    for (const SectionRef &RelSection : It->second) {
      for (const RelocationRef &R : RelSection.relocations()) {
        uint64_t Offset = R.getOffset();
        if (R.getType() != Abs64 || !Supports || !Supports(R.getType()))
          continue; // not a function address; reported as unresolved
        if (Offset > Bytes.size() || Bytes.size() - Offset < 8)
          return malformed(Section, "relocation at offset " +
                                        hexString(Offset) +
                                        " lies outside the section");
        symbol_iterator Sym = R.getSymbol();
        if (Sym == Object->symbol_end())
          continue;
        Expected<section_iterator> SymSection = Sym->getSection();
        Expected<uint64_t> Value = Sym->getValue();
        if (!SymSection || !Value) {
          if (!SymSection)
            consumeError(SymSection.takeError());
          if (!Value)
            consumeError(Value.takeError());
          continue;
        }
        if (*SymSection == Object->section_end())
          continue; // undefined: unresolved
        uint64_t Target = resolveRelocation(Resolver, R, *Value, 0);
        Out[Offset] = CodeAddress{Target, (*SymSection)->getIndex()};
      }
    }
    return Error::success();
  }
  const ELFFile<ELF64LE> &EF = ELF->getELFFile();
  uint64_t Begin = Section.getAddress(), End = Begin + Bytes.size();
  uint32_t Relative = X86 ? ELF::R_X86_64_RELATIVE : ELF::R_AARCH64_RELATIVE;
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

/// The bytes of a function, from its start: its size when known, otherwise
/// up to the end of the code section that holds it.
ArrayRef<uint8_t> Reader::functionCode(const StackMapFunction &F) {
  for (const SectionRef &Section : Object->sections()) {
    ELFSectionRef ES(Section);
    if (!(ES.getFlags() & ELF::SHF_EXECINSTR) ||
        ES.getType() == ELF::SHT_NOBITS)
      continue;
    uint64_t Begin = Relocatable ? 0 : Section.getAddress();
    if (Relocatable
            ? Section.getIndex() != F.Section
            : F.Address < Begin || F.Address - Begin >= Section.getSize())
      continue;
    Expected<StringRef> Contents = Section.getContents();
    if (!Contents) {
      consumeError(Contents.takeError());
      return {};
    }
    uint64_t From = F.Address - Begin;
    if (From >= Contents->size())
      return {};
    uint64_t N = Contents->size() - From;
    if (F.Size && F.Size < N)
      N = F.Size;
    return ArrayRef<uint8_t>(
        reinterpret_cast<const uint8_t *>(Contents->data()) + From, N);
  }
  return {};
}

Error Reader::decodeStackMaps() {
  const SectionRef &Section = *StackMapSection;
  ELFSectionRef ES(Section);
  if (ES.getType() == ELF::SHT_NOBITS)
    return malformed(Section, "has no contents (SHT_NOBITS)");
  Expected<StringRef> Contents = Section.getContents();
  if (!Contents)
    return malformed(Section, toString(Contents.takeError()));
  ArrayRef<uint8_t> Bytes(reinterpret_cast<const uint8_t *>(Contents->data()),
                          Contents->size());
  DenseMap<uint64_t, CodeAddress> Addresses;
  if (Error E = stackMapAddresses(Section, Bytes, Addresses))
    return E;
  std::string Why;
  std::unique_ptr<CallSiteAnalyzer> Analyzer =
      CallSiteAnalyzer::create(Object->makeTriple(), Why);

  // Function sizes: pcmap's function table first, then symbols.
  auto SizeOf = [&](StackMapFunction &F) {
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
  };

  size_t Offset = 0;
  while (Offset < Bytes.size()) {
    stackmap::Section S;
    const char *Err = "invalid stack map";
    if (!stackmap::parse(Bytes.data() + Offset, Bytes.size() - Offset, S, &Err))
      return malformed(Section,
                       Twine(Err) + (Offset ? " (in the stack map at offset " +
                                                  hexString(Offset) + ")"
                                            : Twine()));
    StackMapBlob B;
    B.SectionOffset = Offset;
    B.Version = S.Version;
    for (uint32_t I = 0; I < S.NumFunctions; ++I) {
      stackmap::Function SF = S.function(I);
      StackMapFunction F;
      F.StoredAddress = SF.Address;
      F.StackSize = SF.StackSize;
      F.RecordCount = SF.RecordCount;
      F.FirstRecord = S.NumRecords;
      uint64_t Field = Offset + stackmap::kHeaderSize +
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
        SizeOf(F);
      B.Functions.push_back(std::move(F));
    }
    for (uint32_t I = 0; I < S.NumConstants; ++I)
      B.Constants.push_back(S.constant(I));
    stackmap::Record SR;
    for (stackmap::RecordIterator It = S.records(); It.next(SR);) {
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
      B.Records.push_back(std::move(R));
    }
    // Call sites, once the records of every function are known: a
    // patchable region ends at the next record of its function at the
    // latest (a patchpoint's nops may be followed by another's).
    for (StackMapRecord &R : B.Records) {
      if (!Analyzer || R.Function == kNoFunction ||
          !B.Functions[R.Function].Resolved)
        continue;
      const StackMapFunction &F = B.Functions[R.Function];
      ArrayRef<uint8_t> Code = functionCode(F);
      uint64_t Limit = Code.size();
      for (const StackMapRecord &Other : B.Records)
        if (Other.Function == R.Function &&
            Other.InstructionOffset > R.InstructionOffset &&
            Other.InstructionOffset < Limit)
          Limit = Other.InstructionOffset;
      Analyzer->analyze(Code.take_front(Limit), F.Address, R.InstructionOffset,
                        R.CallKind, R.CallSize);
    }
    Report.StackMaps.push_back(std::move(B));
    Offset =
        stackmap::nextBlobOffset(Bytes.data(), Bytes.size(), Offset + S.Size);
  }
  return Error::success();
}

Expected<BinaryReport> Reader::run() {
  if (Error E = open())
    return std::move(E);
  if (Error E = validateTables())
    return std::move(E);
  if (Error E = scanSections())
    return std::move(E);
  if (Error E = collectSymbols())
    return std::move(E);
  for (const auto &[Section, Name] : MetadataSections)
    if (Error E = decodeSection(Section, Name))
      return std::move(E);
  buildModel();
  nameFunctions();
  addSourceLines();
  if (Options.StackMaps)
    if (Error E = decodeStackMaps())
      return std::move(E);
  if (Relocatable) {
    uint64_t MaxIndex = 0;
    for (const FunctionInfo &F : Report.Functions)
      MaxIndex = std::max(MaxIndex, F.Section + 1);
    for (const AtomicSite &A : Report.Atomics)
      MaxIndex = std::max(MaxIndex, A.Section + 1);
    for (const StackMapBlob &B : Report.StackMaps)
      for (const StackMapFunction &F : B.Functions)
        if (F.Section != kNoSection)
          MaxIndex = std::max(MaxIndex, F.Section + 1);
    Report.SectionNames.resize(MaxIndex);
    for (const SectionRef &Section : Object->sections()) {
      if (Section.getIndex() >= MaxIndex)
        continue;
      Expected<StringRef> Name = Section.getName();
      if (Name)
        Report.SectionNames[Section.getIndex()] = Name->str();
      else
        consumeError(Name.takeError());
    }
  }
  return std::move(Report);
}

} // namespace

Expected<BinaryReport> readBinary(StringRef Path,
                                  const ReaderOptions &Options) {
  Reader R(Path, Options);
  return R.run();
}

} // namespace report
} // namespace pcmap
