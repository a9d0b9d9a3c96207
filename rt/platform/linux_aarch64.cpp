//===- platform/linux_aarch64.cpp - Linux on AArch64 ----------------------===//

#include "platform/platform.h"

#if defined(__aarch64__)

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

} // namespace rt
} // namespace pcmap

#endif // __aarch64__
