//===- TraceRaces.cpp - The data races of many processes, merged ----------===//
//
// Each dump lists its process's races by pair of sites (module offsets);
// processes of one program, or of one build, race at the same source lines
// at different offsets (another build, an unrolled copy), so the races are
// merged by their pair of source sites once the frames are symbolized: the
// access's innermost source position (function, file, line, column) and the
// other side's, or the module and offset where a site has none. The
// suppressions are TSan's and the runtime's (pcmap/Suppressions.h).
//
//===----------------------------------------------------------------------===//

#include "Trace.h"

#include "pcmap/Suppressions.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <map>
#include <set>

using namespace llvm;

namespace pcmap {
namespace report {

bool RaceSuppressions::matches(StringRef Name) const {
  if (Name.empty())
    return false;
  std::string Text = Name.str();
  return any_of(Patterns, [&](const std::string &P) {
    return suppress::patternMatches(P.data(), P.size(), Text.c_str());
  });
}

Expected<RaceSuppressions> readRaceSuppressions(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> File = MemoryBuffer::getFile(Path);
  if (!File)
    return makeError(ExitCode::FileError,
                     "cannot read the suppressions file '" + Path +
                         "': " + File.getError().message());
  RaceSuppressions S;
  StringRef Text = (*File)->getBuffer();
  const char *P = Text.data(), *End = P + Text.size();
  suppress::Line L;
  unsigned Number = 0;
  for (;;) {
    suppress::LineKind K = suppress::nextLine(P, End, L, Number);
    if (K == suppress::LineKind::End)
      return S;
    if (K == suppress::LineKind::Malformed)
      return makeError(
          ExitCode::Usage,
          "suppressions file '" + Path + "', line " + Twine(L.Number) + ": '" +
              StringRef(L.Type, L.TypeSize) + "' is not TYPE:PATTERN");
    if (suppress::hasType(L, suppress::kRaceType))
      S.Patterns.emplace_back(L.Pattern, L.PatternSize);
  }
}

namespace {

/// A side's site as the key has it: its innermost source position, or the
/// module and offset.
std::string siteKey(const TraceReport &R, const RaceSide &S) {
  const TraceFrame &F = R.Frames[S.Frames.front()];
  if (!F.Lines.empty() && !F.Lines.front().File.empty()) {
    const TraceSourceFrame &L = F.Lines.front();
    return L.Function + " " + L.location();
  }
  return moduleText(R, F.Module, F.Offset);
}

/// Whether a suppression matches a frame of S: a function (inlined or not,
/// as shown or as linked), a source file, or the module's path.
bool sideSuppressed(const TraceReport &R, const RaceSide &S,
                    const RaceSuppressions &Sup) {
  for (uint32_t I : S.Frames) {
    const TraceFrame &F = R.Frames[I];
    for (const std::string &Path : R.Modules[F.Module].Paths)
      if (Sup.matches(Path))
        return true;
    for (const TraceSourceFrame &L : F.Lines)
      if (Sup.matches(L.Function) || Sup.matches(L.LinkageName) ||
          Sup.matches(L.File))
        return true;
  }
  return false;
}

bool suppressed(const TraceReport &R, const TraceRace &X,
                const RaceSuppressions &Sup) {
  if (Sup.Patterns.empty())
    return false;
  return Sup.matches(X.AddressName) || sideSuppressed(R, X.Access, Sup) ||
         (X.OtherKnown && sideSuppressed(R, X.Other, Sup));
}

} // namespace

void mergeRaces(TraceReport &R, const RaceSuppressions &Suppressions) {
  R.RacesSuppressed = R.Totals.RacesSuppressed;
  std::vector<TraceRace> Merged;
  std::map<std::string, size_t> Index;
  for (TraceRace &X : R.Races) {
    X.Key = siteKey(R, X.Access) + " | " +
            (X.OtherKnown ? siteKey(R, X.Other) : std::string());
    auto [It, New] = Index.try_emplace(X.Key, Merged.size());
    if (New) {
      Merged.push_back(std::move(X));
      continue;
    }
    TraceRace &Into = Merged[It->second];
    // The race seen most stands for the rest.
    if (X.Count > Into.Count)
      std::swap(X, Into);
    Into.Count += X.Count;
    for (uint32_t P : X.Processes)
      if (!is_contained(Into.Processes, P))
        Into.Processes.push_back(P);
  }
  R.Races.clear();
  for (TraceRace &X : Merged) {
    if (suppressed(R, X, Suppressions))
      ++R.RacesSuppressed;
    else
      R.Races.push_back(std::move(X));
  }
  std::stable_sort(R.Races.begin(), R.Races.end(),
                   [](const TraceRace &A, const TraceRace &B) {
                     if (A.Count != B.Count)
                       return A.Count > B.Count;
                     return A.Key < B.Key;
                   });
}

std::string raceSummary(const TraceReport &R) {
  std::set<uint32_t> Processes;
  for (const TraceRace &X : R.Races)
    Processes.insert(X.Processes.begin(), X.Processes.end());
  const SampleCounts &T = R.Totals;
  std::string S = std::to_string(R.Races.size()) +
                  (R.Races.size() == 1 ? " race" : " races");
  if (!R.Races.empty())
    S += " in " + std::to_string(Processes.size()) +
         (Processes.size() == 1 ? " process" : " processes");
  S += " (" + std::to_string(R.RacesSuppressed) + " suppressed; " +
       std::to_string(T.RaceDetections) + " detections, " +
       std::to_string(T.RacesDropped) + " dropped, in " +
       std::to_string(T.RaceChecks) + " checks of plain accesses)";
  return S;
}

} // namespace report
} // namespace pcmap
