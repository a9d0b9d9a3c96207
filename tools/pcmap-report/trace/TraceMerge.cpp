//===- TraceMerge.cpp - Many processes' dumps as one table ----------------===//
//
// A site or function is the same in every process when its module and its
// offset in the module are: the module is its GNU build ID, or its path when
// the trace has no build ID for it. Names and source lines then come from
// the module file itself when its build ID is the traced one
// (LLVMSymbolizer), or else stay the runtime's.
//
//===----------------------------------------------------------------------===//

#include "Trace.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/DebugInfo/Symbolize/Symbolize.h"
#include "llvm/Object/BuildID.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/WithColor.h"

#include <map>

using namespace llvm;

namespace pcmap {
namespace report {

void SampleCounts::add(const SampleCounts &C) {
  CpuNs += C.CpuNs;
  Samples += C.Samples;
  AtomicSamples += C.AtomicSamples;
  CoveredSamples += C.CoveredSamples;
  UncoveredSamples += C.UncoveredSamples;
  DroppedSamples += C.DroppedSamples;
}

double TraceReport::sampleRatio() const {
  double Expected = cpuSeconds() * double(Hz);
  return Expected > 0 ? double(Totals.Samples) / Expected : 0;
}

namespace {

/// A process's counts at a site or function, and their sums.
ProcessCount countOf(uint32_t Process, const TraceSite &S) {
  return {Process, S.PC, S.Samples, S.ExactSamples, S.SkidSamples, 0};
}
ProcessCount countOf(uint32_t Process, const TraceFunction &F) {
  return {Process, F.Start, F.Samples, 0, 0, F.AtomicSamples};
}
void addTo(TraceSite &Sum, const ProcessCount &C) {
  Sum.Samples += C.Samples;
  Sum.ExactSamples += C.Exact;
  Sum.SkidSamples += C.Skid;
}
void addTo(TraceFunction &Sum, const ProcessCount &C) {
  Sum.Samples += C.Samples;
  Sum.AtomicSamples += C.Atomic;
}
void addTo(ProcessCount &Sum, const ProcessCount &C) {
  Sum.Samples += C.Samples;
  Sum.Exact += C.Exact;
  Sum.Skid += C.Skid;
  Sum.Atomic += C.Atomic;
}

/// Merged rows of one kind, found by module and offset.
template <typename T> struct RowIndex {
  std::vector<Merged<T>> &Rows;
  std::map<std::pair<uint32_t, uint64_t>, size_t> Index;
};

class Merger {
public:
  explicit Merger(TraceReport &R) : R(R) {}
  void add(TraceDump &D);

private:
  uint32_t module(const std::string &BuildID, const std::string &Path);
  template <typename T>
  void addEntry(RowIndex<T> &Index, uint32_t Process, T &E);

  TraceReport &R;
  std::map<std::string, uint32_t> Modules; // "b:<build ID>" or "p:<path>"
  RowIndex<TraceSite> Sites{R.Sites, {}};
  RowIndex<TraceFunction> Functions{R.Functions, {}};
};

uint32_t Merger::module(const std::string &BuildID, const std::string &Path) {
  std::string Key = BuildID.empty() ? "p:" + Path : "b:" + BuildID;
  auto [It, New] = Modules.try_emplace(Key, uint32_t(R.Modules.size()));
  if (New) {
    R.Modules.emplace_back();
    R.Modules.back().BuildID = BuildID;
  }
  std::vector<std::string> &Paths = R.Modules[It->second].Paths;
  if (!Path.empty() && !is_contained(Paths, Path))
    Paths.push_back(Path);
  return It->second;
}

template <typename T>
void Merger::addEntry(RowIndex<T> &Index, uint32_t Process, T &E) {
  uint32_t M = module(E.BuildID, E.Module);
  ProcessCount C = countOf(Process, E);
  auto [It, New] =
      Index.Index.try_emplace({M, E.ModuleOffset}, Index.Rows.size());
  if (New) {
    Index.Rows.push_back({std::move(E), M, {C}});
    return;
  }
  Merged<T> &Row = Index.Rows[It->second];
  addTo(Row.Entry, C);
  // The same module mapped twice in one process: one count.
  if (Row.Processes.back().Process == Process)
    addTo(Row.Processes.back(), C);
  else
    Row.Processes.push_back(C);
}

void Merger::add(TraceDump &D) {
  uint32_t P = R.Processes.size();
  const TraceProcess &T = D.Process;
  R.Hz = T.Hz;
  R.Totals.add(T);
  R.Processes.push_back(std::move(D.Process));
  for (TraceSite &S : D.Sites)
    addEntry(Sites, P, S);
  for (TraceFunction &F : D.Functions)
    addEntry(Functions, P, F);
}

/// Most samples first; ties in module and offset order. The processes of
/// each row: most samples first, ties in the order they were read.
template <typename T> void rank(std::vector<Merged<T>> &Rows) {
  for (Merged<T> &X : Rows)
    llvm::sort(X.Processes, [](const ProcessCount &A, const ProcessCount &B) {
      if (A.Samples != B.Samples)
        return A.Samples > B.Samples;
      return A.Process < B.Process;
    });
  llvm::sort(Rows, [](const Merged<T> &A, const Merged<T> &B) {
    if (A.Entry.Samples != B.Entry.Samples)
      return A.Entry.Samples > B.Entry.Samples;
    return std::make_pair(A.Module, A.Entry.ModuleOffset) <
           std::make_pair(B.Module, B.Entry.ModuleOffset);
  });
}

} // namespace

TraceReport mergeTraces(std::vector<TraceDump> Dumps,
                        std::vector<TraceFile> Files) {
  TraceReport R;
  R.Files = std::move(Files);
  Merger M(R);
  for (TraceDump &D : Dumps)
    M.add(D);
  rank(R.Sites);
  rank(R.Functions);
  return R;
}

//===----------------------------------------------------------------------===//
// Offline symbolization
//===----------------------------------------------------------------------===//

namespace {

/// The GNU build ID of the object at Path, lowercase hex ("" if none).
Expected<std::string> fileBuildID(StringRef Path) {
  Expected<object::OwningBinary<object::Binary>> B = object::createBinary(Path);
  if (!B)
    return B.takeError();
  auto *Obj = dyn_cast<object::ObjectFile>(B->getBinary());
  if (!Obj)
    return createStringError(inconvertibleErrorCode(), "not an object file");
  return toHex(object::getBuildID(Obj), /*LowerCase=*/true);
}

/// Decides where M's names come from; one warning if not from the file.
void checkModule(TraceModule &M) {
  if (M.Paths.empty()) {
    M.Note = "the trace names no module file";
    return;
  }
  for (const std::string &Path : M.Paths) {
    Expected<std::string> ID = fileBuildID(Path);
    if (!ID) {
      if (M.Note.empty())
        M.Note = toString(ID.takeError());
      else
        consumeError(ID.takeError());
      continue;
    }
    if (*ID == M.BuildID) {
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

/// The function holding Offset and its source line: the outermost frame,
/// so that an atomic inlined from a library header is in its caller.
void lookUp(symbolize::LLVMSymbolizer &Sym, const std::string &Path,
            TraceEntry &E) {
  Expected<DIInliningInfo> Info = Sym.symbolizeInlinedCode(
      Path, {E.ModuleOffset, object::SectionedAddress::UndefSection});
  if (!Info) {
    consumeError(Info.takeError());
    return;
  }
  if (!Info->getNumberOfFrames())
    return;
  const DILineInfo &F = Info->getFrame(Info->getNumberOfFrames() - 1);
  if (F.FunctionName != DILineInfo::BadString && !F.FunctionName.empty())
    E.Function = F.FunctionName;
  if (F.FileName != DILineInfo::BadString && F.Line) {
    E.Location = F.FileName + ":" + std::to_string(F.Line);
    if (F.Column)
      E.Location += ":" + std::to_string(F.Column);
  }
}

/// Names and lines of the rows whose module was checked, or none without
/// SourceLines.
template <typename T>
void symbolizeRows(symbolize::LLVMSymbolizer &Sym, const TraceReport &R,
                   std::vector<Merged<T>> &Rows, bool SourceLines) {
  for (Merged<T> &Row : Rows) {
    const TraceModule &M = R.Modules[Row.Module];
    if (M.Symbolized)
      lookUp(Sym, M.SymbolizedPath, Row.Entry);
    if (!SourceLines)
      Row.Entry.Location.clear();
  }
}

} // namespace

void symbolizeTrace(TraceReport &R, bool Demangle, bool SourceLines) {
  for (TraceModule &M : R.Modules)
    checkModule(M);
  symbolize::LLVMSymbolizer::Options Opts;
  Opts.Demangle = Demangle;
  symbolize::LLVMSymbolizer Sym(Opts);
  symbolizeRows(Sym, R, R.Sites, SourceLines);
  symbolizeRows(Sym, R, R.Functions, SourceLines);
}

} // namespace report
} // namespace pcmap
