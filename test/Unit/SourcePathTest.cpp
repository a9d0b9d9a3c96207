//===- SourcePathTest.cpp - Source paths as reports show them -------------===//

#include "optional/symbolizer.h"

#include "gtest/gtest.h"

#include <string>

using namespace pcmap::rt;

namespace {

std::string normalized(const char *Path) {
  char Buffer[512];
  snprintf(Buffer, sizeof(Buffer), "%s", Path);
  normalizeSourcePath(Buffer);
  return Buffer;
}

TEST(SourcePathTest, DropsDotAndDotDotComponents) {
  EXPECT_EQ(normalized("/usr/lib/gcc/x86_64-linux-gnu/12/../../../../include/"
                       "c++/12/bits/atomic_base.h:523:9"),
            "/usr/include/c++/12/bits/atomic_base.h:523:9");
  EXPECT_EQ(normalized("/a/./b//c.h:1"), "/a/b/c.h:1");
  EXPECT_EQ(normalized("/a/b/../c.h"), "/a/c.h");
  EXPECT_EQ(normalized("/../a.h:3:4"), "/a.h:3:4");
}

TEST(SourcePathTest, KeepsWhatItCannotResolve) {
  EXPECT_EQ(normalized("../../src/x.c:10:2"), "../../src/x.c:10:2");
  EXPECT_EQ(normalized("a/../../x.c:1"), "../x.c:1");
  EXPECT_EQ(normalized("./x.c:7"), "x.c:7");
  EXPECT_EQ(normalized("x.c:7:1"), "x.c:7:1");
  EXPECT_EQ(normalized("??:0:0"), "??:0:0");
  EXPECT_EQ(normalized(""), "");
  EXPECT_EQ(normalized("a/..:5"), ".:5");
  // A colon inside the path, then the line.
  EXPECT_EQ(normalized("/a:b/../c.h:12"), "/c.h:12");
}

} // namespace
