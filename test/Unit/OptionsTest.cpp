//===- OptionsTest.cpp - The runtime's option parser ----------------------===//
//
// Parsing PCMAP_OPTIONS: defaults, separators, later settings winning,
// booleans, integers, strings and quotes, unknown and malformed settings.
//
//===----------------------------------------------------------------------===//

#include "core/options.h"

#include "gtest/gtest.h"

#include <cstring>
#include <string>

using pcmap::rt::Options;
using pcmap::rt::parseOptions;

namespace {

TEST(OptionsTest, Defaults) {
  Options O;
  EXPECT_EQ(O.verbosity, 1);
  EXPECT_STREQ(O.log_path, "stderr");
  EXPECT_FALSE(O.help);
}

TEST(OptionsTest, EverySeparator) {
  Options O;
  EXPECT_EQ(parseOptions(O, "verbosity=2:help=1", "test"), 0u);
  EXPECT_EQ(O.verbosity, 2);
  EXPECT_TRUE(O.help);
  EXPECT_EQ(parseOptions(O, "verbosity=3,help=0", "test"), 0u);
  EXPECT_EQ(O.verbosity, 3);
  EXPECT_FALSE(O.help);
  EXPECT_EQ(parseOptions(O, " verbosity=0 \thelp=yes\n", "test"), 0u);
  EXPECT_EQ(O.verbosity, 0);
  EXPECT_TRUE(O.help);
  EXPECT_EQ(parseOptions(O, "::,, ", "test"), 0u);
  EXPECT_EQ(parseOptions(O, "", "test"), 0u);
  EXPECT_EQ(parseOptions(O, nullptr, "test"), 0u);
}

TEST(OptionsTest, LaterSettingsWin) {
  Options O;
  EXPECT_EQ(parseOptions(O, "verbosity=2:verbosity=0", "test"), 0u);
  EXPECT_EQ(O.verbosity, 0);
}

TEST(OptionsTest, Booleans) {
  Options O;
  for (const char *True : {"help=1", "help=true", "help=yes"}) {
    O.help = false;
    EXPECT_EQ(parseOptions(O, True, "test"), 0u) << True;
    EXPECT_TRUE(O.help) << True;
  }
  for (const char *False : {"help=0", "help=false", "help=no"}) {
    O.help = true;
    EXPECT_EQ(parseOptions(O, False, "test"), 0u) << False;
    EXPECT_FALSE(O.help) << False;
  }
  O.help = true;
  EXPECT_EQ(parseOptions(O, "help=2", "test"), 1u);
  EXPECT_EQ(parseOptions(O, "help=", "test"), 1u);
  EXPECT_TRUE(O.help); // unchanged by bad values
}

TEST(OptionsTest, Integers) {
  Options O;
  EXPECT_EQ(parseOptions(O, "verbosity=-1", "test"), 0u);
  EXPECT_EQ(O.verbosity, -1);
  EXPECT_EQ(parseOptions(O, "verbosity=2147483647", "test"), 0u);
  EXPECT_EQ(O.verbosity, 2147483647);
  for (const char *Bad : {"verbosity=2147483648", "verbosity=x", "verbosity=1x",
                          "verbosity=", "verbosity=-"}) {
    O.verbosity = 5;
    EXPECT_EQ(parseOptions(O, Bad, "test"), 1u) << Bad;
    EXPECT_EQ(O.verbosity, 5) << Bad;
  }
}

TEST(OptionsTest, StringsAndQuotes) {
  Options O;
  EXPECT_EQ(parseOptions(O, "log_path=/tmp/a:help=1", "test"), 0u);
  EXPECT_STREQ(O.log_path, "/tmp/a");
  EXPECT_TRUE(O.help);
  EXPECT_EQ(
      parseOptions(O, "log_path='/tmp/with space:colon' verbosity=0", "test"),
      0u);
  EXPECT_STREQ(O.log_path, "/tmp/with space:colon");
  EXPECT_EQ(O.verbosity, 0);
  EXPECT_EQ(parseOptions(O, "log_path=\"/tmp/d\"", "test"), 0u);
  EXPECT_STREQ(O.log_path, "/tmp/d");
}

TEST(OptionsTest, UnknownAndMalformedAreReportedAndIgnored) {
  Options O;
  EXPECT_EQ(parseOptions(O, "bogus=1:verbosity=2", "test"), 1u);
  EXPECT_EQ(O.verbosity, 2);
  EXPECT_EQ(parseOptions(O, "novalue:verbosity=3", "test"), 1u);
  EXPECT_EQ(O.verbosity, 3);
  EXPECT_EQ(parseOptions(O, "=1", "test"), 1u);
  // Values that do not fit the string storage are bad values, not crashes.
  std::string Huge = "log_path=" + std::string(8192, 'x');
  EXPECT_EQ(parseOptions(O, Huge.c_str(), "test"), 1u);
}

} // namespace
