//===- TraceWaits.cpp - Blocked threads, by what they waited on -----------===//
//
// A version 5 dump has a row per distinct wait of its blocked threads
// (thread, system call, object, stack, holder, holder's stack), with the
// wall time its samples stand for. The merge puts the rows of one object
// together, the same in every process as a line of the data is: a futex
// word of a module's static data by module and offset, of a shared file by
// inode, name and offset, else by process and address; a file by its name
// ("pipe:[123]", a path), a descriptor without one by process; a system
// call that waits on nothing the dump names (nanosleep) by its name. Each
// wait's kind comes from the functions of its stack (pcmap/TraceDump.h,
// kWaitKinds), each futex word's name from the data's (TraceDataNames.cpp).
//
//===----------------------------------------------------------------------===//

#include "Trace.h"

#include "llvm/ADT/STLExtras.h"

#include <set>

using namespace llvm;

namespace pcmap {
namespace report {

namespace {

/// Where a futex word lies, as a line of the data of one 4-byte access at
/// its own address (or module or file offset), for the data's names.
DataLine wordLine(uint32_t Process, const DumpWait &W, int64_t Module,
                  uint32_t Thread) {
  bool Static = W.Region == DataRegion::Module && Module >= 0;
  bool Shared = W.Region == DataRegion::Shared;
  DataLine L;
  L.Region = W.Region;
  L.Module = Static ? uint32_t(Module) : 0;
  L.File = Shared ? W.File : "";
  L.Inode = Shared ? W.Inode : 0;
  L.Process = Process;
  L.Start = Static || Shared ? W.Offset : W.Address;
  DataAccess A;
  A.Thread = Thread;
  A.Size = 4;
  A.Kind = AccessKind::ReadWrite;
  A.Region = W.Region;
  A.Samples = W.Samples;
  A.Address = W.Address;
  A.Place = W.Region == DataRegion::TLS || Static || Shared ? W.Offset : 0;
  A.TlsModule = W.Region == DataRegion::TLS ? Module : -1;
  A.TpOffset = W.TpOffset;
  A.StackOwner = W.StackOwner;
  L.Accesses.push_back(A);
  return L;
}

/// What makes an object the same in every process (WaitObject).
std::tuple<int, uint64_t, std::string, uint64_t>
objectKey(uint32_t Process, const DumpWait &W, int64_t Module) {
  switch (W.Target) {
  case WaitTarget::Address:
    if (W.Region == DataRegion::Module && Module >= 0)
      return {0, uint64_t(Module), "", W.Offset};
    if (W.Region == DataRegion::Shared)
      return {1, W.Inode, W.File, W.Offset};
    return {2, Process, "", W.Address};
  case WaitTarget::Fd:
    if (!W.File.empty())
      return {3, 0, W.File, 0};
    return {4, Process, "", uint64_t(W.Fd)};
  case WaitTarget::None:
    break;
  }
  return {5, 0, W.Syscall, 0};
}

} // namespace

void WaitMerger::add(uint32_t Process, const DumpWait &W, int64_t Module,
                     uint32_t Thread, int64_t Stack, int64_t HolderStack) {
  auto [It, New] =
      Index.try_emplace(objectKey(Process, W, Module), R.WaitObjects.size());
  if (New) {
    R.WaitObjects.emplace_back();
    WaitObject &O = R.WaitObjects.back();
    O.Target = W.Target;
    O.Line = wordLine(Process, W, Module, Thread);
    if (W.Target == WaitTarget::Fd)
      O.Line.File = W.File;
    O.Fd = W.Fd;
    O.Syscall = W.Syscall;
  }
  R.WaitObjects[It->second].Rows.push_back(R.Waits.size());
  WaitRow Row;
  Row.Thread = Thread;
  Row.Syscall = W.Syscall;
  Row.Samples = W.Samples;
  Row.WaitNs = W.WaitNs;
  Row.Stack = Stack;
  Row.HolderStack = HolderStack;
  Row.Holder = W.Holder;
  Row.Object = uint32_t(It->second);
  R.Waits.push_back(std::move(Row));
}

void WaitMerger::finish() {
  R.WaitNs = 0;
  for (WaitObject &O : R.WaitObjects) {
    std::set<uint32_t> Threads, Processes;
    for (uint32_t I : O.Rows) {
      const WaitRow &W = R.Waits[I];
      O.WaitNs += W.WaitNs;
      O.Samples += W.Samples;
      Threads.insert(W.Thread);
      Processes.insert(R.Threads[W.Thread].Process);
    }
    O.Threads = Threads.size();
    O.Processes = Processes.size();
    R.WaitNs += O.WaitNs;
    stable_sort(O.Rows, [&](uint32_t A, uint32_t B) {
      return R.Waits[A].WaitNs > R.Waits[B].WaitNs;
    });
  }
  stable_sort(R.WaitObjects, [](const WaitObject &A, const WaitObject &B) {
    return std::tie(A.WaitNs, A.Samples) > std::tie(B.WaitNs, B.Samples);
  });
  for (size_t I = 0; I < R.WaitObjects.size(); ++I)
    for (uint32_t Row : R.WaitObjects[I].Rows)
      R.Waits[Row].Object = uint32_t(I);
  nameWaitObjects(R, /*Demangle=*/false, /*Files=*/false, /*Types=*/false);
  classifyWaits(R);
}

std::string waitKindOfStack(StringRef Syscall,
                            ArrayRef<std::string> Functions) {
  if (Syscall != "futex")
    return Syscall.str();
  std::vector<const char *> Names;
  for (const std::string &F : Functions)
    Names.push_back(F.empty() ? nullptr : F.c_str());
  const char *Kind = trace::waitKind(Names.data(), unsigned(Names.size()));
  return Kind ? Kind : "futex";
}

namespace {

/// The functions of a wait stack, innermost first, inline frames included,
/// demangled whatever the report shows.
std::vector<std::string> stackFunctions(const TraceReport &R, int64_t Stack) {
  std::vector<std::string> Out;
  if (Stack < 0)
    return Out;
  for (uint32_t I : R.WaitStacks[Stack].Frames) {
    const TraceFrame &F = R.Frames[I];
    if (F.Lines.empty())
      Out.push_back("");
    for (const TraceSourceFrame &L : F.Lines)
      Out.push_back(displaySymbol(
          L.LinkageName.empty() ? L.Function : L.LinkageName, true));
  }
  return Out;
}

} // namespace

void classifyWaits(TraceReport &R) {
  for (WaitRow &W : R.Waits)
    W.Kind = waitKindOfStack(W.Syscall, stackFunctions(R, W.Stack));
  for (WaitObject &O : R.WaitObjects) {
    // The kind of most wait time; of equal ones, the first seen.
    std::vector<std::pair<std::string, uint64_t>> Kinds;
    for (uint32_t I : O.Rows) {
      const WaitRow &W = R.Waits[I];
      auto It =
          find_if(Kinds, [&](const auto &K) { return K.first == W.Kind; });
      if (It == Kinds.end())
        Kinds.push_back({W.Kind, W.WaitNs});
      else
        It->second += W.WaitNs;
    }
    stable_sort(Kinds, [](const auto &A, const auto &B) {
      return A.second > B.second;
    });
    O.Kind = Kinds.empty() ? O.Syscall : Kinds.front().first;
  }
}

std::vector<WaitPath> waitPaths(const TraceReport &R, const WaitObject &O,
                                bool Holders, size_t N, uint64_t &TotalNs) {
  std::vector<WaitPath> Paths;
  std::map<int64_t, size_t> Index; // wait stack -> path
  TotalNs = 0;
  for (uint32_t I : O.Rows) {
    const WaitRow &W = R.Waits[I];
    int64_t Stack = Holders ? W.HolderStack : W.Stack;
    if (Stack < 0)
      continue;
    TotalNs += W.WaitNs;
    auto [It, New] = Index.try_emplace(Stack, Paths.size());
    if (New) {
      Paths.emplace_back();
      Paths.back().Frames = R.WaitStacks[Stack].Frames;
      Paths.back().Truncated = R.WaitStacks[Stack].Truncated;
    }
    Paths[It->second].WaitNs += W.WaitNs;
    Paths[It->second].Samples += W.Samples;
  }
  stable_sort(Paths, [](const WaitPath &A, const WaitPath &B) {
    return A.WaitNs > B.WaitNs;
  });
  if (Paths.size() > N)
    Paths.resize(N);
  return Paths;
}

std::string waitSummary(const TraceReport &R) {
  std::vector<std::string> Rates;
  for (const TraceProcess &P : R.Processes)
    if (P.WaitHz && !is_contained(Rates, std::to_string(P.WaitHz)))
      Rates.push_back(std::to_string(P.WaitHz));
  const SampleCounts &C = R.Totals;
  size_t Objects = R.WaitObjects.size();
  return std::to_string(C.WaitSamples) +
         " samples of threads blocked in a system call, of " +
         std::to_string(C.WaitObservations) + " observations at " +
         (Rates.empty() ? "0" : join(Rates, "/")) + " Hz, " +
         std::to_string(C.WaitSamplesDropped) + " dropped; " +
         cpuSecondsText(R.WaitNs) + " s of wait on " + std::to_string(Objects) +
         (Objects == 1 ? " object" : " objects");
}

} // namespace report
} // namespace pcmap
