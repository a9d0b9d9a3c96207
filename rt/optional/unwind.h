//===- unwind.h - Unwinding with the call frame information ----*- C++ -*-===//
//
// One step of a stack walk from a frame to its caller's, by the rules the
// compiler wrote in .eh_frame, so that code without frame pointers (the
// default of every compiler at -O2) has callers too. The object's
// .eh_frame_hdr, the sorted index the linker prepares (PT_GNU_EH_FRAME),
// finds the frame description entry (FDE) in a binary search; the step
// interprets its CFI program up to the PC, as LLVM libunwind's DwarfParser
// does, but bounded and over a fixed set of registers: no allocation, no
// lock, no system call, a few hundred bytes of stack. Async-signal-safe.
//
// DWARF expressions (PLT entries, signal trampolines, stack-realigning
// prologues write them) are evaluated over the operations call frames use;
// what it does not follow ends the walk: a stack is right or shorter,
// never wrong.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_RT_UNWIND_H
#define PCMAP_RT_UNWIND_H

#include "platform/platform.h"

#include <stddef.h>
#include <stdint.h>

namespace pcmap {
namespace rt {

/// The registers of one frame, by DWARF number (platform.h's kDwarf*), and
/// which of them are known: all in the interrupted frame, the ones its
/// callees saved or left alone in a caller's.
struct UnwindRegisters {
  uintptr_t Value[kDwarfRegisters];
  uint64_t Known; // bit I: Value[I] is the frame's register I
  uintptr_t PC;
  /// PC is a return address (every frame but the interrupted one and the
  /// one a signal frame interrupted), whose call lies just before it: the
  /// rules of PC - 1 apply.
  bool PCIsReturnAddress;

  bool known(unsigned R) const {
    return R < kDwarfRegisters && (Known >> R) & 1;
  }
  void set(unsigned R, uintptr_t V) {
    Value[R] = V;
    Known |= uint64_t(1) << R;
  }
};
static_assert(kDwarfRegisters <= 64, "Known has a bit per register");

/// The memory a walk may read: a word at Address, false where it may not
/// (outside the thread's stack, an unmapped page).
struct StackMemory {
  bool (*Read)(void *Data, uintptr_t Address, uintptr_t &Value);
  void *Data;
  bool read(uintptr_t Address, uintptr_t &Value) const {
    return Read(Data, Address, Value);
  }
};

enum class UnwindStep {
  Caller,    ///< Regs now holds the caller's frame
  Outermost, ///< the CFI says there is no caller (_start, clone, start_thread)
  NoInfo,    ///< no loaded object describes the code at the PC
  Failed,    ///< described, but not in a form this unwinder follows
};

/// Steps Regs to the caller's frame; Failed and NoInfo leave Regs as they
/// were. FunctionStart, if given, receives the start of the function the
/// frame stepped from is in, where an FDE describes it (all but NoInfo).
UnwindStep unwindStep(UnwindRegisters &Regs, const StackMemory &Stack,
                      uintptr_t *FunctionStart = nullptr);

/// The same with the index of the object holding the PC, for tests and for
/// code that found the index another way.
UnwindStep unwindStepWithIndex(const uint8_t *Index, UnwindRegisters &Regs,
                               const StackMemory &Stack,
                               uintptr_t *FunctionStart = nullptr);

/// The function that holds PC as its FDE bounds it, [Start, End): false if
/// no loaded object's call frame information covers PC. What a return
/// address must pass before a walk accepts it (with followsCall).
bool callFrameInfoCovers(uintptr_t PC, uintptr_t &Start, uintptr_t &End);

/// The same, over one object's index (.eh_frame_hdr at Index), for tests
/// and for code that found the index another way.
bool findFunctionInIndex(const uint8_t *Index, uintptr_t PC, uintptr_t &Start,
                         uintptr_t &End);

} // namespace rt
} // namespace pcmap

#endif // PCMAP_RT_UNWIND_H
