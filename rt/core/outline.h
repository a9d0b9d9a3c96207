//===- outline.h - Outline-atomic helpers ------------------------*- C++
//-*-===//
//
// AArch64's outline-atomic helpers (include/pcmap/Format.h, "AArch64
// outline atomics"): each module's constructor passes the addresses of the
// helpers it links; their extents (platform.h) and what each does (its
// place in the list) make an index of their own, published as the module
// index is (publication.h). The queries of pcmap.h fall back on it for a PC
// that no module's table knows.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_RT_OUTLINE_H
#define PCMAP_RT_OUTLINE_H

#include "pcmap/pcmap.h"

#include <stddef.h>
#include <stdint.h>

namespace pcmap {
namespace rt {

/// A helper's code, [Start, End), and its number in Format.h's list.
struct OutlineHelper {
  uintptr_t Start, End;
  uint32_t Number;
};

/// The helper whose code holds PC. Async-signal-safe.
bool findOutlineHelper(uintptr_t PC, OutlineHelper &Out);
/// The helper's atomic (flag PCMAP_ATOMIC_OUTLINE_HELPER) and function
/// (source PCMAP_SOURCE_OUTLINE_HELPER). Async-signal-safe.
void fillOutlineAtomic(const OutlineHelper &H, pcmap_atomic &Out);
void fillOutlineFunction(const OutlineHelper &H, pcmap_function &Out);
/// The atomic of the call that entered the helper holding PC, given the
/// return address (0: unknown): the call site's own entry, with flag
/// PCMAP_ATOMIC_OUTLINE_CALL. Async-signal-safe.
bool lookupOutlineCallSite(uintptr_t PC, uintptr_t ReturnAddress,
                           pcmap_atomic &Out);
/// The PC a sample or a report attributes the context to: the call site of
/// an outline-atomic helper when the context is inside one and holds the
/// return address, else its PC. Async-signal-safe.
uintptr_t attributedPC(const void *SignalContext);

/// The helper's name, "__aarch64_ldadd8_acq_rel", for the atomic of an
/// outline helper (the descriptor tells which). Null if it is none.
bool outlineHelperName(const pcmap_atomic &A, char *Buffer, size_t Size);

} // namespace rt
} // namespace pcmap

#endif // PCMAP_RT_OUTLINE_H
