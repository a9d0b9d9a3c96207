//===- Report.h - A BinaryReport from an ELF file ---------------*- C++ -*-===//
//
// The ELF component's entry point: readBinary() reads the metadata sections,
// symbols, source lines and stack maps of one file into the model
// (model/BinaryReport.h). Reader.h is how it does so.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_REPORT_REPORT_H
#define PCMAP_REPORT_REPORT_H

#include "BinaryReport.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace pcmap {
namespace report {

/// What the user asked for an unsuffixed sanmd section (LLVM 16 to 18).
enum class UpstreamVersionChoice { Auto, V1, V2 };

struct ReaderOptions {
  UpstreamVersionChoice UnsuffixedUpstream = UpstreamVersionChoice::Auto;
  /// Look up source lines in the DWARF debug information, if any.
  bool SourceLines = true;
  /// Also fill BinaryReport::Atomics' symbols and source lines (the atomics
  /// subcommand); counts per function are always computed.
  bool AtomicDetails = false;
  /// Read .llvm_stackmaps (the stackmaps subcommand): the file then needs a
  /// stack map section rather than pcmap or sanmd sections, which are still
  /// read for function sizes when present.
  bool StackMaps = false;
};

/// Reads the metadata of one ELF file. The error is a ReportError naming the
/// file.
llvm::Expected<BinaryReport> readBinary(llvm::StringRef Path,
                                        const ReaderOptions &Options);

/// Reads Path: an ELF file gives one report, an archive (.a) one per member,
/// named "ARCHIVE(MEMBER)", in the archive's order. Each report, or the
/// error of a file or a member, goes to Each; a bad member does not stop
/// the others.
void readReports(llvm::StringRef Path, const ReaderOptions &Options,
                 llvm::function_ref<void(llvm::Expected<BinaryReport>)> Each);

} // namespace report
} // namespace pcmap

#endif // PCMAP_REPORT_REPORT_H
