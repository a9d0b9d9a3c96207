//===- TraceMerge.cpp - Many processes' dumps as one table ----------------===//
//
// A site or function is the same in every process when its module and its
// offset in the module are: the module is its GNU build ID, or its path when
// the trace has no build ID for it. A stack is the same when its frames
// are, each a module and offset likewise. TraceSymbolize.cpp then names
// them.
//
//===----------------------------------------------------------------------===//

#include "Trace.h"

#include "llvm/ADT/STLExtras.h"

#include <map>
#include <tuple>

using namespace llvm;

namespace pcmap {
namespace report {

void SampleCounts::add(const SampleCounts &C) {
  CpuNs += C.CpuNs;
  Samples += C.Samples;
  AtomicSamples += C.AtomicSamples;
  CoveredSamples += C.CoveredSamples;
  UncoveredSamples += C.UncoveredSamples;
  DroppedSamples += C.DroppedSamples;
  StackSamplesDropped += C.StackSamplesDropped;
  DataSamples += C.DataSamples;
  DataSamplesDropped += C.DataSamplesDropped;
  WaitObservations += C.WaitObservations;
  WaitSamples += C.WaitSamples;
  WaitSamplesDropped += C.WaitSamplesDropped;
  RaceChecks += C.RaceChecks;
  RaceDetections += C.RaceDetections;
  RacesDropped += C.RacesDropped;
  RacesSuppressed += C.RacesSuppressed;
  Observations += C.Observations;
  EventObservations += C.EventObservations;
  ObservationsKnown = ObservationsKnown && C.ObservationsKnown;
}

double TraceReport::sampleRatio() const {
  double Expected = cpuSeconds() * double(Hz);
  return Expected > 0 ? double(Totals.Samples) / Expected : 0;
}

namespace {

/// A process's counts at a site or function, and their sums.
ProcessCount countOf(uint32_t Process, const TraceSite &S) {
  return {Process, S.PC, S.Samples, S.ExactSamples, S.SkidSamples, 0};
}
ProcessCount countOf(uint32_t Process, const TraceFunction &F) {
  return {Process,
          F.Start,
          F.Samples,
          0,
          0,
          F.AtomicSamples,
          F.UncoveredCalleeSamples};
}
void addTo(TraceSite &Sum, const ProcessCount &C) {
  Sum.Samples += C.Samples;
  Sum.ExactSamples += C.Exact;
  Sum.SkidSamples += C.Skid;
}
void addTo(TraceFunction &Sum, const ProcessCount &C) {
  Sum.Samples += C.Samples;
  Sum.AtomicSamples += C.Atomic;
  Sum.UncoveredCalleeSamples += C.UncoveredCallee;
}
void addTo(ProcessCount &Sum, const ProcessCount &C) {
  Sum.Samples += C.Samples;
  Sum.Exact += C.Exact;
  Sum.Skid += C.Skid;
  Sum.Atomic += C.Atomic;
  Sum.UncoveredCallee += C.UncoveredCallee;
}

/// Merged rows of one kind, found by module and offset.
template <typename T> struct RowIndex {
  std::vector<Merged<T>> &Rows;
  std::map<std::pair<uint32_t, uint64_t>, size_t> Index;
};

class Merger {
public:
  explicit Merger(TraceReport &R) : R(R) {}
  void add(TraceDump &D);
  /// Ranks the lines of the data once the stacks are ranked, and the
  /// waits' objects.
  void finishData(ArrayRef<uint32_t> NewStack) {
    Data.finish(NewStack);
    Waits.finish();
  }

private:
  uint32_t module(const std::string &BuildID, const std::string &Path,
                  bool NoModule = false);
  uint32_t frame(const DumpFrame &F, ArrayRef<uint32_t> Modules);
  template <typename T>
  void addEntry(RowIndex<T> &Index, uint32_t Process, T &E);
  uint32_t addStack(const TraceDump &D, uint32_t Process, const DumpStack &S,
                    ArrayRef<uint32_t> Modules);
  void addWaits(const TraceDump &D, uint32_t Process,
                ArrayRef<uint32_t> Modules);
  void addRaces(const TraceDump &D, uint32_t Process,
                ArrayRef<uint32_t> Modules);

  TraceReport &R;
  DataMerger Data{R};
  WaitMerger Waits{R};
  std::map<std::vector<uint32_t>, size_t> WaitStacks;
  /// "b:<build ID>", "p:<path>", or "n:" for code in no module.
  std::map<std::string, uint32_t> Modules;
  RowIndex<TraceSite> Sites{R.Sites, {}};
  RowIndex<TraceFunction> Functions{R.Functions, {}};
  std::map<std::pair<uint32_t, uint64_t>, uint32_t> Frames;
  std::map<std::vector<uint32_t>, size_t> Stacks;
};

uint32_t Merger::module(const std::string &BuildID, const std::string &Path,
                        bool NoModule) {
  std::string Key = NoModule          ? "n:"
                    : BuildID.empty() ? "p:" + Path
                                      : "b:" + BuildID;
  auto [It, New] = Modules.try_emplace(Key, uint32_t(R.Modules.size()));
  if (New) {
    R.Modules.emplace_back();
    R.Modules.back().BuildID = BuildID;
    R.Modules.back().NoModule = NoModule;
  }
  std::vector<std::string> &Paths = R.Modules[It->second].Paths;
  if (!Path.empty() && !is_contained(Paths, Path))
    Paths.push_back(Path);
  return It->second;
}

template <typename T>
void Merger::addEntry(RowIndex<T> &Index, uint32_t Process, T &E) {
  uint32_t M = module(E.BuildID, E.Module);
  ProcessCount C = countOf(Process, E);
  auto [It, New] =
      Index.Index.try_emplace({M, E.ModuleOffset}, Index.Rows.size());
  if (New) {
    Index.Rows.push_back({std::move(E), M, {C}});
    return;
  }
  Merged<T> &Row = Index.Rows[It->second];
  addTo(Row.Entry, C);
  // The same module mapped twice in one process: one count.
  if (Row.Processes.back().Process == Process)
    addTo(Row.Processes.back(), C);
  else
    Row.Processes.push_back(C);
}

/// The report's frame of a dump's; Modules maps the dump's module indices
/// to the report's.
uint32_t Merger::frame(const DumpFrame &F, ArrayRef<uint32_t> Modules) {
  uint32_t M =
      F.Module == trace::kNoModule ? module("", "", true) : Modules[F.Module];
  auto [It, New] = Frames.try_emplace({M, F.Offset}, R.Frames.size());
  if (New) {
    R.Frames.emplace_back();
    R.Frames.back().Module = M;
    R.Frames.back().Offset = F.Offset;
  }
  return It->second;
}

/// Adds a stack of process Process; returns its index in R.Stacks.
uint32_t Merger::addStack(const TraceDump &D, uint32_t Process,
                          const DumpStack &S, ArrayRef<uint32_t> Modules) {
  std::vector<uint32_t> Key;
  for (const DumpFrame &F : S.Frames)
    Key.push_back(frame(F, Modules));
  auto [It, New] = Stacks.try_emplace(Key, R.Stacks.size());
  if (New) {
    R.Stacks.emplace_back();
    R.Stacks.back().Frames = std::move(Key);
  }
  MergedStack &M = R.Stacks[It->second];
  M.Samples += S.Samples;
  M.AtomicSamples += S.AtomicSamples;
  M.Truncated |= S.Frames.size() >= D.Process.StackDepth;
  if (!M.Processes.empty() && M.Processes.back().Process == Process)
    M.Processes.back().Samples += S.Samples;
  else
    M.Processes.push_back({Process, 0, S.Samples, 0, 0, S.AtomicSamples});
  return It->second;
}

/// A version 5 dump's waits, their stacks merged as the stacks are.
void Merger::addWaits(const TraceDump &D, uint32_t Process,
                      ArrayRef<uint32_t> Modules) {
  const TraceProcess &T = D.Process;
  R.HasWaits |= T.WaitHz > 0 || !D.Waits.empty();
  std::vector<int64_t> StackIndex;
  for (const DumpWaitStack &S : D.WaitStacks) {
    std::vector<uint32_t> Key;
    for (const DumpFrame &F : S.Frames)
      Key.push_back(frame(F, Modules));
    auto [It, New] = WaitStacks.try_emplace(Key, R.WaitStacks.size());
    if (New)
      R.WaitStacks.push_back({std::move(Key), false});
    R.WaitStacks[It->second].Truncated |=
        T.StackDepth && S.Frames.size() >= T.StackDepth;
    StackIndex.push_back(int64_t(It->second));
  }
  auto Stack = [&](int64_t I) { return I >= 0 ? StackIndex[I] : -1; };
  for (const DumpWait &W : D.Waits)
    Waits.add(Process, W, W.Module >= 0 ? int64_t(Modules[W.Module]) : -1,
              Data.thread(Process, W.Thread), Stack(W.Stack),
              Stack(W.HolderStack));
}

/// A version 6 dump's races, each as it is: mergeRaces makes those at the
/// same source sites one, once the frames are symbolized.
void Merger::addRaces(const TraceDump &D, uint32_t Process,
                      ArrayRef<uint32_t> Modules) {
  R.HasRaces |= D.HasRaces;
  auto Side = [&](const DumpRaceSide &S) {
    RaceSide Out;
    Out.Kind = S.Kind;
    Out.Size = S.Size;
    Out.Thread = Data.thread(Process, S.Thread);
    for (const DumpFrame &F : S.Frames)
      Out.Frames.push_back(frame(F, Modules));
    return Out;
  };
  for (const DumpRace &X : D.Races) {
    TraceRace T;
    T.Access = Side(X.Access);
    if ((T.OtherKnown = X.OtherKnown))
      T.Other = Side(X.Other);
    T.Count = X.Count;
    T.Address = X.Address;
    T.Before = X.Before;
    T.After = X.After;
    T.AddressName = X.AddressName;
    T.Processes.push_back(Process);
    R.Races.push_back(std::move(T));
  }
}

void Merger::add(TraceDump &D) {
  uint32_t P = R.Processes.size();
  const TraceProcess &T = D.Process;
  R.Hz = T.Hz;
  R.Version = std::max(R.Version, T.Version);
  R.Totals.add(T);
  for (TraceSite &S : D.Sites)
    addEntry(Sites, P, S);
  for (TraceFunction &F : D.Functions)
    addEntry(Functions, P, F);
  std::vector<uint32_t> &Modules = D.Process.Modules;
  for (const DumpModule &M : D.Modules)
    Modules.push_back(module(M.BuildID, M.Path));
  std::vector<uint32_t> StackIndex;
  for (const DumpStack &S : D.Stacks)
    StackIndex.push_back(addStack(D, P, S, Modules));
  if (!R.LineSize)
    R.LineSize = T.LineSize;
  for (const DumpAccess &A : D.Accesses)
    Data.add(P, A, A.Module >= 0 ? int64_t(Modules[A.Module]) : -1,
             frame(A.Site, Modules),
             A.Stack >= 0 ? int64_t(StackIndex[A.Stack]) : -1);
  addWaits(D, P, Modules);
  addRaces(D, P, Modules);
  R.Processes.push_back(std::move(D.Process));
}

/// Most samples first; ties in module and offset order. The processes of
/// each row: most samples first, ties in the order they were read.
template <typename T> void rank(std::vector<Merged<T>> &Rows) {
  for (Merged<T> &X : Rows)
    llvm::sort(X.Processes, [](const ProcessCount &A, const ProcessCount &B) {
      if (A.Samples != B.Samples)
        return A.Samples > B.Samples;
      return A.Process < B.Process;
    });
  llvm::sort(Rows, [](const Merged<T> &A, const Merged<T> &B) {
    if (A.Entry.Samples != B.Entry.Samples)
      return A.Entry.Samples > B.Entry.Samples;
    return std::make_pair(A.Module, A.Entry.ModuleOffset) <
           std::make_pair(B.Module, B.Entry.ModuleOffset);
  });
}

/// Stacks likewise; ties in the order they were merged. Returns each
/// stack's index after.
std::vector<uint32_t> rankStacks(std::vector<MergedStack> &Stacks) {
  for (MergedStack &S : Stacks)
    llvm::stable_sort(S.Processes,
                      [](const ProcessCount &A, const ProcessCount &B) {
                        return A.Samples > B.Samples;
                      });
  std::vector<uint32_t> Order(Stacks.size()), NewIndex(Stacks.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  llvm::stable_sort(Order, [&](uint32_t A, uint32_t B) {
    return Stacks[A].Samples > Stacks[B].Samples;
  });
  std::vector<MergedStack> Ranked;
  for (size_t I = 0; I < Order.size(); ++I) {
    NewIndex[Order[I]] = I;
    Ranked.push_back(std::move(Stacks[Order[I]]));
  }
  Stacks = std::move(Ranked);
  return NewIndex;
}

} // namespace

void rankFunctionsWithUncoveredCallees(TraceReport &R) {
  llvm::stable_sort(R.Functions,
                    [](const MergedFunction &A, const MergedFunction &B) {
                      return A.Entry.Samples + A.Entry.UncoveredCalleeSamples >
                             B.Entry.Samples + B.Entry.UncoveredCalleeSamples;
                    });
}

void mergeSiteLines(TraceReport &R) {
  std::map<std::tuple<uint32_t, std::string, std::string, uint32_t, std::string,
                      std::string, uint64_t, std::string, std::string>,
           size_t>
      Index;
  std::vector<MergedSite> Rows;
  std::vector<int64_t> NewIndex(R.Sites.size());
  for (size_t I = 0; I < R.Sites.size(); ++I) {
    MergedSite &M = R.Sites[I];
    const TraceSite &E = M.Entry;
    bool Known = !E.Function.empty() && !E.Inline.empty() &&
                 !E.Inline.front().File.empty() && E.Inline.front().Line;
    auto Key = std::make_tuple(M.Module, E.Function,
                               Known ? E.Inline.front().File : "",
                               Known ? E.Inline.front().Line : 0, E.Kind, E.Op,
                               E.Size, E.Order, E.FailureOrder);
    auto [It, New] = Known ? Index.try_emplace(Key, Rows.size())
                           : std::make_pair(Index.end(), true);
    if (New) {
      NewIndex[I] = int64_t(Rows.size());
      Rows.push_back(std::move(M));
      continue;
    }
    // R.Sites is most samples first: the row keeps its heaviest PC.
    MergedSite &Into = Rows[It->second];
    NewIndex[I] = int64_t(It->second);
    Into.Entry.Samples += E.Samples;
    Into.Entry.ExactSamples += E.ExactSamples;
    Into.Entry.SkidSamples += E.SkidSamples;
    Into.Entry.LineOffsets.push_back(E.FunctionOffset);
    for (const ProcessCount &C : M.Processes) {
      auto P = find_if(Into.Processes, [&](const ProcessCount &Q) {
        return Q.Process == C.Process;
      });
      if (P == Into.Processes.end()) {
        Into.Processes.push_back(C);
      } else {
        P->Samples += C.Samples;
        P->Exact += C.Exact;
        P->Skid += C.Skid;
      }
    }
  }
  // Ranked again, stably: the order of equal rows stays the merge's.
  std::vector<size_t> Order(Rows.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  stable_sort(Order, [&](size_t A, size_t B) {
    return Rows[A].Entry.Samples > Rows[B].Entry.Samples;
  });
  std::vector<int64_t> Rank(Rows.size());
  std::vector<MergedSite> Ranked;
  for (size_t I = 0; I < Order.size(); ++I) {
    Rank[Order[I]] = int64_t(I);
    Ranked.push_back(std::move(Rows[Order[I]]));
  }
  for (MergedSite &M : Ranked)
    stable_sort(M.Processes, [](const ProcessCount &A, const ProcessCount &B) {
      return A.Samples > B.Samples;
    });
  R.Sites = std::move(Ranked);
  for (TraceFrame &F : R.Frames)
    if (F.Site >= 0)
      F.Site = Rank[NewIndex[F.Site]];
  for (MergedStack &S : R.Stacks)
    if (S.Site >= 0)
      S.Site = Rank[NewIndex[S.Site]];
}

TraceReport mergeTraces(std::vector<TraceDump> Dumps,
                        std::vector<TraceFile> Files) {
  TraceReport R;
  R.Files = std::move(Files);
  Merger M(R);
  for (TraceDump &D : Dumps)
    M.add(D);
  rank(R.Sites);
  rank(R.Functions);
  M.finishData(rankStacks(R.Stacks));
  // With the trace's names; symbolizeTrace links them again from the files.
  linkStacks(R);
  return R;
}

} // namespace report
} // namespace pcmap
