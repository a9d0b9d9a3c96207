//===- SuppressionsTest.cpp - Race suppressions, as TSan has them ---------===//
//
// The one matcher and line reader (pcmap/Suppressions.h) that the runtime
// and pcmap-report trace --suppressions share: TSan's '*', '^' and '$',
// comments, other types ignored, malformed lines found.
//
//===----------------------------------------------------------------------===//

#include "Trace.h"

#include "pcmap/Suppressions.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <string.h>

using namespace pcmap;

namespace {

bool match(const char *Pattern, const char *Name) {
  return suppress::patternMatches(Pattern, strlen(Pattern), Name);
}

TEST(Suppressions, AnywhereInTheName) {
  EXPECT_TRUE(match("bump", "bump_global"));
  EXPECT_TRUE(match("global", "bump_global"));
  EXPECT_TRUE(match("Cache::get", "ns::Cache::get(int) const"));
  EXPECT_FALSE(match("bump_heap", "bump_global"));
  EXPECT_FALSE(match("bump", ""));
  EXPECT_FALSE(match("bump", nullptr));
}

TEST(Suppressions, Anchors) {
  EXPECT_TRUE(match("^bump", "bump_global"));
  EXPECT_FALSE(match("^global", "bump_global"));
  EXPECT_TRUE(match("global$", "bump_global"));
  EXPECT_FALSE(match("bump$", "bump_global"));
  EXPECT_TRUE(match("^bump_global$", "bump_global"));
  EXPECT_FALSE(match("^bump_glob$", "bump_global"));
}

TEST(Suppressions, Stars) {
  EXPECT_TRUE(match("src/*/io.c", "/home/u/src/lib/io.c"));
  EXPECT_FALSE(match("src/*/io.c", "/home/u/lib/io.c"));
  EXPECT_TRUE(match("^b*l$", "bump_global"));
  EXPECT_TRUE(match("*", "x"));
  // Every occurrence of a piece is tried (TSan takes the first only).
  EXPECT_TRUE(match("a*b$", "abxb"));
  EXPECT_FALSE(match("a*b$", "abxc"));
  EXPECT_TRUE(match("^*racy.c$", "/tmp/racy.c"));
}

/// The rules of Text, as "type:pattern" strings, or "malformed N".
std::vector<std::string> rules(const std::string &Text) {
  std::vector<std::string> Out;
  const char *P = Text.data(), *End = P + Text.size();
  suppress::Line L;
  unsigned Number = 0;
  for (;;) {
    suppress::LineKind K = suppress::nextLine(P, End, L, Number);
    if (K == suppress::LineKind::End)
      return Out;
    if (K == suppress::LineKind::Malformed)
      Out.push_back("malformed " + std::to_string(L.Number));
    else
      Out.push_back(std::string(L.Type, L.TypeSize) + ":" +
                    std::string(L.Pattern, L.PatternSize));
  }
}

TEST(Suppressions, Lines) {
  EXPECT_EQ(rules("# a comment\n\n  race:foo  \r\nthread:bar\n   # too\n"
                  "race:^a*b$"),
            (std::vector<std::string>{"race:foo", "thread:bar", "race:^a*b$"}));
  EXPECT_EQ(rules("race:x\nno colon\nrace:\n:y\n"),
            (std::vector<std::string>{"race:x", "malformed 2", "malformed 3",
                                      "malformed 4"}));
}

TEST(Suppressions, ReportReadsOnlyRaceLines) {
  llvm::SmallString<128> Path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("supp", "txt", Path));
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    OS << "# TSan's file\nrace:^bump_global$\nthread:worker\nrace:libfoo.so\n";
  }
  llvm::Expected<report::RaceSuppressions> S =
      report::readRaceSuppressions(Path);
  ASSERT_TRUE(bool(S));
  EXPECT_EQ(S->Patterns.size(), 2u);
  EXPECT_TRUE(S->matches("bump_global"));
  EXPECT_TRUE(S->matches("/usr/lib/libfoo.so"));
  EXPECT_FALSE(S->matches("worker"));
  llvm::sys::fs::remove(Path);
  llvm::Expected<report::RaceSuppressions> Missing =
      report::readRaceSuppressions(Path);
  EXPECT_FALSE(bool(Missing));
  llvm::consumeError(Missing.takeError());
}

} // namespace
