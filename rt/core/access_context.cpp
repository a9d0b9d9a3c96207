//===- access_context.cpp - The access an interrupted thread makes next ---===//

#include "core/access.h"

#include "platform/platform.h"

#include "pcmap/pcmap.h"

#include <string.h>

namespace pcmap {
namespace rt {

namespace {

/// Decodes the instruction at At and evaluates its address with the
/// registers of Context, as they were when it started at At.
AccessDecode accessAt(const void *Context, uintptr_t At, AccessForm &Form,
                      uintptr_t &Address) {
  uint8_t Bytes[16];
  size_t Avail;
  pcmap_function F;
  if (pcmap_lookup_function(At, &F) && At >= F.start && At - F.start < F.size) {
    // A function of the tables: the code of a loaded object, which
    // instructionEndingAt reads in place too. No system call (the copy
    // below costs about 1 us).
    Avail = F.start + F.size - At;
    Avail = Avail < sizeof(Bytes) ? Avail : sizeof(Bytes);
    memcpy(Bytes, reinterpret_cast<const void *>(At), Avail);
  } else {
    // Elsewhere the bytes are copied, never read in place: the code may
    // have been unmapped or be execute-only.
    Avail = copyMemorySafely(At, Bytes, sizeof(Bytes));
  }
#if defined(__x86_64__)
  AccessDecode Result = decodeX86_64Access(Bytes, Avail, Form);
#elif defined(__aarch64__)
  AccessDecode Result = decodeAArch64Access(Bytes, Avail, Form);
#endif
  if (Result != AD_Memory)
    return Result;
  uintptr_t PC = signalContextPC(Context);
  if (At != PC && (At + Form.Length != PC || Form.WritesAddressRegister))
    return AD_Unknown;
  uintptr_t Regs[kDwarfRegisters];
  signalContextRegisters(Context, Regs);
#if defined(__x86_64__)
  X86_64Registers X86 = {Regs, At, 0, 0};
  if (Form.Segment == AS_FS)
    X86.FSBase = threadSegmentBase(false);
  else if (Form.Segment == AS_GS)
    X86.GSBase = threadSegmentBase(true);
  return evaluateX86_64Access(Form, X86, Address) ? AD_Memory : AD_Unknown;
#elif defined(__aarch64__)
  Address = evaluateAArch64Access(Form, Regs, At);
  return AD_Memory;
#endif
}

} // namespace

AccessDecode accessAtSignalContext(const void *Context, AccessForm &Form,
                                   uintptr_t &Address) {
  return accessAt(Context, signalContextPC(Context), Form, Address);
}

AccessDecode accessEndingAtSignalContext(const void *Context, uintptr_t At,
                                         AccessForm &Form, uintptr_t &Address) {
  return accessAt(Context, At, Form, Address);
}

uintptr_t instructionEndingAt(uintptr_t PC, uintptr_t Begin, uintptr_t End) {
  if (PC <= Begin || PC >= End || End - Begin > kMaxCodeScan)
    return 0;
  uintptr_t Before = 0;
  for (uintptr_t At = Begin; At < End;) {
    const auto *Bytes = reinterpret_cast<const uint8_t *>(At);
    size_t Avail = End - At < 16 ? size_t(End - At) : 16;
    AccessForm Form;
    uintptr_t Target = 0;
#if defined(__x86_64__)
    if (decodeX86_64Access(Bytes, Avail, Form) == AD_Unknown)
      return 0;
    ControlFlow Flow = x86_64ControlFlow(Bytes, Form.Length, At, Target);
#elif defined(__aarch64__)
    if (Avail < 4)
      return 0;
    // A load or store the decoder does not know is no jump: go on.
    Form.Length = 4;
    ControlFlow Flow = aarch64ControlFlow(Bytes, At, Target);
#endif
    if (Flow == CF_IndirectJump || (Flow == CF_Jump && Target == PC))
      return 0;
    if (At + Form.Length == PC) {
      if (Flow != CF_None)
        return 0;
      Before = At;
    }
    At += Form.Length;
  }
  return Before;
}

uintptr_t threadPointer() {
  uintptr_t TP;
#if defined(__x86_64__)
  __asm__("movq %%fs:0, %0" : "=r"(TP));
#elif defined(__aarch64__)
  __asm__("mrs %0, tpidr_el0" : "=r"(TP));
#endif
  return TP;
}

} // namespace rt
} // namespace pcmap
