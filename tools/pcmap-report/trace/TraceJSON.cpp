//===- TraceJSON.cpp - The merged trace as a JSON document ----------------===//
//
// The "trace" document of docs/report-json.md: the files, the processes
// (one per run, with the dump that stands for it), the modules and where
// their names came from, the ranked sites and functions, each with its
// per-process counts and its callers, the frames of the stacks with their
// source positions, the ranked stacks, and the totals.
//
//===----------------------------------------------------------------------===//

#include "Output.h"
#include "Trace.h"

#include "llvm/ADT/StringExtras.h"
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
  J.attribute("stack_samples_dropped", int64_t(C.StackSamplesDropped));
  if (C.ObservationsKnown) {
    J.attribute("observations", int64_t(C.Observations));
    J.attribute("event_observations", int64_t(C.EventObservations));
  }
}

/// A rank (index + 1) or null.
void rankOrNull(json::OStream &J, StringRef Name, int64_t Index) {
  if (Index < 0)
    J.attribute(Name, nullptr);
  else
    J.attribute(Name, Index + 1);
}

/// A source position: function (as shown and as in the file), location.
void sourceFrame(json::OStream &J, const TraceSourceFrame &F) {
  J.object([&] {
    stringOrNull(J, "function", F.Function);
    stringOrNull(J, "linkage_name", F.LinkageName);
    stringOrNull(J, "location", F.location());
  });
}

/// Frame indices, innermost first.
void frameList(json::OStream &J, ArrayRef<uint32_t> Frames) {
  J.attributeArray("frames", [&] {
    for (uint32_t I : Frames)
      J.value(int64_t(I));
  });
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
    J.attribute("version", int64_t(P.Version));
    if (P.Version >= 3)
      J.attribute("stack_depth", int64_t(P.StackDepth));
    else
      J.attribute("stack_depth", nullptr);
    counts(J, P);
    if (P.Version >= 4) {
      J.attribute("line_size", int64_t(P.LineSize));
      J.attribute("data_samples", int64_t(P.DataSamples));
      J.attribute("data_samples_dropped", int64_t(P.DataSamplesDropped));
    }
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
    J.attribute("no_module", M.NoModule);
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
  J.attributeArray("inlined_into", [&] {
    for (size_t I = 1; I < S.Inline.size(); ++I)
      sourceFrame(J, S.Inline[I]);
  });
}
void kindAttributes(json::OStream &J, const TraceFunction &F) {
  J.attribute("atomic_samples", int64_t(F.AtomicSamples));
  fraction(J, "atomic_share",
           F.Samples ? double(F.AtomicSamples) / F.Samples : 0);
  J.attribute("uncovered_callee_samples", int64_t(F.UncoveredCalleeSamples));
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
  J.attribute("uncovered_callee_samples", int64_t(C.UncoveredCallee));
}

/// The samples of every stack charged to a row, and its heaviest callers.
void callersAttributes(json::OStream &J, uint64_t Total,
                       ArrayRef<CallerPath> Paths) {
  J.attribute("stack_samples", int64_t(Total));
  J.attributeArray("callers", [&] {
    for (const CallerPath &P : Paths)
      J.object([&] {
        J.attribute("samples", int64_t(P.Samples));
        fraction(J, "share", Total ? double(P.Samples) / Total : 0);
        J.attribute("truncated", P.Truncated);
        frameList(J, P.Frames);
      });
  });
}

/// A site or function: where, names, samples, its kind's fields, then each
/// process's part.
template <typename T>
void row(json::OStream &J, const TraceReport &R, size_t Rank,
         const Merged<T> &M, const TraceOptions &O) {
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
    uint64_t Total = 0;
    std::vector<CallerPath> Paths =
        rowCallers(R, &E, Rank - 1, O.Callers, Total);
    callersAttributes(J, Total, Paths);
  });
}

template <typename T>
void rows(json::OStream &J, StringRef Name, const TraceReport &R,
          const std::vector<Merged<T>> &Rows, const TraceOptions &O) {
  J.attributeArray(Name, [&] {
    for (size_t I = 0, E = shownRows(Rows.size(), O); I < E; ++I)
      row(J, R, I + 1, Rows[I], O);
  });
}

void frame(json::OStream &J, const TraceReport &R, const TraceFrame &F) {
  J.object([&] {
    J.attribute("module_index", int64_t(F.Module));
    J.attribute("module_offset", hexAddress(F.Offset));
    rankOrNull(J, "site_rank", F.Site);
    rankOrNull(J, "function_rank", F.Function);
    J.attributeArray("lines", [&] {
      for (const TraceSourceFrame &L : F.Lines)
        sourceFrame(J, L);
    });
  });
}

void stack(json::OStream &J, const TraceReport &R, size_t Rank,
           const MergedStack &S) {
  J.object([&] {
    J.attribute("rank", int64_t(Rank));
    J.attribute("samples", int64_t(S.Samples));
    fraction(J, "share", R.share(S.Samples));
    J.attribute("atomic_samples", int64_t(S.AtomicSamples));
    J.attribute("truncated", S.Truncated);
    rankOrNull(J, "site_rank", S.Site);
    rankOrNull(J, "function_rank", S.Function);
    frameList(J, S.Frames);
    J.attributeArray("processes", [&] {
      for (const ProcessCount &C : S.Processes)
        J.object([&] {
          J.attribute("pid", R.Processes[C.Process].Pid);
          J.attribute("run", utf8(R.Processes[C.Process].Run));
          J.attribute("samples", int64_t(C.Samples));
          J.attribute("atomic_samples", int64_t(C.Atomic));
        });
    });
  });
}

void stacks(json::OStream &J, const TraceReport &R, const TraceOptions &O) {
  J.attributeArray("frames", [&] {
    for (const TraceFrame &F : R.Frames)
      frame(J, R, F);
  });
  J.attributeArray("stacks", [&] {
    for (size_t I = 0, E = shownRows(R.Stacks.size(), O); I < E; ++I)
      stack(J, R, I + 1, R.Stacks[I]);
  });
}

void totals(json::OStream &J, const TraceReport &R, const TraceOptions &O) {
  J.attributeObject("totals", [&] {
    J.attribute("processes", int64_t(R.Processes.size()));
    J.attribute("files", int64_t(R.Files.size()));
    counts(J, R.Totals);
    fraction(J, "sample_ratio", R.sampleRatio());
    J.attribute("sites", int64_t(R.Sites.size()));
    J.attribute("shown_sites", int64_t(shownRows(R.Sites.size(), O)));
    J.attribute("functions", int64_t(R.Functions.size()));
    J.attribute("shown_functions", int64_t(shownRows(R.Functions.size(), O)));
    J.attribute("stacks", int64_t(R.Stacks.size()));
    J.attribute("shown_stacks", int64_t(shownRows(R.Stacks.size(), O)));
    J.attribute("text", traceSummary(R));
  });
}

//===----------------------------------------------------------------------===//
// The data (version 4)
//===----------------------------------------------------------------------===//

/// A member's sites (their PCs' frames, heaviest first) and callers.
void memberJSON(json::OStream &J, const TraceReport &R, const DataLine &L,
                size_t M, const TraceOptions &O) {
  const DataMember &X = L.Members[M];
  J.object([&] {
    J.attribute("name", utf8(X.Name));
    J.attribute("offset", int64_t(X.Offset));
    J.attribute("size", int64_t(X.Size));
    J.attribute("samples", int64_t(X.Samples));
    J.attribute("threads", int64_t(X.Threads));
    J.attribute("read_samples", int64_t(X.Reads));
    J.attribute("write_samples", int64_t(X.Writes));
    J.attribute("rmw_samples", int64_t(X.ReadWrites));
    J.attribute("atomic_samples", int64_t(X.Atomic));
    J.attributeArray("sites", [&] {
      for (const DataSite &S : X.Sites)
        J.object([&] {
          J.attribute("samples", int64_t(S.Samples));
          J.attribute("kinds", kindsText(S.Kinds));
          frameList(J, S.Frames);
        });
    });
    uint64_t Total = 0;
    std::vector<CallerPath> Paths = memberCallers(R, L, M, O.Callers, Total);
    callersAttributes(J, Total, Paths);
  });
}

void accessJSON(json::OStream &J, const TraceReport &R, const DataAccess &A) {
  J.object([&] {
    const DataThread &T = R.Threads[A.Thread];
    J.attribute("pid", R.Processes[T.Process].Pid);
    J.attribute("run", utf8(R.Processes[T.Process].Run));
    J.attribute("thread", T.Tid);
    J.attribute("offset", int64_t(A.Offset));
    if (A.Size)
      J.attribute("size", int64_t(A.Size));
    else
      J.attribute("size", nullptr);
    J.attribute("kind", accessKindName(A.Kind));
    J.attribute("atomic", A.Atomic);
    J.attribute("region", regionName(A.Region));
    J.attribute("address", hexAddress(A.Address));
    if (A.Region == DataRegion::Stack && A.StackOwner >= 0)
      J.attribute("stack_owner", A.StackOwner);
    J.attribute("site_frame", int64_t(A.Site));
    rankOrNull(J, "stack_rank", A.Stack);
    J.attribute("samples", int64_t(A.Samples));
    J.attribute("name", utf8(A.Name));
    J.attribute("member", int64_t(A.Member));
  });
}

/// Where a line is: its module and offset, its shared file, or its
/// process and address.
void linePlace(json::OStream &J, const TraceReport &R, const DataLine &L) {
  bool Static = L.Region == DataRegion::Module;
  bool Shared = L.Region == DataRegion::Shared;
  if (Static)
    J.attribute("module_index", int64_t(L.Module));
  else
    J.attribute("module_index", nullptr);
  if (Static || Shared)
    J.attribute("offset", hexAddress(L.Start));
  else
    J.attribute("offset", nullptr);
  stringOrNull(J, "file", L.File);
  if (Shared)
    J.attribute("inode", int64_t(L.Inode));
  else
    J.attribute("inode", nullptr);
  if (Static || Shared) {
    J.attribute("pid", nullptr);
    J.attribute("run", nullptr);
    J.attribute("address", nullptr);
    return;
  }
  J.attribute("pid", R.Processes[L.Process].Pid);
  J.attribute("run", utf8(R.Processes[L.Process].Run));
  J.attribute("address", hexAddress(L.Start));
}

void lineJSON(json::OStream &J, const TraceReport &R, size_t Rank,
              const DataLine &L, const TraceOptions &O) {
  J.object([&] {
    J.attribute("rank", int64_t(Rank));
    J.attribute("line", utf8(lineText(R, L)));
    J.attribute("region", regionName(L.Region));
    linePlace(J, R, L);
    J.attribute("object", utf8(L.Object));
    J.attribute("sharing", sharingText(L.Sharing));
    J.attribute("samples", int64_t(L.Samples));
    fraction(J, "share", R.share(L.Samples));
    J.attribute("threads", int64_t(L.Threads));
    J.attribute("processes", int64_t(L.Processes));
    J.attributeArray("members", [&] {
      for (size_t M = 0; M < L.Members.size(); ++M)
        memberJSON(J, R, L, M, O);
    });
    J.attributeArray("accesses", [&] {
      for (const DataAccess &A : L.Accesses)
        accessJSON(J, R, A);
    });
  });
}

void dataJSON(json::OStream &J, const TraceReport &R, const TraceOptions &O) {
  J.attributeObject("data", [&] {
    J.attribute("line_size", int64_t(R.LineSize));
    J.attribute("data_samples", int64_t(R.Totals.DataSamples));
    J.attribute("data_samples_dropped", int64_t(R.Totals.DataSamplesDropped));
    J.attribute("lines_total", int64_t(R.Lines.size()));
    J.attributeArray("lines", [&] {
      for (size_t I = 0, E = shownRows(R.Lines.size(), O); I < E; ++I)
        lineJSON(J, R, I + 1, R.Lines[I], O);
    });
  });
}

//===----------------------------------------------------------------------===//
// The waits (version 5)
//===----------------------------------------------------------------------===//

StringRef targetName(WaitTarget T) {
  switch (T) {
  case WaitTarget::Address:
    return "address";
  case WaitTarget::Fd:
    return "fd";
  case WaitTarget::None:
    break;
  }
  return "none";
}

/// Where an object is: a futex word as a line of the data is placed; a
/// file by its name, and a descriptor without one by its process.
void waitPlace(json::OStream &J, const TraceReport &R, const WaitObject &W) {
  J.attribute("target", targetName(W.Target));
  if (W.Target == WaitTarget::Address) {
    J.attribute("region", regionName(W.Line.Region));
    linePlace(J, R, W.Line);
    J.attribute("fd", nullptr);
    return;
  }
  bool Descriptor = W.Target == WaitTarget::Fd && W.Line.File.empty();
  for (StringRef Key : {"region", "module_index", "offset"})
    J.attribute(Key, nullptr);
  stringOrNull(J, "file", W.Line.File);
  J.attribute("inode", nullptr);
  if (Descriptor) {
    J.attribute("pid", R.Processes[W.Line.Process].Pid);
    J.attribute("run", utf8(R.Processes[W.Line.Process].Run));
  } else {
    J.attribute("pid", nullptr);
    J.attribute("run", nullptr);
  }
  J.attribute("address", nullptr);
  if (Descriptor)
    J.attribute("fd", W.Fd);
  else
    J.attribute("fd", nullptr);
}

/// A wait stack's index, or null.
void stackOrNull(json::OStream &J, StringRef Name, int64_t Index) {
  if (Index < 0)
    J.attribute(Name, nullptr);
  else
    J.attribute(Name, Index);
}

/// An object's heaviest waiting (or holding) stacks.
void waitPathsJSON(json::OStream &J, StringRef Name, const TraceReport &R,
                   const WaitObject &W, bool Holders, const TraceOptions &O) {
  uint64_t Total = 0;
  std::vector<WaitPath> Paths = waitPaths(R, W, Holders, O.Callers, Total);
  J.attribute((Name + "_wait_ns").str(), int64_t(Total));
  J.attributeArray(Name, [&] {
    for (const WaitPath &P : Paths)
      J.object([&] {
        J.attribute("wait_ns", int64_t(P.WaitNs));
        fraction(J, "share", Total ? double(P.WaitNs) / Total : 0);
        J.attribute("samples", int64_t(P.Samples));
        J.attribute("truncated", P.Truncated);
        frameList(J, P.Frames);
      });
  });
}

void waitRowJSON(json::OStream &J, const TraceReport &R, const WaitRow &W) {
  const DataThread &T = R.Threads[W.Thread];
  J.object([&] {
    J.attribute("pid", R.Processes[T.Process].Pid);
    J.attribute("run", utf8(R.Processes[T.Process].Run));
    J.attribute("thread", T.Tid);
    J.attribute("syscall", utf8(W.Syscall));
    J.attribute("kind", utf8(W.Kind));
    J.attribute("samples", int64_t(W.Samples));
    J.attribute("wait_ns", int64_t(W.WaitNs));
    stackOrNull(J, "stack", W.Stack);
    if (W.Holder)
      J.attribute("holder", W.Holder);
    else
      J.attribute("holder", nullptr);
    stackOrNull(J, "holder_stack", W.HolderStack);
  });
}

void waitObjectJSON(json::OStream &J, const TraceReport &R, size_t Rank,
                    const WaitObject &W, const TraceOptions &O) {
  J.object([&] {
    J.attribute("rank", int64_t(Rank));
    J.attribute("name", utf8(W.Name));
    J.attribute("kind", utf8(W.Kind));
    waitPlace(J, R, W);
    J.attribute("wait_ns", int64_t(W.WaitNs));
    fraction(J, "share", R.WaitNs ? double(W.WaitNs) / R.WaitNs : 0);
    J.attribute("samples", int64_t(W.Samples));
    J.attribute("threads", int64_t(W.Threads));
    J.attribute("processes", int64_t(W.Processes));
    waitPathsJSON(J, "stacks", R, W, /*Holders=*/false, O);
    waitPathsJSON(J, "holder_stacks", R, W, /*Holders=*/true, O);
    J.attributeArray("waits", [&] {
      for (uint32_t I : W.Rows)
        waitRowJSON(J, R, R.Waits[I]);
    });
  });
}

void waitsJSON(json::OStream &J, const TraceReport &R, const TraceOptions &O) {
  J.attributeObject("waits", [&] {
    J.attribute("observations", int64_t(R.Totals.WaitObservations));
    J.attribute("wait_samples", int64_t(R.Totals.WaitSamples));
    J.attribute("wait_samples_dropped", int64_t(R.Totals.WaitSamplesDropped));
    J.attribute("wait_ns", int64_t(R.WaitNs));
    J.attribute("text", waitSummary(R));
    J.attributeArray("processes", [&] {
      for (const TraceProcess &P : R.Processes)
        J.object([&] {
          J.attribute("pid", P.Pid);
          J.attribute("run", utf8(P.Run));
          J.attribute("wait_hz", int64_t(P.WaitHz));
          J.attribute("observations", int64_t(P.WaitObservations));
          J.attribute("wait_samples", int64_t(P.WaitSamples));
          J.attribute("wait_samples_dropped", int64_t(P.WaitSamplesDropped));
        });
    });
    J.attributeArray("wait_stacks", [&] {
      for (const WaitStack &S : R.WaitStacks)
        J.object([&] {
          J.attribute("truncated", S.Truncated);
          frameList(J, S.Frames);
        });
    });
    J.attribute("objects_total", int64_t(R.WaitObjects.size()));
    J.attributeArray("objects", [&] {
      for (size_t I = 0, E = shownRows(R.WaitObjects.size(), O); I < E; ++I)
        waitObjectJSON(J, R, I + 1, R.WaitObjects[I], O);
    });
  });
}

//===----------------------------------------------------------------------===//
// The data races (version 6)
//===----------------------------------------------------------------------===//

std::string hexText(uint64_t V) {
  return "0x" + utohexstr(V, /*LowerCase=*/true);
}

void raceSideJSON(json::OStream &J, const TraceReport &R, const RaceSide &S) {
  J.object([&] {
    const DataThread &T = R.Threads[S.Thread];
    J.attribute("kind", accessKindName(S.Kind));
    J.attribute("size", int64_t(S.Size));
    J.attribute("thread", T.Tid);
    J.attribute("pid", R.Processes[T.Process].Pid);
    frameList(J, S.Frames);
  });
}

void raceJSON(json::OStream &J, const TraceReport &R, const TraceRace &X) {
  J.object([&] {
    J.attribute("count", int64_t(X.Count));
    J.attributeArray("processes", [&] {
      for (uint32_t P : X.Processes)
        J.value(R.Processes[P].Pid);
    });
    J.attribute("address", hexText(X.Address));
    J.attribute("address_name", utf8(X.AddressName));
    J.attribute("before", hexText(X.Before));
    J.attribute("after", hexText(X.After));
    J.attribute("other_known", X.OtherKnown);
    J.attributeBegin("access");
    raceSideJSON(J, R, X.Access);
    J.attributeEnd();
    if (X.OtherKnown) {
      J.attributeBegin("other");
      raceSideJSON(J, R, X.Other);
      J.attributeEnd();
    }
  });
}

void racesJSON(json::OStream &J, const TraceReport &R, const TraceOptions &O) {
  J.attributeObject("races", [&] {
    J.attribute("checks", int64_t(R.Totals.RaceChecks));
    J.attribute("detections", int64_t(R.Totals.RaceDetections));
    J.attribute("dropped", int64_t(R.Totals.RacesDropped));
    J.attribute("suppressed", int64_t(R.RacesSuppressed));
    J.attribute("text", raceSummary(R));
    J.attribute("races_total", int64_t(R.Races.size()));
    J.attributeArray("races", [&] {
      for (size_t I = 0, E = shownRows(R.Races.size(), O); I < E; ++I)
        raceJSON(J, R, R.Races[I]);
    });
  });
}

} // namespace

void writeTraceJSON(raw_ostream &OS, const TraceReport &R,
                    const TraceOptions &O) {
  json::OStream J(OS, 1);
  J.object([&] {
    jsonHeader(J, "trace");
    J.attribute("trace_version", int64_t(R.Version));
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
    stacks(J, R, O);
    totals(J, R, O);
    if (R.Version >= 4)
      dataJSON(J, R, O);
    if (R.HasWaits)
      waitsJSON(J, R, O);
    if (R.HasRaces)
      racesJSON(J, R, O);
  });
  OS << "\n";
}

} // namespace report
} // namespace pcmap
