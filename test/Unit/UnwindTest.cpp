//===- UnwindTest.cpp - Unwinding with the call frame information ---------===//
//
// Built without frame pointers (test/Unit/CMakeLists.txt): the walk from a
// signal in a chain of calls reaches each caller and the thread's start by
// the call frame information alone. A hand-made .eh_frame checks the rules
// the compilers' output here may not reach: a CFA computed by a DWARF
// expression (a PLT's), the outermost frame.
//
//===----------------------------------------------------------------------===//

#include "optional/unwind.h"
#include "optional/stacks.h"
#include "platform/hooks.h"

#include "gtest/gtest.h"

#include <signal.h>
#include <string.h>
#include <vector>

using namespace pcmap::rt;

namespace {

struct Captured {
  uintptr_t Frames[64];
  unsigned Depth;
  bool ReachedStart;
} Walk;

void onSignal(int, siginfo_t *, void *Context) {
  Walk.Depth =
      captureStack(Context, signalContextPC(Context), StackBounds{0, 0},
                   Walk.Frames, 64, &Walk.ReachedStart);
}

extern "C" __attribute__((noinline)) void unwindTestInner() {
  raise(SIGUSR2);
  asm volatile(""); // not a tail call
}
extern "C" __attribute__((noinline)) void unwindTestMiddle() {
  unwindTestInner();
  asm volatile("");
}
extern "C" __attribute__((noinline)) void unwindTestOuter() {
  unwindTestMiddle();
  asm volatile("");
}

/// The start of the function that holds PC, by its FDE; 0 if none.
uintptr_t functionOf(uintptr_t PC) {
  uintptr_t Start, End;
  return callFrameInfoCovers(PC, Start, End) ? Start : 0;
}

TEST(UnwindTest, WalksCodeWithoutFramePointersToTheThreadsStart) {
  noteUnwindIndexes();
  struct sigaction Action = {}, Old;
  Action.sa_sigaction = onSignal;
  Action.sa_flags = SA_SIGINFO;
  ASSERT_EQ(sigaction(SIGUSR2, &Action, &Old), 0);
  Walk = {};
  unwindTestOuter();
  sigaction(SIGUSR2, &Old, nullptr);

  std::vector<uintptr_t> Functions;
  for (unsigned I = 0; I < Walk.Depth; ++I)
    Functions.push_back(functionOf(Walk.Frames[I]));
  // Every frame is in described code; the three callers in their order,
  // each once, after the C library's raise.
  for (uintptr_t F : Functions)
    EXPECT_NE(F, 0u);
  auto At = [&](void (*Fn)()) {
    for (unsigned I = 0; I < Functions.size(); ++I)
      if (Functions[I] == reinterpret_cast<uintptr_t>(Fn))
        return int(I);
    return -1;
  };
  int Inner = At(unwindTestInner), Middle = At(unwindTestMiddle),
      Outer = At(unwindTestOuter);
  ASSERT_GT(Inner, 0);
  EXPECT_EQ(Middle, Inner + 1);
  EXPECT_EQ(Outer, Inner + 2);
  // The test body, gtest, main, __libc_start_main, _start: the end.
  EXPECT_TRUE(Walk.ReachedStart);
  EXPECT_LT(Walk.Depth, 64u);
}

/// The walks remember the rules of the PCs they step from (unwind.cpp,
/// StepCache): a second walk from the same place, taken from the
/// remembered rules, finds the same frames as the first, which looked them
/// up; and so does a third after a dlopen or dlclose forgot them.
TEST(UnwindTest, WalksFromRememberedRulesFindTheSameFrames) {
  noteUnwindIndexes();
  struct sigaction Action = {}, Old;
  Action.sa_sigaction = onSignal;
  Action.sa_flags = SA_SIGINFO;
  ASSERT_EQ(sigaction(SIGUSR2, &Action, &Old), 0);
  std::vector<std::vector<uintptr_t>> Walks;
  for (int I = 0; I < 3; ++I) {
    if (I == 2)
      announce(Event::ObjectsChanged);
    Walk = {};
    unwindTestOuter();
    Walks.emplace_back(Walk.Frames, Walk.Frames + Walk.Depth);
    EXPECT_TRUE(Walk.ReachedStart);
  }
  sigaction(SIGUSR2, &Old, nullptr);
  ASSERT_GT(Walks[0].size(), 4u);
  EXPECT_EQ(Walks[1], Walks[0]);
  EXPECT_EQ(Walks[2], Walks[0]);
}

#if defined(__x86_64__)
/// A hand-made .eh_frame_hdr and .eh_frame, in one buffer: two FDEs, the
/// first a PLT's (code at Code, which the unwinder never reads), the second
/// an outermost frame's (at Code + 0x1000).
struct Tables {
  std::vector<uint8_t> Bytes;
  uintptr_t Code;
  void u8(uint8_t V) { Bytes.push_back(V); }
  void u32(uint32_t V) {
    for (int I = 0; I < 4; ++I)
      u8(uint8_t(V >> (8 * I)));
  }
  void u64(uint64_t V) {
    u32(uint32_t(V));
    u32(uint32_t(V >> 32));
  }
  void put32(size_t At, uint32_t V) { memcpy(&Bytes[At], &V, 4); }
};

Tables makeTables() {
  Tables T;
  T.Bytes.reserve(256); // never reallocated: the FDEs' places are final
  T.Code = (uintptr_t(T.Bytes.data()) + 0x10000) & ~uintptr_t(0xfff);
  // .eh_frame_hdr: version, eh_frame_ptr pcrel|sdata4, count udata4, table
  // datarel|sdata4; then two (location, FDE) pairs filled in below.
  T.u8(1), T.u8(0x1b), T.u8(0x03), T.u8(0x3b);
  size_t FramePtr = T.Bytes.size();
  T.u32(0);
  T.u32(2);
  size_t Table = T.Bytes.size();
  for (int I = 0; I < 4; ++I)
    T.u32(0);
  size_t CIE = T.Bytes.size();
  T.put32(FramePtr, uint32_t(CIE - FramePtr));
  // CIE: "zR", code 1, data -8, return column 16, FDEs' pointers absolute;
  // CFA = RSP + 8, the return address at CFA - 8.
  std::vector<uint8_t> CIEBody = {0,    0,  0, 0,    1,    'z', 'R', 0,    1,
                                  0x78, 16, 1, 0x00, 0x0c, 7,   8,   0x90, 1};
  T.u32(uint32_t(CIEBody.size()));
  T.Bytes.insert(T.Bytes.end(), CIEBody.begin(), CIEBody.end());
  auto FDE = [&](uint64_t Start, const std::vector<uint8_t> &Program) {
    size_t At = T.Bytes.size();
    T.u32(uint32_t(4 + 16 + 1 + Program.size()));
    T.u32(uint32_t(T.Bytes.size() - CIE));
    T.u64(Start);
    T.u64(0x100);
    T.u8(0); // no augmentation data
    T.Bytes.insert(T.Bytes.end(), Program.begin(), Program.end());
    return At;
  };
  // The PLT's CFA, as GNU ld writes it: RSP + 8, 8 more from the 11th
  // byte of each 16-byte entry (after its push).
  size_t PLT = FDE(T.Code, {0x0f, 11, 0x77, 8, 0x80, 0, 0x3f, 0x1a, 0x3b, 0x2a,
                            0x33, 0x24, 0x22});
  size_t Outermost = FDE(T.Code + 0x1000, {0x07, 16}); // DW_CFA_undefined RIP
  T.u32(0);                                            // the terminator
  T.put32(Table, uint32_t(T.Code - uintptr_t(&T.Bytes[0])));
  T.put32(Table + 4, uint32_t(PLT));
  T.put32(Table + 8, uint32_t(T.Code + 0x1000 - uintptr_t(&T.Bytes[0])));
  T.put32(Table + 12, uint32_t(Outermost));
  return T;
}

bool readWord(void *, uintptr_t Address, uintptr_t &Value) {
  memcpy(&Value, reinterpret_cast<const void *>(Address), sizeof(Value));
  return true;
}

TEST(UnwindTest, EvaluatesACFAExpression) {
  Tables T = makeTables();
  uintptr_t Stack[2] = {0x1111, 0x2222};
  StackMemory Memory{readWord, nullptr};
  for (uintptr_t PC : {T.Code + 5, T.Code + 12}) {
    UnwindRegisters Regs = {};
    Regs.set(7, uintptr_t(&Stack[0]));
    Regs.set(16, PC);
    Regs.PC = PC;
    ASSERT_EQ(unwindStepWithIndex(T.Bytes.data(), Regs, Memory),
              UnwindStep::Caller);
    bool BeforePush = PC == T.Code + 5;
    EXPECT_EQ(Regs.PC, BeforePush ? 0x1111u : 0x2222u);
    EXPECT_EQ(Regs.Value[7], uintptr_t(&Stack[BeforePush ? 1 : 2]));
    EXPECT_TRUE(Regs.PCIsReturnAddress);
  }
  UnwindRegisters Regs = {};
  Regs.set(7, uintptr_t(&Stack[0]));
  Regs.PC = T.Code + 0x1004;
  EXPECT_EQ(unwindStepWithIndex(T.Bytes.data(), Regs, Memory),
            UnwindStep::Outermost);
  Regs.PC = T.Code + 0x2000; // past both FDEs
  EXPECT_EQ(unwindStepWithIndex(T.Bytes.data(), Regs, Memory),
            UnwindStep::NoInfo);
}
#endif

} // namespace
