//===- TraceRaceOutput.cpp - The data races as text and HTML --------------===//
//
// Text: each race in the sanitizers' form, as the runtime writes it
// (WARNING, the access and its stack with inlined frames, the other side,
// the location, SUMMARY), so that tools that read sanitizer reports read
// these, then a summary line. HTML: the same, a race per folded section.
// Nothing without race keys in any dump.
//
//===----------------------------------------------------------------------===//

#include "Output.h"
#include "Trace.h"

#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace pcmap {
namespace report {

namespace {

StringRef kindText(AccessKind K) {
  switch (K) {
  case AccessKind::ReadWrite:
    return "Read and write";
  case AccessKind::Write:
    return "Write";
  case AccessKind::Read:
    break;
  }
  return "Read";
}

std::string hex(uint64_t V) { return "0x" + utohexstr(V, /*LowerCase=*/true); }

/// "Read and write of size 8 at 0x55d0c0a04040 by thread 4243 (pid 12)".
std::string sideHeading(const TraceReport &R, const TraceRace &X,
                        const RaceSide &S, bool Access) {
  const DataThread &T = R.Threads[S.Thread];
  std::string H = Access ? kindText(S.Kind).str()
                         : "Concurrent " + kindText(S.Kind).lower();
  H += " of size " + std::to_string(S.Size);
  if (Access)
    H += " at " + hex(X.Address);
  H += " by thread " + std::to_string(T.Tid);
  if (R.Processes.size() > 1)
    H += " (" + processLabel(R, T.Process) + ")";
  if (Access && !X.OtherKnown)
    H += " (the location changed from " + hex(X.Before) + " to " +
         hex(X.After) + " while the thread waited to access it)";
  return H;
}

/// The frames, "#N function file:line:col (module+0xoffset)", a line per
/// inlined frame.
std::vector<std::string> frameLines(const TraceReport &R, const RaceSide &S) {
  std::vector<std::string> Lines;
  for (uint32_t I : S.Frames) {
    const TraceFrame &F = R.Frames[I];
    std::string Module = " (" + moduleText(R, F.Module, F.Offset) + ")";
    if (F.Lines.empty() || F.Lines.front().Function.empty()) {
      Lines.push_back("#" + std::to_string(Lines.size()) + " " + hex(F.Offset) +
                      Module);
      continue;
    }
    for (const TraceSourceFrame &L : F.Lines) {
      std::string Where = L.location();
      Lines.push_back("#" + std::to_string(Lines.size()) + " " +
                      (L.Function.empty() ? "??" : L.Function) +
                      (Where.empty() ? "" : " " + Where) + Module);
    }
  }
  return Lines;
}

/// "racy.c:39:5 in bump_global": the access's innermost source position;
/// "(prog+0x1240) in worker" where the line is not known, as the
/// sanitizers write it.
std::string summaryPlace(const TraceReport &R, const TraceRace &X) {
  const TraceFrame &F = R.Frames[X.Access.Frames.front()];
  const TraceSourceFrame *L = F.Lines.empty() ? nullptr : &F.Lines.front();
  std::string Where = L ? L->location() : "";
  if (Where.empty())
    Where = "(" + moduleText(R, F.Module, F.Offset) + ")";
  return Where + " in " + (L && !L->Function.empty() ? L->Function : "??");
}

std::string seenText(const TraceRace &X) {
  return "Seen " + std::to_string(X.Count) +
         (X.Count == 1 ? " time" : " times") + " in " +
         std::to_string(X.Processes.size()) +
         (X.Processes.size() == 1 ? " process" : " processes");
}

void raceText(raw_ostream &OS, const TraceReport &R, const TraceRace &X) {
  OS << "==================\nWARNING: pcmap: data race (pid="
     << R.Processes[X.Processes.front()].Pid << ")\n";
  OS << "  " << sideHeading(R, X, X.Access, true) << ":\n";
  for (const std::string &L : frameLines(R, X.Access))
    OS << "    " << L << "\n";
  if (X.OtherKnown) {
    OS << "  " << sideHeading(R, X, X.Other, false) << ":\n";
    for (const std::string &L : frameLines(R, X.Other))
      OS << "    " << L << "\n";
  } else {
    OS << "  The other side is not known: another thread wrote the location "
          "meanwhile\n";
  }
  OS << "  Location is " << X.AddressName << "\n  " << seenText(X) << "\n";
  OS << "SUMMARY: pcmap: data race " << summaryPlace(R, X)
     << "\n==================\n";
}

} // namespace

void writeRaceText(raw_ostream &OS, const TraceReport &R,
                   const TraceOptions &O) {
  if (!R.HasRaces)
    return;
  OS << "\n";
  for (size_t I = 0, E = shownRows(R.Races.size(), O); I < E; ++I)
    raceText(OS, R, R.Races[I]);
  OS << "data races: " << raceSummary(R) << "\n";
}

void writeRaceHTML(raw_ostream &OS, const TraceReport &R,
                   const TraceOptions &O) {
  if (!R.HasRaces)
    return;
  OS << "<h2>Data races</h2>\n<p class=\"meta\">" << htmlEscape(raceSummary(R))
     << ". Plain accesses another thread wrote while they were about to "
        "run. Click a race for its stacks.</p>\n";
  for (size_t I = 0, E = shownRows(R.Races.size(), O); I < E; ++I) {
    const TraceRace &X = R.Races[I];
    OS << "<details class=\"race\"><summary>#" << I + 1 << " data race "
       << htmlEscape(summaryPlace(R, X)) << ": " << htmlEscape(X.AddressName)
       << "; " << htmlEscape(seenText(X)) << "</summary>\n";
    const RaceSide *Sides[] = {&X.Access, X.OtherKnown ? &X.Other : nullptr};
    for (const RaceSide *S : Sides) {
      if (!S)
        continue;
      OS << "<p>" << htmlEscape(sideHeading(R, X, *S, S == &X.Access))
         << ":</p>\n<ol class=\"frames\">";
      stackFramesHTML(OS, R, S->Frames, false, O);
      OS << "</ol>\n";
    }
    if (!X.OtherKnown)
      OS << "<p>The other side is not known: another thread wrote the "
            "location meanwhile.</p>\n";
    OS << "</details>\n";
  }
}

} // namespace report
} // namespace pcmap
