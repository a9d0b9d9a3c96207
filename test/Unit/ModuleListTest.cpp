//===- ModuleListTest.cpp - The modules a dump lists ----------------------===//

#include "optional/module_list.h"

#include "gtest/gtest.h"

#include <gnu/libc-version.h>
#include <vector>

using namespace pcmap::rt;

namespace {

int DataOfThisProgram = 1;
int codeOfThisProgram() { return DataOfThisProgram; }

TEST(ModuleListTest, ListsAModuleOnceWhateverSegmentAFrameIsIn) {
  std::vector<LoadedObject> Store(ModuleList::kMax + 1);
  ModuleList Modules(Store.data());
  auto Code = reinterpret_cast<uintptr_t>(&codeOfThisProgram);
  auto Data = reinterpret_cast<uintptr_t>(&DataOfThisProgram);
  // A frame in a segment that is not code (a bad stack's word) names the
  // same module: listed once (regression: each such frame added it again,
  // and the second pass added it after the list was written).
  Modules.collect(Data);
  Modules.collect(Data);
  Modules.collect(Code);
  EXPECT_EQ(Modules.size(), 1u);
  EXPECT_EQ(Modules.indexOf(Data), 0);
  EXPECT_EQ(Modules.indexOf(Code), 0);
  EXPECT_EQ(Modules.size(), 1u);
}

TEST(ModuleListTest, TheSecondPassNeverAdds) {
  std::vector<LoadedObject> Store(ModuleList::kMax + 1);
  ModuleList Modules(Store.data());
  auto Code = reinterpret_cast<uintptr_t>(&codeOfThisProgram);
  // The C library's code: another module, not collected (a function no
  // sanitizer intercepts, whose interceptor would be in this program).
  auto Libc = reinterpret_cast<uintptr_t>(&gnu_get_libc_version);
  Modules.collect(Code);
  EXPECT_EQ(Modules.indexOf(Libc), -1);
  EXPECT_EQ(Modules.size(), 1u);
  EXPECT_EQ(Modules.indexOf(4096), -1);
}

TEST(ModuleListTest, NoMemoryListsNothing) {
  ModuleList Modules(nullptr);
  Modules.collect(reinterpret_cast<uintptr_t>(&codeOfThisProgram));
  EXPECT_EQ(Modules.size(), 0u);
  EXPECT_EQ(Modules.indexOf(reinterpret_cast<uintptr_t>(&codeOfThisProgram)),
            -1);
}

} // namespace
