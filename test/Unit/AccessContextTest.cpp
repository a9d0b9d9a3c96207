//===- AccessContextTest.cpp - The access at a signal context's PC --------===//
//
// accessAtSignalContext in a real SIGSEGV handler: an instruction of known
// form faults on a PROT_NONE page, and the handler's answer must be the
// address the kernel reports (si_addr) and the form's size and kind; the
// handler then steps over the instruction. x86-64: a store through a base
// and displacement, a RIP-relative load, a locked RMW through base and
// index; AArch64: a store with an offset, a load with a shifted index, a
// post-indexed load.
//
//===----------------------------------------------------------------------===//

#include "core/access.h"

#include "gtest/gtest.h"

#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

using namespace pcmap::rt;

namespace {

struct Seen {
  AccessDecode Result;
  AccessForm Form;
  uintptr_t Address, FaultAddress;
};
Seen Last;

void onFault(int, siginfo_t *Info, void *Context) {
  Last.Result = accessAtSignalContext(Context, Last.Form, Last.Address);
  Last.FaultAddress = uintptr_t(Info->si_addr);
  auto *UC = static_cast<ucontext_t *>(Context);
  uint8_t Length = Last.Result == AD_Unknown ? 0 : Last.Form.Length;
  if (!Length)
    _exit(3); // cannot step over it: the test fails without looping
#if defined(__x86_64__)
  UC->uc_mcontext.gregs[REG_RIP] += Length;
#elif defined(__aarch64__)
  UC->uc_mcontext.pc += Length;
#endif
}

} // namespace

/// A page of the binary's own data, addressed RIP-relative by name.
extern "C" {
alignas(4096) char PCMapAccessTestGuarded[2 * 4096]
    __attribute__((visibility("hidden")));
}

namespace {
char *const Guarded = PCMapAccessTestGuarded;

class AccessContextTest : public ::testing::Test {
protected:
  void SetUp() override {
    struct sigaction A;
    memset(&A, 0, sizeof(A));
    A.sa_sigaction = onFault;
    A.sa_flags = SA_SIGINFO;
    ASSERT_EQ(sigaction(SIGSEGV, &A, &Old), 0);
    Page = static_cast<char *>(mmap(nullptr, 4096, PROT_NONE,
                                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    ASSERT_NE(Page, MAP_FAILED);
    ASSERT_EQ(mprotect(Guarded + 4096, 4096, PROT_NONE), 0);
    memset(&Last, 0, sizeof(Last));
  }
  void TearDown() override {
    mprotect(Guarded + 4096, 4096, PROT_READ | PROT_WRITE);
    munmap(Page, 4096);
    sigaction(SIGSEGV, &Old, nullptr);
  }
  void expect(uintptr_t Address, uint8_t Size, uint8_t Kind) {
    ASSERT_EQ(Last.Result, AD_Memory);
    EXPECT_EQ(Last.Address, Address);
    EXPECT_EQ(Last.Address, Last.FaultAddress);
    EXPECT_EQ(Last.Form.Size, Size);
    EXPECT_EQ(Last.Form.Kind, Kind);
  }
  struct sigaction Old;
  char *Page = nullptr;
};

#if defined(__x86_64__)

TEST_F(AccessContextTest, BaseAndDisplacement) {
  asm volatile("movl $1, 8(%0)" : : "r"(Page) : "memory");
  expect(uintptr_t(Page) + 8, 4, AK_Write);
}

TEST_F(AccessContextTest, RipRelative) {
  int Value;
  asm volatile("movl PCMapAccessTestGuarded+4096+12(%%rip), %0"
               : "=r"(Value)
               :
               : "memory");
  (void)Value;
  expect(uintptr_t(Guarded) + 4096 + 12, 4, AK_Read);
}

TEST_F(AccessContextTest, LockedWithIndex) {
  long Index = 5, One = 1;
  asm volatile("lock xaddq %0, 16(%1,%2,8)"
               : "+r"(One)
               : "r"(Page), "r"(Index)
               : "memory");
  expect(uintptr_t(Page) + 16 + 5 * 8, 8, AK_ReadWrite);
  EXPECT_TRUE(Last.Form.Locked);
}

#elif defined(__aarch64__)

TEST_F(AccessContextTest, BaseAndDisplacement) {
  asm volatile("str wzr, [%0, #8]" : : "r"(Page) : "memory");
  expect(uintptr_t(Page) + 8, 4, AK_Write);
}

TEST_F(AccessContextTest, ShiftedIndex) {
  long Value, Index = 5;
  asm volatile("ldr %0, [%1, %2, lsl #3]"
               : "=r"(Value)
               : "r"(Page), "r"(Index)
               : "memory");
  (void)Value;
  expect(uintptr_t(Page) + 40, 8, AK_Read);
}

TEST_F(AccessContextTest, PostIndex) {
  long Value;
  char *Base = Page;
  asm volatile("ldr %0, [%1], #16" : "=r"(Value), "+r"(Base) : : "memory");
  (void)Value;
  expect(uintptr_t(Page), 8, AK_Read);
  EXPECT_TRUE(Last.Form.WritesAddressRegister);
}

#endif

} // namespace
