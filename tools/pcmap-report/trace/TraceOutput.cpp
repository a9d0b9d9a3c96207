//===- TraceOutput.cpp - The merged trace as text and CSV -----------------===//
//
// Text: a summary, the ranked atomic sites, the ranked covered functions,
// each with the number of processes that had samples there; --per-process
// adds a table of the processes and, under each row, one row per process;
// then, with stacks, the callers of the top rows, a frame a line.
// CSV: one header row, a row per site and per function (with --per-process,
// per site or function and process), then a row per caller of each,
// marked by the "table" column. Folded stacks: a line per stack.
//
//===----------------------------------------------------------------------===//

#include "Output.h"
#include "Trace.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cmath>
#include <map>

using namespace llvm;

namespace pcmap {
namespace report {

std::string traceSummary(const TraceReport &R) {
  std::string S;
  raw_string_ostream OS(S);
  OS << R.Processes.size()
     << (R.Processes.size() == 1 ? " process, " : " processes, ")
     << R.Files.size() << (R.Files.size() == 1 ? " file: " : " files: ")
     << R.Totals.Samples << " samples at " << R.Hz << " Hz in "
     << cpuSecondsText(R.Totals.CpuNs) << " s of CPU time ("
     << llvm::format("%.3f", R.sampleRatio()) << " of the "
     << uint64_t(std::llround(R.cpuSeconds() * double(R.Hz)))
     << " expected from CPU time x rate)";
  return S;
}

std::string resolutionText(const TraceReport &R) {
  const SampleCounts &C = R.Totals;
  if (!C.ObservationsKnown || !C.Observations)
    return "";
  std::string S;
  raw_string_ostream OS(S);
  OS << C.Observations << " sampling signals for " << C.Samples
     << " samples, one per "
     << llvm::format("%.1f", double(C.CpuNs) / 1e6 / double(C.Observations))
     << " ms of CPU time";
  if (trace::sampledByEvents(C.Observations, C.EventObservations))
    OS << " (task-clock events)";
  else if (double(C.Samples) > 1.25 * double(C.Observations))
    OS << " (the kernel's clock tick)";
  OS << "; a share's standard error is at most "
     << llvm::format("%.1f", 50.0 / std::sqrt(double(C.Observations)))
     << " points";
  return S;
}

std::string sampleBreakdown(const TraceReport &R) {
  return std::to_string(R.Totals.AtomicSamples) + " on atomics (" +
         percentText(R.share(R.Totals.AtomicSamples)) + "), " +
         std::to_string(R.Totals.CoveredSamples) + " in covered functions, " +
         std::to_string(R.Totals.UncoveredSamples) + " elsewhere, " +
         std::to_string(R.Totals.DroppedSamples) + " dropped" +
         (R.Version >= 3 ? ", " + std::to_string(R.Totals.StackSamplesDropped) +
                               " without a stack"
                         : "");
}

std::string cpuSecondsText(uint64_t Ns) {
  std::string S;
  raw_string_ostream(S) << llvm::format("%.3f", double(Ns) / 1e9);
  return S;
}

size_t shownRows(size_t N, const OutputOptions &O) {
  return O.Top ? std::min(N, O.Top) : N;
}

std::string percentText(double Share) {
  std::string S;
  raw_string_ostream(S) << llvm::format("%.1f%%", 100 * Share);
  return S;
}

std::string processLabel(const TraceReport &R, uint32_t Process) {
  const TraceProcess &P = R.Processes[Process];
  std::string Label = "pid " + std::to_string(P.Pid);
  if (count_if(R.Processes,
               [&](const TraceProcess &Q) { return Q.Pid == P.Pid; }) > 1)
    Label += " run " + P.Run;
  return Label;
}

std::string moduleText(const TraceReport &R, uint32_t Module, uint64_t Offset) {
  const TraceModule &M = R.Modules[Module];
  if (M.NoModule)
    return hexAddress(Offset);
  StringRef Name = M.Paths.empty() ? "?" : sys::path::filename(M.Paths[0]);
  return Name.str() + "+" + hexAddress(Offset);
}

std::string functionText(const TraceSite &S) {
  if (S.Function.empty())
    return "?";
  return S.Function + "+" + hexAddress(S.FunctionOffset);
}

std::string functionText(const TraceFunction &F) {
  return F.Function.empty() ? "?" : F.Function;
}

namespace {

std::string num(uint64_t V) { return std::to_string(V); }
std::string dash(const std::string &S) { return S.empty() ? "-" : S; }

/// The columns between PROCESSES and FUNCTION; functions' samples in
/// uncovered callees only with version 3 dumps.
std::vector<Table::Column> kindColumns(const TraceSite *, const TraceReport &) {
  return {{"KIND", false},
          {"SIZE", true},
          {"ORDER", false},
          {"FAILURE", false},
          {"OP", false}};
}
std::vector<std::string> kindCells(const TraceSite &S, const TraceReport &) {
  return {dash(S.Kind), S.Size ? num(S.Size) : "-", dash(S.Order),
          dash(S.FailureOrder), dash(S.Op)};
}
std::vector<Table::Column> kindColumns(const TraceFunction *,
                                       const TraceReport &R) {
  std::vector<Table::Column> Cols = {{"ATOMIC", true}, {"ON ATOMICS", true}};
  if (R.Version >= 3)
    Cols.push_back({"IN UNCOVERED CALLEES", true});
  return Cols;
}
std::vector<std::string> kindCells(const TraceFunction &F,
                                   const TraceReport &R) {
  double OnAtomics = F.Samples ? double(F.AtomicSamples) / F.Samples : 0;
  std::vector<std::string> Cells = {num(F.AtomicSamples),
                                    percentText(OnAtomics)};
  if (R.Version >= 3)
    Cells.push_back(num(F.UncoveredCalleeSamples));
  return Cells;
}

/// The SOURCE cell: a site's positions, inlined ones too; a function's.
std::string sourceCell(const TraceSite &S) {
  std::string Text = inlineText(S, /*BaseName=*/true);
  if (!S.LineOffsets.empty())
    Text += " (+" + std::to_string(S.LineOffsets.size()) + " PC" +
            (S.LineOffsets.size() > 1 ? "s" : "") + " of the line)";
  return Text;
}
std::string sourceCell(const TraceFunction &F) {
  return sys::path::filename(F.Location).str();
}

/// One ranked table: samples, share, processes, the kind's columns,
/// function, source (if any row has one) and module; with --per-process,
/// under each row one row per process, its label in the PROCESSES column.
template <typename T>
void rowsText(raw_ostream &OS, const TraceReport &R,
              const std::vector<Merged<T>> &Rows, StringRef Title,
              const TraceOptions &O, StringRef Ranking = "samples") {
  size_t Shown = shownRows(Rows.size(), O);
  bool Source = any_of(
      Rows, [](const Merged<T> &M) { return !M.Entry.Location.empty(); });
  std::vector<Table::Column> Cols = {
      {"SAMPLES", true}, {"SHARE", true}, {"PROCESSES", true}};
  append_range(Cols, kindColumns(static_cast<const T *>(nullptr), R));
  Cols.push_back({"FUNCTION", false});
  if (Source)
    Cols.push_back({"SOURCE", false});
  Cols.push_back({"MODULE", false});
  Table Tab(Cols);
  for (size_t I = 0; I < Shown; ++I) {
    const Merged<T> &M = Rows[I];
    std::vector<std::string> Row = {num(M.Entry.Samples),
                                    percentText(R.share(M.Entry.Samples)),
                                    num(M.Processes.size())};
    append_range(Row, kindCells(M.Entry, R));
    Row.push_back(tableName(functionText(M.Entry), O));
    if (Source)
      Row.push_back(sourceCell(M.Entry));
    Row.push_back(moduleText(R, M.Module, M.Entry.ModuleOffset));
    Tab.addRow(Row);
    if (!O.PerProcess)
      continue;
    for (const ProcessCount &C : M.Processes) {
      std::vector<std::string> Sub(Cols.size());
      Sub[0] = num(C.Samples);
      Sub[1] = percentText(R.share(C.Samples));
      Sub[2] = processLabel(R, C.Process);
      Tab.addRow(Sub);
    }
  }
  OS << Title << " by " << Ranking;
  if (Shown < Rows.size())
    OS << ", top " << Shown << " of " << Rows.size();
  OS << ":\n";
  Tab.writeText(OS);
}

/// The module name of a cumulative row ("?" when the trace has no path).
std::string moduleName(const TraceReport &R, uint32_t Module) {
  const TraceModule &M = R.Modules[Module];
  if (M.NoModule)
    return "(no module)";
  return M.Paths.empty() ? "?" : sys::path::filename(M.Paths[0]).str();
}

/// Every function of the stacks by cumulative samples (--sort=cumulative),
/// as pprof's -top -cum ranks them: shares of the samples with a stack.
void cumulativeText(raw_ostream &OS, const TraceReport &R,
                    const TraceOptions &O) {
  std::vector<CumulativeFunction> Rows = cumulativeFunctions(R);
  uint64_t Total = stackSamples(R);
  size_t Shown = shownRows(Rows.size(), O);
  Table Tab({{"CUMULATIVE", true},
             {"SHARE", true},
             {"SELF", true},
             {"SHARE", true},
             {"FUNCTION", false},
             {"MODULE", false}});
  auto Share = [&](uint64_t N) {
    return percentText(Total ? double(N) / double(Total) : 0);
  };
  for (size_t I = 0; I < Shown; ++I) {
    const CumulativeFunction &F = Rows[I];
    Tab.addRow({num(F.Cumulative), Share(F.Cumulative), num(F.Self),
                Share(F.Self), tableName(F.Name, O), moduleName(R, F.Module)});
  }
  OS << "\nfunctions of the call stacks by cumulative samples (theirs and "
        "their callees', of the "
     << Total << " samples with a stack)";
  if (Shown < Rows.size())
    OS << ", top " << Shown << " of " << Rows.size();
  OS << ":\n";
  if (Rows.empty()) {
    OS << "  (no call stacks: the dumps were written with "
          "trace_stack_depth=0)\n";
    return;
  }
  Tab.writeText(OS);
}

//===----------------------------------------------------------------------===//
// Callers
//===----------------------------------------------------------------------===//

/// What a row of the callers section says of its row.
std::string callersHeading(const TraceSite &S, const TraceOptions &O) {
  std::string Out = tableName(functionText(S), O) + ": " + atomicText(S);
  std::string Where = inlineText(S, /*BaseName=*/true);
  if (!Where.empty())
    Out += " at " + Where;
  if (!S.LineOffsets.empty()) {
    Out += " and +";
    for (size_t I = 0; I < S.LineOffsets.size(); ++I)
      Out += (I ? ", +" : "") + hexAddress(S.LineOffsets[I]);
  }
  return Out + "; " + num(S.Samples) + " samples";
}
std::string callersHeading(const TraceFunction &F, const TraceOptions &O) {
  return tableName(functionText(F), O) + ": " + num(F.Samples) + " samples, " +
         num(F.UncoveredCalleeSamples) + " more in uncovered callees";
}

} // namespace

void stackFramesText(raw_ostream &OS, const TraceReport &R,
                     ArrayRef<uint32_t> Frames, bool Truncated,
                     const TraceOptions &O, StringRef Indent) {
  std::vector<std::pair<std::string, std::string>> Lines;
  for (uint32_t I : Frames) {
    const TraceFrame &F = R.Frames[I];
    if (F.Lines.empty())
      Lines.push_back({"?", moduleText(R, F.Module, F.Offset)});
    for (size_t J = 0; J < F.Lines.size(); ++J) {
      const TraceSourceFrame &L = F.Lines[J];
      std::string Where = frameWhere(R, F, L);
      if (J + 1 < F.Lines.size())
        Where += " (inlined)";
      Lines.push_back(
          {L.Function.empty() ? "?" : tableName(L.Function, O), Where});
    }
  }
  if (Truncated)
    Lines.push_back({"...", "(the stack is as deep as stack_depth)"});
  size_t Width = 0;
  for (const auto &L : Lines)
    Width = std::max(Width, L.first.size());
  for (const auto &L : Lines)
    OS << Indent << left_justify(L.first, Width) << "  " << L.second << "\n";
}

/// One way to a row: its samples and share of the row's stacks, then a
/// frame a line, innermost first, names and positions aligned.
void callerPathText(raw_ostream &OS, const TraceReport &R, const CallerPath &P,
                    uint64_t Total, const TraceOptions &O, StringRef Indent) {
  OS << Indent << "  " << P.Samples << " samples ("
     << percentText(Total ? double(P.Samples) / Total : 0) << "):\n";
  stackFramesText(OS, R, P.Frames, P.Truncated, O, (Indent + "    ").str());
}

namespace {

/// The callers of the top rows that have stacks; nothing if none has.
template <typename T>
void callersText(raw_ostream &OS, const TraceReport &R,
                 const std::vector<Merged<T>> &Rows, StringRef Title,
                 const TraceOptions &O) {
  bool Heading = false;
  forEachRowCallers(
      R, Rows, O,
      [&](size_t I, const std::vector<CallerPath> &Paths, uint64_t Total) {
        if (!Heading)
          OS << "\ncallers of the " << Title << " (up to " << O.Callers
             << " stacks of each, heaviest first, innermost frame first):\n";
        Heading = true;
        OS << "#" << I + 1 << " " << callersHeading(Rows[I].Entry, O) << "; "
           << Total << " with stacks\n";
        for (const CallerPath &P : Paths)
          callerPathText(OS, R, P, Total, O);
      });
}

void processesText(raw_ostream &OS, const TraceReport &R) {
  Table T({{"PID", true},
           {"PPID", true},
           {"RUN", false},
           {"PARENT RUN", false},
           {"DUMP", true},
           {"REASON", false},
           {"THREADS", true},
           {"SAMPLES", true},
           {"CPU S", true},
           {"FILE", false}});
  for (const TraceProcess &P : R.Processes) {
    T.addRow({std::to_string(P.Pid), std::to_string(P.PPid), P.Run,
              dash(P.ParentRun), num(P.Dump), P.Reason, num(P.Threads),
              num(P.Samples), cpuSecondsText(P.CpuNs),
              P.File + ":" + num(P.Line)});
  }
  OS << "processes:\n";
  T.writeText(OS);
  OS << "\n";
}

//===----------------------------------------------------------------------===//
// CSV
//===----------------------------------------------------------------------===//

/// The cells of a row's kind, after the common ones.
/// "function@file:line:col" (or "function@module+0xoffset").
std::string frameCSV(const TraceReport &R, const TraceFrame *F,
                     const TraceSourceFrame &L) {
  std::string Where = L.location();
  if (Where.empty() && F)
    Where = moduleText(R, F->Module, F->Offset);
  return (L.Function.empty() ? "?" : L.Function) + "@" + Where;
}

/// The positions a site's code was inlined into, innermost first.
std::string inlinedIntoCSV(const TraceReport &R, const TraceSite &S) {
  std::vector<std::string> Out;
  for (size_t I = 1; I < S.Inline.size(); ++I)
    Out.push_back(frameCSV(R, nullptr, S.Inline[I]));
  return join(Out, ";");
}

std::vector<std::string> kindCSV(const TraceSite &S, const ProcessCount *P) {
  return {num(S.FunctionOffset),
          S.Kind,
          S.Op,
          S.Size ? num(S.Size) : "",
          S.Order,
          S.FailureOrder,
          num(P ? P->Exact : S.ExactSamples),
          num(P ? P->Skid : S.SkidSamples),
          "",
          ""};
}
std::vector<std::string> kindCSV(const TraceFunction &F,
                                 const ProcessCount *P) {
  uint64_t Samples = P ? P->Samples : F.Samples;
  uint64_t Atomic = P ? P->Atomic : F.AtomicSamples;
  double Share = Samples ? double(Atomic) / Samples : 0;
  return {"", "", "", "",          "",
          "", "", "", num(Atomic), formatv("{0:F6}", Share).str()};
}

/// The columns after the kind's: uncovered_callee_samples, inlined_into,
/// caller_rank, frames.
std::vector<std::string> tailCSV(const TraceReport &R, const TraceSite &S,
                                 const ProcessCount *) {
  return {"", inlinedIntoCSV(R, S), "", ""};
}
std::vector<std::string> tailCSV(const TraceReport &, const TraceFunction &F,
                                 const ProcessCount *P) {
  return {num(P ? P->UncoveredCallee : F.UncoveredCalleeSamples), "", "", ""};
}

/// One CSV row of a merged row: its sums, or with P those of one process.
template <typename T>
void rowCSV(raw_ostream &OS, const TraceReport &R, StringRef Kind, size_t Rank,
            const Merged<T> &M, const ProcessCount *P) {
  const TraceModule &Mod = R.Modules[M.Module];
  const T &E = M.Entry;
  uint64_t Samples = P ? P->Samples : E.Samples;
  std::vector<std::string> Cells = {
      Kind.str(),
      num(Rank),
      P ? std::to_string(R.Processes[P->Process].Pid) : "",
      P ? R.Processes[P->Process].Run : "",
      num(Samples),
      formatv("{0:F6}", R.share(Samples)).str(),
      num(M.Processes.size()),
      Mod.Paths.empty() ? "" : Mod.Paths[0],
      hexAddress(E.ModuleOffset),
      E.BuildID,
      E.Function,
      E.Location};
  append_range(Cells, kindCSV(E, P));
  append_range(Cells, tailCSV(R, E, P));
  Table::writeCSVRow(OS, Cells);
}

/// A caller row: the row's rank and module, the path's samples, its share
/// of the row's stacks, its rank and its frames, innermost first.
template <typename T>
void callerCSV(raw_ostream &OS, const TraceReport &R, StringRef Kind,
               size_t Rank, const Merged<T> &M, const CallerPath &P,
               size_t CallerRank, uint64_t Total) {
  const TraceModule &Mod = R.Modules[M.Module];
  std::vector<std::string> Frames;
  for (uint32_t I : P.Frames) {
    const TraceFrame &F = R.Frames[I];
    if (F.Lines.empty())
      Frames.push_back(frameCSV(R, &F, TraceSourceFrame()));
    for (const TraceSourceFrame &L : F.Lines)
      Frames.push_back(frameCSV(R, &F, L));
  }
  std::vector<std::string> Cells = {
      (Kind + "-caller").str(),
      num(Rank),
      "",
      "",
      num(P.Samples),
      formatv("{0:F6}", Total ? double(P.Samples) / Total : 0).str(),
      "",
      Mod.Paths.empty() ? "" : Mod.Paths[0],
      hexAddress(M.Entry.ModuleOffset),
      M.Entry.BuildID,
      M.Entry.Function};
  Cells.resize(24);
  Cells.push_back(num(CallerRank));
  Cells.push_back(join(Frames, ";"));
  Table::writeCSVRow(OS, Cells);
}

template <typename T>
void rowsCSV(raw_ostream &OS, const TraceReport &R, StringRef Kind,
             const std::vector<Merged<T>> &Rows, const TraceOptions &O) {
  for (size_t I = 0, E = shownRows(Rows.size(), O); I < E; ++I) {
    if (!O.PerProcess)
      rowCSV(OS, R, Kind, I + 1, Rows[I], nullptr);
    else
      for (const ProcessCount &P : Rows[I].Processes)
        rowCSV(OS, R, Kind, I + 1, Rows[I], &P);
  }
}

template <typename T>
void callersCSV(raw_ostream &OS, const TraceReport &R, StringRef Kind,
                const std::vector<Merged<T>> &Rows, const TraceOptions &O) {
  forEachRowCallers(
      R, Rows, O,
      [&](size_t I, const std::vector<CallerPath> &Paths, uint64_t Total) {
        for (size_t J = 0; J < Paths.size(); ++J)
          callerCSV(OS, R, Kind, I + 1, Rows[I], Paths[J], J + 1, Total);
      });
}

} // namespace

void writeTraceText(raw_ostream &OS, const TraceReport &R,
                    const TraceOptions &O) {
  OS << "trace of " << traceSummary(R) << "\n"
     << "samples: " << sampleBreakdown(R) << "\n";
  if (std::string Resolution = resolutionText(R); !Resolution.empty())
    OS << "resolution: " << Resolution << "\n";
  OS << "\n";
  if (O.PerProcess)
    processesText(OS, R);
  rowsText(OS, R, R.Sites, "atomic sites", O);
  OS << "\n";
  rowsText(OS, R, R.Functions, "covered functions", O,
           O.WithUncoveredCallees ? "samples with their uncovered callees'"
                                  : "samples");
  if (O.Cumulative)
    cumulativeText(OS, R, O);
  if (O.Callers) {
    callersText(OS, R, R.Sites, "atomic sites", O);
    callersText(OS, R, R.Functions, "covered functions", O);
  }
  writeDataText(OS, R, O);
  writeWaitText(OS, R, O);
  writeRaceText(OS, R, O);
}

void writeTraceCSV(raw_ostream &OS, const TraceReport &R,
                   const TraceOptions &O) {
  Table::writeCSVRow(OS, {"table",
                          "rank",
                          "pid",
                          "run",
                          "samples",
                          "share",
                          "processes",
                          "module",
                          "module_offset",
                          "build_id",
                          "function",
                          "location",
                          "function_offset",
                          "kind",
                          "op",
                          "size",
                          "order",
                          "failure_order",
                          "exact_samples",
                          "skid_samples",
                          "atomic_samples",
                          "atomic_share",
                          "uncovered_callee_samples",
                          "inlined_into",
                          "caller_rank",
                          "frames"});
  rowsCSV(OS, R, "site", R.Sites, O);
  rowsCSV(OS, R, "function", R.Functions, O);
  callersCSV(OS, R, "site", R.Sites, O);
  callersCSV(OS, R, "function", R.Functions, O);
}

namespace {

/// The waits' stacks (with Holders, their holders'), the innermost frame
/// suffixed with what they waited on (" [wait mutex big_lock]", " [holder
/// of mutex big_lock]"), by wait nanoseconds: objects by rank, each one's
/// stacks by wait.
void foldedWaits(raw_ostream &OS, const TraceReport &R, bool Holders) {
  std::vector<std::pair<std::string, uint64_t>> Lines;
  std::map<std::string, size_t> Index;
  for (const WaitObject &Object : R.WaitObjects) {
    std::string Suffix = (Holders ? " [holder of " : " [wait ") + Object.Kind +
                         " " + Object.Name + "]";
    std::replace(Suffix.begin(), Suffix.end(), ';', ':');
    std::replace(Suffix.begin(), Suffix.end(), '\n', ' ');
    for (uint32_t I : Object.Rows) {
      const WaitRow &W = R.Waits[I];
      int64_t Stack = Holders ? W.HolderStack : W.Stack;
      if (Stack < 0 || !W.WaitNs)
        continue;
      std::string Line = join(foldedFrames(R, R.WaitStacks[Stack].Frames, false,
                                           R.WaitStacks[Stack].Truncated),
                              ";") +
                         Suffix;
      auto [It, New] = Index.try_emplace(Line, Lines.size());
      if (New)
        Lines.push_back({Line, 0});
      Lines[It->second].second += W.WaitNs;
    }
  }
  for (const auto &[Line, Ns] : Lines)
    OS << Line << " " << Ns << "\n";
}

} // namespace

void writeTraceFolded(raw_ostream &OS, const TraceReport &R,
                      const TraceOptions &O) {
  if (O.FoldedStacks != TraceOptions::Folded::CPU)
    return foldedWaits(OS, R, O.FoldedStacks == TraceOptions::Folded::Holder);
  for (const MergedStack &S : R.Stacks) {
    std::string Stack = join(foldedFrames(R, S, /*Short=*/false), ";");
    uint64_t Plain = S.Samples - S.AtomicSamples;
    if (S.AtomicSamples)
      OS << Stack << atomicSuffix(R, S) << " " << S.AtomicSamples << "\n";
    if (Plain)
      OS << Stack << " " << Plain << "\n";
  }
}

} // namespace report
} // namespace pcmap
