//===- TraceJSON.cpp - The merged trace as a JSON document ----------------===//
//
// The "trace" document of docs/report-json.md: the files, the processes
// (one per run, with the dump that stands for it), the modules and where
// their names came from, the ranked sites and functions, each with its
// per-process counts, and the totals.
//
//===----------------------------------------------------------------------===//

#include "Output.h"
#include "Trace.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"

using namespace llvm;

namespace pcmap {
namespace report {

namespace {

/// A string field that is null when empty.
void stringOrNull(json::OStream &J, StringRef Name, StringRef Value) {
  if (Value.empty())
    J.attribute(Name, nullptr);
  else
    J.attribute(Name, utf8(Value));
}

/// A share or ratio, to six decimals ("0.464286", not 0.46428599999999998).
void fraction(json::OStream &J, StringRef Name, double V) {
  J.attributeBegin(Name);
  J.rawValue([&](raw_ostream &OS) { OS << llvm::format("%.6f", V); });
  J.attributeEnd();
}

void counts(json::OStream &J, const SampleCounts &C) {
  J.attribute("cpu_ns", int64_t(C.CpuNs));
  J.attribute("samples", int64_t(C.Samples));
  J.attribute("atomic_samples", int64_t(C.AtomicSamples));
  J.attribute("covered_samples", int64_t(C.CoveredSamples));
  J.attribute("uncovered_samples", int64_t(C.UncoveredSamples));
  J.attribute("dropped_samples", int64_t(C.DroppedSamples));
}

void process(json::OStream &J, const TraceProcess &P) {
  J.object([&] {
    J.attribute("pid", P.Pid);
    J.attribute("ppid", P.PPid);
    J.attribute("run", utf8(P.Run));
    stringOrNull(J, "parent_run", P.ParentRun);
    J.attribute("dump", int64_t(P.Dump));
    J.attribute("reason", utf8(P.Reason));
    J.attribute("final", P.Final);
    J.attribute("threads", int64_t(P.Threads));
    counts(J, P);
    J.attribute("file", utf8(P.File));
    J.attribute("line", int64_t(P.Line));
  });
}

void module(json::OStream &J, const TraceModule &M) {
  J.object([&] {
    stringOrNull(J, "build_id", M.BuildID);
    J.attributeArray("paths", [&] {
      for (const std::string &P : M.Paths)
        J.value(utf8(P));
    });
    J.attribute("names", M.Symbolized ? "file" : "trace");
    stringOrNull(J, "symbolized_from", M.SymbolizedPath);
    stringOrNull(J, "note", M.Note);
  });
}

/// What only sites or only functions have, in the row and in each
/// process's part of it.
void kindAttributes(json::OStream &J, const TraceSite &S) {
  J.attribute("function_offset", int64_t(S.FunctionOffset));
  J.attribute("kind", utf8(S.Kind));
  stringOrNull(J, "op", S.Op);
  if (S.Size)
    J.attribute("size", int64_t(S.Size));
  else
    J.attribute("size", nullptr);
  stringOrNull(J, "order", S.Order);
  stringOrNull(J, "failure_order", S.FailureOrder);
  J.attribute("exact_samples", int64_t(S.ExactSamples));
  J.attribute("skid_samples", int64_t(S.SkidSamples));
}
void kindAttributes(json::OStream &J, const TraceFunction &F) {
  J.attribute("atomic_samples", int64_t(F.AtomicSamples));
  fraction(J, "atomic_share",
           F.Samples ? double(F.AtomicSamples) / F.Samples : 0);
}
void processAttributes(json::OStream &J, const TraceSite *,
                       const ProcessCount &C) {
  J.attribute("pc", hexAddress(C.Address));
  J.attribute("samples", int64_t(C.Samples));
  J.attribute("exact_samples", int64_t(C.Exact));
  J.attribute("skid_samples", int64_t(C.Skid));
}
void processAttributes(json::OStream &J, const TraceFunction *,
                       const ProcessCount &C) {
  J.attribute("start", hexAddress(C.Address));
  J.attribute("samples", int64_t(C.Samples));
  J.attribute("atomic_samples", int64_t(C.Atomic));
}

/// A site or function: where, names, samples, its kind's fields, then each
/// process's part.
template <typename T>
void row(json::OStream &J, const TraceReport &R, size_t Rank,
         const Merged<T> &M) {
  const TraceModule &Mod = R.Modules[M.Module];
  const T &E = M.Entry;
  J.object([&] {
    J.attribute("rank", int64_t(Rank));
    stringOrNull(J, "module", Mod.Paths.empty() ? "" : Mod.Paths[0]);
    J.attribute("module_index", int64_t(M.Module));
    J.attribute("module_offset", hexAddress(E.ModuleOffset));
    stringOrNull(J, "build_id", Mod.BuildID);
    stringOrNull(J, "function", E.Function);
    stringOrNull(J, "location", E.Location);
    J.attribute("samples", int64_t(E.Samples));
    fraction(J, "share", R.share(E.Samples));
    kindAttributes(J, E);
    J.attributeArray("processes", [&] {
      for (const ProcessCount &C : M.Processes)
        J.object([&] {
          J.attribute("pid", R.Processes[C.Process].Pid);
          J.attribute("run", utf8(R.Processes[C.Process].Run));
          processAttributes(J, &E, C);
        });
    });
  });
}

template <typename T>
void rows(json::OStream &J, StringRef Name, const TraceReport &R,
          const std::vector<Merged<T>> &Rows, const OutputOptions &O) {
  J.attributeArray(Name, [&] {
    for (size_t I = 0, E = shownRows(Rows.size(), O); I < E; ++I)
      row(J, R, I + 1, Rows[I]);
  });
}

void totals(json::OStream &J, const TraceReport &R, const OutputOptions &O) {
  J.attributeObject("totals", [&] {
    J.attribute("processes", int64_t(R.Processes.size()));
    J.attribute("files", int64_t(R.Files.size()));
    counts(J, R.Totals);
    fraction(J, "sample_ratio", R.sampleRatio());
    J.attribute("sites", int64_t(R.Sites.size()));
    J.attribute("shown_sites", int64_t(shownRows(R.Sites.size(), O)));
    J.attribute("functions", int64_t(R.Functions.size()));
    J.attribute("shown_functions", int64_t(shownRows(R.Functions.size(), O)));
    J.attribute("text", traceSummary(R));
  });
}

} // namespace

void writeTraceJSON(raw_ostream &OS, const TraceReport &R,
                    const OutputOptions &O) {
  json::OStream J(OS, 1);
  J.object([&] {
    jsonHeader(J, "trace");
    J.attribute("trace_version", int64_t(kTraceVersion));
    J.attribute("hz", int64_t(R.Hz));
    J.attributeArray("files", [&] {
      for (const TraceFile &F : R.Files)
        J.object([&] {
          J.attribute("path", utf8(F.Path));
          J.attribute("dumps", int64_t(F.Dumps));
        });
    });
    J.attributeArray("processes", [&] {
      for (const TraceProcess &P : R.Processes)
        process(J, P);
    });
    J.attributeArray("modules", [&] {
      for (const TraceModule &M : R.Modules)
        module(J, M);
    });
    rows(J, "sites", R, R.Sites, O);
    rows(J, "functions", R, R.Functions, O);
    totals(J, R, O);
  });
  OS << "\n";
}

} // namespace report
} // namespace pcmap
