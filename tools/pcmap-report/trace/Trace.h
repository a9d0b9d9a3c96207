//===- Trace.h - The tracer's dumps, read and merged ------------*- C++ -*-===//
//
// `pcmap-report trace FILE...` (docs/Report.md, "Many processes' traces"):
// the runtime's tracer writes, per process, JSON Lines of cumulative dumps
// (versions 2 and 3, include/pcmap/TraceDump.h). TraceRead.cpp reads them
// and keeps the last dump of each process; TraceMerge.cpp merges the
// processes into one table of atomic sites, one of covered functions and
// one of call stacks, keyed by build ID (or module path) and module offset;
// TraceSymbolize.cpp names them offline; TraceStacks.cpp finds each row's
// callers; TraceOutput.cpp (text, CSV, folded stacks), TraceJSON.cpp,
// TraceHTML.cpp and TracePprof.cpp write them.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_REPORT_TRACE_H
#define PCMAP_REPORT_TRACE_H

#include "BinaryReport.h"
#include "Views.h"

#include "pcmap/TraceDump.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace pcmap {
namespace report {

/// The formats of `pcmap-report trace`.
enum class TraceFormat { Text, CSV, JSON, HTML, Pprof, Folded };

/// The writers' options: the other subcommands', and how many callers each
/// top site and function lists (0: none).
struct TraceOptions : OutputOptions {
  TraceOptions() = default;
  TraceOptions(const OutputOptions &O) : OutputOptions(O) {}
  unsigned Callers = 3;
  /// The functions are ranked by their samples and those of their
  /// uncovered callees (rankFunctions), not by their own alone.
  bool WithUncoveredCallees = false;
  /// Also a table of every function in the call stacks ranked by the
  /// samples of the stacks that hold it (cumulativeFunctions).
  bool Cumulative = false;
};

/// A source position a PC stands for; a PC in inlined code stands for
/// several, innermost first, the last the function that holds the code.
struct TraceSourceFrame {
  std::string Function;    // as shown: demangled unless --no-demangle
  std::string LinkageName; // as in the file ("" if unknown)
  std::string File;        // "" if unknown (or --no-source)
  uint32_t Line = 0, Column = 0;
  /// "file:line:col" (as much as is known), or "".
  std::string location(bool BaseName = false) const;
};

/// What sites and functions have in common, as the runtime wrote it: the
/// module (its path, "" if unknown; its GNU build ID, lowercase hex, ""
/// if none), the offset in the module (the address less the module's load
/// bias), names ("" if unknown), and samples.
struct TraceEntry {
  std::string Module;
  uint64_t ModuleOffset = 0;
  std::string BuildID;
  std::string Function;
  std::string Location; // "file:line:col"; functions get one offline only
  uint64_t Samples = 0;
};

/// One atomic site of a dump.
struct TraceSite : TraceEntry {
  uint64_t PC = 0;
  uint64_t FunctionStart = 0, FunctionOffset = 0;
  std::string Kind, Op, Order, FailureOrder;
  uint64_t Size = 0;
  uint64_t ExactSamples = 0, SkidSamples = 0;
  /// From the module file: the source positions of the PC, innermost
  /// first (Location is the first's); empty when not symbolized.
  std::vector<TraceSourceFrame> Inline;
  /// The function offsets of the other PCs of its function, atomic and
  /// source line that mergeSiteLines made part of this row.
  std::vector<uint64_t> LineOffsets;
};

/// One covered function of a dump.
struct TraceFunction : TraceEntry {
  uint64_t Start = 0;
  uint64_t AtomicSamples = 0;
  /// Samples in code without tables whose nearest covered caller this is
  /// (version 3; 0 in version 2).
  uint64_t UncoveredCalleeSamples = 0;
};

/// A process's CPU time and samples, or their sums over the processes.
struct SampleCounts {
  uint64_t CpuNs = 0; // user + system
  uint64_t Samples = 0, AtomicSamples = 0, CoveredSamples = 0,
           UncoveredSamples = 0, DroppedSamples = 0;
  uint64_t StackSamplesDropped = 0; // version 3: samples without a stack
  /// The sampling signals the samples came in (0: a dump that does not say).
  uint64_t Observations = 0;
  /// Whether every process counted gave its observations.
  bool ObservationsKnown = true;
  void add(const SampleCounts &C);
};

/// A process (a run): the header of the dump that stands for it.
struct TraceProcess : SampleCounts {
  int64_t Pid = 0, PPid = 0;
  std::string Run, ParentRun;
  uint64_t Dump = 0;
  std::string Reason;
  bool Final = false;
  uint64_t Hz = 0, Threads = 0;
  uint64_t DistinctSites = 0, DistinctFunctions = 0;
  unsigned Version = 0;
  uint64_t StackDepth = 0; // version 3: the most frames a stack keeps
  /// Where the dump was read.
  std::string File;
  unsigned Line = 0;
};

/// A module of a version 3 dump, and a frame of one of its stacks: the
/// module's index (trace::kNoModule: none, Offset is the address) and the
/// offset in it.
struct DumpModule {
  std::string Path, BuildID;
};
struct DumpFrame {
  int64_t Module = 0;
  uint64_t Offset = 0;
};
struct DumpStack {
  uint64_t Samples = 0, AtomicSamples = 0;
  std::vector<DumpFrame> Frames; // innermost first
};

/// One dump line.
struct TraceDump {
  TraceProcess Process;
  std::vector<TraceSite> Sites;
  std::vector<TraceFunction> Functions;
  std::vector<DumpModule> Modules; // version 3
  std::vector<DumpStack> Stacks;   // version 3
};

/// A module the merged rows point into: one build ID, or one path for
/// modules without a build ID.
struct TraceModule {
  std::string BuildID;
  std::vector<std::string> Paths; // as the traces named it, first seen first
  /// Names and source lines came from the file at SymbolizedPath (its build
  /// ID matched), or else are the trace's; Note says why.
  bool Symbolized = false;
  std::string SymbolizedPath;
  std::string Note;
  /// The stand-in for frames in no module (JIT code): offsets are
  /// addresses.
  bool NoModule = false;
  /// The file's PLT entries, by address: "memcmp@plt" (no symbol covers
  /// them, and a symbolizer names them by the symbol before: _init).
  std::map<uint64_t, std::string> Plt;
  uint64_t PltEntrySize = 16;
  /// The PLT entry that holds Offset, or null.
  const std::string *pltEntryAt(uint64_t Offset) const;
};

/// One process's part of a merged row.
struct ProcessCount {
  uint32_t Process = 0; // index in TraceReport::Processes
  uint64_t Address = 0; // the site's PC, or the function's start
  uint64_t Samples = 0;
  uint64_t Exact = 0, Skid = 0; // sites
  uint64_t Atomic = 0;          // functions, stacks
  uint64_t UncoveredCallee = 0; // functions
};

/// A merged row: an atomic site or a covered function, summed over the
/// processes.
template <typename T> struct Merged {
  T Entry; // counts are the sums; addresses are the first process's
  uint32_t Module = 0;
  std::vector<ProcessCount> Processes; // most samples first
};
using MergedSite = Merged<TraceSite>;
using MergedFunction = Merged<TraceFunction>;

/// A frame of the merged stacks: a place in a module, named offline.
struct TraceFrame {
  uint32_t Module = 0;
  uint64_t Offset = 0;
  /// What the frame stands for, innermost first: several in inlined code;
  /// one with the trace's names (or none) when the module was not
  /// symbolized.
  std::vector<TraceSourceFrame> Lines;
  /// The atomic site at this offset and the covered function that holds
  /// it (indices in TraceReport::Sites and ::Functions), or -1.
  int64_t Site = -1, Function = -1;
  /// The start of the function that holds it, from the module file.
  std::optional<uint64_t> Start;
};

/// A call stack summed over the processes.
struct MergedStack {
  std::vector<uint32_t> Frames; // indices in TraceReport::Frames, innermost
                                // first
  uint64_t Samples = 0, AtomicSamples = 0;
  std::vector<ProcessCount> Processes; // most samples first
  /// As deep as its process's stack_depth: the outer frames may be cut.
  bool Truncated = false;
  /// The site of its frame 0 and the function it is charged to (the
  /// innermost frame in a covered function, at Frames[ChargedFrame]), or -1.
  int64_t Site = -1, Function = -1;
  uint32_t ChargedFrame = 0;
};

/// The way to a site or function: the frames from it outward, and the
/// samples of the stacks that share them.
struct CallerPath {
  std::vector<uint32_t> Frames;
  uint64_t Samples = 0;
  bool Truncated = false;
};

struct TraceFile {
  std::string Path;
  uint64_t Dumps = 0; // dump lines read
};

struct TraceReport {
  std::vector<TraceFile> Files;
  uint64_t Hz = 0;
  std::vector<TraceProcess> Processes; // in the order first seen
  std::vector<TraceModule> Modules;
  std::vector<MergedSite> Sites;         // most samples first
  std::vector<MergedFunction> Functions; // most samples first
  std::vector<TraceFrame> Frames;        // every frame of the stacks
  std::vector<MergedStack> Stacks;       // most samples first
  SampleCounts Totals;                   // over the processes
  unsigned Version = 0;                  // the newest dump version read

  double cpuSeconds() const { return double(Totals.CpuNs) / 1e9; }
  /// Samples over what the CPU time at Hz would give (1.0: none lost).
  double sampleRatio() const;
  double share(uint64_t N) const {
    return Totals.Samples ? double(N) / Totals.Samples : 0;
  }
};

/// Reads every file and keeps, per run, the dump with the highest number.
/// Prints a warning for dumps read twice, and for each malformed dump,
/// which it skips (Skipped counts them: the caller merges the rest and
/// says so in its exit status); on another failure prints one error per
/// failing file and returns the first failure's code.
ExitCode readTraces(llvm::ArrayRef<std::string> Paths,
                    std::vector<TraceDump> &Dumps,
                    std::vector<TraceFile> &Files, uint64_t &Skipped);

/// Ranks the functions by their own samples and those of their uncovered
/// callees (time in the C library's mutex code, say, charged to the
/// covered function that called it), most first.
void rankFunctionsWithUncoveredCallees(TraceReport &R);

/// Makes the sites of one function, one kind of atomic and one source line
/// (an unrolled loop's copies of one statement; line known, column aside)
/// one row, their counts summed, ranked again; the stacks are linked to the
/// merged rows. For the text report, after symbolizeTrace.
void mergeSiteLines(TraceReport &R);

/// Merges the dumps into ranked sites, functions and stacks, linked with
/// the trace's names (linkStacks).
TraceReport mergeTraces(std::vector<TraceDump> Dumps,
                        std::vector<TraceFile> Files);

/// Names and source lines (inline frames included) of sites, functions and
/// stack frames from the modules whose build ID matches the trace's (one
/// warning for each other module); without SourceLines, no locations. Then
/// ties each frame and stack to its site and function (linkStacks).
void symbolizeTrace(TraceReport &R, bool Demangle, bool SourceLines);

/// Ties frames to the sites and covered functions they lie in, and each
/// stack to the function it is charged to (TraceStacks.cpp).
void linkStacks(TraceReport &R);
/// The heaviest N ways to site or function I (most samples first), and the
/// samples of all the stacks charged to it.
std::vector<CallerPath> siteCallers(const TraceReport &R, size_t I, size_t N,
                                    uint64_t &Total);
std::vector<CallerPath> functionCallers(const TraceReport &R, size_t I,
                                        size_t N, uint64_t &Total);
/// siteCallers or functionCallers, for the writers' templates over both.
inline std::vector<CallerPath> rowCallers(const TraceReport &R,
                                          const TraceSite *, size_t I, size_t N,
                                          uint64_t &Total) {
  return siteCallers(R, I, N, Total);
}
inline std::vector<CallerPath> rowCallers(const TraceReport &R,
                                          const TraceFunction *, size_t I,
                                          size_t N, uint64_t &Total) {
  return functionCallers(R, I, N, Total);
}
/// A stack's frames as names, outermost first, inline frames expanded
/// (shortName'd with Short); "module+0xoffset" for a frame without a name.
std::vector<std::string> foldedFrames(const TraceReport &R,
                                      const MergedStack &S, bool Short);
/// " [atomic rmw add seq_cst 8 bytes]": what the innermost frame of a
/// stack's atomic samples gets.
std::string atomicSuffix(const TraceReport &R, const MergedStack &S);

/// A function of the call stacks, covered or not, with the samples of the
/// stacks it is in (once per stack, recursion or inlining notwithstanding)
/// and of those whose innermost frame it is: pprof's "cum" and "flat".
struct CumulativeFunction {
  std::string Name; // as shown, or "module+0x..." where unnamed
  uint32_t Module = 0;
  uint64_t Cumulative = 0, Self = 0;
};
/// Every function of R's stacks, most cumulative samples first (ties: most
/// self samples, then by name). Empty without stacks.
std::vector<CumulativeFunction> cumulativeFunctions(const TraceReport &R);
/// The samples with a stack: what cumulative shares are of.
uint64_t stackSamples(const TraceReport &R);

/// The writers. O.Top cuts the rows; O.PerProcess adds each process's
/// counts to text and CSV; O.Callers, each top row's callers.
void writeTraceText(llvm::raw_ostream &OS, const TraceReport &R,
                    const TraceOptions &O);
void writeTraceCSV(llvm::raw_ostream &OS, const TraceReport &R,
                   const TraceOptions &O);
void writeTraceJSON(llvm::raw_ostream &OS, const TraceReport &R,
                    const TraceOptions &O);
void writeTraceHTML(llvm::raw_ostream &OS, const TraceReport &R,
                    const TraceOptions &O);
/// The HTML page's flame graph of the stacks (nothing without stacks).
void writeFlameGraph(llvm::raw_ostream &OS, const TraceReport &R,
                     const OutputOptions &O);
/// Brendan Gregg's folded stacks: "outer;...;inner COUNT" per line.
void writeTraceFolded(llvm::raw_ostream &OS, const TraceReport &R,
                      const TraceOptions &O);
/// A gzipped pprof profile (profile.proto); fails when this LLVM has no
/// zlib.
llvm::Error writeTracePprof(llvm::raw_ostream &OS, const TraceReport &R,
                            const TraceOptions &O);

//===----------------------------------------------------------------------===//
// Field text, for every format (TraceOutput.cpp)
//===----------------------------------------------------------------------===//

/// "3 processes, 2 files: 2950 samples at 1000 Hz in 3.010 s of CPU time
/// (0.980 of the 3010 expected from CPU time x rate)"
std::string traceSummary(const TraceReport &R);
/// "1200 on atomics (40.7%), 2900 in covered functions, 50 elsewhere,
/// 0 dropped"
std::string sampleBreakdown(const TraceReport &R);
/// "300 sampling signals for 1200 samples, one per 4.0 ms of CPU time (the
/// kernel's clock tick); a share's standard error is at most 2.9 points",
/// or "" where a dump did not give its observations.
std::string resolutionText(const TraceReport &R);
std::string cpuSecondsText(uint64_t Ns); // "1.234"
/// How many of N rows to show: O.Top, or all when it is 0.
size_t shownRows(size_t N, const OutputOptions &O);
/// Calls Fn(I, Paths, Total) for each shown row I of Rows (sites or
/// functions) that has callers: the heaviest O.Callers ways to it, and the
/// samples of all the stacks charged to it. The writers' one walk over the
/// top rows' callers.
template <typename T, typename FnT>
void forEachRowCallers(const TraceReport &R, const std::vector<Merged<T>> &Rows,
                       const TraceOptions &O, FnT Fn) {
  for (size_t I = 0, E = shownRows(Rows.size(), O); I < E && O.Callers; ++I) {
    uint64_t Total = 0;
    std::vector<CallerPath> Paths =
        rowCallers(R, static_cast<const T *>(nullptr), I, O.Callers, Total);
    if (!Paths.empty())
      Fn(I, Paths, Total);
  }
}
std::string percentText(double Share); // "40.7%"
/// "pid 1234", with the run ID when another process had the same PID.
std::string processLabel(const TraceReport &R, uint32_t Process);
/// The module's file name with the offset: "prog+0x1a2b" ("?+0x..." when
/// the trace has no path).
std::string moduleText(const TraceReport &R, uint32_t Module, uint64_t Offset);
/// "worker+0x12" for a site, "worker" for a function; "?" without a name.
std::string functionText(const TraceSite &S);
std::string functionText(const TraceFunction &F);
/// "rmw add seq_cst 8 bytes", "cmpxchg acq_rel/acquire 4 bytes"
std::string atomicText(const TraceSite &S);
/// A site's source positions: "ring.c:27:5 inlined into ring.c:40:3"
/// (file names only with BaseName).
std::string inlineText(const TraceSite &S, bool BaseName);
/// A frame's position as text shows it: its file:line:col, or
/// "module+0xoffset" when unknown.
std::string frameWhere(const TraceReport &R, const TraceFrame &F,
                       const TraceSourceFrame &L);

} // namespace report
} // namespace pcmap

#endif // PCMAP_REPORT_TRACE_H
