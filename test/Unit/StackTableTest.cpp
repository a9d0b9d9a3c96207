//===- StackTableTest.cpp - The tracer's table of call stacks -------------===//
//
// StackTable keeps each distinct stack once with its samples; the periods a
// thread ran after its last signal are added to that signal's stack by the
// slot record returned, so that the stacks hold every sample.
//
//===----------------------------------------------------------------------===//

#include "optional/stacks.h"

#include "gtest/gtest.h"

using namespace pcmap::rt;

namespace {

uint64_t samplesInStacks(const StackTable &T) {
  uint64_t Sum = 0;
  for (unsigned I = 0; I < StackTable::kSlots; ++I)
    Sum += T.entry(I).Samples;
  return Sum;
}

TEST(StackTableTest, ASameStackIsKeptOnce) {
  static StackTable T;
  ASSERT_TRUE(T.init(4));
  T.clear();
  const uintptr_t A[] = {0x1000, 0x2000, 0x3000};
  const uintptr_t B[] = {0x1000, 0x2000};
  int SlotA = T.record(A, 3, 2, 1);
  ASSERT_GE(SlotA, 0);
  EXPECT_EQ(T.record(A, 3, 3, 0), SlotA);
  int SlotB = T.record(B, 2, 1, 0);
  ASSERT_GE(SlotB, 0);
  EXPECT_NE(SlotA, SlotB);
  StackTable::Entry E = T.entry(unsigned(SlotA));
  EXPECT_EQ(E.Depth, 3u);
  EXPECT_EQ(E.Samples, 5u);
  EXPECT_EQ(E.AtomicSamples, 1u);
  EXPECT_EQ(samplesInStacks(T), 6u);
}

// Regression: periods charged at a thread's end (no signal, no context)
// were counted in the totals but in no stack, and not as dropped either.
TEST(StackTableTest, PeriodsAfterTheLastSignalGoToItsStack) {
  static StackTable T;
  ASSERT_TRUE(T.init(4));
  T.clear();
  const uintptr_t A[] = {0x1000, 0x2000};
  int Slot = T.record(A, 2, 1, 1);
  ASSERT_GE(Slot, 0);
  T.addToSlot(Slot, 4, 4);
  StackTable::Entry E = T.entry(unsigned(Slot));
  EXPECT_EQ(E.Samples, 5u);
  EXPECT_EQ(E.AtomicSamples, 5u);
  EXPECT_EQ(T.dropped(), 0u);
}

TEST(StackTableTest, PeriodsWithoutAStackAreCountedAsDropped) {
  static StackTable T;
  ASSERT_TRUE(T.init(4));
  T.clear();
  T.addToSlot(-1, 3, 0);
  EXPECT_EQ(T.dropped(), 3u);
  // A slot the table no longer holds (cleared in a forked child).
  const uintptr_t A[] = {0x1000};
  int Slot = T.record(A, 1, 1, 0);
  ASSERT_GE(Slot, 0);
  T.clear();
  T.addToSlot(Slot, 2, 0);
  EXPECT_EQ(T.dropped(), 2u);
  EXPECT_EQ(samplesInStacks(T), 0u);
  T.addToSlot(int(StackTable::kSlots), 1, 0);
  EXPECT_EQ(T.dropped(), 3u);
}

// The snapshot copies and lists only the slots in use, and forgets the
// stacks of its previous copy that the table no longer holds.
TEST(StackTableTest, ACopyHoldsTheStacksInUseOnly) {
  static StackTable Live, Copy;
  ASSERT_TRUE(Live.init(4));
  ASSERT_TRUE(Copy.init(4));
  Live.clear();
  Copy.clear();
  const uintptr_t A[] = {0x1000, 0x2000}, B[] = {0x3000};
  int SlotA = Live.record(A, 2, 2, 0);
  int SlotB = Live.record(B, 1, 1, 1);
  Live.record(A, 2, 1, 0);
  ASSERT_EQ(Live.size(), 2u);
  EXPECT_EQ(Live.slotAt(0), unsigned(SlotA));
  EXPECT_EQ(Live.slotAt(1), unsigned(SlotB));
  Copy.copyFrom(Live);
  ASSERT_EQ(Copy.size(), 2u);
  EXPECT_EQ(Copy.entry(unsigned(SlotA)).Samples, 3u);
  EXPECT_EQ(Copy.entry(unsigned(SlotB)).AtomicSamples, 1u);
  EXPECT_EQ(samplesInStacks(Copy), 4u);

  Live.clear();
  const uintptr_t C[] = {0x4000, 0x5000, 0x6000};
  int SlotC = Live.record(C, 3, 5, 0);
  Copy.copyFrom(Live);
  ASSERT_EQ(Copy.size(), 1u);
  EXPECT_EQ(Copy.slotAt(0), unsigned(SlotC));
  EXPECT_EQ(Copy.entry(unsigned(SlotC)).Depth, 3u);
  EXPECT_EQ(samplesInStacks(Copy), 5u);
}

} // namespace
