//===- TraceSymbolize.cpp - The merged trace named from its modules -------===//
//
// Names and source lines come from the module file itself when its build ID
// is the traced one (LLVMSymbolizer), or else stay the runtime's. A PC in
// inlined code stands for several source positions, innermost first: an
// atomic inlined from a helper is at the helper's line, inlined into its
// caller's. Sites keep them all; a function is named by the outermost one
// (the function that holds the code); a stack frame keeps them all, and
// frames of a module that could not be read are named by the covered
// function of the trace they lie in (linkStacks).
//
//===----------------------------------------------------------------------===//

#include "Trace.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/DebugInfo/Symbolize/Symbolize.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Object/BuildID.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;

namespace pcmap {
namespace report {

std::string TraceSourceFrame::location(bool BaseName) const {
  if (File.empty())
    return "";
  std::string Out =
      BaseName ? sys::path::filename(File).str() : std::string(File);
  if (Line)
    Out += ":" + std::to_string(Line);
  if (Line && Column)
    Out += ":" + std::to_string(Column);
  return Out;
}

const std::string *TraceModule::pltEntryAt(uint64_t Offset) const {
  auto It = Plt.upper_bound(Offset);
  if (It == Plt.begin())
    return nullptr;
  --It;
  return Offset - It->first < PltEntrySize ? &It->second : nullptr;
}

namespace {

// ELFObjectFileBase::getPltEntries takes the target's subtarget from LLVM
// 20 on; before, it made its own.
template <typename Obj>
auto pltEntriesOf(const Obj &O, const MCSubtargetInfo &STI, int)
    -> decltype(O.getPltEntries(STI)) {
  return O.getPltEntries(STI);
}
template <typename Obj>
auto pltEntriesOf(const Obj &O, const MCSubtargetInfo &, long)
    -> decltype(O.getPltEntries()) {
  return O.getPltEntries();
}

/// The PLT entries of an ELF file, named by the symbols their relocations
/// bind ("memcmp@plt"), as llvm-objdump names them.
std::map<uint64_t, std::string> pltEntries(const object::ObjectFile &File) {
  std::map<uint64_t, std::string> Out;
  const auto *Elf = dyn_cast<object::ELFObjectFileBase>(&File);
  if (!Elf)
    return Out;
  static bool Initialized = [] {
    InitializeAllTargetInfos();
    InitializeAllTargetMCs();
    return true;
  }();
  (void)Initialized;
  Triple T = File.makeTriple();
  std::string Error;
  const Target *TheTarget = TargetRegistry::lookupTarget(T.str(), Error);
  if (!TheTarget)
    return Out;
  std::unique_ptr<MCSubtargetInfo> STI(
      TheTarget->createMCSubtargetInfo(T.str(), "", ""));
  if (!STI)
    return Out;
  for (const object::ELFPltEntry &E : pltEntriesOf(*Elf, *STI, 0)) {
    if (!E.Symbol)
      continue;
    object::SymbolRef Sym(*E.Symbol, Elf);
    Expected<StringRef> Name = Sym.getName();
    if (!Name) {
      consumeError(Name.takeError());
      continue;
    }
    if (!Name->empty())
      Out[E.Address] = (*Name + "@plt").str();
  }
  return Out;
}

/// The GNU build ID of the object at Path, lowercase hex ("" if none), and
/// its PLT entries.
Expected<std::string> fileBuildID(StringRef Path,
                                  std::map<uint64_t, std::string> *Plt) {
  Expected<object::OwningBinary<object::Binary>> B = object::createBinary(Path);
  if (!B)
    return B.takeError();
  auto *Obj = dyn_cast<object::ObjectFile>(B->getBinary());
  if (!Obj)
    return createStringError(inconvertibleErrorCode(), "not an object file");
  std::string ID = toHex(object::getBuildID(Obj), /*LowerCase=*/true);
  if (Plt)
    *Plt = pltEntries(*Obj);
  return ID;
}

/// Decides where M's names come from; one warning if not from the file.
void checkModule(TraceModule &M) {
  if (M.NoModule) {
    M.Note = "code in no module (JIT code): frames are addresses";
    return;
  }
  if (M.Paths.empty()) {
    M.Note = "the trace names no module file";
    return;
  }
  // The kernel's vDSO has no file (its soname is what the dynamic linker
  // lists): its names are the trace's, which is no reason to warn.
  StringRef Soname = sys::path::filename(M.Paths.front());
  if (Soname.starts_with("linux-vdso.so") ||
      Soname.starts_with("linux-gate.so") || Soname == "[vdso]") {
    M.Note = "the kernel's vDSO: names are the trace's";
    return;
  }
  for (const std::string &Path : M.Paths) {
    std::map<uint64_t, std::string> Plt;
    Expected<std::string> ID = fileBuildID(Path, &Plt);
    if (!ID) {
      if (M.Note.empty())
        M.Note = toString(ID.takeError());
      else
        consumeError(ID.takeError());
      continue;
    }
    if (*ID == M.BuildID) {
      M.Plt = std::move(Plt);
      M.Symbolized = true;
      M.SymbolizedPath = Path;
      M.Note.clear();
      return;
    }
    M.Note = "build ID differs from the traced one (" +
             (ID->empty() ? "none" : *ID) + " in the file, " +
             (M.BuildID.empty() ? "none" : M.BuildID) + " in the trace)";
  }
  WithColor::warning(errs(), "pcmap-report")
      << "'" << M.Paths.front() << "': " << M.Note
      << "; names are the trace's\n";
}

/// The symbolizer, and what every look-up needs.
struct Namer {
  symbolize::LLVMSymbolizer Sym;
  bool Demangle, SourceLines;

  Namer(bool Demangle, bool SourceLines)
      : Sym(options()), Demangle(Demangle), SourceLines(SourceLines) {}
  /// Names as in the file: each is demangled here, to keep both.
  static symbolize::LLVMSymbolizer::Options options() {
    symbolize::LLVMSymbolizer::Options Opts;
    Opts.Demangle = false;
    return Opts;
  }

  /// The source positions of Offset in the file at Path, innermost first
  /// (none if it has neither debug information nor a symbol there), and
  /// the start of the function that holds it, if known.
  std::vector<TraceSourceFrame>
  lookUp(const std::string &Path, uint64_t Offset,
         std::optional<uint64_t> *Start = nullptr);
};

std::vector<TraceSourceFrame> Namer::lookUp(const std::string &Path,
                                            uint64_t Offset,
                                            std::optional<uint64_t> *Start) {
  std::vector<TraceSourceFrame> Out;
  Expected<DIInliningInfo> Info = Sym.symbolizeInlinedCode(
      Path, {Offset, object::SectionedAddress::UndefSection});
  if (!Info) {
    consumeError(Info.takeError());
    return Out;
  }
  for (uint32_t I = 0, E = Info->getNumberOfFrames(); I < E; ++I) {
    const DILineInfo &F = Info->getFrame(I);
    TraceSourceFrame S;
    if (F.FunctionName != DILineInfo::BadString && !F.FunctionName.empty()) {
      S.LinkageName = F.FunctionName;
      S.Function = displaySymbol(F.FunctionName, Demangle);
    }
    if (SourceLines && F.FileName != DILineInfo::BadString && F.Line) {
      S.File = F.FileName;
      S.Line = F.Line;
      S.Column = F.Column;
    }
    if (I + 1 == E && Start)
      *Start = F.StartAddress;
    Out.push_back(std::move(S));
  }
  // Neither a name nor a line: nothing known.
  if (Out.size() == 1 && Out[0].Function.empty() && Out[0].File.empty())
    Out.clear();
  return Out;
}

/// A site: every position of its PC; its function, the outermost.
void nameSite(Namer &N, const std::string &Path, TraceSite &S) {
  std::vector<TraceSourceFrame> Lines = N.lookUp(Path, S.ModuleOffset);
  if (Lines.empty())
    return;
  if (!Lines.back().Function.empty())
    S.Function = Lines.back().Function;
  if (!Lines.front().File.empty())
    S.Location = Lines.front().location();
  S.Inline = std::move(Lines);
}

/// A function: the outermost position of its start.
void nameFunction(Namer &N, const std::string &Path, TraceFunction &F) {
  std::vector<TraceSourceFrame> Lines = N.lookUp(Path, F.ModuleOffset);
  if (Lines.empty())
    return;
  if (!Lines.back().Function.empty())
    F.Function = Lines.back().Function;
  if (!Lines.back().File.empty())
    F.Location = Lines.back().location();
}

} // namespace

void symbolizeTrace(TraceReport &R, bool Demangle, bool SourceLines) {
  for (TraceModule &M : R.Modules)
    checkModule(M);
  Namer N(Demangle, SourceLines);
  for (MergedSite &Row : R.Sites) {
    const TraceModule &M = R.Modules[Row.Module];
    if (M.Symbolized)
      nameSite(N, M.SymbolizedPath, Row.Entry);
    if (!SourceLines)
      Row.Entry.Location.clear();
  }
  for (MergedFunction &Row : R.Functions) {
    const TraceModule &M = R.Modules[Row.Module];
    if (M.Symbolized)
      nameFunction(N, M.SymbolizedPath, Row.Entry);
    if (!SourceLines)
      Row.Entry.Location.clear();
  }
  for (TraceFrame &F : R.Frames) {
    const TraceModule &M = R.Modules[F.Module];
    if (!M.Symbolized)
      continue;
    if (const std::string *Stub = M.pltEntryAt(F.Offset)) {
      TraceSourceFrame S;
      S.Function = S.LinkageName = *Stub;
      F.Lines = {S};
      continue;
    }
    F.Lines = N.lookUp(M.SymbolizedPath, F.Offset, &F.Start);
  }
  linkStacks(R);
  // The data's names, and its sites by the lines just read.
  nameData(R, Demangle, /*Files=*/true, /*Types=*/SourceLines);
  // The waits' objects likewise, and their kinds by the names just read.
  // The kinds first: a condition variable's waits are named by their kind.
  classifyWaits(R);
  nameWaitObjects(R, Demangle, /*Files=*/true, /*Types=*/SourceLines);
}

} // namespace report
} // namespace pcmap
