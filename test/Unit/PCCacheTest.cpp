//===- PCCacheTest.cpp - Answers remembered by PC -------------------------===//

#include "core/pc_cache.h"

#include "gtest/gtest.h"

using namespace pcmap::rt;

namespace {

#if defined(__aarch64__)
constexpr uintptr_t kStep = 4;
#else
constexpr uintptr_t kStep = 1;
#endif
// A PC of a shared object's text, and one that shares its slot.
constexpr uintptr_t kPC = 0x7f12345678a0;
constexpr uintptr_t kSameSlot = kPC + (uintptr_t(1) << PCCache::kSlotBits) * kStep;

TEST(PCCacheTest, RemembersEachPCsOwnAnswer) {
  static PCCache C; // zero-initialised, as the runtime's are
  unsigned V = 99;
  EXPECT_FALSE(C.find(kPC, V));
  C.remember(kPC, 5, C.generation());
  C.remember(kPC + kStep, 0, C.generation());
  ASSERT_TRUE(C.find(kPC, V));
  EXPECT_EQ(V, 5u);
  ASSERT_TRUE(C.find(kPC + kStep, V));
  EXPECT_EQ(V, 0u); // "none" is an answer too
  EXPECT_FALSE(C.find(kPC + 2 * kStep, V));
}

TEST(PCCacheTest, PCsOfOneSlotReplaceEachOther) {
  static PCCache C;
  unsigned V;
  C.remember(kPC, 3, C.generation());
  EXPECT_FALSE(C.find(kSameSlot, V));
  C.remember(kSameSlot, 7, C.generation());
  ASSERT_TRUE(C.find(kSameSlot, V));
  EXPECT_EQ(V, 7u);
  EXPECT_FALSE(C.find(kPC, V));
}

TEST(PCCacheTest, ANewGenerationForgetsEverything) {
  static PCCache C;
  unsigned V;
  uint64_t Before = C.generation();
  C.remember(kPC, 4, Before);
  C.newGeneration();
  EXPECT_FALSE(C.find(kPC, V));
  // An answer worked out before the objects changed, stored after: stale.
  C.remember(kPC, 4, Before);
  EXPECT_FALSE(C.find(kPC, V));
  C.remember(kPC, 6, C.generation());
  ASSERT_TRUE(C.find(kPC, V));
  EXPECT_EQ(V, 6u);
}

TEST(PCCacheTest, KeepsNothingItCannotTellApart) {
  static PCCache C;
  unsigned V;
  C.remember(kPC, 16, C.generation()); // does not fit
  EXPECT_FALSE(C.find(kPC, V));
  EXPECT_FALSE(PCCache::cacheable(0));
  EXPECT_FALSE(PCCache::cacheable(0x100));
  EXPECT_FALSE(PCCache::cacheable(uintptr_t(1) << 48));
  EXPECT_TRUE(PCCache::cacheable(uintptr_t(1) << 47));
  C.remember(0x100, 1, C.generation());
  EXPECT_FALSE(C.find(0x100, V));
  // The top of user space and a PC of the same slot and low bits.
  uintptr_t High = (uintptr_t(1) << 48) - 64 * kStep;
  C.remember(High, 9, C.generation());
  ASSERT_TRUE(C.find(High, V));
  EXPECT_EQ(V, 9u);
  EXPECT_FALSE(C.find(High - (uintptr_t(1) << 40), V));
#if defined(__aarch64__)
  EXPECT_FALSE(PCCache::cacheable(kPC + 2));
#endif
}

} // namespace
