//===- TraceData.cpp - The data the samples touched, by cache line --------===//
//
// A version 4 dump has a row per distinct access its samples made (address,
// size, kind, thread, site, stack). The merge puts them in cache lines that
// are the same in every process: a module's static data by the module (build
// ID or path) and offset, a shared mapping's bytes by the file (inode and
// name) and file offset, so that a server's shared memory mapped at other
// addresses in each forked worker is one line; everything else (heap,
// stacks, thread-local storage, unmapped) by process and address. Threads
// are a process's thread IDs. Each line gets a verdict (dataSharing), its
// accesses are named (TraceDataNames.cpp) and grouped into members, each
// member's sites by source line.
//
//===----------------------------------------------------------------------===//

#include "Trace.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <set>

using namespace llvm;

namespace pcmap {
namespace report {

StringRef accessKindName(AccessKind K) {
  switch (K) {
  case AccessKind::Read:
    return trace::kAccessRead;
  case AccessKind::Write:
    return trace::kAccessWrite;
  case AccessKind::ReadWrite:
    break;
  }
  return trace::kAccessReadWrite;
}

StringRef regionName(DataRegion R) {
  switch (R) {
  case DataRegion::Module:
    return trace::kRegionModule;
  case DataRegion::TLS:
    return trace::kRegionTLS;
  case DataRegion::Stack:
    return trace::kRegionStack;
  case DataRegion::Shared:
    return trace::kRegionShared;
  case DataRegion::Heap:
    return trace::kRegionHeap;
  case DataRegion::Unknown:
    break;
  }
  return trace::kRegionUnknown;
}

namespace {

/// How a line is keyed: module and shared lines are the same in every
/// process, the others are a process's.
enum LineGroup { ModuleLine, SharedLine, ProcessLine };

/// Of the regions a process's line was seen in (its own thread sees its TLS
/// or stack; another thread, given a pointer to it, private memory), the
/// one that says what it is.
int regionRank(DataRegion R) {
  switch (R) {
  case DataRegion::TLS:
    return 0;
  case DataRegion::Stack:
    return 1;
  case DataRegion::Heap:
    return 2;
  default:
    return 3;
  }
}

} // namespace

uint32_t DataMerger::thread(uint32_t Process, int64_t Tid) {
  auto [It, New] = Threads.try_emplace({Process, Tid}, R.Threads.size());
  if (New)
    R.Threads.push_back({Process, Tid});
  return It->second;
}

void DataMerger::add(uint32_t Process, const DumpAccess &A, int64_t Module,
                     uint32_t Site, int64_t Stack) {
  uint64_t Mask = R.LineSize - 1;
  bool Static = A.Region == DataRegion::Module && Module >= 0;
  bool Shared = A.Region == DataRegion::Shared;
  uint64_t Place = Static || Shared ? A.Offset : A.Address;
  std::tuple<int, uint64_t, std::string, uint64_t> Key = {
      Static   ? ModuleLine
      : Shared ? SharedLine
               : ProcessLine,
      Static   ? uint64_t(Module)
      : Shared ? A.Inode
               : Process,
      Shared ? A.File : "", Place & ~Mask};
  auto [It, New] = Index.try_emplace(Key, R.Lines.size());
  if (New) {
    R.Lines.emplace_back();
    DataLine &L = R.Lines.back();
    L.Region = A.Region;
    L.Module = Static ? uint32_t(Module) : 0;
    L.File = Shared ? A.File : "";
    L.Inode = Shared ? A.Inode : 0;
    L.Process = Process;
    L.Start = Place & ~Mask;
  }
  DataLine &L = R.Lines[It->second];
  if (regionRank(A.Region) < regionRank(L.Region) && !Static && !Shared)
    L.Region = A.Region;
  DataAccess D;
  D.Thread = thread(Process, A.Thread);
  D.Offset = uint32_t(Place & Mask);
  D.Size = A.Size;
  D.Kind = A.Kind;
  D.Atomic = A.Atomic;
  D.Region = A.Region;
  D.Site = Site;
  D.Stack = Stack;
  D.Samples = A.Samples;
  D.Address = A.Address;
  D.Place = A.Region == DataRegion::TLS || Static || Shared ? A.Offset : 0;
  D.TlsModule = A.Region == DataRegion::TLS ? Module : -1;
  D.TpOffset = A.TpOffset;
  D.StackOwner = A.StackOwner;
  L.Accesses.push_back(std::move(D));
}

// The verdict on a line, by the rules of the runtime's own text report
// (rt/optional/data_report.cpp, lineSharing), so that both say the same of
// the same accesses:
// - an access covers the bytes [offset, offset + size) of the line (size 0,
//   not known: its first byte);
// - two accesses of two different threads, at least one of them a write or
//   a read-modify-write, are false sharing when their bytes do not overlap
//   (each thread's stores take the line from the other's cache though they
//   never touch the same data) and true sharing when they do (the threads
//   communicate through those bytes);
// - a line can be both; with neither (one thread, or reads only) it has no
//   verdict;
// - threads of two processes share only a shared mapping: a module's static
//   data merged over the processes is each one's own copy (a fork's is
//   copied on write), so its verdict is that of each process's threads;
// - two threads each on its own stack share nothing: the C library gives a
//   thread that ended's stack to the next one.
unsigned dataSharing(ArrayRef<DataAccess> Accesses, uint64_t LineSize,
                     ArrayRef<DataThread> Threads, bool AcrossProcesses) {
  // The bytes each thread touched: whether it wrote them, and whether they
  // were all on its own stack.
  struct Use {
    bool Writes = false, OwnStack = true;
  };
  std::map<std::tuple<uint64_t, uint64_t, uint32_t>, Use> Ranges;
  for (const DataAccess &A : Accesses) {
    uint64_t Size = std::min<uint64_t>(A.Size ? A.Size : 1, LineSize);
    Use &U = Ranges[{A.Offset, A.Offset + Size, A.Thread}];
    U.Writes |= A.Kind != AccessKind::Read;
    U.OwnStack &= A.Region == DataRegion::Stack &&
                  (A.StackOwner < 0 || A.StackOwner == Threads[A.Thread].Tid);
  }
  unsigned Sharing = NoSharing;
  for (auto X = Ranges.begin(); X != Ranges.end(); ++X)
    for (auto Y = std::next(X); Y != Ranges.end(); ++Y) {
      auto [XBegin, XEnd, XThread] = X->first;
      auto [YBegin, YEnd, YThread] = Y->first;
      if (XThread == YThread || !(X->second.Writes || Y->second.Writes) ||
          (X->second.OwnStack && Y->second.OwnStack) ||
          (!AcrossProcesses &&
           Threads[XThread].Process != Threads[YThread].Process))
        continue;
      Sharing |= XBegin < YEnd && YBegin < XEnd ? TrueSharing : FalseSharing;
      if (Sharing == (FalseSharing | TrueSharing))
        return Sharing;
    }
  return Sharing;
}

namespace {

/// The line's counts and verdict, its accesses by offset.
void countLine(const TraceReport &R, DataLine &L) {
  stable_sort(L.Accesses, [](const DataAccess &A, const DataAccess &B) {
    if (A.Offset != B.Offset)
      return A.Offset < B.Offset;
    return A.Samples > B.Samples;
  });
  std::set<uint32_t> Threads, Processes;
  L.Samples = 0;
  for (const DataAccess &A : L.Accesses) {
    L.Samples += A.Samples;
    Threads.insert(A.Thread);
    Processes.insert(R.Threads[A.Thread].Process);
  }
  L.Threads = Threads.size();
  L.Processes = Processes.size();
  L.Sharing = dataSharing(L.Accesses, R.LineSize, R.Threads,
                          L.Region == DataRegion::Shared);
}

} // namespace

void DataMerger::finish(ArrayRef<uint32_t> NewStack) {
  for (DataLine &L : R.Lines)
    for (DataAccess &A : L.Accesses)
      if (A.Stack >= 0)
        A.Stack = NewStack[A.Stack];
  for (DataLine &L : R.Lines)
    countLine(R, L);
  stable_sort(R.Lines, [](const DataLine &A, const DataLine &B) {
    return A.Samples > B.Samples;
  });
  nameData(R, /*Demangle=*/false, /*Files=*/false, /*Types=*/false);
}

namespace {

/// What makes a site's PCs one row: the function and source line of the
/// innermost position, or the PC itself where the line is not known.
std::tuple<uint32_t, std::string, std::string, uint32_t>
siteKey(const TraceReport &R, uint32_t Frame) {
  const TraceFrame &F = R.Frames[Frame];
  if (F.Lines.empty() || F.Lines.front().File.empty() || !F.Lines.front().Line)
    return {F.Module, "#" + std::to_string(Frame), "", 0};
  return {F.Module, F.Lines.back().Function, F.Lines.front().File,
          F.Lines.front().Line};
}

/// A member's sites: its accesses' PCs, those of one source line one row,
/// most samples first (and in each, its PCs).
std::vector<DataSite> memberSites(const TraceReport &R, const DataLine &L,
                                  uint32_t Member) {
  std::map<uint32_t, std::pair<uint64_t, unsigned>> PCs; // frame -> samples
  for (const DataAccess &A : L.Accesses)
    if (A.Member == Member) {
      PCs[A.Site].first += A.Samples;
      PCs[A.Site].second |= 1u << unsigned(A.Kind);
    }
  std::vector<std::pair<uint32_t, uint64_t>> Order;
  for (const auto &[Frame, Count] : PCs)
    Order.push_back({Frame, Count.first});
  stable_sort(Order,
              [](const auto &A, const auto &B) { return A.second > B.second; });
  std::vector<DataSite> Sites;
  std::map<std::tuple<uint32_t, std::string, std::string, uint32_t>, size_t>
      Index;
  for (const auto &[Frame, Samples] : Order) {
    auto [It, New] = Index.try_emplace(siteKey(R, Frame), Sites.size());
    if (New)
      Sites.emplace_back();
    DataSite &S = Sites[It->second];
    S.Frames.push_back(Frame);
    S.Samples += Samples;
    S.Kinds |= PCs[Frame].second;
  }
  stable_sort(Sites, [](const DataSite &A, const DataSite &B) {
    return A.Samples > B.Samples;
  });
  return Sites;
}

/// A line's members: its accesses grouped by name (a member of a type is
/// one whatever bytes of it each access touched; a name without a type, by
/// the bytes too), by offset.
void lineMembers(const TraceReport &R, DataLine &L) {
  std::map<std::string, uint32_t> Index;
  std::vector<DataMember> Members;
  std::vector<std::set<uint32_t>> Threads;
  std::vector<std::pair<uint64_t, uint64_t>> Bytes; // [begin, end)
  for (DataAccess &A : L.Accesses) {
    uint64_t Size = std::min<uint64_t>(A.Size ? A.Size : 1, R.LineSize);
    std::string Key = A.Typed ? A.Name
                              : A.Name + "@" + std::to_string(A.Offset) + "/" +
                                    std::to_string(Size);
    auto [It, New] = Index.try_emplace(Key, Members.size());
    if (New) {
      Members.emplace_back();
      Members.back().Name = A.Name;
      Threads.emplace_back();
      Bytes.push_back({A.Offset, A.Offset});
    }
    DataMember &M = Members[It->second];
    auto &[Begin, End] = Bytes[It->second];
    Begin = std::min<uint64_t>(Begin, A.Offset);
    End = std::max<uint64_t>(End, std::min(A.Offset + Size, R.LineSize));
    M.Offset = uint32_t(Begin);
    M.Size = uint32_t(End - Begin);
    M.Samples += A.Samples;
    (A.Kind == AccessKind::Read    ? M.Reads
     : A.Kind == AccessKind::Write ? M.Writes
                                   : M.ReadWrites) += A.Samples;
    M.Atomic += A.Atomic ? A.Samples : 0;
    Threads[It->second].insert(A.Thread);
    A.Member = It->second;
  }
  // By offset; the accesses follow their members.
  std::vector<uint32_t> Order(Members.size()), NewIndex(Members.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  stable_sort(Order, [&](uint32_t A, uint32_t B) {
    return Members[A].Offset < Members[B].Offset;
  });
  L.Members.clear();
  for (size_t I = 0; I < Order.size(); ++I) {
    NewIndex[Order[I]] = I;
    L.Members.push_back(std::move(Members[Order[I]]));
    L.Members.back().Threads = Threads[Order[I]].size();
  }
  for (DataAccess &A : L.Accesses)
    A.Member = NewIndex[A.Member];
  for (size_t I = 0; I < L.Members.size(); ++I)
    L.Members[I].Sites = memberSites(R, L, I);
}

} // namespace

void groupMembers(TraceReport &R) {
  for (DataLine &L : R.Lines)
    lineMembers(R, L);
}

std::vector<CallerPath> memberCallers(const TraceReport &R, const DataLine &L,
                                      size_t M, size_t N, uint64_t &Total) {
  std::map<int64_t, uint64_t> Stacks; // stack -> the member's samples
  Total = 0;
  for (const DataAccess &A : L.Accesses)
    if (A.Member == M && A.Stack >= 0) {
      Stacks[A.Stack] += A.Samples;
      Total += A.Samples;
    }
  std::vector<std::pair<int64_t, uint64_t>> Order(Stacks.begin(), Stacks.end());
  stable_sort(Order,
              [](const auto &A, const auto &B) { return A.second > B.second; });
  // The PCs of one line from the same callers are one way in, shown with
  // its heaviest stack's first frame.
  std::vector<CallerPath> Paths;
  std::map<std::vector<uint32_t>, size_t> Index;
  for (const auto &[Stack, Samples] : Order) {
    const MergedStack &S = R.Stacks[Stack];
    std::vector<uint32_t> Key(S.Frames.begin() + 1, S.Frames.end());
    auto [It, New] = Index.try_emplace(Key, Paths.size());
    if (New) {
      Paths.emplace_back();
      Paths.back().Frames = S.Frames;
    }
    Paths[It->second].Samples += Samples;
    Paths[It->second].Truncated |= S.Truncated;
  }
  stable_sort(Paths, [](const CallerPath &A, const CallerPath &B) {
    return A.Samples > B.Samples;
  });
  if (Paths.size() > N)
    Paths.resize(N);
  return Paths;
}

std::string lineText(const TraceReport &R, const DataLine &L) {
  switch (L.Region) {
  case DataRegion::Module:
    return moduleText(R, L.Module, L.Start);
  case DataRegion::Shared:
    return L.File + "+" + hexAddress(L.Start);
  default:
    break;
  }
  if (R.Processes.size() > 1)
    return hexAddress(L.Start) + " " + processLabel(R, L.Process);
  return hexAddress(L.Start);
}

std::string sharingText(unsigned Sharing, bool Long) {
  switch (Sharing) {
  case FalseSharing:
    return Long ? "false sharing" : "false";
  case TrueSharing:
    return Long ? "true sharing" : "true";
  case FalseSharing | TrueSharing:
    return Long ? "false and true sharing" : "false+true";
  }
  return Long ? "no sharing" : "none";
}

std::string kindsText(unsigned Kinds) {
  std::vector<std::string> Out;
  for (AccessKind K :
       {AccessKind::Read, AccessKind::Write, AccessKind::ReadWrite})
    if (Kinds & (1u << unsigned(K)))
      Out.push_back(accessKindName(K).str());
  return join(Out, "/");
}

} // namespace report
} // namespace pcmap
