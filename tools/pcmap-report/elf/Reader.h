//===- Reader.h - The reader behind readBinary() ----------------*- C++ -*-===//
//
// How readBinary() (Report.h) turns an ELF file into a BinaryReport, one
// file per concern:
//   Reader.cpp             the steps, in order
//   ReaderELF.cpp          opening the file, finding its sections
//   ReaderRelocations.cpp  where relative PCs and relocations point
//   ReaderSymbols.cpp      function symbols, and the names they give
//   ReaderFragments.cpp    the fragments of split functions
//   ReaderMetadata.cpp     pcmap_* and sanmd_* sections, merged into the model
//   ReaderLines.cpp        source lines from the DWARF line tables
//   ReaderStackMaps.cpp    .llvm_stackmaps, its addresses and call sites
// Only these files include this header; the rest of pcmap-report sees
// readBinary() and the BinaryReport.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_REPORT_READER_H
#define PCMAP_REPORT_READER_H

#include "Decoder.h"
#include "Report.h"

#include "pcmap/StackMap.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pcmap {
namespace report {

class CallSiteAnalyzer;

/// Executable code of the file: address ranges of a linked file, sizes of
/// the executable sections of a relocatable object.
class CodeMap {
public:
  void addLinked(uint64_t Begin, uint64_t Size) {
    Ranges.push_back({Begin, Begin + Size});
  }
  void addRelocatable(uint64_t Index, uint64_t Size) { Sizes[Index] = Size; }
  void finish();
  bool contains(const CodeAddress &PC, uint64_t Size) const;

private:
  struct Range {
    uint64_t Begin, End;
    bool operator<(const Range &O) const { return Begin < O.Begin; }
  };
  std::vector<Range> Ranges;
  llvm::DenseMap<uint64_t, uint64_t> Sizes;
};

struct FunctionSymbol {
  uint64_t Section;
  uint64_t Address;
  uint64_t Size;
  llvm::StringRef Name;
  unsigned Rank; // lower is the better name for an address
};

/// Function address fields of .llvm_stackmaps by their offset in the
/// section, as relocations resolve them.
using StackMapAddresses = llvm::DenseMap<uint64_t, CodeAddress>;

/// The file being read and what has been found in it so far.
class Reader {
public:
  Reader(llvm::StringRef Path, const ReaderOptions &Options)
      : Path(Path.str()), Options(Options) {}
  /// A file already in memory (an archive's member), named Path.
  Reader(llvm::StringRef Path, std::unique_ptr<llvm::MemoryBuffer> Contents,
         const ReaderOptions &Options)
      : Path(Path.str()), Options(Options), Buffer(std::move(Contents)) {}
  llvm::Expected<BinaryReport> run();

private:
  // ReaderELF.cpp
  llvm::Error open();
  llvm::Error validateTables();
  llvm::Error scanSections();
  llvm::Error sectionBytes(const llvm::object::SectionRef &Section,
                           llvm::ArrayRef<uint8_t> &Bytes);
  llvm::ArrayRef<uint8_t> functionCode(const StackMapFunction &F);
  void collectSectionNames();

  // ReaderRelocations.cpp
  llvm::Error forEachRelocation(
      const llvm::object::SectionRef &Section,
      llvm::function_ref<llvm::Error(const llvm::object::RelocationRef &)> Fn);
  llvm::Error relocationSymbol(const llvm::object::RelocationRef &R,
                               uint64_t &SectionIndex, uint64_t &Value) const;
  llvm::Error preparePCs(const llvm::object::SectionRef &Section,
                         llvm::ArrayRef<uint8_t> Bytes,
                         std::unique_ptr<PCResolver> &PCs);
  llvm::Error checkRelocationsUsed(const llvm::object::SectionRef &Section,
                                   PCResolver &PCs);

  // ReaderSymbols.cpp
  llvm::Error collectSymbols();
  /// A file without metadata: one function per sized function symbol in
  /// code, its best-ranked name, atomics unknown.
  void functionsFromSymbols();
  const FunctionSymbol *symbolAt(uint64_t Section, uint64_t Address,
                                 uint64_t Size) const;
  const FunctionSymbol *symbolHolding(uint64_t Section, uint64_t Address) const;
  void nameFunctions();

  // ReaderFragments.cpp
  void joinFragments();

  // ReaderMetadata.cpp
  llvm::Error decodeSection(const llvm::object::SectionRef &Section,
                            const format::MetadataSectionName &Name);
  llvm::Error decodeUnsuffixedCovered(const llvm::object::SectionRef &Section,
                                      llvm::ArrayRef<uint8_t> Bytes,
                                      PCResolver &PCs, uint32_t &Version);
  void buildModel();
  void mergeFunctions();
  void mergeAtomics();
  void countAtomicsPerFunction();

  // ReaderLines.cpp
  void addSourceLines();

  // ReaderStackMaps.cpp
  llvm::Error decodeStackMaps();
  llvm::Error stackMapAddresses(const llvm::object::SectionRef &Section,
                                llvm::ArrayRef<uint8_t> Bytes,
                                StackMapAddresses &Out);
  llvm::Error
  relocatedStackMapAddresses(const llvm::object::SectionRef &Section,
                             llvm::ArrayRef<uint8_t> Bytes,
                             StackMapAddresses &Out);
  llvm::Error dynamicStackMapAddresses(const llvm::object::SectionRef &Section,
                                       llvm::ArrayRef<uint8_t> Bytes,
                                       StackMapAddresses &Out);
  StackMapBlob decodeStackMapBlob(const stackmap::Section &S, uint64_t Offset,
                                  const StackMapAddresses &Addresses);
  StackMapFunction stackMapFunction(const stackmap::Section &S, uint32_t I,
                                    uint64_t BlobOffset,
                                    const StackMapAddresses &Addresses) const;
  void sizeStackMapFunction(StackMapFunction &F) const;
  StackMapRecord stackMapRecord(const stackmap::Record &SR,
                                StackMapBlob &B) const;
  void findCallSites(const CallSiteAnalyzer &Analyzer, StackMapBlob &B);

  llvm::Error malformed(const llvm::Twine &What) const {
    return makeError(ExitCode::MalformedMetadata, "'" + Path + "': " + What);
  }
  llvm::Error malformed(const llvm::object::SectionRef &Section,
                        const llvm::Twine &What) const;

  std::string Path;
  ReaderOptions Options;
  std::unique_ptr<llvm::MemoryBuffer> Buffer;
  std::unique_ptr<llvm::object::ObjectFile> Object;
  const llvm::object::ELF64LEObjectFile *ELF = nullptr;
  const llvm::object::ELFObjectFileBase *ELFBase = nullptr; // the same file
  bool Relocatable = false;
  CodeMap Code;
  /// Relocation sections by the index of the section they apply to.
  llvm::DenseMap<uint64_t, llvm::SmallVector<llvm::object::SectionRef, 1>>
      RelocationsOf;
  std::vector<std::pair<llvm::object::SectionRef, format::MetadataSectionName>>
      MetadataSections;
  std::optional<llvm::object::SectionRef> StackMapSection;
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

} // namespace report
} // namespace pcmap

#endif // PCMAP_REPORT_READER_H
