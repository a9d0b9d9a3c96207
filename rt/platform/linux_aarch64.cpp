//===- platform/linux_aarch64.cpp - Linux on AArch64 ----------------------===//
//
// What the runtime knows of AArch64: the registers of a signal context,
// calls (BL and BLR are 4 bytes), and the code of the outline-atomic
// helpers (Format.h). A third architecture is one more file like this one
// (and linux_x86_64.cpp).
//
//===----------------------------------------------------------------------===//

#include "platform/platform.h"

#if defined(__aarch64__)

#include <string.h>
#include <ucontext.h>

namespace pcmap {
namespace rt {

uintptr_t signalContextPC(const void *Context) {
  auto *UC = static_cast<const ucontext_t *>(Context);
  return uintptr_t(UC->uc_mcontext.pc);
}

uintptr_t signalContextSP(const void *Context) {
  auto *UC = static_cast<const ucontext_t *>(Context);
  return uintptr_t(UC->uc_mcontext.sp);
}

uintptr_t signalContextReturnAddress(const void *Context) {
  auto *UC = static_cast<const ucontext_t *>(Context);
  return uintptr_t(UC->uc_mcontext.regs[30]); // x30, the link register
}

uintptr_t callSiteOfReturnAddress(uintptr_t ReturnAddress) {
  return ReturnAddress >= 4 ? ReturnAddress - 4 : 0;
}

/// libgcc's and compiler-rt's helpers (lse.S) are 11 to 16 instructions:
/// an optional BTI, a test of __aarch64_have_lse_atomics, the LSE
/// instruction and RET, then the LL/SC loop and RET. The helper ends after
/// its second RET.
size_t outlineHelperSize(uintptr_t Entry) {
  constexpr uint32_t kRet = 0xd65f03c0; // ret (x30)
  constexpr unsigned kMaxInstructions = 32;
  if (!Entry || Entry % 4)
    return 0;
  unsigned Rets = 0;
  for (unsigned I = 0; I < kMaxInstructions; ++I) {
    uint32_t Insn;
    memcpy(&Insn, reinterpret_cast<const void *>(Entry + 4 * I), 4);
    if (Insn == kRet && ++Rets == 2)
      return 4 * (I + 1);
  }
  return 0;
}

} // namespace rt
} // namespace pcmap

#endif // __aarch64__
