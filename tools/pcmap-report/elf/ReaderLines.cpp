//===- ReaderLines.cpp - Source lines from the DWARF line tables ----------===//
//
// Gives functions and atomic sites the source line of the function that
// holds them, with LLVM's DWARFContext. Broken debug information costs the
// source lines, never the report.
//
//===----------------------------------------------------------------------===//

#include "Reader.h"

#include "llvm/DebugInfo/DWARF/DWARFContext.h"

using namespace llvm;
using namespace llvm::object;

namespace pcmap {
namespace report {

namespace {

bool hasDebugLine(const ObjectFile &Object) {
  for (const SectionRef &Section : Object.sections()) {
    Expected<StringRef> Name = Section.getName();
    if (!Name) {
      consumeError(Name.takeError());
      continue;
    }
    if (*Name == ".debug_line" || *Name == ".zdebug_line")
      return true;
  }
  return false;
}

/// The outermost frame at a place: the function that holds it, rather than
/// what was inlined into it (for an atomic inlined from <atomic>, the user's
/// line that called it). Null if the line tables do not cover the place.
std::optional<DILineInfo> outermostFrame(DWARFContext &DICtx, uint64_t Address,
                                         uint64_t Section) {
  using FileKind = DILineInfoSpecifier::FileLineInfoKind;
  DILineInfoSpecifier Spec(FileKind::AbsoluteFilePath, DINameKind::None);
  DIInliningInfo Frames =
      DICtx.getInliningInfoForAddress({Address, Section}, Spec);
  if (!Frames.getNumberOfFrames())
    return std::nullopt;
  return Frames.getFrame(Frames.getNumberOfFrames() - 1);
}

} // namespace

void Reader::addSourceLines() {
  if (!Options.SourceLines || !hasDebugLine(*Object))
    return;
  auto Ignore = [](Error E) { consumeError(std::move(E)); };
  std::unique_ptr<DWARFContext> DICtx = DWARFContext::create(
      *Object, DWARFContext::ProcessDebugRelocations::Process, nullptr, "",
      Ignore, Ignore);
  if (!DICtx || DICtx->getNumCompileUnits() == 0)
    return;
  Report.HasDebugInfo = true;
  // A function's line is its declaration's.
  for (FunctionInfo &F : Report.Functions) {
    std::optional<DILineInfo> Outer =
        outermostFrame(*DICtx, F.Address, F.Section);
    if (!Outer)
      continue;
    if (Outer->StartLine && Outer->StartFileName != DILineInfo::BadString) {
      F.Source.File = Outer->StartFileName;
      F.Source.Line = Outer->StartLine;
    } else if (Outer->Line && Outer->FileName != DILineInfo::BadString) {
      F.Source.File = Outer->FileName;
      F.Source.Line = Outer->Line;
    }
  }
  if (!Options.AtomicDetails)
    return;
  for (AtomicSite &A : Report.Atomics) {
    std::optional<DILineInfo> Outer =
        outermostFrame(*DICtx, A.Address, A.Section);
    if (Outer && Outer->Line && Outer->FileName != DILineInfo::BadString) {
      A.Source.File = Outer->FileName;
      A.Source.Line = Outer->Line;
    }
  }
}

} // namespace report
} // namespace pcmap
