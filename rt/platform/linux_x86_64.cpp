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

} // namespace rt
} // namespace pcmap

#endif // __x86_64__
