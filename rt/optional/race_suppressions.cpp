//===- race_suppressions.cpp - The suppressions file, in the runtime ------===//

#include "optional/race_suppressions.h"

#include "core/log.h"
#include "core/mapped.h"
#include "core/options.h"
#include "platform/platform.h"

#include "pcmap/Suppressions.h"

namespace pcmap {
namespace rt {

namespace {

/// The largest file read, and the most race: patterns kept.
constexpr unsigned kFileBytes = 64 * 1024;
constexpr unsigned kPatterns = 1024;

struct SuppressionFile {
  char Text[kFileBytes];
  struct {
    uint32_t Offset, Size;
  } Patterns[kPatterns];
  unsigned NumPatterns;
};
Mapped<SuppressionFile> File;

[[noreturn]] void failSuppressions(Message &M) {
  M.emit();
  exitProcessNow(Flags.exitcode ? Flags.exitcode : 1);
}

} // namespace

void loadRaceSuppressions() {
  const char *Path = Flags.suppressions;
  if (!Path || !*Path)
    return;
  SuppressionFile *F = File.get();
  if (!F) {
    Message M;
    M << "error: no memory to read the suppressions file '" << Path << "'";
    failSuppressions(M);
  }
  long Size = readWholeFile(Path, F->Text, sizeof(F->Text));
  if (Size < 0) {
    Message M;
    M << "error: cannot read the suppressions file '" << Path << "'"
      << (Size == -2 ? ": larger than 64 KiB" : "");
    failSuppressions(M);
  }
  const char *P = F->Text, *End = F->Text + Size;
  suppress::Line L;
  unsigned Number = 0;
  for (;;) {
    suppress::LineKind K = suppress::nextLine(P, End, L, Number);
    if (K == suppress::LineKind::End)
      break;
    if (K == suppress::LineKind::Malformed || F->NumPatterns == kPatterns) {
      Message M;
      M << "error: suppressions file '" << Path << "', line "
        << uint64_t(L.Number)
        << (K == suppress::LineKind::Malformed ? ": not TYPE:PATTERN"
                                               : ": more than 1024 patterns");
      failSuppressions(M);
    }
    if (!suppress::hasType(L, suppress::kRaceType))
      continue; // ThreadSanitizer's other types
    F->Patterns[F->NumPatterns++] = {uint32_t(L.Pattern - F->Text),
                                     uint32_t(L.PatternSize)};
  }
}

bool haveRaceSuppressions() {
  const SuppressionFile *F = File.peek();
  return F && F->NumPatterns;
}

bool raceNameSuppressed(const char *Name) {
  const SuppressionFile *F = File.peek();
  if (!F)
    return false;
  for (unsigned I = 0; I < F->NumPatterns; ++I)
    if (suppress::patternMatches(F->Text + F->Patterns[I].Offset,
                                 F->Patterns[I].Size, Name))
      return true;
  return false;
}

} // namespace rt
} // namespace pcmap
