//===- platform/aarch64_outline_helpers.cpp - A module's helpers ----------===//
//
// Not part of the runtime: the drivers link this object (whole, from
// libpcmap_rt_outline.a) into every AArch64 executable and shared object
// they build. Its constructor tells the runtime where the module's
// outline-atomic helpers are (include/pcmap/Format.h, "AArch64 outline
// atomics"), so that the runtime reads no symbol table. The references are
// weak and hidden: each binds to the module's own copy of a helper, which
// the module's calls pulled out of libgcc or compiler-rt, and is null for
// a helper no call pulled in (a weak reference extracts nothing from an
// archive).
//
//===----------------------------------------------------------------------===//

#include "pcmap/Format.h"

#include <stdint.h>

// Format.h's order: operation, then size, then order.
#define PCMAP_ORDERS(op, n)                                                    \
  H(op##n##_relax)                                                             \
  H(op##n##_acq) H(op##n##_rel) H(op##n##_acq_rel) H(op##n##_sync)
#define PCMAP_NO_ORDERS N N N N N
#define PCMAP_SIZES(op)                                                        \
  PCMAP_ORDERS(op, 1)                                                          \
  PCMAP_ORDERS(op, 2) PCMAP_ORDERS(op, 4) PCMAP_ORDERS(op, 8)
#define PCMAP_HELPERS                                                          \
  PCMAP_SIZES(cas)                                                             \
  PCMAP_ORDERS(cas, 16) PCMAP_SIZES(swp) PCMAP_NO_ORDERS PCMAP_SIZES(ldadd)    \
  PCMAP_NO_ORDERS PCMAP_SIZES(ldclr)                                           \
  PCMAP_NO_ORDERS                                                              \
  PCMAP_SIZES(ldeor) PCMAP_NO_ORDERS PCMAP_SIZES(ldset) PCMAP_NO_ORDERS

#define H(name)                                                                \
  extern "C"                                                                   \
      __attribute__((weak, visibility("hidden"))) void __aarch64_##name();
#define N
PCMAP_HELPERS
#undef H
#undef N

namespace {

#define H(name) reinterpret_cast<const void *>(&__aarch64_##name),
#define N nullptr,
const void *const Helpers[] = {PCMAP_HELPERS};
#undef H
#undef N
constexpr uint32_t NumHelpers = sizeof(Helpers) / sizeof(Helpers[0]);
static_assert(NumHelpers == pcmap::format::kNumOutlineHelpers,
              "one slot per helper of Format.h");

} // namespace

// Weak: a module linked without the runtime still runs.
extern "C" __attribute__((weak)) void
__pcmap_outline_atomics_add(const void *const *Helpers, uint32_t Count);
extern "C" __attribute__((weak)) void
__pcmap_outline_atomics_del(const void *const *Helpers, uint32_t Count);

__attribute__((constructor)) static void registerHelpers() {
  if (__pcmap_outline_atomics_add)
    __pcmap_outline_atomics_add(Helpers, NumHelpers);
}

__attribute__((destructor)) static void unregisterHelpers() {
  if (__pcmap_outline_atomics_del)
    __pcmap_outline_atomics_del(Helpers, NumHelpers);
}
