//===- call_site.h - What the code at a stack map record is -----*- C++ -*-===//
//
// One definition per architecture, from its code: x86_call.cpp (x86-64),
// aarch64_call.cpp (AArch64). Pure functions of the code bytes.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_RT_CALL_SITE_H
#define PCMAP_RT_CALL_SITE_H

#include "pcmap/StackMap.h"

#include <stddef.h>
#include <stdint.h>

namespace pcmap {
namespace rt {

struct CallSite {
  stackmap::CallSiteKind Kind; // the one numbering (include/pcmap/StackMap.h)
  uint32_t Size;               // bytes
};

/// The call site of a stack map record at PC: a patchpoint's region that
/// starts there (ending at Hi at the latest: the next record or the
/// function's end), or a call that ends there (starting at Lo at the
/// earliest: the function's start), or none. A direct call's target must
/// lie in [CodeLo, CodeHi), the module's code.
CallSite callSiteAt(uintptr_t Lo, uintptr_t PC, uintptr_t Hi, uintptr_t CodeLo,
                    uintptr_t CodeHi);

} // namespace rt
} // namespace pcmap

#endif // PCMAP_RT_CALL_SITE_H
