//===- FragmentsTest.cpp - The records of split functions' fragments ------===//
//
// addFragments (rt/core/fragments.h) on records, fragments and atomics
// built by hand: the fragments join their functions, sorted by start; a
// fragment of no fragmented function, or overlapping another record, is
// left out; and a function that declares atomics is complete in every
// fragment if one of them holds one, in none otherwise.
//
//===----------------------------------------------------------------------===//

#include "core/fragments.h"
#include "core/arena.h"

#include "pcmap/Format.h"
#include "pcmap/pcmap.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <vector>

using namespace pcmap::rt;
using namespace pcmap::format;

namespace {

template <class T> ArenaOffset inArena(const std::vector<T> &V) {
  ArenaOffset Off = arenaAllocate(V.size() * sizeof(T));
  EXPECT_NE(Off, 0u);
  arenaStore(arenaWritable(Off), V.data(), V.size() * sizeof(T));
  return Off;
}

FunctionRecord record(uint32_t Start, uint32_t Size, uint32_t Declared) {
  FunctionRecord R{};
  R.Start = R.Entry = Start;
  R.Size = Size;
  R.Source = PCMAP_SOURCE_PCMAP;
  R.Declared = Declared;
  return R;
}

constexpr uint32_t kComplete = kFeatureAtomics | kFeatureHasAtomics;

struct Fixture {
  DecodedFunctions Section;
  ModuleFragments Fragments;
  DecodedAtomics Atomics;

  Fixture(const std::vector<uint32_t> &AtomicOffsets) {
    EXPECT_TRUE(arenaInit());
    std::vector<FunctionRecord> Records = {
        record(0x0, 16, kComplete | kFeatureFragmented),
        record(0x100, 16, kFeatureAtomics | kFeatureFragmented),
        record(0x200, 8, kComplete)};
    Section.Records = inArena(Records);
    Section.Count = Section.Capacity = uint32_t(Records.size());
    std::vector<Fragment> Frags = {
        {0x8, 16, 0x100},  // overlaps the function at 0: left out
        {0x300, 20, 0x0},  // holds the atomic at 0x305
        {0x320, 10, 0x0},  // no atomic
        {0x340, 8, 0x100}, // a function without atomics
        {0x400, 8, 0x999}, // no function starts there: left out
    };
    std::sort(
        Frags.begin(), Frags.end(),
        [](const Fragment &A, const Fragment &B) { return A.Entry < B.Entry; });
    Fragments.Array = inArena(Frags);
    Fragments.Count = uint32_t(Frags.size());
    Fragments.Read = true;
    if (!AtomicOffsets.empty()) {
      Atomics.Offsets = inArena(AtomicOffsets);
      Atomics.Descriptors = inArena(AtomicOffsets);
      Atomics.Count = Atomics.Capacity = uint32_t(AtomicOffsets.size());
    }
  }
  ~Fixture() {
    freeDecoded(Section);
    freeDecoded(Atomics);
    freeFragments(Fragments);
  }
};

std::vector<FunctionRecord> records(const DecodedFunctions &F) {
  const auto *R = static_cast<const FunctionRecord *>(arenaPointer(F.Records));
  return std::vector<FunctionRecord>(R, R + F.Count);
}

TEST(FragmentsTest, JoinedAndCompleteWhenAFragmentHoldsAnAtomic) {
  Fixture X({0x204, 0x305});
  DecodedFunctions Out;
  ASSERT_TRUE(addFragments(X.Section, X.Fragments, &X.Atomics, 1, Out));
  std::vector<FunctionRecord> R = records(Out);
  ASSERT_EQ(R.size(), 6u);
  uint32_t Starts[] = {0x0, 0x100, 0x200, 0x300, 0x320, 0x340};
  uint32_t Entries[] = {0x0, 0x100, 0x200, 0x0, 0x0, 0x100};
  for (size_t I = 0; I < R.size(); ++I) {
    EXPECT_EQ(R[I].Start, Starts[I]) << I;
    EXPECT_EQ(R[I].Entry, Entries[I]) << I;
    EXPECT_EQ(bool(R[I].Source & PCMAP_SOURCE_FRAGMENT), I >= 3) << I;
  }
  // work() at 0 has its atomic in the fragment at 0x300: its pieces without
  // atomics no longer declare any, so that each is complete.
  EXPECT_EQ(R[0].Declared, kFeatureAtomics | kFeatureFragmented);
  EXPECT_EQ(R[3].Declared, kComplete | kFeatureFragmented);
  EXPECT_EQ(R[4].Declared, kFeatureAtomics | kFeatureFragmented);
  EXPECT_EQ(R[5].Declared, kFeatureAtomics | kFeatureFragmented);
  EXPECT_EQ(R[3].Size, 20u);
  EXPECT_EQ(R[2].Declared, kComplete); // not fragmented: as it was
  freeDecoded(Out);
}

TEST(FragmentsTest, NoAtomicsRegisteredLeavesEveryFragmentIncomplete) {
  Fixture X({});
  DecodedFunctions Out;
  ASSERT_TRUE(addFragments(X.Section, X.Fragments, &X.Atomics, 0, Out));
  for (const FunctionRecord &R : records(Out))
    if (R.Entry == 0)
      EXPECT_TRUE(R.Declared & kFeatureHasAtomics) << R.Start;
  freeDecoded(Out);
}

TEST(FragmentsTest, NothingToAdd) {
  Fixture X({0x305});
  ModuleFragments None;
  DecodedFunctions Out;
  EXPECT_FALSE(addFragments(X.Section, None, &X.Atomics, 1, Out));
  EXPECT_EQ(Out.Records, 0u);
  EXPECT_TRUE(hasFragmentedFunctions(X.Section));
}

} // namespace
