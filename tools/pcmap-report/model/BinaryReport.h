//===- BinaryReport.h - What pcmap-report knows about a binary --*- C++ -*-===//
//
// The model every subcommand and output format works from: the functions and
// atomic sites that the metadata sections of one ELF file describe, with their
// symbol names and source lines. The ELF reader (elf/Report.h) fills it from
// an object file; the writers only read it.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_REPORT_BINARYREPORT_H
#define PCMAP_REPORT_BINARYREPORT_H

#include "pcmap/Format.h"
#include "pcmap/StackMap.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace pcmap {
namespace report {

/// Exit status of pcmap-report (docs/Report.md). When several files fail,
/// the first failure decides.
enum class ExitCode : int {
  Success = 0,
  Usage = 1,             // bad command line
  FileError = 2,         // the file cannot be read (missing, a directory, ...)
  UnsupportedFile = 3,   // not ELF, not 64-bit little endian, other machine
  NoMetadata = 4,        // stackmaps: no .llvm_stackmaps; trace: no samples
  MalformedMetadata = 5, // a metadata section (or the ELF around it) is broken
};

/// An error about one input file, with the exit status it maps to.
class ReportError : public llvm::ErrorInfo<ReportError> {
public:
  static char ID;
  ReportError(ExitCode Code, std::string Message)
      : Code(Code), Message(std::move(Message)) {}
  ExitCode code() const { return Code; }
  const std::string &text() const { return Message; }
  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override;

private:
  ExitCode Code;
  std::string Message;
};

llvm::Error makeError(ExitCode Code, const llvm::Twine &Message);

/// Section index of addresses in linked files (object::SectionedAddress's).
constexpr uint64_t kNoSection = ~uint64_t(0);
constexpr uint32_t kNoFunction = ~uint32_t(0);

/// Which tables an entry came from.
enum SourceBits : uint8_t {
  FromPCMap = 1,    // pcmap_functions / pcmap_atomics
  FromUpstream = 2, // sanmd_covered / sanmd_atomics
  /// A function of a file without metadata, from its symbol table: its
  /// atomics are unknown.
  FromSymbolTable = 4,
};

/// Columns of the per-kind atomics counts. Upstream atomics have no kind.
enum KindColumn : unsigned {
  KC_Load = format::AK_Load,
  KC_Store = format::AK_Store,
  KC_RMW = format::AK_RMW,
  KC_CmpXchg = format::AK_CmpXchg,
  KC_Fence = format::AK_Fence,
  KC_Unknown,
  KC_Count,
};
const char *kindColumnName(unsigned Column); // "load", ..., "unknown"

/// A source position from the debug information; Line 0 if unknown.
struct SourceLine {
  std::string File;
  uint32_t Line = 0;
};

/// A frame of an atomic site's inlining chain: a function the debug
/// information names there, and the line in it (for a frame the next one
/// was inlined into, the line of the call).
struct SourceFrame {
  /// The subprogram's linkage name (mangled) when it has one, else its
  /// name; empty if the debug information has neither.
  std::string Function;
  SourceLine Source;
};

/// A fragment of a split function after its first (docs/FORMAT.md,
/// "Fragments"): a local symbol of the file joined to the function.
struct FunctionFragment {
  uint64_t Address = 0;
  uint64_t Section = kNoSection;
  uint64_t Size = 0;
  std::string Name;        // its symbol, "<function>.__part.<N>", ...
  uint32_t NumAtomics = 0; // distinct atomic PCs in it
};

struct FunctionInfo {
  /// Virtual address in a linked file; offset in section Section in a
  /// relocatable object.
  uint64_t Address = 0;
  uint64_t Section = kNoSection;
  /// Bytes: every fragment's. EntrySize is the first fragment's, the size
  /// of the function entry.
  uint64_t Size = 0;
  uint64_t EntrySize = 0;
  /// The fragments after the first, by address (kFeatureFragmented).
  std::vector<FunctionFragment> Fragments;
  /// The symbol at Address (mangled), or empty if there is none.
  std::string Name;
  uint8_t Sources = 0;
  uint64_t Features = 0;         // pcmap features (FromPCMap)
  uint64_t UpstreamFeatures = 0; // sanmd features (FromUpstream)
  uint32_t UpstreamVersion = 0;  // base version of the sanmd section
  bool HasStackArgs = false;
  uint64_t StackArgs = 0;
  uint32_t NumAtomics = 0; // distinct atomic PCs in [Address, Address + Size)
  uint32_t AtomicsByKind[KC_Count] = {};
  SourceLine Source;
};

struct AtomicSite {
  uint64_t Address = 0;
  uint64_t Section = kNoSection;
  uint8_t Sources = 0;
  /// False for sites only upstream recorded: their kind is unknown.
  bool HasDescriptor = false;
  format::AtomicDescriptor Descriptor;
  /// The function entry holding the site, or kNoFunction.
  uint32_t Function = kNoFunction;
  /// The symbol holding the site, for "function+offset" (empty if none).
  std::string Symbol;
  uint64_t SymbolOffset = 0;
  /// The innermost frame's line: for an atomic inlined from a helper (or
  /// from <atomic>), the helper's line, not its caller's.
  SourceLine Source;
  /// The frames at the site, innermost first, as llvm-symbolizer --inlines
  /// prints them: the function the atomic is written in, then each function
  /// it was inlined into, the last the function that holds the site. One
  /// frame if nothing was inlined, none without debug information.
  std::vector<SourceFrame> Frames;
};

/// One metadata section as found in the file.
struct MetadataSection {
  std::string Name;
  format::MetadataKind Kind = format::MK_None;
  uint32_t Version = 0;
  bool VersionFromName = true; // false: an unsuffixed sanmd section
  uint64_t Size = 0;
  uint64_t Entries = 0; // functions, or atomic PCs
};

/// Stack maps (.llvm_stackmaps, docs/StackMaps.md), for the stackmaps
/// subcommand.
struct StackMapLocation {
  uint8_t Kind = 0; // stackmap::LocationKind
  uint16_t Size = 0;
  uint16_t DwarfReg = 0;
  int32_t Offset = 0;
};

struct StackMapLiveOut {
  uint16_t DwarfReg = 0;
  uint8_t Size = 0;
};

/// Where a function's size came from.
enum class SizeSource { None, PCMap, Symbol };

struct StackMapFunction {
  /// The field as stored (0 in relocatable objects and in PIEs whose
  /// dynamic relocations fill it at load time).
  uint64_t StoredAddress = 0;
  /// The function's address after relocations (Address in Section for
  /// relocatable objects); Resolved is false when a relocation could not be
  /// resolved.
  uint64_t Address = 0;
  uint64_t Section = kNoSection;
  bool Resolved = true;
  uint64_t StackSize = 0;
  uint64_t RecordCount = 0; // stackmap::kUnknownRecordCount in version 1
  uint64_t Size = 0;
  SizeSource SizeFrom = SizeSource::None;
  std::string Name; // mangled, empty if no symbol
  uint32_t FirstRecord = 0;
};

struct StackMapRecord {
  uint64_t ID = 0;
  uint32_t InstructionOffset = 0;
  uint16_t Flags = 0;
  uint32_t Function = kNoFunction; // index in the blob's functions
  /// Function address + instruction offset (in Section for relocatable
  /// objects); only meaningful when the function is known and resolved.
  uint64_t PC = 0;
  uint64_t Section = kNoSection;
  std::vector<StackMapLocation> Locations;
  std::vector<StackMapLiveOut> LiveOuts;
  /// What precedes or starts at the PC (docs/Report.md, "stackmaps").
  stackmap::CallSiteKind CallKind = stackmap::CK_Unknown;
  uint32_t CallSize = 0;
};

/// One blob of a .llvm_stackmaps section (a linked file has one per object).
struct StackMapBlob {
  uint64_t SectionOffset = 0;
  unsigned Version = 0;
  std::vector<StackMapFunction> Functions;
  std::vector<uint64_t> Constants;
  std::vector<StackMapRecord> Records;
};

struct BinaryReport {
  std::string Path;
  std::string FileFormat; // "elf64-x86-64"
  std::string Arch;       // "x86_64", "aarch64"
  std::string FileType;   // "executable", "shared-object", "relocatable"
  bool HasDebugInfo = false;
  /// The file has no pcmap or sanmd metadata: its functions are its
  /// symbol table's (sizes as llvm-nm -S gives them), their atomics unknown.
  bool FromSymbolTable = false;
  std::vector<MetadataSection> Sections;
  /// Sorted by (Section, Address), no two at the same place.
  std::vector<FunctionInfo> Functions;
  /// Sorted by (Section, Address), one per distinct PC.
  std::vector<AtomicSite> Atomics;
  /// Names of the sections functions and atomics refer to (relocatable
  /// objects), indexed by section index; empty for linked files.
  std::vector<std::string> SectionNames;
  /// Blobs of .llvm_stackmaps (read for the stackmaps subcommand only).
  std::vector<StackMapBlob> StackMaps;

  bool isRelocatable() const { return FileType == "relocatable"; }
  llvm::StringRef sectionName(uint64_t Index) const {
    return Index < SectionNames.size() ? llvm::StringRef(SectionNames[Index])
                                       : llvm::StringRef();
  }
};

} // namespace report
} // namespace pcmap

#endif // PCMAP_REPORT_BINARYREPORT_H
