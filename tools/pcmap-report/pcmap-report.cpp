//===- pcmap-report.cpp - Size and atomics reports from ELF files ---------===//
//
//   pcmap-report functions FILE...   one row per function
//   pcmap-report atomics FILE...     one row per atomic site
//   pcmap-report diff OLD NEW        per-function size and atomics changes
//   pcmap-report stackmaps FILE...   .llvm_stackmaps records with function
//                                    and call-site sizes
//   pcmap-report trace FILE...       the atomic tracer's JSON dumps of any
//                                    number of processes, merged into one
//                                    ranked table (trace/Trace.h)
//
// each with --format=text|csv|json|html (stackmaps: text|json; trace also
// pprof and folded). docs/Report.md
// is the manual; the exit codes are ExitCode in model/BinaryReport.h. This
// file is the command line only; the work is in the component libraries
// beside it (tools/pcmap-report/CMakeLists.txt).
//
//===----------------------------------------------------------------------===//

#include "Output.h"
#include "Report.h"
#include "Trace.h"
#include "Views.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace pcmap::report;

namespace {

cl::OptionCategory ReportCategory("pcmap-report options");

cl::SubCommand FunctionsCmd("functions",
                            "One row per function: size, atomics by kind, "
                            "features, source line");
cl::SubCommand AtomicsCmd("atomics",
                          "One row per atomic site: kind, size, order, "
                          "function+offset, source line");
cl::SubCommand DiffCmd("diff", "Per-function size and atomics changes from "
                               "OLD to NEW");
cl::SubCommand StackMapsCmd("stackmaps",
                            "LLVM stack map records (.llvm_stackmaps) with "
                            "function and call-site sizes");
cl::SubCommand TraceCmd("trace",
                        "The atomic tracer's JSON dumps of many processes "
                        "and runs, merged into one ranked table");

// Options every subcommand that reads ELF files takes.
#define PCMAP_ELF_SUBCOMMANDS                                                  \
  cl::sub(FunctionsCmd), cl::sub(AtomicsCmd), cl::sub(DiffCmd),                \
      cl::sub(StackMapsCmd)
// Options every subcommand takes.
#define PCMAP_ALL_SUBCOMMANDS PCMAP_ELF_SUBCOMMANDS, cl::sub(TraceCmd)

cl::opt<OutputFormat>
    Format("format", cl::desc("Output format"), cl::init(OutputFormat::Text),
           cl::values(clEnumValN(OutputFormat::Text, "text", "aligned columns"),
                      clEnumValN(OutputFormat::CSV, "csv", "RFC 4180 CSV"),
                      clEnumValN(OutputFormat::JSON, "json",
                                 "JSON, see docs/report-json.md"),
                      clEnumValN(OutputFormat::HTML, "html",
                                 "a self-contained HTML page")),
           PCMAP_ELF_SUBCOMMANDS, cl::cat(ReportCategory));

// trace's formats: the others' and two for profilers' tools.
cl::opt<TraceFormat> TraceFormatOpt(
    "format", cl::desc("Output format"), cl::init(TraceFormat::Text),
    cl::values(
        clEnumValN(TraceFormat::Text, "text", "aligned columns"),
        clEnumValN(TraceFormat::CSV, "csv", "RFC 4180 CSV"),
        clEnumValN(TraceFormat::JSON, "json", "JSON, see docs/report-json.md"),
        clEnumValN(TraceFormat::HTML, "html",
                   "a self-contained HTML page with a flame graph"),
        clEnumValN(TraceFormat::Pprof, "pprof",
                   "a gzipped pprof profile (profile.proto; needs -o)"),
        clEnumValN(TraceFormat::Folded, "folded",
                   "folded stacks for flamegraph.pl, speedscope, inferno")),
    cl::sub(TraceCmd), cl::cat(ReportCategory));

cl::opt<std::string> OutputFile("o", cl::desc("Write the report to <file>"),
                                cl::value_desc("file"), cl::init("-"),
                                PCMAP_ALL_SUBCOMMANDS, cl::cat(ReportCategory));

cl::opt<bool> NoDemangle("no-demangle",
                         cl::desc("Show symbol names as they are in the file"),
                         PCMAP_ALL_SUBCOMMANDS, cl::cat(ReportCategory));

cl::opt<bool> FullNames(
    "full-names",
    cl::desc("Show C++ names whole in text and HTML tables (by default their "
             "template arguments and parameter lists are elided, as "
             "'std::vector<...>::push_back(...)'; JSON and CSV have them "
             "whole)"),
    PCMAP_ALL_SUBCOMMANDS, cl::cat(ReportCategory));

cl::opt<bool> NoSource("no-source",
                       cl::desc("Do not read debug information for source "
                                "lines"),
                       PCMAP_ALL_SUBCOMMANDS, cl::cat(ReportCategory));

cl::opt<UpstreamVersionChoice> SanmdVersion(
    "sanmd-version",
    cl::desc("Version of unsuffixed sanmd_* sections (LLVM 16-18)"),
    cl::init(UpstreamVersionChoice::Auto),
    cl::values(clEnumValN(UpstreamVersionChoice::Auto, "auto",
                          "decide from the section contents"),
               clEnumValN(UpstreamVersionChoice::V1, "1", "LLVM 16"),
               clEnumValN(UpstreamVersionChoice::V2, "2", "LLVM 17 and 18")),
    PCMAP_ELF_SUBCOMMANDS, cl::cat(ReportCategory));

cl::opt<size_t> Top("top",
                    cl::desc("Show the first N rows only (0: all; trace: 20 "
                             "in text by default)"),
                    cl::value_desc("N"), cl::init(0), PCMAP_ALL_SUBCOMMANDS,
                    cl::cat(ReportCategory));

cl::opt<SortKey> Sort(
    "sort", cl::desc("Order of the functions"), cl::init(SortKey::Size),
    cl::values(clEnumValN(SortKey::Size, "size", "largest first"),
               clEnumValN(SortKey::Atomics, "atomics", "most atomics first"),
               clEnumValN(SortKey::Name, "name", "by name"),
               clEnumValN(SortKey::Address, "address", "by address")),
    cl::sub(FunctionsCmd), cl::cat(ReportCategory));

enum class TraceRanking { Self, WithUncoveredCallees, Cumulative };
cl::opt<TraceRanking> TraceSort(
    "sort", cl::desc("Order of the covered functions"),
    cl::init(TraceRanking::Self),
    cl::values(clEnumValN(TraceRanking::Self, "self",
                          "most samples of their own first"),
               clEnumValN(TraceRanking::WithUncoveredCallees, "self+uncovered",
                          "most samples of their own and of their uncovered "
                          "callees (the C library's, say) first, as the "
                          "tracer's report at exit ranks them"),
               clEnumValN(TraceRanking::Cumulative, "cumulative",
                          "as self, then every function of the call "
                          "stacks, covered or not, by the samples of the "
                          "stacks it is in (pprof's -top -cum)")),
    cl::sub(TraceCmd), cl::cat(ReportCategory));

cl::opt<bool> PerPC("per-pc",
                    cl::desc("In the text report, a row per atomic PC (by "
                             "default the PCs of one function, atomic and "
                             "source line, an unrolled loop's copies, are "
                             "one row)"),
                    cl::sub(TraceCmd), cl::cat(ReportCategory));

cl::opt<bool> ShowAll("all",
                      cl::desc("Also list functions that did not change"),
                      cl::sub(DiffCmd), cl::cat(ReportCategory));

cl::opt<bool> PerProcess("per-process",
                         cl::desc("Also show each process's counts (text, "
                                  "CSV; JSON always has them)"),
                         cl::sub(TraceCmd), cl::cat(ReportCategory));

cl::opt<unsigned> Callers("callers",
                          cl::desc("List the N heaviest stacks through each "
                                   "top site and function (0: none)"),
                          cl::value_desc("N"), cl::init(3), cl::sub(TraceCmd),
                          cl::cat(ReportCategory));

cl::opt<size_t> DataLines("lines",
                          cl::desc("In the text report, detail the members, "
                                   "sites and callers of the N top cache "
                                   "lines of the data (version 4 dumps; 0: "
                                   "none)"),
                          cl::value_desc("N"), cl::init(5), cl::sub(TraceCmd),
                          cl::cat(ReportCategory));

cl::opt<size_t> WaitObjects("waits",
                            cl::desc("In the text report, list the waiting "
                                     "and holding stacks of the N top "
                                     "objects of the wait time (version 5 "
                                     "dumps; 0: none)"),
                            cl::value_desc("N"), cl::init(5), cl::sub(TraceCmd),
                            cl::cat(ReportCategory));

cl::opt<std::string> RaceSuppressionsFile(
    "suppressions",
    cl::desc("Leave out the data races a ThreadSanitizer-style suppressions "
             "file matches (race:PATTERN lines; version 6 dumps)"),
    cl::value_desc("FILE"), cl::sub(TraceCmd), cl::cat(ReportCategory));

cl::opt<TraceOptions::Folded> FoldedStacks(
    "folded-stacks", cl::desc("The stacks of --format=folded"),
    cl::init(TraceOptions::Folded::CPU),
    cl::values(clEnumValN(TraceOptions::Folded::CPU, "cpu",
                          "the CPU samples' stacks, by samples"),
               clEnumValN(TraceOptions::Folded::Wait, "wait",
                          "the stacks of blocked threads, by nanoseconds of "
                          "wait (an off-CPU flame graph; version 5 dumps)"),
               clEnumValN(TraceOptions::Folded::Holder, "holder",
                          "the stacks of the threads that held the futex "
                          "words others waited on, by nanoseconds of their "
                          "wait")),
    cl::sub(TraceCmd), cl::cat(ReportCategory));

cl::list<std::string> FunctionsInputs(cl::Positional, cl::OneOrMore,
                                      cl::desc("<ELF file>..."),
                                      cl::sub(FunctionsCmd),
                                      cl::cat(ReportCategory));
cl::list<std::string> AtomicsInputs(cl::Positional, cl::OneOrMore,
                                    cl::desc("<ELF file>..."),
                                    cl::sub(AtomicsCmd),
                                    cl::cat(ReportCategory));
cl::list<std::string> StackMapsInputs(cl::Positional, cl::OneOrMore,
                                      cl::desc("<ELF file>..."),
                                      cl::sub(StackMapsCmd),
                                      cl::cat(ReportCategory));
cl::list<std::string> DiffInputs(cl::Positional, cl::OneOrMore,
                                 cl::desc("<old ELF file> <new ELF file>"),
                                 cl::sub(DiffCmd), cl::cat(ReportCategory));
// Checked in runTrace, for a message that says what the files are.
cl::list<std::string> TraceInputs(cl::Positional, cl::ZeroOrMore,
                                  cl::desc("<trace file>... ('-': standard "
                                           "input)"),
                                  cl::sub(TraceCmd), cl::cat(ReportCategory));

[[noreturn]] void usageError(const Twine &Message) {
  WithColor::error(errs(), "pcmap-report") << Message << "\n";
  errs() << "Run 'pcmap-report --help' for usage.\n";
  exit(int(ExitCode::Usage));
}

/// The worse of two exit codes: the higher (ExitCode orders them).
ExitCode worse(ExitCode A, ExitCode B) { return A < B ? B : A; }

/// Reads every file: one error line per file that fails, and the reports
/// of the others; returns the worst failure's exit code. A file without
/// metadata is reported from its symbol table, with a note.
ExitCode readAll(ArrayRef<std::string> Paths, const ReaderOptions &Options,
                 std::vector<BinaryReport> &Out) {
  ExitCode Status = ExitCode::Success;
  auto Take = [&](Expected<BinaryReport> R) {
    if (R) {
      if (R->FromSymbolTable)
        WithColor::note(errs(), "pcmap-report")
            << "'" << R->Path
            << "': no pcmap or sanmd metadata sections (build with "
               "pcmap-clang -fsanitize-metadata=... or clang "
               "-fexperimental-sanitize-metadata=...): its functions are "
               "those of its symbol table, their atomics unknown\n";
      Out.push_back(std::move(*R));
      return;
    }
    handleAllErrors(R.takeError(), [&](const ReportError &E) {
      WithColor::error(errs(), "pcmap-report") << E.text() << "\n";
      Status = worse(Status, E.code());
    });
  };
  for (const std::string &Path : Paths)
    readReports(Path, Options, Take);
  return Status;
}

/// Opens -o, lets Write write the report, and checks that it was written.
ExitCode writeOutput(function_ref<void(raw_ostream &)> Write) {
  std::error_code EC;
  raw_fd_ostream OS(OutputFile, EC, sys::fs::OF_None);
  if (EC) {
    WithColor::error(errs(), "pcmap-report")
        << "'" << OutputFile << "': " << EC.message() << "\n";
    return ExitCode::FileError;
  }
  Write(OS);
  OS.flush();
  if (OS.has_error()) {
    WithColor::error(errs(), "pcmap-report")
        << "'" << OutputFile << "': " << OS.error().message() << "\n";
    OS.clear_error();
    return ExitCode::FileError;
  }
  return ExitCode::Success;
}

/// pcmap-report trace FILE...
ExitCode runTrace() {
  if (TraceInputs.empty())
    usageError("trace needs one or more trace files (the tracer's "
               "report_path files, FILE.<pid>)");
  std::vector<std::string> Inputs(TraceInputs.begin(), TraceInputs.end());
  std::vector<TraceDump> Dumps;
  std::vector<TraceFile> Files;
  uint64_t Skipped = 0;
  if (ExitCode Status = readTraces(Inputs, Dumps, Files, Skipped);
      Status != ExitCode::Success)
    return Status;
  if (TraceFormatOpt == TraceFormat::Pprof && OutputFile == "-")
    usageError("--format=pprof writes a binary file: give it with -o FILE");
  RaceSuppressions Suppressions;
  if (!RaceSuppressionsFile.empty()) {
    Expected<RaceSuppressions> S = readRaceSuppressions(RaceSuppressionsFile);
    if (!S) {
      ExitCode Status = ExitCode::Usage;
      handleAllErrors(S.takeError(), [&](const ReportError &E) {
        WithColor::error(errs(), "pcmap-report") << E.text() << "\n";
        Status = E.code();
      });
      return Status;
    }
    Suppressions = std::move(*S);
  }
  TraceReport R = mergeTraces(std::move(Dumps), std::move(Files));
  symbolizeTrace(R, !NoDemangle, !NoSource);
  mergeRaces(R, Suppressions);
  if (TraceFormatOpt == TraceFormat::Text && !PerPC)
    mergeSiteLines(R);
  TraceOptions Out;
  if (TraceSort == TraceRanking::WithUncoveredCallees) {
    rankFunctionsWithUncoveredCallees(R);
    Out.WithUncoveredCallees = true;
  }
  Out.Cumulative = TraceSort == TraceRanking::Cumulative;
  Out.Top =
      Top.getNumOccurrences() || TraceFormatOpt != TraceFormat::Text ? Top : 20;
  Out.PerProcess = PerProcess;
  Out.FullNames = FullNames;
  Out.Callers = Callers;
  Out.Lines = DataLines;
  Out.Waits = WaitObjects;
  Out.FoldedStacks = FoldedStacks;
  ExitCode Status = ExitCode::Success;
  ExitCode Written = writeOutput([&](raw_ostream &OS) {
    switch (TraceFormatOpt) {
    case TraceFormat::Text:
      return writeTraceText(OS, R, Out);
    case TraceFormat::CSV:
      return writeTraceCSV(OS, R, Out);
    case TraceFormat::JSON:
      return writeTraceJSON(OS, R, Out);
    case TraceFormat::HTML:
      return writeTraceHTML(OS, R, Out);
    case TraceFormat::Folded:
      return writeTraceFolded(OS, R, Out);
    case TraceFormat::Pprof:
      if (Error E = writeTracePprof(OS, R, Out)) {
        WithColor::error(errs(), "pcmap-report")
            << toString(std::move(E)) << "\n";
        Status = ExitCode::Usage;
      }
      return;
    }
  });
  // The merge of the readable dumps is written; the status says that some
  // were not.
  if (Skipped)
    Status = worse(Status, ExitCode::MalformedMetadata);
  return worse(Status, Written);
}

/// The reports of ELF files, for every subcommand but trace.
void writeReports(raw_ostream &OS, const std::vector<BinaryReport> &Reports,
                  const OutputOptions &Out) {
  if (StackMapsCmd) {
    if (Out.Format == OutputFormat::JSON)
      writeStackMapsJSON(OS, Reports, Out);
    else
      writeStackMapsText(OS, Reports, Out);
  } else if (FunctionsCmd) {
    if (Out.Format == OutputFormat::JSON)
      writeFunctionsJSON(OS, Reports, Out);
    else if (Out.Format == OutputFormat::HTML)
      writeFunctionsHTML(OS, Reports, Out);
    else
      writeFunctionsText(OS, Reports, Out);
  } else if (AtomicsCmd) {
    if (Out.Format == OutputFormat::JSON)
      writeAtomicsJSON(OS, Reports, Out);
    else if (Out.Format == OutputFormat::HTML)
      writeAtomicsHTML(OS, Reports, Out);
    else
      writeAtomicsText(OS, Reports, Out);
  } else {
    DiffResult D = diffReports(Reports[0], Reports[1]);
    if (Out.Format == OutputFormat::JSON)
      writeDiffJSON(OS, Reports[0], Reports[1], D, Out);
    else if (Out.Format == OutputFormat::HTML)
      writeDiffHTML(OS, Reports[0], Reports[1], D, Out);
    else
      writeDiffText(OS, Reports[0], Reports[1], D, Out);
  }
}

} // namespace

int main(int Argc, char **Argv) {
  InitLLVM X(Argc, Argv);
  cl::HideUnrelatedOptions(ReportCategory);
  for (cl::SubCommand *Sub :
       {&FunctionsCmd, &AtomicsCmd, &DiffCmd, &StackMapsCmd, &TraceCmd})
    cl::HideUnrelatedOptions(ReportCategory, *Sub);
  cl::SetVersionPrinter([](raw_ostream &OS) {
    OS << "pcmap-report " << toolVersion() << " (LLVM " << LLVM_VERSION_STRING
       << ")\n";
  });
  cl::ParseCommandLineOptions(
      Argc, Argv,
      "pcmap-report: per-function size and atomics reports from ELF files\n\n"
      "  pcmap-report functions FILE...   one row per function\n"
      "  pcmap-report atomics FILE...     one row per atomic site\n"
      "  pcmap-report diff OLD NEW        what changed between two builds\n"
      "  pcmap-report stackmaps FILE...   stack map records, function and\n"
      "                                   call-site sizes\n"
      "  pcmap-report trace FILE...       the atomic tracer's JSON dumps of\n"
      "                                   many processes as one table\n\n"
      "Reads pcmap_* and upstream sanmd_* sections (stackmaps:\n"
      ".llvm_stackmaps) of 64-bit ELF files\n"
      "(executables, shared objects, relocatable objects; x86-64, AArch64);\n"
      "trace reads the runtime's report_format=json trace files.\n"
      "Exit status: 0 ok, 1 usage, 2 unreadable file, 3 unsupported file\n"
      "(trace: not a trace, or traces that cannot be merged), 4 no metadata\n"
      "(trace: no dumps), 5 malformed metadata (trace: a malformed dump,\n"
      "skipped with a warning: the other dumps are merged and written).\n");

  if (TraceCmd)
    return int(runTrace());
  bool IsFunctions = bool(FunctionsCmd), IsAtomics = bool(AtomicsCmd),
       IsDiff = bool(DiffCmd), IsStackMaps = bool(StackMapsCmd);
  if (!IsFunctions && !IsAtomics && !IsDiff && !IsStackMaps)
    usageError("no subcommand: use 'functions', 'atomics', 'diff', "
               "'stackmaps' or 'trace'");
  if (IsStackMaps && Format != OutputFormat::Text &&
      Format != OutputFormat::JSON)
    usageError("stackmaps writes --format=text or --format=json");
  if (IsDiff && DiffInputs.size() != 2)
    usageError("diff needs exactly two files, OLD and NEW (got " +
               Twine(DiffInputs.size()) + ")");

  ReaderOptions ReadOptions;
  ReadOptions.UnsuffixedUpstream = SanmdVersion;
  // diff's HTML page groups by source tree (docs/Report.md).
  ReadOptions.SourceLines =
      !NoSource && !IsStackMaps && (!IsDiff || Format == OutputFormat::HTML);
  ReadOptions.AtomicDetails = IsAtomics;
  ReadOptions.StackMaps = IsStackMaps;
  OutputOptions Out;
  Out.Format = Format;
  Out.Demangle = !NoDemangle;
  Out.FullNames = FullNames;
  Out.Sort = Sort;
  Out.Top = Top;
  Out.ShowUnchanged = ShowAll;

  std::vector<BinaryReport> Reports;
  cl::list<std::string> &Given = IsFunctions   ? FunctionsInputs
                                 : IsAtomics   ? AtomicsInputs
                                 : IsStackMaps ? StackMapsInputs
                                               : DiffInputs;
  std::vector<std::string> Inputs(Given.begin(), Given.end());
  // The files that read are reported even when others did not (a diff
  // needs both).
  ExitCode Status = readAll(Inputs, ReadOptions, Reports);
  if (Reports.empty() || (IsDiff && Status != ExitCode::Success))
    return int(Status);
  if (IsDiff && Reports.size() != 2)
    usageError("diff compares two files, OLD and NEW; an archive gives one "
               "report per member (got " +
               Twine(Reports.size()) + " reports)");
  return int(worse(Status, writeOutput([&](raw_ostream &OS) {
                     writeReports(OS, Reports, Out);
                   })));
}
