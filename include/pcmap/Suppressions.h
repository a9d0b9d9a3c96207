//===- pcmap/Suppressions.h - Race suppressions, as TSan's ------*- C++ -*-===//
//
// The one definition of the suppressions files that the runtime (option
// suppressions) and `pcmap-report trace --suppressions` read: ThreadSanitizer's
// format, so that one file serves both tools. A line is `TYPE:PATTERN`;
// blank lines and lines whose first non-blank character is `#` are
// comments; blanks around the line are ignored. pcmap knows the type
// `race`; lines of TSan's other types (`thread`, `mutex`, `signal`,
// `deadlock`, `called_from_lib`, `race_top`) are read and ignored.
//
// A pattern matches a name (a function, a source file, a module path, a
// global variable) as TSan's do: anywhere in it, `*` standing for any
// run of characters, a leading `^` anchoring it at the name's start and a
// trailing `$` at its end. `race:foo` matches "foo", "foobar" and
// "ns::foo()"; `race:^foo$` only "foo"; `race:src/*/io.c` any io.c one
// directory under a src. (TSan's matcher takes the first occurrence of each
// piece between stars, so that `a*b$` does not match "abxb"; this one
// tries every occurrence.) Depends on nothing: the runtime (no libc, no
// LLVM) includes it.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_SUPPRESSIONS_H
#define PCMAP_SUPPRESSIONS_H

#include <stddef.h>

namespace pcmap {
namespace suppress {

/// The type of the suppressions pcmap applies.
constexpr const char kRaceType[] = "race";

/// Whether the pattern [T, TEnd), without its leading `^`, matches Name
/// from Name's start: `*` any run, a final `$` the end of Name, and the
/// pattern's end anything after it. One star is backtracked at a time (the
/// last one seen), so the time is at most length × length.
inline bool matchesFrom(const char *T, const char *TEnd, const char *Name) {
  const char *StarT = nullptr, *StarName = nullptr;
  for (;;) {
    if (T < TEnd && *T == '*') {
      StarT = ++T;
      StarName = Name;
      continue;
    }
    if (T == TEnd)
      return true;
    bool AnchorsEnd = *T == '$' && T + 1 == TEnd;
    if (AnchorsEnd && !*Name)
      return true;
    if (!AnchorsEnd && *Name && *Name == *T) {
      ++T;
      ++Name;
      continue;
    }
    if (!StarT || !*StarName)
      return false;
    T = StarT;
    Name = ++StarName;
  }
}

/// Whether the pattern [Pattern, Pattern + Size) matches Name (by the rules
/// above). An empty or null name matches nothing.
inline bool patternMatches(const char *Pattern, size_t Size, const char *Name) {
  if (!Name || !*Name)
    return false;
  const char *End = Pattern + Size;
  if (Size && *Pattern == '^')
    return matchesFrom(Pattern + 1, End, Name);
  for (const char *At = Name; *At; ++At)
    if (matchesFrom(Pattern, End, At))
      return true;
  return false;
}

/// A line of a suppressions file: its type and pattern (not NUL-terminated:
/// pointers into the file's text), or the whole line when it is malformed.
struct Line {
  const char *Type, *Pattern;
  size_t TypeSize, PatternSize;
  unsigned Number; // from 1
};

inline bool isBlank(char C) {
  return C == ' ' || C == '\t' || C == '\r' || C == '\v' || C == '\f';
}

/// What nextLine found.
enum class LineKind { End, Rule, Malformed };

/// The next rule of the text [P, End), P advanced past it; comments and
/// blank lines are skipped (Number counts them). Malformed: a line without
/// a `:`, or with an empty type or pattern; Type and TypeSize are then the
/// line.
inline LineKind nextLine(const char *&P, const char *End, Line &L,
                         unsigned &Number) {
  while (P < End) {
    const char *Begin = P;
    while (P < End && *P != '\n')
      ++P;
    const char *Last = P;
    if (P < End)
      ++P;
    ++Number;
    while (Begin < Last && isBlank(*Begin))
      ++Begin;
    while (Last > Begin && isBlank(Last[-1]))
      --Last;
    if (Begin == Last || *Begin == '#')
      continue;
    L.Number = Number;
    const char *Colon = Begin;
    while (Colon < Last && *Colon != ':')
      ++Colon;
    L.Type = Begin;
    if (Colon == Last || Colon == Begin || Colon + 1 == Last) {
      L.TypeSize = size_t(Last - Begin);
      L.Pattern = Last;
      L.PatternSize = 0;
      return LineKind::Malformed;
    }
    L.TypeSize = size_t(Colon - Begin);
    L.Pattern = Colon + 1;
    L.PatternSize = size_t(Last - L.Pattern);
    return LineKind::Rule;
  }
  return LineKind::End;
}

/// Whether the line's type is Type.
inline bool hasType(const Line &L, const char *Type) {
  size_t I = 0;
  for (; I < L.TypeSize && Type[I]; ++I)
    if (L.Type[I] != Type[I])
      return false;
  return I == L.TypeSize && !Type[I];
}

} // namespace suppress
} // namespace pcmap

#endif // PCMAP_SUPPRESSIONS_H
