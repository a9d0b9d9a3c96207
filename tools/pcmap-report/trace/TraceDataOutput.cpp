//===- TraceDataOutput.cpp - The data's cache lines as text and HTML ------===//
//
// Text: a summary line, the cache lines ranked by samples (--top), then the
// members of the first --lines lines: each one's bytes, samples, threads
// and kinds, the sites that touch it (the PCs of one source line one row)
// and its heaviest callers. HTML: the same, each line's members in a
// folded section. Nothing for dumps before version 4.
//
//===----------------------------------------------------------------------===//

#include "Output.h"
#include "Trace.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace pcmap {
namespace report {

namespace {

std::string num(uint64_t V) { return std::to_string(V); }

/// "900 samples at instructions that touch memory (90.0% of the samples),
/// 0 dropped, in 3 cache lines of 64 bytes"
std::string dataSummary(const TraceReport &R) {
  const SampleCounts &C = R.Totals;
  return num(C.DataSamples) + " samples at instructions that touch memory (" +
         percentText(R.share(C.DataSamples)) + " of the samples), " +
         num(C.DataSamplesDropped) + " dropped, in " + num(R.Lines.size()) +
         (R.Lines.size() == 1 ? " cache line" : " cache lines") + " of " +
         num(R.LineSize) + " bytes";
}

/// A name of the data as tables show it: a C++ name shortened (shortName),
/// a shared file's as it is ("/dev/zero (deleted)").
std::string dataName(const DataLine &L, const std::string &Name,
                     const OutputOptions &O) {
  return L.Region == DataRegion::Shared ? Name : tableName(Name, O);
}

/// "stats; false sharing; 400 samples, 2 threads in 1 process"
std::string lineHeading(const TraceReport &R, const DataLine &L,
                        const OutputOptions &O) {
  return dataName(L, L.Object, O) + "; " +
         sharingText(L.Sharing, /*Long=*/true) + "; " + num(L.Samples) +
         " samples, " + num(L.Threads) +
         (L.Threads == 1 ? " thread" : " threads") + " in " + num(L.Processes) +
         (L.Processes == 1 ? " process" : " processes");
}

/// A site's function (the one that holds its code), its source positions
/// (innermost first) and how many more PCs of its line it stands for.
std::string siteFunction(const TraceReport &R, const DataSite &S) {
  const TraceFrame &F = R.Frames[S.Frames[0]];
  return F.Lines.empty() || F.Lines.back().Function.empty()
             ? "?"
             : F.Lines.back().Function;
}
std::string siteSource(const TraceReport &R, const DataSite &S, bool Base) {
  const TraceFrame &F = R.Frames[S.Frames[0]];
  std::string Out;
  for (const TraceSourceFrame &L : F.Lines) {
    std::string Where = L.location(Base);
    if (Where.empty())
      break;
    Out += Out.empty() ? Where : " inlined into " + Where;
  }
  if (S.Frames.size() > 1)
    Out += " (+" + num(S.Frames.size() - 1) + " PC" +
           (S.Frames.size() > 2 ? "s" : "") + " of the line)";
  return Out;
}

/// Each line of a text table after Indent.
void indentedTable(raw_ostream &OS, const Table &T, StringRef Indent) {
  std::string Text;
  raw_string_ostream TS(Text);
  T.writeText(TS);
  SmallVector<StringRef, 16> Lines;
  StringRef(Text).split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (StringRef Line : Lines)
    OS << Indent << Line << "\n";
}

void linesTable(raw_ostream &OS, const TraceReport &R, const TraceOptions &O) {
  size_t Shown = shownRows(R.Lines.size(), O);
  Table T({{"SAMPLES", true},
           {"SHARE", true},
           {"THREADS", true},
           {"PROCESSES", true},
           {"SHARING", false},
           {"REGION", false},
           {"LINE", false},
           {"OBJECT", false}});
  for (size_t I = 0; I < Shown; ++I) {
    const DataLine &L = R.Lines[I];
    T.addRow({num(L.Samples), percentText(R.share(L.Samples)), num(L.Threads),
              num(L.Processes), sharingText(L.Sharing),
              regionName(L.Region).str(), lineText(R, L),
              dataName(L, L.Object, O)});
  }
  OS << "\ncache lines by samples";
  if (Shown < R.Lines.size())
    OS << ", top " << Shown << " of " << R.Lines.size();
  OS << ":\n";
  T.writeText(OS);
}

/// A member's sites, then its heaviest callers.
void memberText(raw_ostream &OS, const TraceReport &R, const DataLine &L,
                size_t M, const TraceOptions &O) {
  const DataMember &X = L.Members[M];
  OS << "  " << dataName(L, X.Name, O) << " (+" << X.Offset << ", " << X.Size
     << (X.Size == 1 ? " byte" : " bytes") << "): " << X.Samples
     << " samples\n";
  bool Source = any_of(X.Sites, [&](const DataSite &S) {
    return !siteSource(R, S, true).empty();
  });
  std::vector<Table::Column> Cols = {
      {"SAMPLES", true}, {"KIND", false}, {"FUNCTION", false}};
  if (Source)
    Cols.push_back({"SOURCE", false});
  Cols.push_back({"MODULE", false});
  Table T(Cols);
  for (const DataSite &S : X.Sites) {
    const TraceFrame &F = R.Frames[S.Frames[0]];
    std::vector<std::string> Row = {num(S.Samples), kindsText(S.Kinds),
                                    tableName(siteFunction(R, S), O)};
    if (Source)
      Row.push_back(siteSource(R, S, true));
    Row.push_back(moduleText(R, F.Module, F.Offset));
    T.addRow(Row);
  }
  indentedTable(OS, T, "    ");
  uint64_t Total = 0;
  for (const CallerPath &P : memberCallers(R, L, M, O.Callers, Total))
    callerPathText(OS, R, P, Total, O, "  ");
}

void lineDetailText(raw_ostream &OS, const TraceReport &R, size_t I,
                    const TraceOptions &O) {
  const DataLine &L = R.Lines[I];
  OS << "#" << I + 1 << " " << lineText(R, L) << ": " << lineHeading(R, L, O)
     << "\n";
  Table T({{"OFFSET", true},
           {"SIZE", true},
           {"SAMPLES", true},
           {"THREADS", true},
           {"READ", true},
           {"WRITE", true},
           {"RMW", true},
           {"ATOMIC", true},
           {"MEMBER", false}});
  for (const DataMember &X : L.Members)
    T.addRow({num(X.Offset), num(X.Size), num(X.Samples), num(X.Threads),
              num(X.Reads), num(X.Writes), num(X.ReadWrites), num(X.Atomic),
              dataName(L, X.Name, O)});
  indentedTable(OS, T, "  ");
  for (size_t M = 0; M < L.Members.size(); ++M)
    memberText(OS, R, L, M, O);
}

} // namespace

void writeDataText(raw_ostream &OS, const TraceReport &R,
                   const TraceOptions &O) {
  if (R.Version < 4)
    return;
  OS << "\ndata: " << dataSummary(R) << "\n";
  if (R.Lines.empty())
    return;
  linesTable(OS, R, O);
  size_t Detailed = std::min(shownRows(R.Lines.size(), O), O.Lines);
  if (!Detailed)
    return;
  OS << "\nmembers of the top " << Detailed
     << (Detailed == 1 ? " cache line" : " cache lines")
     << " (by offset; each member's sites by source line, and its callers):\n";
  for (size_t I = 0; I < Detailed; ++I)
    lineDetailText(OS, R, I, O);
}

namespace {

std::string cell(StringRef Text, bool Number = false) {
  return std::string(Number ? "<td class=\"n\">" : "<td>") + htmlEscape(Text) +
         "</td>";
}

void linesHTML(raw_ostream &OS, const TraceReport &R, const TraceOptions &O) {
  OS << "<table class=\"sortable trace-lines\">\n<thead><tr>"
     << "<th class=\"n\">Rank</th><th class=\"n\">Samples</th>"
     << "<th class=\"n\">Share</th><th class=\"n\">Threads</th>"
     << "<th class=\"n\">Processes</th><th>Sharing</th><th>Region</th>"
     << "<th>Line</th><th>Object</th></tr></thead>\n<tbody>\n";
  for (size_t I = 0, E = shownRows(R.Lines.size(), O); I < E; ++I) {
    const DataLine &L = R.Lines[I];
    OS << "<tr>" << cell(num(I + 1), true) << cell(num(L.Samples), true)
       << cell(percentText(R.share(L.Samples)), true)
       << cell(num(L.Threads), true) << cell(num(L.Processes), true)
       << cell(sharingText(L.Sharing)) << cell(regionName(L.Region))
       << cell(lineText(R, L)) << cell(L.Object) << "</tr>\n";
  }
  OS << "</tbody>\n</table>\n";
}

/// A member's sites and callers, folded.
void memberHTML(raw_ostream &OS, const TraceReport &R, const DataLine &L,
                size_t M, const TraceOptions &O) {
  const DataMember &X = L.Members[M];
  OS << "<details class=\"data-member\"><summary>"
     << htmlEscape(dataName(L, X.Name, O)) << " (+" << X.Offset << ", "
     << X.Size << " bytes): " << X.Samples
     << " samples</summary>\n<ul class=\"sites\">\n";
  for (const DataSite &S : X.Sites) {
    const TraceFrame &F = R.Frames[S.Frames[0]];
    OS << "<li>" << S.Samples << " " << kindsText(S.Kinds) << " <span title=\""
       << htmlEscape(siteFunction(R, S)) << "\">"
       << htmlEscape(tableName(siteFunction(R, S), O))
       << "</span> <span class=\"meta\">";
    if (std::string Source = siteSource(R, S, true); !Source.empty())
      OS << htmlEscape(Source) << " ";
    OS << htmlEscape(moduleText(R, F.Module, F.Offset)) << "</span></li>\n";
  }
  OS << "</ul>\n";
  uint64_t Total = 0;
  std::vector<CallerPath> Paths = memberCallers(R, L, M, O.Callers, Total);
  if (!Paths.empty()) {
    OS << "<ol class=\"callers\">\n";
    for (const CallerPath &P : Paths)
      callerPathHTML(OS, R, P, Total, O);
    OS << "</ol>\n";
  }
  OS << "</details>\n";
}

void lineHTML(raw_ostream &OS, const TraceReport &R, size_t I,
              const TraceOptions &O) {
  const DataLine &L = R.Lines[I];
  OS << "<details class=\"data-line\"><summary>#" << I + 1 << " "
     << htmlEscape(lineText(R, L)) << ": " << htmlEscape(lineHeading(R, L, O))
     << "</summary>\n<table class=\"data-members\">\n<thead><tr>"
     << "<th class=\"n\">Offset</th><th class=\"n\">Size</th>"
     << "<th class=\"n\">Samples</th><th class=\"n\">Threads</th>"
     << "<th class=\"n\">Read</th><th class=\"n\">Write</th>"
     << "<th class=\"n\">RMW</th><th class=\"n\">Atomic</th>"
     << "<th>Member</th></tr></thead>\n<tbody>\n";
  for (const DataMember &X : L.Members)
    OS << "<tr>" << cell(num(X.Offset), true) << cell(num(X.Size), true)
       << cell(num(X.Samples), true) << cell(num(X.Threads), true)
       << cell(num(X.Reads), true) << cell(num(X.Writes), true)
       << cell(num(X.ReadWrites), true) << cell(num(X.Atomic), true)
       << cell(X.Name) << "</tr>\n";
  OS << "</tbody>\n</table>\n";
  for (size_t M = 0; M < L.Members.size(); ++M)
    memberHTML(OS, R, L, M, O);
  OS << "</details>\n";
}

} // namespace

void writeDataHTML(raw_ostream &OS, const TraceReport &R,
                   const TraceOptions &O) {
  if (R.Version < 4)
    return;
  OS << "<h2>Data: cache lines</h2>\n<p class=\"meta\">"
     << htmlEscape(dataSummary(R))
     << ". Samples at instructions that touch each line: time spent there, "
        "not cache misses counted. Click a line for its members.</p>\n";
  if (R.Lines.empty())
    return;
  linesHTML(OS, R, O);
  for (size_t I = 0, E = shownRows(R.Lines.size(), O); I < E; ++I)
    lineHTML(OS, R, I, O);
}

} // namespace report
} // namespace pcmap
