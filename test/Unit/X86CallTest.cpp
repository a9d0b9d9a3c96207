//===- X86CallTest.cpp - The runtime's x86-64 call and NOP length decoder -===//
//
// Byte sequences as GNU as / llvm-mc encode them (the comments give the
// instruction).
//
//===----------------------------------------------------------------------===//

#include "stackmaps/x86_call.h"

#include "gtest/gtest.h"

#include <vector>

using namespace pcmap::rt;

namespace {

unsigned callLength(std::vector<uint8_t> Bytes) {
  return x86CallLength(Bytes.data(), Bytes.size());
}

TEST(X86Call, Direct) {
  int64_t Rel = 0;
  bool Direct = false;
  std::vector<uint8_t> B = {0xe8, 0xf8, 0xfd, 0xff, 0xff}; // call .-0x203
  EXPECT_EQ(x86CallLength(B.data(), B.size(), &Rel, &Direct), 5u);
  EXPECT_TRUE(Direct);
  EXPECT_EQ(Rel, -0x208);
  // Truncated, and with an operand-size prefix (rel16 on some CPUs).
  EXPECT_EQ(callLength({0xe8, 0x00, 0x00, 0x00}), 0u);
  EXPECT_EQ(callLength({0x66, 0xe8, 0x00, 0x00, 0x00, 0x00}), 0u);
}

TEST(X86Call, IndirectRegister) {
  EXPECT_EQ(callLength({0xff, 0xd0}), 2u);             // call *%rax
  EXPECT_EQ(callLength({0xff, 0xd6}), 2u);             // call *%rsi
  EXPECT_EQ(callLength({0x41, 0xff, 0xd3}), 3u);       // call *%r11
  EXPECT_EQ(callLength({0x41, 0xff, 0xd6}), 3u);       // call *%r14
  EXPECT_EQ(callLength({0x3e, 0xff, 0xd0}), 3u);       // notrack call *%rax
  EXPECT_EQ(callLength({0x3e, 0x41, 0xff, 0xd3}), 4u); // notrack call *%r11
  // FF /3 (far call) has no register form; FF /4 is jmp, FF /0 inc.
  EXPECT_EQ(callLength({0xff, 0xd8}), 0u);
  EXPECT_EQ(callLength({0xff, 0xe0}), 0u);
  EXPECT_EQ(callLength({0xff, 0xc0}), 0u);
}

TEST(X86Call, IndirectMemory) {
  EXPECT_EQ(callLength({0xff, 0x10}), 2u);                   // call *(%rax)
  EXPECT_EQ(callLength({0xff, 0x50, 0x08}), 3u);             // call *8(%rax)
  EXPECT_EQ(callLength({0xff, 0x90, 0, 1, 0, 0}), 6u);       // *0x100(%rax)
  EXPECT_EQ(callLength({0xff, 0x15, 0, 0, 0, 0}), 6u);       // *x(%rip)
  EXPECT_EQ(callLength({0xff, 0x14, 0x24}), 3u);             // *(%rsp)
  EXPECT_EQ(callLength({0xff, 0x54, 0x24, 0x08}), 4u);       // *8(%rsp)
  EXPECT_EQ(callLength({0xff, 0x14, 0xc5, 0, 0, 0, 0}), 7u); // *x(,%rax,8)
  EXPECT_EQ(callLength({0x41, 0xff, 0x54, 0xc5, 0x10}), 5u); // *16(%r13,%rax,8)
  EXPECT_EQ(callLength({0x64, 0xff, 0x14, 0x25, 0, 0, 0, 0}),
            8u);                                       // *%fs:0
  EXPECT_EQ(callLength({0xff, 0x1c, 0x24}), 3u);       // lcall *(%rsp)
  EXPECT_EQ(callLength({0x48, 0xff, 0x5d, 0xf0}), 4u); // rex.W lcall
  // Truncated displacement and SIB.
  EXPECT_EQ(callLength({0xff, 0x90, 0, 1, 0}), 0u);
  EXPECT_EQ(callLength({0xff, 0x14}), 0u);
}

TEST(X86Call, EndingAt) {
  // mov %rdi,%rbx; call rel32; the call ends at offset 8.
  std::vector<uint8_t> Code = {0x48, 0x89, 0xfb, 0xe8, 0x10, 0x00, 0x00, 0x00};
  uintptr_t At = 0x1000;
  EXPECT_EQ(x86CallEndingAt(Code.data(), 8, At, 0x1000, 0x2000), 5u);
  // Its target (0x1018) outside the allowed range: not a call.
  EXPECT_EQ(x86CallEndingAt(Code.data(), 8, At, 0x2000, 0x3000), 0u);
  // Not ending at 7.
  EXPECT_EQ(x86CallEndingAt(Code.data(), 7, At, 0, ~uintptr_t(0)), 0u);
  // The REX prefix belongs to the call: 41 ff d6, not ff d6.
  std::vector<uint8_t> Rex = {0x48, 0x89, 0xfb, 0x41, 0xff, 0xd6};
  EXPECT_EQ(x86CallEndingAt(Rex.data(), 6, At, 0, ~uintptr_t(0)), 3u);
  // Never before the start.
  std::vector<uint8_t> Short = {0xff, 0xd0};
  EXPECT_EQ(x86CallEndingAt(Short.data(), 2, At, 0, ~uintptr_t(0)), 2u);
  EXPECT_EQ(x86CallEndingAt(Short.data(), 1, At, 0, ~uintptr_t(0)), 0u);
}

TEST(X86Nop, Forms) {
  auto Nop = [](std::vector<uint8_t> B) {
    return x86NopLength(B.data(), B.size());
  };
  EXPECT_EQ(Nop({0x90}), 1u);
  EXPECT_EQ(Nop({0x66, 0x90}), 2u);
  EXPECT_EQ(Nop({0x0f, 0x1f, 0x00}), 3u);
  EXPECT_EQ(Nop({0x0f, 0x1f, 0x40, 0x00}), 4u);
  EXPECT_EQ(Nop({0x0f, 0x1f, 0x44, 0x00, 0x00}), 5u);
  EXPECT_EQ(Nop({0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00}), 6u);
  EXPECT_EQ(Nop({0x0f, 0x1f, 0x80, 0, 0, 0, 0}), 7u);
  EXPECT_EQ(Nop({0x0f, 0x1f, 0x84, 0x00, 0, 0, 0, 0}), 8u);
  EXPECT_EQ(Nop({0x66, 0x0f, 0x1f, 0x84, 0x00, 0, 0, 0, 0}), 9u);
  EXPECT_EQ(Nop({0x66, 0x2e, 0x0f, 0x1f, 0x84, 0x00, 0, 0, 0, 0}), 10u);
  EXPECT_EQ(Nop({0x2e, 0x66, 0x0f, 0x1f, 0x84, 0x00, 0, 2, 0, 0}), 10u);
  EXPECT_EQ(Nop({0xf3, 0x90}), 0u);       // pause
  EXPECT_EQ(Nop({0x41, 0x90}), 0u);       // xchg %eax,%r8d
  EXPECT_EQ(Nop({0x0f, 0x1f, 0x48}), 0u); // 0f 1f /1 is not a NOP; truncated
}

TEST(X86Patchpoint, Region) {
  // movabs $0x25e0,%r11; call *%r11; nopl (%rax) = 16 bytes, then add.
  std::vector<uint8_t> P = {0x49, 0xbb, 0xe0, 0x25, 0,    0,    0,    0,   0, 0,
                            0x41, 0xff, 0xd3, 0x0f, 0x1f, 0x00, 0x49, 0x01};
  EXPECT_EQ(x86MovImmLength(P.data(), P.size()), 10u);
  EXPECT_EQ(x86PatchpointRegionSize(P.data(), P.size()), 16u);
  // Bounded by what may be read (the next record, the function's end).
  EXPECT_EQ(x86PatchpointRegionSize(P.data(), 14), 13u);
  // No target: NOPs only.
  std::vector<uint8_t> N = {0x2e, 0x66, 0x0f, 0x1f, 0x84, 0, 0, 2,
                            0,    0,    0x0f, 0x1f, 0x44, 0, 8, 0x49};
  EXPECT_EQ(x86PatchpointRegionSize(N.data(), N.size()), 15u);
  // Something else.
  std::vector<uint8_t> X = {0x48, 0x89, 0xfb};
  EXPECT_EQ(x86PatchpointRegionSize(X.data(), X.size()), 0u);
  // mov $imm32,%r11d; call *%r11.
  std::vector<uint8_t> M = {0x41, 0xbb, 1, 2, 3, 4, 0x41, 0xff, 0xd3};
  EXPECT_EQ(x86PatchpointRegionSize(M.data(), M.size()), 9u);
}

} // namespace
