//===- TraceHTML.cpp - The merged trace as one HTML page ------------------===//
//
// The page of the other subcommands (inline style, the script that sorts a
// table on a click): the summary, the ranked sites and functions with a bar
// per share (each row's per-process counts in the tooltip of its processes
// cell), the callers of the top rows (a list of frames each, folded away),
// the data's cache lines (TraceDataOutput.cpp), the flame graph of the
// stacks (TraceFlame.cpp), and the processes.
//
//===----------------------------------------------------------------------===//

#include "Output.h"
#include "Trace.h"

#include "llvm/Support/Path.h"

using namespace llvm;

namespace pcmap {
namespace report {

namespace {

constexpr double kBarWidth = 160;

/// "<td class="n">N</td>"
std::string numberCell(const std::string &Text) {
  return "<td class=\"n\">" + Text + "</td>";
}

std::string textCell(StringRef Text, StringRef Title = "") {
  std::string Cell = "<td";
  if (!Title.empty())
    Cell += " title=\"" + htmlEscape(Title) + "\"";
  return Cell + ">" + htmlEscape(Text) + "</td>";
}

/// A name as tables show it (shortName), whole in a tooltip if shortened.
std::string nameCell(const std::string &Name, const OutputOptions &O) {
  std::string Shown = tableName(Name, O);
  return textCell(Shown, Shown == Name ? "" : Name);
}

/// The headers and cells of a kind's columns, between Processes and
/// Function.
std::string kindHeaders(const TraceSite *, const TraceReport &) {
  return "<th>Kind</th><th class=\"n\">Size</th><th>Order</th>"
         "<th>Failure order</th><th>Op</th>";
}
std::string kindCells(const TraceSite &S, const TraceReport &) {
  return textCell(S.Kind) + numberCell(S.Size ? std::to_string(S.Size) : "") +
         textCell(S.Order) + textCell(S.FailureOrder) + textCell(S.Op);
}
std::string kindHeaders(const TraceFunction *, const TraceReport &R) {
  std::string Out =
      "<th class=\"n\">Atomic</th><th class=\"n\">On atomics</th>";
  if (R.Version >= 3)
    Out += "<th class=\"n\">In uncovered callees</th>";
  return Out;
}
std::string kindCells(const TraceFunction &F, const TraceReport &R) {
  double OnAtomics = F.Samples ? double(F.AtomicSamples) / F.Samples : 0;
  std::string Out = numberCell(std::to_string(F.AtomicSamples)) +
                    numberCell(percentText(OnAtomics));
  if (R.Version >= 3)
    Out += numberCell(std::to_string(F.UncoveredCalleeSamples));
  return Out;
}

/// The Source cell: a site's positions, inlined ones too, whole in the
/// tooltip; a function's.
std::string sourceCell(const TraceSite &S) {
  return textCell(inlineText(S, /*BaseName=*/true),
                  inlineText(S, /*BaseName=*/false));
}
std::string sourceCell(const TraceFunction &F) {
  return textCell(sys::path::filename(F.Location), F.Location);
}

/// Rank, samples, share and its bar (the top row's is the longest),
/// processes (each one's samples in the tooltip), the kind's columns,
/// function, source, module.
template <typename T>
void rowsTable(raw_ostream &OS, const TraceReport &R,
               const std::vector<Merged<T>> &Rows, StringRef Title,
               StringRef Class, const TraceOptions &O) {
  size_t Shown = shownRows(Rows.size(), O);
  OS << "<h2>" << Title << " (" << Shown << " of " << Rows.size()
     << ")</h2>\n<table class=\"sortable " << Class << "\">\n<thead><tr>"
     << "<th class=\"n\">Rank</th><th class=\"n\">Samples</th>"
     << "<th class=\"n\">Share</th><th></th><th class=\"n\">Processes</th>"
     << kindHeaders(static_cast<const T *>(nullptr), R)
     << "<th>Function</th><th>Source</th><th>Module</th></tr></thead>\n"
     << "<tbody>\n";
  uint64_t Max = Rows.empty() ? 0 : Rows[0].Entry.Samples;
  for (size_t I = 0; I < Shown; ++I) {
    const Merged<T> &M = Rows[I];
    const T &E = M.Entry;
    std::string Tip;
    for (const ProcessCount &C : M.Processes)
      Tip += (Tip.empty() ? "" : "\n") + processLabel(R, C.Process) + ": " +
             std::to_string(C.Samples);
    unsigned Bar = Max ? unsigned(kBarWidth * double(E.Samples) / Max) : 0;
    OS << "<tr>" << numberCell(std::to_string(I + 1))
       << numberCell(std::to_string(E.Samples))
       << numberCell(percentText(R.share(E.Samples)))
       << "<td><span class=\"bar share\" style=\"width:" << Bar
       << "px\"></span></td><td class=\"n\" title=\"" << htmlEscape(Tip)
       << "\">" << M.Processes.size() << "</td>" << kindCells(E, R)
       << nameCell(functionText(E), O) << sourceCell(E)
       << textCell(moduleText(R, M.Module, E.ModuleOffset),
                   R.Modules[M.Module].BuildID)
       << "</tr>\n";
  }
  OS << "</tbody>\n</table>\n";
}

} // namespace

void stackFramesHTML(raw_ostream &OS, const TraceReport &R,
                     ArrayRef<uint32_t> Frames, bool Truncated,
                     const TraceOptions &O) {
  for (uint32_t I : Frames) {
    const TraceFrame &F = R.Frames[I];
    if (F.Lines.empty())
      OS << "<li>? <span class=\"meta\">"
         << htmlEscape(moduleText(R, F.Module, F.Offset)) << "</span></li>";
    for (size_t J = 0; J < F.Lines.size(); ++J) {
      const TraceSourceFrame &L = F.Lines[J];
      std::string Name = L.Function.empty() ? "?" : L.Function;
      std::string Shown = tableName(Name, O);
      OS << "<li><span title=\"" << htmlEscape(Name) << "\">"
         << htmlEscape(Shown) << "</span> <span class=\"meta\">"
         << htmlEscape(frameWhere(R, F, L))
         << (J + 1 < F.Lines.size() ? " (inlined)" : "") << "</span></li>";
    }
  }
  if (Truncated)
    OS << "<li>... (the stack is as deep as stack_depth)</li>";
}

/// One way to a row: its samples, then its frames, innermost first.
void callerPathHTML(raw_ostream &OS, const TraceReport &R, const CallerPath &P,
                    uint64_t Total, const TraceOptions &O) {
  OS << "<li>" << P.Samples << " samples ("
     << percentText(Total ? double(P.Samples) / Total : 0)
     << ")<ol class=\"frames\">";
  stackFramesHTML(OS, R, P.Frames, P.Truncated, O);
  OS << "</ol></li>\n";
}

namespace {

/// A folded list of callers per top row that has stacks.
template <typename T>
void callersHTML(raw_ostream &OS, const TraceReport &R,
                 const std::vector<Merged<T>> &Rows, StringRef Title,
                 StringRef Class, const TraceOptions &O) {
  bool Heading = false;
  forEachRowCallers(
      R, Rows, O,
      [&](size_t I, const std::vector<CallerPath> &Paths, uint64_t Total) {
        if (!Heading)
          OS << "<h2>Callers of the " << Title << "</h2>\n";
        Heading = true;
        const T &Entry = Rows[I].Entry;
        OS << "<details class=\"" << Class << "\"><summary>#" << I + 1 << " "
           << htmlEscape(tableName(functionText(Entry), O)) << ": "
           << Entry.Samples << " samples, " << Total
           << " with stacks</summary>\n<ol class=\"callers\">\n";
        for (const CallerPath &P : Paths)
          callerPathHTML(OS, R, P, Total, O);
        OS << "</ol></details>\n";
      });
}

void processesTable(raw_ostream &OS, const TraceReport &R) {
  OS << "<h2>Processes</h2>\n<table class=\"sortable trace-processes\">\n"
     << "<thead><tr><th class=\"n\">PID</th><th class=\"n\">PPID</th>"
     << "<th>Run</th><th>Parent run</th><th class=\"n\">Dump</th>"
     << "<th>Reason</th><th class=\"n\">Threads</th>"
     << "<th class=\"n\">Samples</th><th class=\"n\">CPU s</th>"
     << "<th>File</th></tr></thead>\n<tbody>\n";
  for (const TraceProcess &P : R.Processes) {
    OS << "<tr>" << numberCell(std::to_string(P.Pid))
       << numberCell(std::to_string(P.PPid)) << textCell(P.Run)
       << textCell(P.ParentRun) << numberCell(std::to_string(P.Dump))
       << textCell(P.Reason) << numberCell(std::to_string(P.Threads))
       << numberCell(std::to_string(P.Samples))
       << numberCell(cpuSecondsText(P.CpuNs))
       << textCell(P.File + ":" + std::to_string(P.Line)) << "</tr>\n";
  }
  OS << "</tbody>\n</table>\n";
}

} // namespace

void writeTraceHTML(raw_ostream &OS, const TraceReport &R,
                    const TraceOptions &O) {
  std::string Processes = std::to_string(R.Processes.size()) +
                          (R.Processes.size() == 1 ? " process" : " processes");
  htmlPageStart(OS, "pcmap-report trace: " + Processes);
  OS << "<h1>Atomic tracer: " << Processes << "</h1>\n<p class=\"meta\">"
     << htmlEscape(traceSummary(R))
     << "</p>\n<p class=\"meta\">Samples: " << sampleBreakdown(R)
     << ". Hover a processes cell for each process's "
     << "samples.</p>\n";
  rowsTable(OS, R, R.Sites, "Atomic sites", "trace-sites", O);
  rowsTable(OS, R, R.Functions, "Covered functions", "trace-functions", O);
  callersHTML(OS, R, R.Sites, "atomic sites", "site-callers", O);
  callersHTML(OS, R, R.Functions, "covered functions", "function-callers", O);
  writeDataHTML(OS, R, O);
  writeWaitHTML(OS, R, O);
  writeRaceHTML(OS, R, O);
  writeFlameGraph(OS, R, O);
  processesTable(OS, R);
  htmlPageEnd(OS);
}

} // namespace report
} // namespace pcmap
