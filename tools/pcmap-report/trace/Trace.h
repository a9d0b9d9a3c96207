//===- Trace.h - The tracer's dumps, read and merged ------------*- C++ -*-===//
//
// `pcmap-report trace FILE...` (docs/Report.md, "Many processes' traces"):
// the runtime's tracer writes, per process, JSON Lines of cumulative dumps
// (version 2). TraceRead.cpp reads them and keeps the last dump of each
// process; TraceMerge.cpp merges the processes into one table of atomic
// sites and one of covered functions, keyed by build ID (or module path) and
// module offset, and symbolizes them offline; TraceOutput.cpp (text, CSV),
// TraceJSON.cpp and TraceHTML.cpp write them.
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
#include <string>
#include <vector>

namespace pcmap {
namespace report {

/// The dump versions pcmap-report trace reads (include/pcmap/TraceDump.h).
constexpr unsigned kTraceVersion = trace::kVersion;
constexpr unsigned kMinTraceVersion = trace::kMinReadVersion;

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
};

/// One covered function of a dump.
struct TraceFunction : TraceEntry {
  uint64_t Start = 0;
  uint64_t AtomicSamples = 0;
};

/// A process's CPU time and samples, or their sums over the processes.
struct SampleCounts {
  uint64_t CpuNs = 0; // user + system
  uint64_t Samples = 0, AtomicSamples = 0, CoveredSamples = 0,
           UncoveredSamples = 0, DroppedSamples = 0;
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
  /// Where the dump was read.
  std::string File;
  unsigned Line = 0;
};

/// One dump line.
struct TraceDump {
  TraceProcess Process;
  std::vector<TraceSite> Sites;
  std::vector<TraceFunction> Functions;
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
};

/// One process's part of a merged row.
struct ProcessCount {
  uint32_t Process = 0; // index in TraceReport::Processes
  uint64_t Address = 0; // the site's PC, or the function's start
  uint64_t Samples = 0;
  uint64_t Exact = 0, Skid = 0; // sites
  uint64_t Atomic = 0;          // functions
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
  SampleCounts Totals;                   // over the processes

  double cpuSeconds() const { return double(Totals.CpuNs) / 1e9; }
  /// Samples over what the CPU time at Hz would give (1.0: none lost).
  double sampleRatio() const;
  double share(uint64_t N) const {
    return Totals.Samples ? double(N) / Totals.Samples : 0;
  }
};

/// Reads every file and keeps, per run, the dump with the highest number.
/// Prints a warning for dumps read twice; on failure prints one error per
/// failing file and returns the first failure's code.
ExitCode readTraces(llvm::ArrayRef<std::string> Paths,
                    std::vector<TraceDump> &Dumps,
                    std::vector<TraceFile> &Files);

/// Merges the dumps into ranked sites and functions.
TraceReport mergeTraces(std::vector<TraceDump> Dumps,
                        std::vector<TraceFile> Files);

/// Names and source lines from the modules whose build ID matches the
/// trace's (one warning for each other module); without SourceLines, no
/// locations.
void symbolizeTrace(TraceReport &R, bool Demangle, bool SourceLines);

/// The writers. O.Top cuts the rows; O.PerProcess adds each process's
/// counts to text and CSV.
void writeTraceText(llvm::raw_ostream &OS, const TraceReport &R,
                    const OutputOptions &O);
void writeTraceCSV(llvm::raw_ostream &OS, const TraceReport &R,
                   const OutputOptions &O);
void writeTraceJSON(llvm::raw_ostream &OS, const TraceReport &R,
                    const OutputOptions &O);
void writeTraceHTML(llvm::raw_ostream &OS, const TraceReport &R,
                    const OutputOptions &O);

//===----------------------------------------------------------------------===//
// Field text, for every format (TraceOutput.cpp)
//===----------------------------------------------------------------------===//

/// "3 processes, 2 files: 2950 samples at 1000 Hz in 3.010 s of CPU time
/// (0.980 of the 3010 expected from CPU time x rate)"
std::string traceSummary(const TraceReport &R);
/// "1200 on atomics (40.7%), 2900 in covered functions, 50 elsewhere,
/// 0 dropped"
std::string sampleBreakdown(const TraceReport &R);
std::string cpuSecondsText(uint64_t Ns); // "1.234"
/// How many of N rows to show: O.Top, or all when it is 0.
size_t shownRows(size_t N, const OutputOptions &O);
std::string percentText(double Share); // "40.7%"
/// "pid 1234", with the run ID when another process had the same PID.
std::string processLabel(const TraceReport &R, uint32_t Process);
/// The module's file name with the offset: "prog+0x1a2b" ("?+0x..." when
/// the trace has no path).
std::string moduleText(const TraceReport &R, uint32_t Module, uint64_t Offset);
/// "worker+0x12" for a site, "worker" for a function; "?" without a name.
std::string functionText(const TraceSite &S);
std::string functionText(const TraceFunction &F);

} // namespace report
} // namespace pcmap

#endif // PCMAP_REPORT_TRACE_H
