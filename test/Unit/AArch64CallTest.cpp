//===- AArch64CallTest.cpp - Call sites at AArch64 stack maps -------------===//

#include "stackmaps/call_site.h"

#include "pcmap/pcmap.h"

#include "gtest/gtest.h"

#if defined(__aarch64__)

using namespace pcmap::rt;

namespace {

constexpr uint32_t kNop = 0xd503201f, kRet = 0xd65f03c0;
constexpr uint32_t kMovzX16 = 0xd2c00010, kMovkX16 = 0xf2a24690;
constexpr uint32_t kBlrX16 = 0xd63f0200, kBlrX8 = 0xd63f0100;
constexpr uint32_t kAdd = 0x8b130289;

uintptr_t at(const uint32_t *Code, unsigned I) {
  return reinterpret_cast<uintptr_t>(Code + I);
}

TEST(AArch64CallTest, PatchpointWithATarget) {
  const uint32_t Code[] = {kAdd, kMovzX16, kMovkX16, kMovkX16, kBlrX16,
                           kNop, kNop,     kAdd,     kRet};
  CallSite C = callSiteAt(at(Code, 0), at(Code, 1), at(Code, 9), at(Code, 0),
                          at(Code, 9));
  EXPECT_EQ(C.Kind, PCMAP_STACKMAP_PATCHPOINT);
  EXPECT_EQ(C.Size, 24u);
  // Bounded by the next record.
  C = callSiteAt(at(Code, 0), at(Code, 1), at(Code, 6), at(Code, 0),
                 at(Code, 9));
  EXPECT_EQ(C.Size, 20u);
}

TEST(AArch64CallTest, PatchpointOfNopsOnly) {
  const uint32_t Code[] = {kAdd, kNop, kNop, kNop, kAdd};
  CallSite C = callSiteAt(at(Code, 0), at(Code, 1), at(Code, 5), at(Code, 0),
                          at(Code, 5));
  EXPECT_EQ(C.Kind, PCMAP_STACKMAP_PATCHPOINT);
  EXPECT_EQ(C.Size, 12u);
}

TEST(AArch64CallTest, CallThatReturnsToTheRecord) {
  // bl +2 (to the add two instructions on), then the record.
  const uint32_t Code[] = {kAdd, 0x94000002, kAdd, kBlrX8, kAdd, kRet};
  CallSite C = callSiteAt(at(Code, 0), at(Code, 2), at(Code, 6), at(Code, 0),
                          at(Code, 6));
  EXPECT_EQ(C.Kind, PCMAP_STACKMAP_CALL);
  EXPECT_EQ(C.Size, 4u);
  C = callSiteAt(at(Code, 0), at(Code, 4), at(Code, 6), at(Code, 0),
                 at(Code, 6));
  EXPECT_EQ(C.Kind, PCMAP_STACKMAP_CALL);
  // A BL whose target is outside the module's code is no call.
  C = callSiteAt(at(Code, 0), at(Code, 2), at(Code, 6), at(Code, 4),
                 at(Code, 6));
  EXPECT_EQ(C.Kind, PCMAP_STACKMAP_CALL_NONE);
  // Nor one before the function.
  C = callSiteAt(at(Code, 2), at(Code, 2), at(Code, 6), at(Code, 0),
                 at(Code, 6));
  EXPECT_EQ(C.Kind, PCMAP_STACKMAP_CALL_NONE);
}

TEST(AArch64CallTest, Neither) {
  const uint32_t Code[] = {kAdd, kAdd, kRet};
  CallSite C = callSiteAt(at(Code, 0), at(Code, 1), at(Code, 3), at(Code, 0),
                          at(Code, 3));
  EXPECT_EQ(C.Kind, PCMAP_STACKMAP_CALL_NONE);
  EXPECT_EQ(C.Size, 0u);
}

} // namespace

#endif // __aarch64__
