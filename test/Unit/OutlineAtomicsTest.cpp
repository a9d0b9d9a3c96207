//===- OutlineAtomicsTest.cpp - AArch64 outline-atomic helpers ------------===//
//
// Format.h's list of helpers, and the runtime's answers for a registered
// helper (on AArch64, where the runtime measures a helper's code).
//
//===----------------------------------------------------------------------===//

#include "core/outline.h"
#include "pcmap/Format.h"
#include "pcmap/pcmap.h"

#include "gtest/gtest.h"

#include <string.h>
#include <string>
#include <sys/mman.h>

using namespace pcmap::format;

namespace {

std::string helperName(unsigned I) {
  return std::string(kOutlineHelperPrefix) + kOutlineOps[outlineOp(I)] +
         kOutlineSizes[outlineSizeLog2(I)] + "_" +
         kOutlineOrders[outlineOrder(I)];
}

TEST(OutlineAtomicsTest, ListHasEveryHelperOnce) {
  unsigned Count = 0;
  for (unsigned I = 0; I < kNumOutlineHelpers; ++I)
    Count += outlineHelperExists(I);
  // cas: 5 sizes; swp, ldadd, ldclr, ldeor, ldset: 4 sizes; 5 orders each.
  EXPECT_EQ(Count, 5u * 5 + 5 * 4 * 5);
  EXPECT_FALSE(outlineHelperExists(kNumOutlineHelpers));
  EXPECT_EQ(helperName(0), "__aarch64_cas1_relax");
  EXPECT_EQ(helperName(2 * 25 + 3 * 5 + 3), "__aarch64_ldadd8_acq_rel");
  EXPECT_TRUE(outlineHelperExists(4 * 5 + 4));   // __aarch64_cas16_sync
  EXPECT_FALSE(outlineHelperExists(25 + 4 * 5)); // no __aarch64_swp16_*
}

TEST(OutlineAtomicsTest, DescriptorFollowsTheName) {
  AtomicDescriptor D = outlineHelperDescriptor(2 * 25 + 3 * 5 + 3);
  EXPECT_EQ(D.Kind, AK_RMW);
  EXPECT_EQ(D.Op, RMW_Add);
  EXPECT_EQ(D.sizeInBytes(), 8u);
  EXPECT_EQ(D.Order, AO_AcqRel);
  D = outlineHelperDescriptor(3 * 25 + 0 * 5 + 1); // ldclr1_acq
  EXPECT_EQ(D.Op, RMW_And);
  EXPECT_EQ(D.Order, AO_Acquire);
  D = outlineHelperDescriptor(4 * 5 + 4); // cas16_sync
  EXPECT_EQ(D.Kind, AK_CmpXchg);
  EXPECT_EQ(D.sizeInBytes(), 16u);
  EXPECT_EQ(D.Order, AO_SeqCst);
  EXPECT_EQ(D.FailureOrder, AO_SeqCst);
  D = outlineHelperDescriptor(1 * 25 + 2 * 5 + 2); // swp4_rel
  EXPECT_EQ(D.Op, RMW_Xchg);
  EXPECT_EQ(D.Order, AO_Release);
}

#if defined(__aarch64__)
/// A helper's code as libgcc's lse.S lays it out: BTI, the LSE test, the
/// LSE instruction and RET, the LL/SC loop and RET (12 instructions).
const uint32_t kLdadd8AcqRel[] = {
    0xd503245f, 0x90000110, 0x39414210, 0x34000070, 0xf8e00020, 0xd65f03c0,
    0xaa0003f0, 0xc85ffc20, 0x8b100011, 0xc80ffc31, 0x35ffffaf, 0xd65f03c0};

TEST(OutlineAtomicsTest, HelperIsAnAtomicUntilUnregistered) {
  void *Code = mmap(nullptr, 4096, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(Code, MAP_FAILED);
  memcpy(Code, kLdadd8AcqRel, sizeof(kLdadd8AcqRel));
  auto Start = reinterpret_cast<uintptr_t>(Code);
  const void *Helpers[kNumOutlineHelpers] = {};
  unsigned Ldadd8AcqRel = 2 * 25 + 3 * 5 + 3;
  Helpers[Ldadd8AcqRel] = Code;
  __pcmap_outline_atomics_add(Helpers, kNumOutlineHelpers);

  EXPECT_EQ(pcmap_is_atomic_pc(Start), PCMAP_YES);
  EXPECT_EQ(pcmap_is_atomic_pc(Start + sizeof(kLdadd8AcqRel) - 4), PCMAP_YES);
  EXPECT_EQ(pcmap_is_atomic_pc(Start + sizeof(kLdadd8AcqRel)), PCMAP_UNKNOWN);
  pcmap_atomic A;
  ASSERT_EQ(pcmap_lookup_atomic(Start + 0x1c, &A), 1);
  EXPECT_EQ(A.pc, Start);
  EXPECT_EQ(A.kind, uint32_t(PCMAP_KIND_RMW));
  EXPECT_EQ(A.rmw_op, uint32_t(PCMAP_RMW_ADD));
  EXPECT_EQ(A.size, 8u);
  EXPECT_EQ(A.order, uint32_t(PCMAP_ORDER_ACQ_REL));
  EXPECT_EQ(A.flags, PCMAP_ATOMIC_OUTLINE_HELPER);
  char Name[48];
  ASSERT_TRUE(pcmap::rt::outlineHelperName(A, Name, sizeof(Name)));
  EXPECT_STREQ(Name, "__aarch64_ldadd8_acq_rel");
  ASSERT_EQ(pcmap_lookup_atomic_before(Start + 0x14, 4, &A), 1);
  EXPECT_EQ(A.pc, Start);
  pcmap_function F;
  ASSERT_EQ(pcmap_lookup_function(Start + 8, &F), 1);
  EXPECT_EQ(F.start, Start);
  EXPECT_EQ(F.size, sizeof(kLdadd8AcqRel));
  EXPECT_EQ(F.source, uint32_t(PCMAP_SOURCE_OUTLINE_HELPER));

  __pcmap_outline_atomics_del(Helpers, kNumOutlineHelpers);
  EXPECT_EQ(pcmap_is_atomic_pc(Start), PCMAP_UNKNOWN);
  EXPECT_EQ(pcmap_lookup_atomic(Start, &A), 0);
  munmap(Code, 4096);
}

TEST(OutlineAtomicsTest, CodeThatIsNoHelperIsNotRegistered) {
  static const uint32_t NoRet[40] = {};
  const void *Helpers[kNumOutlineHelpers] = {};
  Helpers[0] = NoRet;
  __pcmap_outline_atomics_add(Helpers, kNumOutlineHelpers);
  EXPECT_EQ(pcmap_is_atomic_pc(reinterpret_cast<uintptr_t>(NoRet)),
            PCMAP_UNKNOWN);
  __pcmap_outline_atomics_del(Helpers, kNumOutlineHelpers);
}
#else
TEST(OutlineAtomicsTest, NoHelpersOffAArch64) {
  static const uint32_t Code[16] = {};
  const void *Helpers[kNumOutlineHelpers] = {};
  Helpers[0] = Code;
  __pcmap_outline_atomics_add(Helpers, kNumOutlineHelpers);
  EXPECT_EQ(pcmap_is_atomic_pc(reinterpret_cast<uintptr_t>(Code)),
            PCMAP_UNKNOWN);
  __pcmap_outline_atomics_del(Helpers, kNumOutlineHelpers);
}
#endif

} // namespace
