//===- fuzz_options.cpp - Fuzzing the runtime's option parser -------------===//
//
// parseOptions (rt/core/options.h) on any text. Properties:
// - it never reads past the text's terminating NUL (the text is in a heap
//   block of exactly its size);
// - the options it produced, printed back as key=value pairs and parsed
//   into fresh options, give the same options without a problem;
// - one key=value pair (its value taken from the input) either is accepted
//   and changes that option only, or is reported (one problem) and leaves
//   every option as it was: "an unknown key or a bad value is reported and
//   ignored".
//
//===----------------------------------------------------------------------===//

#include "FuzzCheck.h"

#include "core/log.h"
#include "core/options.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <unistd.h>
#include <vector>

using namespace pcmap::rt;

namespace {

const char *const OptionNames[] = {
#define PCMAP_OPTION(Type, Name, Default, Description) #Name,
#include "core/options.inc"
#undef PCMAP_OPTION
};

std::string valueText(bool V) { return V ? "1" : "0"; }
std::string valueText(int V) { return std::to_string(V); }
std::string valueText(const char *V) { return V ? V : ""; }

/// Every option's value as text, in options.inc order: a copy that outlives
/// the parser's string storage.
std::vector<std::string> snapshot(const Options &O) {
  std::vector<std::string> Values;
#define PCMAP_OPTION(Type, Name, Default, Description)                         \
  Values.push_back(valueText(O.Name));
#include "core/options.inc"
#undef PCMAP_OPTION
  return Values;
}

bool isSeparator(char C) { return strchr(":, \t\n\r", C) != nullptr; }

/// A value as the parser reads it back: quoted when it holds a separator or
/// starts with a quote, with a quote character it does not contain.
std::string quote(const std::string &V) {
  bool NeedsQuotes = !V.empty() && (V[0] == '\'' || V[0] == '"');
  for (char C : V)
    NeedsQuotes |= isSeparator(C);
  if (!NeedsQuotes)
    return V;
  bool HasSingle = V.find('\'') != std::string::npos;
  bool HasDouble = V.find('"') != std::string::npos;
  FUZZ_CHECK(!HasSingle || !HasDouble,
             "the parser produced a value no option string can express: [%s]",
             V.c_str());
  char Q = HasSingle ? '"' : '\'';
  return Q + V + Q;
}

std::string print(const std::vector<std::string> &Values) {
  std::string Text;
  for (size_t I = 0; I < Values.size(); ++I)
    Text += std::string(I ? ":" : "") + OptionNames[I] + "=" + quote(Values[I]);
  return Text;
}

/// parseOptions on a NUL-terminated copy of Text in a block of its size.
unsigned parse(Options &O, const std::string &Text) {
  std::vector<char> Buffer(Text.begin(), Text.end());
  Buffer.push_back('\0');
  char *Exact = static_cast<char *>(malloc(Buffer.size()));
  memcpy(Exact, Buffer.data(), Buffer.size());
  unsigned Problems = parseOptions(O, Exact, "fuzz");
  free(Exact);
  return Problems;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  // The parser reports problems on the log: send it to /dev/null.
  int Null = open("/dev/null", O_WRONLY);
  if (Null >= 0 && dup2(Null, 1) >= 0)
    openLog("stdout");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Text(reinterpret_cast<const char *>(Data), Size);
  Text = Text.c_str(); // the parser sees up to the first NUL

  // Round trip.
  resetOptionStrings();
  Options First;
  parse(First, Text);
  std::vector<std::string> Parsed = snapshot(First);
  std::string Printed = print(Parsed);
  resetOptionStrings();
  Options Second;
  unsigned Problems = parse(Second, Printed);
  FUZZ_CHECK(Problems == 0, "%u problems re-parsing [%s]", Problems,
             Printed.c_str());
  FUZZ_CHECK(snapshot(Second) == Parsed, "[%s] does not round-trip",
             Printed.c_str());

  // One pair: accepted and changes its option only, or reported and
  // changes nothing. The value is the text's first value as the parser
  // delimits one: a quoted string (the parser continues right after its
  // closing quote), or the text up to its first separator.
  std::string Value;
  if (!Text.empty() && (Text[0] == '\'' || Text[0] == '"')) {
    size_t Close = Text.find(Text[0], 1);
    Value = Close == std::string::npos ? Text : Text.substr(0, Close + 1);
  } else {
    Value = Text.substr(0, Text.find_first_of(":, \t\n\r"));
  }
  std::vector<std::string> Before = snapshot(Second);
  for (size_t I = 0; I < sizeof(OptionNames) / sizeof(OptionNames[0]); ++I) {
    Options Copy = Second;
    std::string Pair = std::string(OptionNames[I]) + "=" + Value;
    unsigned P = parse(Copy, Pair);
    std::vector<std::string> After = snapshot(Copy);
    FUZZ_CHECK(P <= 1, "%u problems for one pair [%s]", P, Pair.c_str());
    for (size_t J = 0; J < After.size(); ++J)
      FUZZ_CHECK(After[J] == Before[J] || (J == I && P == 0),
                 "[%s] (%u problems) changed option %s", Pair.c_str(), P,
                 OptionNames[J]);
  }
  // An unknown key is reported and changes nothing.
  Options Copy = Second;
  std::string Pair = "no_such_option_" + std::to_string(Size) + "=" + Value;
  FUZZ_CHECK(parse(Copy, Pair) == 1, "unknown key not reported");
  FUZZ_CHECK(snapshot(Copy) == Before, "an unknown key changed options");
  return 0;
}
