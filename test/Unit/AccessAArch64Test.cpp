//===- AccessAArch64Test.cpp - The runtime's AArch64 access decoder -------===//
//
// One encoding for each class of rt/core/access_aarch64.cpp;
// test/rt/access-decoder.test holds the decoder to LLVM's disassembler on
// whole libraries.
//
//===----------------------------------------------------------------------===//

#include "core/access.h"

#include "gtest/gtest.h"

using namespace pcmap::rt;

namespace {

AccessDecode decode(uint32_t Insn, AccessForm &Form) {
  uint8_t Bytes[4] = {uint8_t(Insn), uint8_t(Insn >> 8), uint8_t(Insn >> 16),
                      uint8_t(Insn >> 24)};
  return decodeAArch64Access(Bytes, 4, Form);
}

TEST(AccessAArch64Test, Offsets) {
  AccessForm F;
  ASSERT_EQ(decode(0xf9400420, F), AD_Memory); // ldr x0, [x1, #8]
  EXPECT_EQ(F.Base, 1);
  EXPECT_EQ(F.Displacement, 8);
  EXPECT_EQ(F.Size, 8);
  EXPECT_EQ(F.Kind, AK_Read);
  EXPECT_FALSE(F.WritesAddressRegister);
  ASSERT_EQ(decode(0xb862d820, F), AD_Memory); // ldr w0, [x1, w2, sxtw #2]
  EXPECT_EQ(F.Index, 2);
  EXPECT_EQ(F.IndexExtend, AE_SXTW);
  EXPECT_EQ(F.Scale, 4);
  ASSERT_EQ(decode(0x58000040, F), AD_Memory); // ldr x0, #8 (literal)
  EXPECT_EQ(F.Base, kAArch64RegPC);
  EXPECT_EQ(F.Displacement, 8);
  ASSERT_EQ(decode(0xf9400000, F), AD_Memory); // ldr x0, [x0]
  EXPECT_TRUE(F.WritesAddressRegister);
}

TEST(AccessAArch64Test, PairsAndWriteBack) {
  AccessForm F;
  ASSERT_EQ(decode(0xa9bf7bfd, F), AD_Memory); // stp x29, x30, [sp, #-16]!
  EXPECT_EQ(F.Base, kAArch64RegSP);
  EXPECT_EQ(F.Displacement, -16);
  EXPECT_EQ(F.Size, 16);
  EXPECT_EQ(F.Kind, AK_Write);
  EXPECT_TRUE(F.WritesAddressRegister);
  ASSERT_EQ(decode(0xa8c17bfd, F), AD_Memory); // ldp x29, x30, [sp], #16
  EXPECT_EQ(F.Displacement, 0); // post-index: at SP as it is
  EXPECT_TRUE(F.WritesAddressRegister);
}

TEST(AccessAArch64Test, Atomics) {
  AccessForm F;
  ASSERT_EQ(decode(0x885ffc40, F), AD_Memory); // ldaxr w0, [x2]
  EXPECT_EQ(F.Kind, AK_Read);
  EXPECT_EQ(F.Size, 4);
  ASSERT_EQ(decode(0x88117c41, F), AD_Memory); // stxr w17, w1, [x2]
  EXPECT_EQ(F.Kind, AK_Write);
  ASSERT_EQ(decode(0xc8e0fc41, F), AD_Memory); // casal x0, x1, [x2]
  EXPECT_EQ(F.Kind, AK_ReadWrite);
  EXPECT_EQ(F.Size, 8);
  ASSERT_EQ(decode(0xb8200041, F), AD_Memory); // ldadd w0, w1, [x2]
  EXPECT_EQ(F.Kind, AK_ReadWrite);
  EXPECT_EQ(F.Base, 2);
}

TEST(AccessAArch64Test, NoAccessAndUnknown) {
  AccessForm F;
  EXPECT_EQ(decode(0xf9800000, F), AD_NoMemory); // prfm pldl1keep, [x0]
  EXPECT_EQ(decode(0x8b020020, F), AD_NoMemory); // add x0, x1, x2
  EXPECT_EQ(decode(0xd503201f, F), AD_NoMemory); // nop
  EXPECT_EQ(decode(0xd50b7420, F), AD_Unknown);  // dc zva, x0
  EXPECT_EQ(decode(0x00000000, F), AD_Unknown);  // udf #0
  uint8_t Short[2] = {0x20, 0x04};
  EXPECT_EQ(decodeAArch64Access(Short, 2, F), AD_Unknown);
}

TEST(AccessAArch64Test, Evaluate) {
  AccessForm F;
  uintptr_t Dwarf[32] = {};
  Dwarf[1] = 0x1000;
  Dwarf[2] = uintptr_t(-2); // w2 = -2 as a 32-bit value, sign-extended
  Dwarf[31] = 0x8000;       // SP
  ASSERT_EQ(decode(0xb862d820, F), AD_Memory); // ldr w0, [x1, w2, sxtw #2]
  EXPECT_EQ(evaluateAArch64Access(F, Dwarf, 0), 0x1000u - 8);
  ASSERT_EQ(decode(0xa9bf7bfd, F), AD_Memory); // stp x29, x30, [sp, #-16]!
  EXPECT_EQ(evaluateAArch64Access(F, Dwarf, 0), 0x8000u - 16);
  ASSERT_EQ(decode(0x58000040, F), AD_Memory); // ldr x0, #8
  EXPECT_EQ(evaluateAArch64Access(F, Dwarf, 0x400000), 0x400008u);
}

} // namespace
