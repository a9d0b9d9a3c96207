//===- TraceOutput.cpp - The merged trace as text and CSV -----------------===//
//
// Text: a summary, the ranked atomic sites, the ranked covered functions,
// each with the number of processes that had samples there; --per-process
// adds a table of the processes and, under each row, one row per process.
// CSV: one header row, a row per site and per function (with --per-process,
// per site or function and process), marked by the "table" column.
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

std::string sampleBreakdown(const TraceReport &R) {
  return std::to_string(R.Totals.AtomicSamples) + " on atomics (" +
         percentText(R.share(R.Totals.AtomicSamples)) + "), " +
         std::to_string(R.Totals.CoveredSamples) + " in covered functions, " +
         std::to_string(R.Totals.UncoveredSamples) + " elsewhere, " +
         std::to_string(R.Totals.DroppedSamples) + " dropped";
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

/// The columns between PROCESSES and FUNCTION.
std::vector<Table::Column> kindColumns(const TraceSite *) {
  return {{"KIND", false},
          {"SIZE", true},
          {"ORDER", false},
          {"FAILURE", false},
          {"OP", false}};
}
std::vector<std::string> kindCells(const TraceSite &S) {
  return {dash(S.Kind), S.Size ? num(S.Size) : "-", dash(S.Order),
          dash(S.FailureOrder), dash(S.Op)};
}
std::vector<Table::Column> kindColumns(const TraceFunction *) {
  return {{"ATOMIC", true}, {"ON ATOMICS", true}};
}
std::vector<std::string> kindCells(const TraceFunction &F) {
  double OnAtomics = F.Samples ? double(F.AtomicSamples) / F.Samples : 0;
  return {num(F.AtomicSamples), percentText(OnAtomics)};
}

/// One ranked table: samples, share, processes, the kind's columns,
/// function, source (if any row has one) and module; with --per-process,
/// under each row one row per process, its label in the PROCESSES column.
template <typename T>
void rowsText(raw_ostream &OS, const TraceReport &R,
              const std::vector<Merged<T>> &Rows, StringRef Title,
              const OutputOptions &O) {
  size_t Shown = shownRows(Rows.size(), O);
  bool Source = any_of(
      Rows, [](const Merged<T> &M) { return !M.Entry.Location.empty(); });
  std::vector<Table::Column> Cols = {
      {"SAMPLES", true}, {"SHARE", true}, {"PROCESSES", true}};
  append_range(Cols, kindColumns(static_cast<const T *>(nullptr)));
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
    append_range(Row, kindCells(M.Entry));
    Row.push_back(tableName(functionText(M.Entry), O));
    if (Source)
      Row.push_back(sys::path::filename(M.Entry.Location).str());
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
  OS << Title << " by samples";
  if (Shown < Rows.size())
    OS << ", top " << Shown << " of " << Rows.size();
  OS << ":\n";
  Tab.writeText(OS);
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
  Table::writeCSVRow(OS, Cells);
}

template <typename T>
void rowsCSV(raw_ostream &OS, const TraceReport &R, StringRef Kind,
             const std::vector<Merged<T>> &Rows, const OutputOptions &O) {
  for (size_t I = 0, E = shownRows(Rows.size(), O); I < E; ++I) {
    if (!O.PerProcess)
      rowCSV(OS, R, Kind, I + 1, Rows[I], nullptr);
    else
      for (const ProcessCount &P : Rows[I].Processes)
        rowCSV(OS, R, Kind, I + 1, Rows[I], &P);
  }
}

} // namespace

void writeTraceText(raw_ostream &OS, const TraceReport &R,
                    const OutputOptions &O) {
  OS << "trace of " << traceSummary(R) << "\n"
     << "samples: " << sampleBreakdown(R) << "\n\n";
  if (O.PerProcess)
    processesText(OS, R);
  rowsText(OS, R, R.Sites, "atomic sites", O);
  OS << "\n";
  rowsText(OS, R, R.Functions, "covered functions", O);
}

void writeTraceCSV(raw_ostream &OS, const TraceReport &R,
                   const OutputOptions &O) {
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
                          "atomic_share"});
  rowsCSV(OS, R, "site", R.Sites, O);
  rowsCSV(OS, R, "function", R.Functions, O);
}

} // namespace report
} // namespace pcmap
