//===- fuzz_trace.cpp - pcmap-report trace: reading and merging dumps -----===//
//
// tools/pcmap-report/TraceRead.cpp, TraceMerge.cpp and the trace writers on
// any text taken for a file of the tracer's dumps (JSON Lines). Input: byte 0
// selects (bit 0: the file is given twice, so that every dump is a
// duplicate; bit 1: the writers keep the top 3 rows only; bit 2: per-process
// counts), the rest is the file. Properties:
// - readTraces returns, whatever the text (a cut, nested, huge or
//   mistyped document); a file it rejects gives a non-zero status;
// - the dumps it accepts merge into a report whose totals are the sums of
//   its processes' counts, whose rows' counts are the sums of their
//   processes' parts (wrapping, as uint64_t does), whose rows and parts are
//   sorted most samples first, and whose rows point at valid processes and
//   modules; given twice, the file gives the same processes;
// - every writer (text, CSV, JSON, HTML) runs on it, and the JSON it
//   writes parses.
//
//===----------------------------------------------------------------------===//

#include "FuzzCheck.h"
#include "Trace.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace pcmap::report;

namespace {

/// The input as a file, created at initialisation.
pcmap::fuzz::InputFile *Input;

template <typename T>
void checkRows(const std::vector<Merged<T>> &Rows, const TraceReport &R,
               const char *What) {
  for (size_t I = 0; I < Rows.size(); ++I) {
    const Merged<T> &Row = Rows[I];
    FUZZ_CHECK(I == 0 || Rows[I - 1].Entry.Samples >= Row.Entry.Samples,
               "%s rows not sorted by samples at %zu", What, I);
    FUZZ_CHECK(Row.Module < R.Modules.size(), "%s row %zu: module %u of %zu",
               What, I, Row.Module, R.Modules.size());
    FUZZ_CHECK(!Row.Processes.empty(), "%s row %zu has no process", What, I);
    uint64_t Sum = 0;
    for (size_t J = 0; J < Row.Processes.size(); ++J) {
      const ProcessCount &C = Row.Processes[J];
      FUZZ_CHECK(C.Process < R.Processes.size(),
                 "%s row %zu: process %u of %zu", What, I, C.Process,
                 R.Processes.size());
      FUZZ_CHECK(J == 0 || Row.Processes[J - 1].Samples >= C.Samples,
                 "%s row %zu: processes not sorted by samples", What, I);
      Sum += C.Samples;
    }
    FUZZ_CHECK(Sum == Row.Entry.Samples,
               "%s row %zu: samples %llu, its processes' sum %llu", What, I,
               (unsigned long long)Row.Entry.Samples, (unsigned long long)Sum);
  }
}

void checkReport(const TraceReport &R) {
  SampleCounts Sum;
  for (const TraceProcess &P : R.Processes)
    Sum.add(P);
  FUZZ_CHECK(Sum.Samples == R.Totals.Samples && Sum.CpuNs == R.Totals.CpuNs &&
                 Sum.AtomicSamples == R.Totals.AtomicSamples &&
                 Sum.DroppedSamples == R.Totals.DroppedSamples,
             "totals are not the sums of the processes' counts");
  checkRows(R.Sites, R, "site");
  checkRows(R.Functions, R, "function");
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  Input = new pcmap::fuzz::InputFile("pcmap-fuzz-trace");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size < 1)
    return 0;
  const uint8_t Selector = Data[0];
  Input->set(Data + 1, Size - 1);

  std::vector<std::string> Paths = {Input->path()};
  if (Selector & 1)
    Paths.push_back(Input->path());
  std::vector<TraceDump> Dumps;
  std::vector<TraceFile> Files;
  uint64_t Skipped = 0;
  ExitCode Status = readTraces(Paths, Dumps, Files, Skipped);
  // A file without dumps is skipped (with a warning): it has no entry.
  FUZZ_CHECK(Files.size() <= Paths.size(), "%zu files for %zu paths",
             Files.size(), Paths.size());
  if (Status != ExitCode::Success)
    return 0;
  FUZZ_CHECK(Files.size() == Paths.size(),
             "%zu files for %zu paths, and success", Files.size(),
             Paths.size());
  FUZZ_CHECK(Files[0].Dumps > 0, "accepted a file of no dumps");
  if (Selector & 1)
    FUZZ_CHECK(Files[1].Dumps == Files[0].Dumps,
               "the same file read twice gave %llu and %llu dumps",
               (unsigned long long)Files[0].Dumps,
               (unsigned long long)Files[1].Dumps);
  const size_t NumDumps = Dumps.size();

  TraceReport R = mergeTraces(std::move(Dumps), std::move(Files));
  FUZZ_CHECK(R.Processes.size() == NumDumps, "%zu processes from %zu dumps",
             R.Processes.size(), NumDumps);
  checkReport(R);

  OutputOptions O;
  O.Top = (Selector & 2) ? 3 : 0;
  O.PerProcess = Selector & 4;
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  writeTraceText(OS, R, O);
  writeTraceCSV(OS, R, O);
  writeTraceHTML(OS, R, O);
  std::string JSON;
  llvm::raw_string_ostream JS(JSON);
  writeTraceJSON(JS, R, O);
  JS.flush();
  llvm::Expected<llvm::json::Value> Parsed = llvm::json::parse(JSON);
  FUZZ_CHECK(bool(Parsed), "the JSON writer's output does not parse: %s",
             llvm::toString(Parsed.takeError()).c_str());
  return 0;
}
