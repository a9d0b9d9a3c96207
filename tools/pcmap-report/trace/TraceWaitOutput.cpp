//===- TraceWaitOutput.cpp - The waits as text and HTML -------------------===//
//
// Text: a summary line, the objects threads waited on ranked by wait time
// (--top), then for the first --waits of them the heaviest waiting stacks
// and the heaviest stacks of the threads that held them. HTML: the same,
// each object's stacks in a folded section. Nothing without waits.
//
//===----------------------------------------------------------------------===//

#include "Output.h"
#include "Trace.h"

using namespace llvm;

namespace pcmap {
namespace report {

namespace {

std::string num(uint64_t V) { return std::to_string(V); }

double waitShare(const TraceReport &R, uint64_t Ns) {
  return R.WaitNs ? double(Ns) / double(R.WaitNs) : 0;
}

/// An object as tables show it: a C++ name shortened, a file's whole.
std::string objectName(const WaitObject &W, const OutputOptions &O) {
  return W.Target == WaitTarget::Address ? tableName(W.Name, O) : W.Name;
}

/// "mutex; 1.200 s of wait (60.0%), 120 samples, 2 threads"
std::string objectHeading(const TraceReport &R, const WaitObject &W) {
  return W.Kind + "; " + cpuSecondsText(W.WaitNs) + " s of wait (" +
         percentText(waitShare(R, W.WaitNs)) + "), " + num(W.Samples) +
         " samples, " + num(W.Threads) +
         (W.Threads == 1 ? " thread" : " threads");
}

/// "1.000 s (83.3% of 1.200 s), 100 samples"
std::string pathHeading(const WaitPath &P, uint64_t Total) {
  return cpuSecondsText(P.WaitNs) + " s (" +
         percentText(Total ? double(P.WaitNs) / double(Total) : 0) + "), " +
         num(P.Samples) + (P.Samples == 1 ? " sample" : " samples");
}

void objectsTable(raw_ostream &OS, const TraceReport &R,
                  const TraceOptions &O) {
  size_t Shown = shownRows(R.WaitObjects.size(), O);
  Table T({{"WAIT S", true},
           {"SHARE", true},
           {"SAMPLES", true},
           {"THREADS", true},
           {"KIND", false},
           {"OBJECT", false}});
  for (size_t I = 0; I < Shown; ++I) {
    const WaitObject &W = R.WaitObjects[I];
    T.addRow({cpuSecondsText(W.WaitNs), percentText(waitShare(R, W.WaitNs)),
              num(W.Samples), num(W.Threads), W.Kind, objectName(W, O)});
  }
  OS << "\nwait objects by wait time";
  if (Shown < R.WaitObjects.size())
    OS << ", top " << Shown << " of " << R.WaitObjects.size();
  OS << ":\n";
  T.writeText(OS);
}

/// The waiting (or holding) stacks of an object, under a title.
void pathsText(raw_ostream &OS, const TraceReport &R, const WaitObject &W,
               bool Holders, const TraceOptions &O) {
  uint64_t Total = 0;
  std::vector<WaitPath> Paths = waitPaths(R, W, Holders, O.Callers, Total);
  if (Paths.empty())
    return;
  OS << "  " << (Holders ? "holding (the holder's stack)" : "waiting") << ", "
     << cpuSecondsText(Total) << " s with stacks:\n";
  for (const WaitPath &P : Paths) {
    OS << "    " << pathHeading(P, Total) << ":\n";
    stackFramesText(OS, R, P.Frames, P.Truncated, O, "      ");
  }
}

} // namespace

void writeWaitText(raw_ostream &OS, const TraceReport &R,
                   const TraceOptions &O) {
  if (!R.HasWaits)
    return;
  OS << "\nwaits: " << waitSummary(R) << "\n";
  if (R.WaitObjects.empty())
    return;
  objectsTable(OS, R, O);
  size_t Detailed = std::min(shownRows(R.WaitObjects.size(), O), O.Waits);
  if (!Detailed || !O.Callers)
    return;
  OS << "\nwaiting and holding stacks of the top " << Detailed
     << (Detailed == 1 ? " wait object" : " wait objects") << " (up to "
     << O.Callers
     << " stacks of each, most wait first, innermost frame first):\n";
  for (size_t I = 0; I < Detailed; ++I) {
    const WaitObject &W = R.WaitObjects[I];
    OS << "#" << I + 1 << " " << objectName(W, O) << ": " << objectHeading(R, W)
       << "\n";
    pathsText(OS, R, W, /*Holders=*/false, O);
    pathsText(OS, R, W, /*Holders=*/true, O);
  }
}

namespace {

std::string cell(StringRef Text, bool Number = false) {
  return std::string(Number ? "<td class=\"n\">" : "<td>") + htmlEscape(Text) +
         "</td>";
}

void objectsHTML(raw_ostream &OS, const TraceReport &R, const TraceOptions &O) {
  OS << "<table class=\"sortable trace-waits\">\n<thead><tr>"
     << "<th class=\"n\">Rank</th><th class=\"n\">Wait s</th>"
     << "<th class=\"n\">Share</th><th class=\"n\">Samples</th>"
     << "<th class=\"n\">Threads</th><th>Kind</th><th>Object</th>"
     << "</tr></thead>\n<tbody>\n";
  for (size_t I = 0, E = shownRows(R.WaitObjects.size(), O); I < E; ++I) {
    const WaitObject &W = R.WaitObjects[I];
    OS << "<tr>" << cell(num(I + 1), true)
       << cell(cpuSecondsText(W.WaitNs), true)
       << cell(percentText(waitShare(R, W.WaitNs)), true)
       << cell(num(W.Samples), true) << cell(num(W.Threads), true)
       << cell(W.Kind) << cell(W.Name) << "</tr>\n";
  }
  OS << "</tbody>\n</table>\n";
}

void pathsHTML(raw_ostream &OS, const TraceReport &R, const WaitObject &W,
               bool Holders, const TraceOptions &O) {
  uint64_t Total = 0;
  std::vector<WaitPath> Paths = waitPaths(R, W, Holders, O.Callers, Total);
  if (Paths.empty())
    return;
  OS << "<p>" << (Holders ? "Holding (the holder's stack)" : "Waiting") << ", "
     << cpuSecondsText(Total)
     << " s with stacks:</p>\n<ol class=\"callers\">\n";
  for (const WaitPath &P : Paths) {
    OS << "<li>" << htmlEscape(pathHeading(P, Total))
       << "<ol class=\"frames\">";
    stackFramesHTML(OS, R, P.Frames, P.Truncated, O);
    OS << "</ol></li>\n";
  }
  OS << "</ol>\n";
}

} // namespace

void writeWaitHTML(raw_ostream &OS, const TraceReport &R,
                   const TraceOptions &O) {
  if (!R.HasWaits)
    return;
  OS << "<h2>Wait time</h2>\n<p class=\"meta\">" << htmlEscape(waitSummary(R))
     << ". Wall time of threads blocked in a system call, by what they "
        "waited on. Click an object for its waiting and holding "
        "stacks.</p>\n";
  if (R.WaitObjects.empty())
    return;
  objectsHTML(OS, R, O);
  for (size_t I = 0, E = shownRows(R.WaitObjects.size(), O); I < E; ++I) {
    const WaitObject &W = R.WaitObjects[I];
    OS << "<details class=\"wait-object\"><summary>#" << I + 1 << " "
       << htmlEscape(objectName(W, O)) << ": "
       << htmlEscape(objectHeading(R, W)) << "</summary>\n";
    pathsHTML(OS, R, W, /*Holders=*/false, O);
    pathsHTML(OS, R, W, /*Holders=*/true, O);
    OS << "</details>\n";
  }
}

} // namespace report
} // namespace pcmap
