//===- AccessX86Test.cpp - The runtime's x86-64 memory-access decoder -----===//
//
// Encodings picked by hand, each for a rule of rt/core/access_x86_64.cpp;
// test/rt/access-decoder.test holds the decoder to LLVM's disassembler on
// whole libraries.
//
//===----------------------------------------------------------------------===//

#include "core/access.h"

#include "gtest/gtest.h"

#include <initializer_list>
#include <vector>

using namespace pcmap::rt;

namespace {

AccessDecode decode(std::initializer_list<uint8_t> Bytes, AccessForm &Form) {
  std::vector<uint8_t> V(Bytes);
  return decodeX86_64Access(V.data(), V.size(), Form);
}

TEST(AccessX86Test, ModRMSIBAndDisplacement) {
  AccessForm F;
  // lock cmpxchg %ecx, 0x10(%rdi,%rsi,4)
  ASSERT_EQ(decode({0xf0, 0x0f, 0xb1, 0x4c, 0xb7, 0x10}, F), AD_Memory);
  EXPECT_EQ(F.Length, 6);
  EXPECT_EQ(F.Base, 7);
  EXPECT_EQ(F.Index, 6);
  EXPECT_EQ(F.Scale, 4);
  EXPECT_EQ(F.Displacement, 16);
  EXPECT_EQ(F.Size, 4);
  EXPECT_EQ(F.Kind, AK_ReadWrite);
  EXPECT_TRUE(F.Locked);
  EXPECT_FALSE(F.WritesAddressRegister);
  // lock cmpxchg %rcx, (%rax): CMPXCHG writes RAX, the address's base.
  ASSERT_EQ(decode({0xf0, 0x48, 0x0f, 0xb1, 0x08}, F), AD_Memory);
  EXPECT_EQ(F.Size, 8);
  EXPECT_TRUE(F.WritesAddressRegister);
  // mov (%rax), %rax
  ASSERT_EQ(decode({0x48, 0x8b, 0x00}, F), AD_Memory);
  EXPECT_TRUE(F.WritesAddressRegister);
  EXPECT_EQ(F.Kind, AK_Read);
}

TEST(AccessX86Test, RipRelativeAndSegments) {
  AccessForm F;
  // addl $1, 0x100(%rip): the displacement is from the next instruction,
  // after the immediate.
  ASSERT_EQ(decode({0x83, 0x05, 0x00, 0x01, 0x00, 0x00, 0x01}, F), AD_Memory);
  EXPECT_EQ(F.Base, kX86RegRIP);
  EXPECT_EQ(F.Length, 7);
  EXPECT_EQ(F.Displacement, 0x100);
  // mov %fs:0x28, %rax (the stack protector's canary)
  ASSERT_EQ(decode({0x64, 0x48, 0x8b, 0x04, 0x25, 0x28, 0, 0, 0}, F),
            AD_Memory);
  EXPECT_EQ(F.Segment, AS_FS);
  EXPECT_EQ(F.Base, kNoRegister);
  EXPECT_EQ(F.Index, kNoRegister);
  EXPECT_EQ(F.Displacement, 0x28);
  // mov 0x1122334455667788, %al: an absolute address.
  ASSERT_EQ(decode({0xa0, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11}, F),
            AD_Memory);
  EXPECT_EQ(uint64_t(F.Displacement), 0x1122334455667788u);
  EXPECT_EQ(F.Size, 1);
}

TEST(AccessX86Test, ImplicitOperands) {
  AccessForm F;
  ASSERT_EQ(decode({0x55}, F), AD_Memory); // push %rbp
  EXPECT_EQ(F.Base, 4);
  EXPECT_EQ(F.Displacement, -8);
  EXPECT_EQ(F.Kind, AK_Write);
  ASSERT_EQ(decode({0xf3, 0x48, 0xab}, F), AD_Memory); // rep stos %rax
  EXPECT_EQ(F.Base, 7);
  EXPECT_EQ(F.Size, 8);
  EXPECT_TRUE(F.WritesAddressRegister);
  // pop 8(%rsp): the address is formed after the pop.
  EXPECT_EQ(decode({0x8f, 0x44, 0x24, 0x08}, F), AD_Unknown);
}

TEST(AccessX86Test, NoAccess) {
  AccessForm F;
  EXPECT_EQ(decode({0x48, 0x8d, 0x04, 0x07}, F), AD_NoMemory); // lea
  EXPECT_EQ(F.Length, 4);
  EXPECT_EQ(decode({0x0f, 0x1f, 0x44, 0, 0}, F), AD_NoMemory); // nopl
  EXPECT_EQ(decode({0x0f, 0x18, 0x08}, F), AD_NoMemory);       // prefetcht0
  EXPECT_EQ(decode({0x48, 0x01, 0xd8}, F), AD_NoMemory);       // add %rbx,%rax
}

TEST(AccessX86Test, SizesByPrefix) {
  AccessForm F;
  ASSERT_EQ(decode({0xf2, 0x0f, 0x10, 0x07}, F), AD_Memory); // movsd (%rdi)
  EXPECT_EQ(F.Size, 8);
  ASSERT_EQ(decode({0x66, 0x0f, 0x7f, 0x07}, F), AD_Memory); // movdqa store
  EXPECT_EQ(F.Size, 16);
  EXPECT_EQ(F.Kind, AK_Write);
  ASSERT_EQ(decode({0xc5, 0xfe, 0x6f, 0x07}, F), AD_Memory); // vmovdqu ymm
  EXPECT_EQ(F.Size, 32);
  // REX.W wins over 0x66: call with a 32-bit displacement (glibc's TLS
  // sequences pad calls this way).
  ASSERT_EQ(decode({0x66, 0x66, 0x48, 0xe8, 1, 2, 3, 4}, F), AD_Memory);
  EXPECT_EQ(F.Length, 8);
}

TEST(AccessX86Test, UnknownRatherThanWrong) {
  AccessForm F;
  EXPECT_EQ(decode({0x48, 0x66, 0x03, 0x07}, F), AD_Unknown); // REX, then 66
  EXPECT_EQ(decode({0xf0, 0x8b, 0x07}, F), AD_Unknown);       // lock mov: #UD
  EXPECT_EQ(decode({0x66, 0xe8, 1, 2}, F), AD_Unknown); // rel16 or rel32
  EXPECT_EQ(decode({0x62, 0xf1, 0x7c, 0x48, 0x10, 0x07}, F),
            AD_Unknown);                                // EVEX
  EXPECT_EQ(decode({0x0f, 0xa3, 0x07}, F), AD_Unknown); // bt %eax, (%rdi)
  EXPECT_EQ(decode({0x48, 0x8b}, F), AD_Unknown);       // cut short
  std::vector<uint8_t> Long(16, 0x66);
  EXPECT_EQ(decodeX86_64Access(Long.data(), Long.size(), F), AD_Unknown);
}

} // namespace

namespace {

TEST(AccessX86Test, Evaluate) {
  AccessForm F;
  uintptr_t Dwarf[17] = {};
  Dwarf[5] = 0x1000; // RDI
  Dwarf[4] = 0x20;   // RSI
  X86_64Registers Regs = {Dwarf, 0x400000, 0x7000, 0};
  uintptr_t Address = 0;
  // lock cmpxchg %ecx, 0x10(%rdi,%rsi,4)
  ASSERT_EQ(decode({0xf0, 0x0f, 0xb1, 0x4c, 0xb7, 0x10}, F), AD_Memory);
  ASSERT_TRUE(evaluateX86_64Access(F, Regs, Address));
  EXPECT_EQ(Address, 0x1000u + 0x20 * 4 + 0x10);
  // addl $1, 0x100(%rip): from the end of the instruction.
  ASSERT_EQ(decode({0x83, 0x05, 0x00, 0x01, 0x00, 0x00, 0x01}, F), AD_Memory);
  ASSERT_TRUE(evaluateX86_64Access(F, Regs, Address));
  EXPECT_EQ(Address, 0x400000u + 7 + 0x100);
  // mov %fs:0x28, %rax
  ASSERT_EQ(decode({0x64, 0x48, 0x8b, 0x04, 0x25, 0x28, 0, 0, 0}, F),
            AD_Memory);
  ASSERT_TRUE(evaluateX86_64Access(F, Regs, Address));
  EXPECT_EQ(Address, 0x7028u);
  // mov %gs:0x28, %rax: GS's base is not known.
  ASSERT_EQ(decode({0x65, 0x48, 0x8b, 0x04, 0x25, 0x28, 0, 0, 0}, F),
            AD_Memory);
  EXPECT_FALSE(evaluateX86_64Access(F, Regs, Address));
  // mov (%edi), %eax: a 32-bit address wraps.
  Dwarf[5] = 0x1ffffffff;
  ASSERT_EQ(decode({0x67, 0x8b, 0x47, 0x01}, F), AD_Memory);
  ASSERT_TRUE(evaluateX86_64Access(F, Regs, Address));
  EXPECT_EQ(Address, 0u);
}

} // namespace
