//===- ReaderELF.cpp - The ELF file and its sections ----------------------===//
//
// Opens the file with LLVM's Object library, checks its symbol and
// relocation tables, finds the metadata, stack map, code and relocation
// sections, and hands out their contents.
//
//===----------------------------------------------------------------------===//

#include "Reader.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/BinaryFormat/Magic.h"
#include "llvm/TargetParser/Triple.h"

#include <algorithm>
#include <iterator>

using namespace llvm;
using namespace llvm::object;
using namespace pcmap::format;

namespace pcmap {
namespace report {

void CodeMap::finish() { llvm::sort(Ranges); }

bool CodeMap::contains(const CodeAddress &PC, uint64_t Size) const {
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

namespace {

/// Holds code: executable and with contents.
bool isCode(const ELFSectionRef &Section) {
  return (Section.getFlags() & ELF::SHF_EXECINSTR) &&
         Section.getType() != ELF::SHT_NOBITS;
}

} // namespace

Error Reader::malformed(const SectionRef &Section, const Twine &What) const {
  Expected<StringRef> Name = Section.getName();
  std::string N = Name ? Name->str() : "?";
  if (!Name)
    consumeError(Name.takeError());
  return malformed("section '" + N + "': " + What);
}

Error Reader::open() {
  if (!Buffer) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> BufOrErr =
        MemoryBuffer::getFile(Path, /*IsText=*/false,
                              /*RequiresNullTerminator=*/false);
    if (std::error_code EC = BufOrErr.getError())
      return makeError(ExitCode::FileError, "'" + Path + "': " + EC.message());
    Buffer = std::move(*BufOrErr);
  }
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
    if (isCode(ES)) {
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
  // Without metadata, the functions are the symbol table's
  // (functionsFromSymbols).
  Report.FromSymbolTable = MetadataSections.empty();
  return Error::success();
}

/// The contents of a section the reader decodes (metadata, stack maps).
Error Reader::sectionBytes(const SectionRef &Section,
                           ArrayRef<uint8_t> &Bytes) {
  if (ELFSectionRef(Section).getType() == ELF::SHT_NOBITS)
    return malformed(Section, "has no contents (SHT_NOBITS)");
  Expected<StringRef> Contents = Section.getContents();
  if (!Contents)
    return malformed(Section, toString(Contents.takeError()));
  Bytes = arrayRefFromStringRef(*Contents);
  return Error::success();
}

/// The bytes of a function, from its start: its size when known, otherwise
/// up to the end of the code section that holds it.
ArrayRef<uint8_t> Reader::functionCode(const StackMapFunction &F) {
  for (const SectionRef &Section : Object->sections()) {
    if (!isCode(ELFSectionRef(Section)))
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
    return arrayRefFromStringRef(*Contents).slice(From, N);
  }
  return {};
}

/// Names of the sections a relocatable object's functions, atomics and
/// stack map functions refer to.
void Reader::collectSectionNames() {
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

} // namespace report
} // namespace pcmap
