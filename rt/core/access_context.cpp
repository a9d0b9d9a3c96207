//===- access_context.cpp - The access an interrupted thread makes next ---===//

#include "core/access.h"

#include "platform/platform.h"

namespace pcmap {
namespace rt {

AccessDecode accessAtSignalContext(const void *Context, AccessForm &Form,
                                   uintptr_t &Address) {
  uintptr_t PC = signalContextPC(Context);
  uint8_t Bytes[16];
  // The bytes are copied, never read in place: the code may have been
  // unmapped or be execute-only.
  size_t Avail = copyMemorySafely(PC, Bytes, sizeof(Bytes));
  uintptr_t Regs[kDwarfRegisters];
  signalContextRegisters(Context, Regs);
#if defined(__x86_64__)
  AccessDecode Result = decodeX86_64Access(Bytes, Avail, Form);
  if (Result != AD_Memory)
    return Result;
  X86_64Registers X86 = {Regs, PC, 0, 0};
  if (Form.Segment == AS_FS)
    X86.FSBase = threadSegmentBase(false);
  else if (Form.Segment == AS_GS)
    X86.GSBase = threadSegmentBase(true);
  return evaluateX86_64Access(Form, X86, Address) ? AD_Memory : AD_Unknown;
#elif defined(__aarch64__)
  AccessDecode Result = decodeAArch64Access(Bytes, Avail, Form);
  if (Result == AD_Memory)
    Address = evaluateAArch64Access(Form, Regs, PC);
  return Result;
#endif
}

} // namespace rt
} // namespace pcmap
