//===- platform/linux_x86_64.cpp - Linux on x86-64 ------------------------===//

#include "platform/platform.h"

#if defined(__x86_64__)

#include <ucontext.h>

namespace pcmap {
namespace rt {

uintptr_t signalContextPC(const void *Context) {
  auto *UC = static_cast<const ucontext_t *>(Context);
  return uintptr_t(UC->uc_mcontext.gregs[REG_RIP]);
}

uintptr_t signalContextSP(const void *Context) {
  auto *UC = static_cast<const ucontext_t *>(Context);
  return uintptr_t(UC->uc_mcontext.gregs[REG_RSP]);
}

// A call pushes its return address on the stack, and calls have several
// lengths; x86-64 has no outline-atomic helpers (atomics are one
// instruction).
uintptr_t signalContextReturnAddress(const void *) { return 0; }
uintptr_t callSiteOfReturnAddress(uintptr_t) { return 0; }
size_t outlineHelperSize(uintptr_t) { return 0; }

} // namespace rt
} // namespace pcmap

#endif // __x86_64__
