//===- FutexWaitTest.cpp - The futex word of a wait a signal returns to ---===//
//
// futexWaitWordAtSignalContext on contexts built by hand: the code around
// the PC is written into a page of its own, and the registers say what the
// kernel left in them. After a call, x86-64: the C library's wrappers (MOV
// $202, %EAX, the argument set-up, SYSCALL) give the word in RDI for a
// wait's operation and result; anything else, 0; AArch64: always 0 (the
// call's result overwrites the word's register). At a call the kernel
// restarts (the PC on the call instruction, the call's number and
// arguments in their registers), on both: the word for a wait.
//
//===----------------------------------------------------------------------===//

#include "platform/platform.h"

#include "gtest/gtest.h"

#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>

using namespace pcmap::rt;

namespace {

class FutexWaitTest : public ::testing::Test {
protected:
  void SetUp() override {
    Page = static_cast<uint8_t *>(mmap(nullptr, 4096, PROT_READ | PROT_WRITE,
                                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    ASSERT_NE(Page, MAP_FAILED);
    memset(&UC, 0, sizeof(UC));
  }
  void TearDown() override { munmap(Page, 4096); }

  /// Places Code at Offset in the page, the PC at its end, and the
  /// registers a returning system call leaves.
  void returnedFrom(const uint8_t *Code, size_t Size, uintptr_t Word,
                    long Op, long Result, size_t Offset = 100) {
    memcpy(Page + Offset, Code, Size);
#if defined(__x86_64__)
    UC.uc_mcontext.gregs[REG_RIP] = greg_t(Page + Offset + Size);
    UC.uc_mcontext.gregs[REG_RDI] = greg_t(Word);
    UC.uc_mcontext.gregs[REG_RSI] = greg_t(Op);
    UC.uc_mcontext.gregs[REG_RAX] = greg_t(Result);
#elif defined(__aarch64__)
    UC.uc_mcontext.pc = uintptr_t(Page + Offset + Size);
    UC.uc_mcontext.regs[0] = uintptr_t(Result);
    UC.uc_mcontext.regs[1] = uintptr_t(Op);
    UC.uc_mcontext.regs[8] = 98;
    (void)Word;
#endif
  }
  /// Places Code at Offset in the page, the PC at its byte CallAt (a
  /// system call instruction), and the registers of a call the kernel
  /// restarts after a signal's handler: its number and arguments.
  void restartedAt(const uint8_t *Code, size_t Size, size_t CallAt, long Number,
                   uintptr_t Word, long Op, size_t Offset = 100) {
    memcpy(Page + Offset, Code, Size);
#if defined(__x86_64__)
    UC.uc_mcontext.gregs[REG_RIP] = greg_t(Page + Offset + CallAt);
    UC.uc_mcontext.gregs[REG_RAX] = greg_t(Number);
    UC.uc_mcontext.gregs[REG_RDI] = greg_t(Word);
    UC.uc_mcontext.gregs[REG_RSI] = greg_t(Op);
#elif defined(__aarch64__)
    UC.uc_mcontext.pc = uintptr_t(Page + Offset + CallAt);
    UC.uc_mcontext.regs[8] = uint64_t(Number);
    UC.uc_mcontext.regs[0] = uint64_t(Word);
    UC.uc_mcontext.regs[1] = uint64_t(Op);
#endif
  }
  uintptr_t word() {
    CallPC = 0;
    return futexWaitWordAtSignalContext(&UC, CallPC);
  }

  uint8_t *Page;
  ucontext_t UC;
  uintptr_t CallPC;
  int Lock = 0;
};

constexpr long kWait = 0, kWake = 1, kPrivate = 128, kWaitBitset = 9,
               kLockPI = 6;

#if defined(__x86_64__)

TEST_F(FutexWaitTest, AdjacentMoveAndSyscall) {
  const uint8_t Code[] = {0xB8, 0xCA, 0x00, 0x00, 0x00, 0x0F, 0x05};
  uintptr_t Word = uintptr_t(&Lock);
  returnedFrom(Code, sizeof(Code), Word, kWait | kPrivate, 0);
  EXPECT_EQ(word(), Word);
  EXPECT_EQ(CallPC, uintptr_t(Page + 100 + 5));
  // The results a wait returns: EAGAIN, ETIMEDOUT, EINTR.
  for (long Result : {-11L, -110L, -4L}) {
    returnedFrom(Code, sizeof(Code), Word, kWaitBitset, Result);
    EXPECT_EQ(word(), Word) << Result;
  }
  returnedFrom(Code, sizeof(Code), Word, kLockPI | kPrivate, 0);
  EXPECT_EQ(word(), Word);
}

TEST_F(FutexWaitTest, ArgumentSetUpBetween) {
  uintptr_t Word = uintptr_t(&Lock);
  // glibc 2.36's __lll_lock_wait: XOR $0x80, %SIL.
  const uint8_t LockWait[] = {0xB8, 0xCA, 0x00, 0x00, 0x00, 0x40,
                              0x80, 0xF6, 0x80, 0x0F, 0x05};
  returnedFrom(LockWait, sizeof(LockWait), Word, kWait | kPrivate, 0);
  EXPECT_EQ(word(), Word);
  // XOR $0x81, %DL; MOV %EDX, %ESI; MOV $0x7fffffff, %EDX.
  const uint8_t Three[] = {0xB8, 0xCA, 0x00, 0x00, 0x00, 0x80, 0xF2,
                           0x81, 0x89, 0xD6, 0xBA, 0xFF, 0xFF, 0xFF,
                           0x7F, 0x0F, 0x05};
  returnedFrom(Three, sizeof(Three), Word, kWait, -11);
  EXPECT_EQ(word(), Word);
  // AND $0x80, %ESI; XOR $0x81, %SIL.
  const uint8_t AndXor[] = {0xB8, 0xCA, 0x00, 0x00, 0x00, 0x81, 0xE6,
                            0x80, 0x00, 0x00, 0x00, 0x40, 0x80, 0xF6,
                            0x81, 0x0F, 0x05};
  returnedFrom(AndXor, sizeof(AndXor), Word, kWait, 0);
  EXPECT_EQ(word(), Word);
}

TEST_F(FutexWaitTest, NotAWait) {
  uintptr_t Word = uintptr_t(&Lock);
  const uint8_t Code[] = {0xB8, 0xCA, 0x00, 0x00, 0x00, 0x0F, 0x05};
  // A wake reads no word; a wake's result (threads woken) is no wait's.
  returnedFrom(Code, sizeof(Code), Word, kWake | kPrivate, 0);
  EXPECT_EQ(word(), 0u);
  returnedFrom(Code, sizeof(Code), Word, kWait, 3);
  EXPECT_EQ(word(), 0u);
  // A misaligned word is no futex.
  returnedFrom(Code, sizeof(Code), Word + 1, kWait, 0);
  EXPECT_EQ(word(), 0u);
  // Another system call: MOV $1, %EAX (write).
  const uint8_t Write[] = {0xB8, 0x01, 0x00, 0x00, 0x00, 0x0F, 0x05};
  returnedFrom(Write, sizeof(Write), Word, kWait, 0);
  EXPECT_EQ(word(), 0u);
  // No system call at all before the PC.
  const uint8_t Nop[] = {0xB8, 0xCA, 0x00, 0x00, 0x00, 0x90, 0x90};
  returnedFrom(Nop, sizeof(Nop), Word, kWait, 0);
  EXPECT_EQ(word(), 0u);
}

TEST_F(FutexWaitTest, UnknownInstructionBetween) {
  uintptr_t Word = uintptr_t(&Lock);
  // MOV %EDI, %EAX between: the call's number is no longer known.
  const uint8_t Code[] = {0xB8, 0xCA, 0x00, 0x00, 0x00,
                          0x89, 0xF8, 0x0F, 0x05};
  returnedFrom(Code, sizeof(Code), Word, kWait, 0);
  EXPECT_EQ(word(), 0u);
}

TEST_F(FutexWaitTest, ReadsOnlyThePCsPage) {
  uintptr_t Word = uintptr_t(&Lock);
  // The call at the start of the page: its move would be on the page
  // before, which is not read.
  const uint8_t Code[] = {0x0F, 0x05};
  returnedFrom(Code, sizeof(Code), Word, kWait, 0, /*Offset=*/0);
  EXPECT_EQ(word(), 0u);
}

TEST_F(FutexWaitTest, RestartedCall) {
  uintptr_t Word = uintptr_t(&Lock);
  // An untimed wait the signal came before: the kernel moves the PC back
  // to the SYSCALL and gives RAX the call's number again.
  const uint8_t Code[] = {0xB8, 0xCA, 0x00, 0x00, 0x00, 0x0F, 0x05};
  restartedAt(Code, sizeof(Code), 5, 202, Word, kWait | kPrivate);
  EXPECT_EQ(word(), Word);
  EXPECT_EQ(CallPC, uintptr_t(Page + 100 + 5));
  restartedAt(Code, sizeof(Code), 5, 202, Word, kWaitBitset);
  EXPECT_EQ(word(), Word);
  // Whatever wrapper set the registers: syscall(2)'s MOV %RDI, %RAX.
  const uint8_t Generic[] = {0x48, 0x89, 0xF8, 0x0F, 0x05};
  restartedAt(Generic, sizeof(Generic), 3, 202, Word, kWait);
  EXPECT_EQ(word(), Word);
  // Not a wait, another call, a misaligned word, no call at the PC.
  restartedAt(Code, sizeof(Code), 5, 202, Word, kWake | kPrivate);
  EXPECT_EQ(word(), 0u);
  restartedAt(Code, sizeof(Code), 5, 0, Word, kWait);
  EXPECT_EQ(word(), 0u);
  restartedAt(Code, sizeof(Code), 5, 202, Word + 2, kWait);
  EXPECT_EQ(word(), 0u);
  restartedAt(Code, sizeof(Code), 4, 202, Word, kWait);
  EXPECT_EQ(word(), 0u);
  // A SYSCALL whose second byte would be on the next page is not read.
  restartedAt(Code, 1, 0, 202, Word, kWait, /*Offset=*/4095);
  EXPECT_EQ(word(), 0u);
}

#elif defined(__aarch64__)

TEST_F(FutexWaitTest, RestartedCall) {
  // MOV X8, #98; SVC #0, the PC on the SVC: X0 is the word again.
  const uint32_t Code[] = {0xD2800C48u, 0xD4000001u};
  const auto *Bytes = reinterpret_cast<const uint8_t *>(Code);
  uintptr_t Word = uintptr_t(&Lock);
  restartedAt(Bytes, sizeof(Code), 4, 98, Word, kWait | kPrivate);
  EXPECT_EQ(word(), Word);
  EXPECT_EQ(CallPC, uintptr_t(Page + 100 + 4));
  restartedAt(Bytes, sizeof(Code), 4, 98, Word, kWake | kPrivate);
  EXPECT_EQ(word(), 0u);
  restartedAt(Bytes, sizeof(Code), 4, 63, Word, kWait);
  EXPECT_EQ(word(), 0u);
  restartedAt(Bytes, sizeof(Code), 0, 98, Word, kWait);
  EXPECT_EQ(word(), 0u);
}

TEST_F(FutexWaitTest, NeverAfterTheCallOnAArch64) {
  // MOV X8, #98; SVC #0: the word was in X0, which the result overwrote.
  const uint32_t Code[] = {0xD2800C48u, 0xD4000001u};
  returnedFrom(reinterpret_cast<const uint8_t *>(Code), sizeof(Code),
               uintptr_t(&Lock), kWait | kPrivate, 0);
  EXPECT_EQ(word(), 0u);
}

#endif

} // namespace
