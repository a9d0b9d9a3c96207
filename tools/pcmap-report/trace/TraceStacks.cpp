//===- TraceStacks.cpp - The merged stacks tied to sites and functions ----===//
//
// A stack's frame 0 is the sampled instruction: the site's own address for
// a sample charged to an atomic site. The stack is charged to the covered
// function of its innermost frame in one (the function of frame 0, or, for
// a sample in code without tables, its nearest covered caller, as the
// runtime's uncovered_callee_samples count it). A row's callers are its
// stacks from the row's frame outward, those that share all their frames
// summed.
//
//===----------------------------------------------------------------------===//

#include "Trace.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <map>

using namespace llvm;

namespace pcmap {
namespace report {

namespace {

using Place = std::pair<uint32_t, uint64_t>; // module, offset
using PlaceIndex = std::map<Place, int64_t>;

/// The covered function a frame lies in: the one that starts where the
/// module file says the frame's function starts; without the file, the
/// covered function that starts nearest before it.
int64_t functionOf(const PlaceIndex &Functions, const TraceFrame &F) {
  if (F.Start) {
    auto It = Functions.find({F.Module, *F.Start});
    return It == Functions.end() ? -1 : It->second;
  }
  auto It = Functions.upper_bound({F.Module, F.Offset});
  if (It == Functions.begin())
    return -1;
  --It;
  return It->first.first == F.Module ? It->second : -1;
}

/// A frame the module file did not name: the trace's names.
void nameFromTrace(const TraceReport &R, TraceFrame &F) {
  std::string Name;
  if (F.Site >= 0)
    Name = R.Sites[F.Site].Entry.Function;
  else if (F.Function >= 0)
    Name = R.Functions[F.Function].Entry.Function;
  if (!Name.empty()) {
    F.Lines.emplace_back();
    F.Lines.back().Function = Name;
  }
}

/// The way to a row from its frame From outward, grouped, heaviest first.
/// With AboveFirst, the ways are grouped by the frames above the first (a
/// site row's PCs of one line are one way from the same callers), each
/// shown with its heaviest stack's first frame.
std::vector<CallerPath>
callersOf(const TraceReport &R, size_t N, uint64_t &Total,
          function_ref<int64_t(const MergedStack &)> From,
          bool AboveFirst = false) {
  std::vector<CallerPath> Paths;
  std::map<std::vector<uint32_t>, size_t> Index;
  Total = 0;
  for (const MergedStack &S : R.Stacks) {
    int64_t First = From(S);
    if (First < 0)
      continue;
    Total += S.Samples;
    std::vector<uint32_t> Key(
        S.Frames.begin() + First +
            (AboveFirst && size_t(First) < S.Frames.size() ? 1 : 0),
        S.Frames.end());
    auto [It, New] = Index.try_emplace(Key, Paths.size());
    if (New) {
      Paths.emplace_back();
      Paths.back().Frames.assign(S.Frames.begin() + First, S.Frames.end());
    }
    Paths[It->second].Samples += S.Samples;
    Paths[It->second].Truncated |= S.Truncated;
  }
  llvm::stable_sort(Paths, [](const CallerPath &A, const CallerPath &B) {
    return A.Samples > B.Samples;
  });
  if (Paths.size() > N)
    Paths.resize(N);
  return Paths;
}

} // namespace

void linkStacks(TraceReport &R) {
  PlaceIndex Sites, Functions;
  for (size_t I = 0; I < R.Sites.size(); ++I)
    Sites[{R.Sites[I].Module, R.Sites[I].Entry.ModuleOffset}] = I;
  for (size_t I = 0; I < R.Functions.size(); ++I)
    Functions[{R.Functions[I].Module, R.Functions[I].Entry.ModuleOffset}] = I;
  for (TraceFrame &F : R.Frames) {
    auto It = Sites.find({F.Module, F.Offset});
    F.Site = It == Sites.end() ? -1 : It->second;
    F.Function = functionOf(Functions, F);
    if (F.Lines.empty())
      nameFromTrace(R, F);
  }
  for (MergedStack &S : R.Stacks) {
    S.Site = R.Frames[S.Frames[0]].Site;
    S.Function = -1;
    for (size_t I = 0; I < S.Frames.size() && S.Function < 0; ++I)
      if (R.Frames[S.Frames[I]].Function >= 0) {
        S.Function = R.Frames[S.Frames[I]].Function;
        S.ChargedFrame = I;
      }
  }
}

std::vector<CallerPath> siteCallers(const TraceReport &R, size_t I, size_t N,
                                    uint64_t &Total) {
  return callersOf(
      R, N, Total,
      [&](const MergedStack &S) -> int64_t {
        return S.Site == int64_t(I) ? 0 : -1;
      },
      /*AboveFirst=*/!R.Sites[I].Entry.LineOffsets.empty());
}

std::vector<CallerPath> functionCallers(const TraceReport &R, size_t I,
                                        size_t N, uint64_t &Total) {
  // The function's own frame is at any of its PCs: its callers are the
  // frames above it.
  return callersOf(
      R, N, Total,
      [&](const MergedStack &S) -> int64_t {
        return S.Function == int64_t(I) ? int64_t(S.ChargedFrame) : -1;
      },
      /*AboveFirst=*/true);
}

std::string atomicText(const TraceSite &S) {
  std::string Out = S.Kind.empty() ? "atomic" : S.Kind;
  if (!S.Op.empty())
    Out += " " + S.Op;
  if (!S.Order.empty())
    Out += " " + S.Order;
  if (!S.FailureOrder.empty())
    Out += "/" + S.FailureOrder;
  if (S.Size)
    Out += " " + std::to_string(S.Size) + " bytes";
  return Out;
}

std::string inlineText(const TraceSite &S, bool BaseName) {
  if (S.Inline.empty())
    return BaseName ? sys::path::filename(S.Location).str() : S.Location;
  std::string Out;
  for (const TraceSourceFrame &F : S.Inline) {
    std::string Where = F.location(BaseName);
    if (Where.empty())
      Where = "?";
    Out += Out.empty() ? Where : " inlined into " + Where;
  }
  return Out == "?" ? "" : Out;
}

std::string frameWhere(const TraceReport &R, const TraceFrame &F,
                       const TraceSourceFrame &L) {
  std::string Where = L.location(/*BaseName=*/true);
  return Where.empty() ? moduleText(R, F.Module, F.Offset) : Where;
}

std::vector<std::string> foldedFrames(const TraceReport &R,
                                      const MergedStack &S, bool Short) {
  return foldedFrames(R, S.Frames, Short, S.Truncated);
}

std::vector<std::string> foldedFrames(const TraceReport &R,
                                      ArrayRef<uint32_t> Frames, bool Short,
                                      bool Truncated) {
  std::vector<std::string> Out;
  if (Truncated)
    Out.push_back(kTruncatedRoot);
  for (uint32_t Index : reverse(Frames)) {
    const TraceFrame &F = R.Frames[Index];
    if (F.Lines.empty()) {
      Out.push_back(moduleText(R, F.Module, F.Offset));
      continue;
    }
    for (const TraceSourceFrame &L : reverse(F.Lines)) {
      std::string Name = L.Function.empty()
                             ? moduleText(R, F.Module, F.Offset)
                             : (Short ? shortName(L.Function) : L.Function);
      // ';' separates frames and a line ends the stack.
      std::replace(Name.begin(), Name.end(), ';', ':');
      std::replace(Name.begin(), Name.end(), '\n', ' ');
      Out.push_back(std::move(Name));
    }
  }
  return Out;
}

std::string atomicSuffix(const TraceReport &R, const MergedStack &S) {
  if (S.Site >= 0)
    return " [atomic " + atomicText(R.Sites[S.Site].Entry) + "]";
  return " [atomic]";
}

std::vector<CumulativeFunction> cumulativeFunctions(const TraceReport &R) {
  std::vector<CumulativeFunction> Out;
  StringMap<size_t> Index; // "module index/name" -> Out's index
  auto IndexOf = [&](uint32_t Module, const std::string &Name) {
    auto [It, New] =
        Index.try_emplace((Twine(Module) + "/" + Name).str(), Out.size());
    if (New)
      Out.push_back({Name, Module, 0, 0});
    return It->second;
  };
  for (const MergedStack &S : R.Stacks) {
    SmallVector<size_t, 64> Seen;
    bool Innermost = true;
    for (uint32_t I : S.Frames) {
      const TraceFrame &F = R.Frames[I];
      auto Note = [&](size_t Row) {
        if (Innermost)
          Out[Row].Self += S.Samples;
        Innermost = false;
        if (!is_contained(Seen, Row)) {
          Seen.push_back(Row);
          Out[Row].Cumulative += S.Samples;
        }
      };
      if (F.Lines.empty()) {
        Note(IndexOf(F.Module, moduleText(R, F.Module, F.Offset)));
        continue;
      }
      for (const TraceSourceFrame &L : F.Lines)
        Note(IndexOf(F.Module, L.Function.empty()
                                   ? moduleText(R, F.Module, F.Offset)
                                   : L.Function));
    }
  }
  stable_sort(Out,
              [](const CumulativeFunction &A, const CumulativeFunction &B) {
                if (A.Cumulative != B.Cumulative)
                  return A.Cumulative > B.Cumulative;
                if (A.Self != B.Self)
                  return A.Self > B.Self;
                return A.Name < B.Name;
              });
  return Out;
}

uint64_t stackSamples(const TraceReport &R) {
  uint64_t N = 0;
  for (const MergedStack &S : R.Stacks)
    N += S.Samples;
  return N;
}

} // namespace report
} // namespace pcmap
