//===- ReaderLines.cpp - Source lines from the DWARF line tables ----------===//
//
// Gives functions their declaration's line and atomic sites their chain of
// inlined frames, with LLVM's DWARFContext. Broken debug information costs
// the source lines, never the report.
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

/// The frames at an atomic site, innermost first, as
/// getInliningInfoForAddress gives them (and llvm-symbolizer --inlines
/// prints them). Empty if the line tables do not cover the place.
std::vector<SourceFrame> inlinedFrames(DWARFContext &DICtx, uint64_t Address,
                                       uint64_t Section) {
  using FileKind = DILineInfoSpecifier::FileLineInfoKind;
  DILineInfoSpecifier Spec(FileKind::AbsoluteFilePath, DINameKind::LinkageName);
  DIInliningInfo Info =
      DICtx.getInliningInfoForAddress({Address, Section}, Spec);
  std::vector<SourceFrame> Frames(Info.getNumberOfFrames());
  for (uint32_t I = 0; I < Info.getNumberOfFrames(); ++I) {
    const DILineInfo &Line = Info.getFrame(I);
    SourceFrame &F = Frames[I];
    if (Line.FunctionName != DILineInfo::BadString)
      F.Function = Line.FunctionName;
    if (Line.Line && Line.FileName != DILineInfo::BadString) {
      F.Source.File = Line.FileName;
      F.Source.Line = Line.Line;
    }
  }
  return Frames;
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
  // A site's line is its innermost frame's: the line that holds the atomic
  // operation, wherever it was inlined.
  for (AtomicSite &A : Report.Atomics) {
    A.Frames = inlinedFrames(*DICtx, A.Address, A.Section);
    if (!A.Frames.empty())
      A.Source = A.Frames.front().Source;
  }
}

} // namespace report
} // namespace pcmap
