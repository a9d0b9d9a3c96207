//===- AccessFlowTest.cpp - The instruction that ran before a PC ----------===//
//
// instructionEndingAt decodes straight-line code forward and answers only
// where the instruction before a PC is certain: not at a jump's target,
// not in code with an indirect jump, not after a call, jump or return.
// The code is hand-assembled bytes (x86-64) and words (AArch64) in a
// buffer: the function reads code in place and runs none of it.
//
//===----------------------------------------------------------------------===//

#include "core/access.h"

#include "gtest/gtest.h"

#include <string.h>

using namespace pcmap::rt;

namespace {

#if defined(__x86_64__)
// 0: mov (%rdi),%eax   2: add $1,%eax   5: mov %eax,(%rdi)   7: ret
const uint8_t Straight[] = {0x8b, 0x07, 0x83, 0xc0, 0x01,
                            0x89, 0x07, 0xc3};

TEST(AccessFlow, StraightLine) {
  uintptr_t B = uintptr_t(Straight), E = B + sizeof(Straight);
  EXPECT_EQ(instructionEndingAt(B + 2, B, E), B);
  EXPECT_EQ(instructionEndingAt(B + 5, B, E), B + 2);
  EXPECT_EQ(instructionEndingAt(B + 7, B, E), B + 5);
  // Not at an instruction's end, at the start, outside.
  EXPECT_EQ(instructionEndingAt(B + 1, B, E), 0u);
  EXPECT_EQ(instructionEndingAt(B, B, E), 0u);
  EXPECT_EQ(instructionEndingAt(E, B, E), 0u);
}

// 0: mov (%rdi),%eax   2: jne 0 (75 fc)   4: mov %eax,(%rsi)   6: ret
const uint8_t Loop[] = {0x8b, 0x07, 0x75, 0xfc, 0x89, 0x06, 0xc3};

TEST(AccessFlow, JumpTargetsAndJumps) {
  uintptr_t B = uintptr_t(Loop), E = B + sizeof(Loop);
  // After the jne: it may have been taken elsewhere, or not; the
  // instruction before the PC is the jump itself: no access known.
  EXPECT_EQ(instructionEndingAt(B + 4, B, E), 0u);
  EXPECT_EQ(instructionEndingAt(B + 2, B, E), B);
  // 0: mov (%rdi),%eax  2: jmp *%rax (ff e0)  4: mov %eax,(%rsi)  6: ret
  const uint8_t Indirect[] = {0x8b, 0x07, 0xff, 0xe0, 0x89, 0x06, 0xc3};
  uintptr_t IB = uintptr_t(Indirect);
  EXPECT_EQ(instructionEndingAt(IB + 2, IB, IB + sizeof(Indirect)), 0u);
  // 0: call rel32   5: mov %eax,(%rsi)   7: ret
  const uint8_t Call[] = {0xe8, 0, 0, 0, 0, 0x89, 0x06, 0xc3};
  uintptr_t CB = uintptr_t(Call);
  EXPECT_EQ(instructionEndingAt(CB + 5, CB, CB + sizeof(Call)), 0u);
  EXPECT_EQ(instructionEndingAt(CB + 7, CB, CB + sizeof(Call)), CB + 5);
}

TEST(AccessFlow, X86Branches) {
  uintptr_t Target = 0;
  const uint8_t Jcc32[] = {0x0f, 0x85, 0x10, 0, 0, 0};
  EXPECT_EQ(x86_64ControlFlow(Jcc32, 6, 0x1000, Target), CF_Jump);
  EXPECT_EQ(Target, 0x1016u);
  const uint8_t Ret[] = {0xc3};
  EXPECT_EQ(x86_64ControlFlow(Ret, 1, 0x1000, Target), CF_Return);
  const uint8_t Syscall[] = {0x0f, 0x05};
  EXPECT_EQ(x86_64ControlFlow(Syscall, 2, 0x1000, Target), CF_Return);
  const uint8_t CallMem[] = {0xff, 0x50, 0x08}; // call *8(%rax)
  EXPECT_EQ(x86_64ControlFlow(CallMem, 3, 0x1000, Target), CF_Call);
  const uint8_t NotrackJmp[] = {0x3e, 0xff, 0xe0}; // notrack jmp *%rax
  EXPECT_EQ(x86_64ControlFlow(NotrackJmp, 3, 0x1000, Target),
            CF_IndirectJump);
  const uint8_t Xbegin[] = {0xc7, 0xf8, 0x20, 0, 0, 0};
  EXPECT_EQ(x86_64ControlFlow(Xbegin, 6, 0x1000, Target), CF_Jump);
  EXPECT_EQ(Target, 0x1026u);
  const uint8_t Load[] = {0x8b, 0x07};
  EXPECT_EQ(x86_64ControlFlow(Load, 2, 0x1000, Target), CF_None);
}
#endif

#if defined(__aarch64__)
// 0: ldr x8, [x0]  4: add x8, x8, #1  8: str x8, [x0]  12: cbnz x8, 0
// 16: str x8, [x1]  20: ret
const uint32_t Words[] = {0xf9400008, 0x91000508, 0xf9000008,
                          0xb5ffffa8, 0xf9000028, 0xd65f03c0};

TEST(AccessFlow, AArch64) {
  uintptr_t B = uintptr_t(Words), E = B + sizeof(Words);
  EXPECT_EQ(instructionEndingAt(B + 8, B, E), B + 4);
  EXPECT_EQ(instructionEndingAt(B + 12, B, E), B + 8);
  // The cbnz's target is the first instruction; after it, the branch.
  EXPECT_EQ(instructionEndingAt(B + 16, B, E), 0u);
  uintptr_t Target = 0;
  EXPECT_EQ(aarch64ControlFlow(reinterpret_cast<const uint8_t *>(&Words[3]),
                               B + 12, Target),
            CF_Jump);
  EXPECT_EQ(Target, B);
  EXPECT_EQ(aarch64ControlFlow(reinterpret_cast<const uint8_t *>(&Words[5]),
                               B + 20, Target),
            CF_Return);
}
#endif

} // namespace
