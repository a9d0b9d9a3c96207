//===- ArenaTest.cpp - The runtime's table memory -------------------------===//
//
// The arena is used by writers under the writer lock; these tests are the
// only writers of their process while they run (no module registers
// anything in the unit test binary after start-up).
//
//===----------------------------------------------------------------------===//

#include "core/arena.h"

#include "gtest/gtest.h"

#include <string.h>

using namespace pcmap::rt;

namespace {

constexpr uint64_t kMiB = uint64_t(1) << 20;

TEST(ArenaTest, ReusedLargeBlocksKeepTheirPages) {
  ASSERT_TRUE(arenaInit());
  // Regression: a retained block that was allocated again stayed counted as
  // retained, so that after 64 MiB of churn every free gave its pages back
  // and every reuse faulted them in again.
  uint64_t Released = arenaBytesReleased();
  uint64_t Retained = arenaBytesRetained();
  for (int I = 0; I < 300; ++I) {
    ArenaOffset B = arenaAllocate(kMiB);
    ASSERT_NE(B, 0u);
    memset(arenaWritable(B), 0xab, 4096);
    arenaFree(B, kMiB);
  }
  EXPECT_EQ(arenaBytesReleased(), Released);
  EXPECT_LE(arenaBytesRetained(), Retained + kMiB);
}

TEST(ArenaTest, RetainedMemoryIsBoundedByThePeak) {
  ASSERT_TRUE(arenaInit());
  constexpr int N = 40;
  ArenaOffset Blocks[N];
  auto AllocateAll = [&](uint64_t Size) {
    for (int I = 0; I < N; ++I) {
      Blocks[I] = arenaAllocate(Size);
      ASSERT_NE(Blocks[I], 0u);
      memset(arenaWritable(Blocks[I]), 1, 64);
    }
  };
  auto FreeAll = [&](uint64_t Size) {
    for (int I = 0; I < N; ++I)
      arenaFree(Blocks[I], Size);
  };
  auto Budget = [] {
    return arenaPeakBytesInUse() > 64 * kMiB ? arenaPeakBytesInUse()
                                             : 64 * kMiB;
  };
  // 160 MiB in use at once, then freed: kept for the next tables of that
  // size, within the peak.
  AllocateAll(4 * kMiB);
  FreeAll(4 * kMiB);
  EXPECT_LE(arenaBytesRetained(), Budget());
  // Blocks of another size come from new memory; freeing them too would
  // keep more than the peak: the excess goes back to the system.
  uint64_t Released = arenaBytesReleased();
  AllocateAll(8 * kMiB);
  FreeAll(8 * kMiB);
  EXPECT_LE(arenaBytesRetained(), Budget());
  EXPECT_GT(arenaBytesReleased(), Released);
  // Reallocating them takes the freed blocks, retained or not.
  AllocateAll(4 * kMiB);
  FreeAll(4 * kMiB);
  AllocateAll(8 * kMiB);
  FreeAll(8 * kMiB);
  EXPECT_LE(arenaBytesRetained(), Budget());
}

TEST(ArenaTest, LargeBlocksAreHugePageAligned) {
  ASSERT_TRUE(arenaInit());
  ArenaOffset Small = arenaAllocate(100 * 1024);
  ArenaOffset Large = arenaAllocate(3 * kMiB);
  ASSERT_NE(Small, 0u);
  ASSERT_NE(Large, 0u);
  EXPECT_EQ(Large % (2 * kMiB), 0u);
  EXPECT_LT(Small, (Arena.Mask + 1) / 2);
  EXPECT_GE(Large, (Arena.Mask + 1) / 2);
  arenaFree(Small, 100 * 1024);
  arenaFree(Large, 3 * kMiB);
}

// A block that held tables is never handed to a writer's own records, nor
// the other way round (arena.h, ArenaUse): a stale reader may still read a
// freed table block, and writers write their records plainly.
TEST(ArenaTest, WriterOnlyBlocksAreNeverTableBlocks) {
  ASSERT_TRUE(arenaInit());
  ArenaOffset Table = arenaAllocate(512);
  ASSERT_NE(Table, 0u);
  arenaFree(Table, 512);
  ArenaOffset Record = arenaAllocate(512, ArenaUse::WriterOnly);
  ASSERT_NE(Record, 0u);
  EXPECT_NE(Record, Table);
  arenaFree(Record, 512, ArenaUse::WriterOnly);
  // Each kind reuses its own.
  ArenaOffset Table2 = arenaAllocate(512);
  EXPECT_EQ(Table2, Table);
  ArenaOffset Record2 = arenaAllocate(512, ArenaUse::WriterOnly);
  EXPECT_EQ(Record2, Record);
  arenaFree(Table2, 512);
  arenaFree(Record2, 512, ArenaUse::WriterOnly);
}

} // namespace
