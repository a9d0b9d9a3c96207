//===- stacks.cpp - The tracer's call stacks ------------------------------===//

#include "optional/stacks.h"

#include "optional/unwind.h"

#include "core/mapped.h"

#include "platform/platform.h"

#include "pcmap/TraceDump.h"
#include "pcmap/pcmap.h"

#include <string.h>

namespace pcmap {
namespace rt {

namespace {

/// How far above the stack pointer frames may lie when the thread's stack
/// is not known (a fiber's, a thread the runtime did not see start).
constexpr uintptr_t kUnknownStackReach = 1 << 20;

/// The memory a walk may read: [Lo, Hi), and, when the stack is not known,
/// the mapped pages checked so far.
struct Window {
  uintptr_t Lo, Hi;
  bool CheckPages;
  uintptr_t CheckedUpTo; // pages below this one are mapped

  bool readable(uintptr_t Address, size_t Size) {
    if (Address < Lo || Address + Size > Hi || Address + Size < Address)
      return false;
    if (!CheckPages)
      return true;
    while (CheckedUpTo < Address + Size) {
      if (!pageIsMapped(CheckedUpTo))
        return false;
      CheckedUpTo = (CheckedUpTo | 4095) + 1;
    }
    return true;
  }
  /// A word of another frame: under ASan, that may be a redzone, which
  /// the walk reads on purpose (not instrumented, not inlined into code
  /// that is).
  __attribute__((no_sanitize("address", "hwaddress"), noinline)) uintptr_t
  word(uintptr_t Address) const {
    return *reinterpret_cast<const uintptr_t *>(Address);
  }
};

/// From Top, the lowest address of the interrupted code's stack that a
/// signal leaves alone (x86-64's red zone is below the stack pointer: an
/// epilogue's popped registers are still there, and the call frame
/// information may ask for them at the function's last instruction).
Window windowFor(uintptr_t SP, uintptr_t Top, const StackBounds &B) {
  uintptr_t Lo = Top < SP ? Top : SP;
  if (B.Hi && SP >= B.Lo && SP < B.Hi)
    return {Lo < B.Lo ? B.Lo : Lo, B.Hi, false, 0};
  uintptr_t Hi =
      SP + kUnknownStackReach < SP ? ~uintptr_t(0) : SP + kUnknownStackReach;
  return {Lo, Hi, true, Lo & ~uintptr_t(4095)};
}

bool readStackWord(void *Data, uintptr_t Address, uintptr_t &Value) {
  Window &W = *static_cast<Window *>(Data);
  if (Address & (sizeof(uintptr_t) - 1) || !W.readable(Address, 8))
    return false;
  Value = W.word(Address);
  return true;
}

/// A return address a walk may accept: just after a call instruction, in
/// code that some loaded object's call frame information describes (so
/// mapped and executable, and the bytes before it in the same function).
bool plausibleReturnAddress(uintptr_t RA) {
  uintptr_t Start, End;
  return RA >= 4096 && callFrameInfoCovers(RA - 1, Start, End) &&
         followsCall(RA, Start);
}

/// A PC a signal interrupted, found above a signal frame: in code that
/// some loaded object's call frame information describes.
bool describedCode(uintptr_t PC) {
  uintptr_t Start, End;
  return callFrameInfoCovers(PC, Start, End);
}

/// A step out of a PLT stub that no call frame information describes: the
/// interrupted frame only, where the registers are the call's.
bool stubStep(UnwindRegisters &Regs, const StackMemory &Stack) {
  if (Regs.PCIsReturnAddress)
    return false;
  uintptr_t SP = Regs.Value[kDwarfSP], RA;
  switch (pltStubAt(Regs.PC)) {
  case StubReturn::AtStackPointer:
    if (!Stack.read(SP, RA))
      return false;
    Regs.set(kDwarfSP, SP + sizeof(uintptr_t));
    break;
  case StubReturn::InLinkRegister:
    RA = Regs.Value[kDwarfReturnColumn];
    break;
  case StubReturn::None:
    return false;
  }
  Regs.PC = RA;
  Regs.PCIsReturnAddress = true;
  return true;
}

/// A step by the frame record at the frame pointer, for code that no call
/// frame information describes (generated at run time, hand-written):
/// [FP] the caller's frame pointer, [FP + 8] the return address.
bool frameRecordStep(UnwindRegisters &Regs, const StackMemory &Stack) {
  if (!Regs.known(kDwarfFP))
    return false;
  uintptr_t FP = Regs.Value[kDwarfFP], Next, RA;
  if (!Stack.read(FP, Next) || !Stack.read(FP + 8, RA))
    return false;
  UnwindRegisters Caller;
  Caller.Known = 0;
  Caller.set(kDwarfFP, Next);
  Caller.set(kDwarfSP, FP + 16);
  Caller.PC = RA;
  Caller.PCIsReturnAddress = true;
  Regs = Caller;
  return true;
}

} // namespace

namespace {

/// Walks from the frame Regs to its callers, appending to Out[N..Max) (Out[0]
/// is written); returns the depth. The rules are captureStack's.
unsigned walkStack(UnwindRegisters &Regs, const StackMemory &Stack,
                   uintptr_t *Out, unsigned N, unsigned Max,
                   bool *ReachedStart) {
  // Each step must move up the stack (or, from a frame that keeps its
  // return address in a register, stay): a loop ends at the first frame
  // that does not.
  //
  // A return address is accepted when the next step finds the FDE of the
  // function it returns into (the lookup that step makes anyway) and the
  // code just before it is a call: until then the frame is pending, and a
  // return address that fails takes its frame back out of the stack.
  bool Pending = false;
  while (true) {
    uintptr_t SP = Regs.Value[kDwarfSP], PC = Regs.PC, Start = 0;
    bool FromReturnAddress = Regs.PCIsReturnAddress;
    UnwindStep Step = unwindStep(Regs, Stack, &Start);
    // A signal handler's return address is the signal trampoline, which
    // no call precedes: the FDE that describes it is a signal frame's (the
    // step leaves the PC the signal interrupted).
    bool SignalTrampoline =
        Step == UnwindStep::Caller && !Regs.PCIsReturnAddress;
    if (Pending && (Step == UnwindStep::NoInfo ||
                    (!SignalTrampoline && !followsCall(PC, Start)))) {
      --N; // not a return address after all
      break;
    }
    // The trampoline is its own address, not a call's: named as such
    // (__restore_rt), not as the byte before it.
    if (Pending && SignalTrampoline)
      ++Out[N - 1];
    Pending = false;
    if (Step == UnwindStep::Outermost) {
      if (ReachedStart)
        *ReachedStart = true;
      break;
    }
    if (N == Max || Step == UnwindStep::Failed ||
        (Step == UnwindStep::NoInfo &&
         (FromReturnAddress ||
          (!stubStep(Regs, Stack) && !frameRecordStep(Regs, Stack)))))
      break;
    uintptr_t NewSP = Regs.Value[kDwarfSP];
    if (NewSP < SP || (NewSP == SP && FromReturnAddress) || Regs.PC < 4096)
      break;
    if (Regs.PCIsReturnAddress) {
      // A return address less one is inside its call.
      Out[N++] = Regs.PC - 1;
      Pending = true;
    } else {
      // A PC a signal interrupted (above a signal frame) is its
      // instruction, in described code.
      if (!describedCode(Regs.PC))
        break;
      Out[N++] = Regs.PC;
    }
  }
  // The last frame of a stack cut at Max has had no next step.
  if (Pending && N == Max && !plausibleReturnAddress(Out[N - 1] + 1))
    --N;
  return N;
}

} // namespace

unsigned captureStack(const void *Context, uintptr_t PC,
                      const StackBounds &Bounds, uintptr_t *Out, unsigned Max,
                      bool *ReachedStart) {
  if (ReachedStart)
    *ReachedStart = false;
  if (!Max)
    return 0;
  Out[0] = PC;
  UnwindRegisters Regs;
  signalContextRegisters(Context, Regs.Value);
  Regs.Known = (uint64_t(1) << kDwarfRegisters) - 1;
  Regs.PC = signalContextPC(Context);
  Regs.PCIsReturnAddress = false;
  Window W =
      windowFor(Regs.Value[kDwarfSP], signalContextStackTop(Context), Bounds);
  StackMemory Stack{readStackWord, &W};
  return walkStack(Regs, Stack, Out, 1, Max, ReachedStart);
}

unsigned captureStoppedStack(uintptr_t PC, uintptr_t SP,
                             const StackMemory &Stack, uintptr_t *Out,
                             unsigned Max) {
  if (!Max)
    return 0;
  Out[0] = PC;
  UnwindRegisters Regs;
  Regs.Known = 0;
  Regs.set(kDwarfSP, SP);
  Regs.PC = PC;
  Regs.PCIsReturnAddress = false;
  return walkStack(Regs, Stack, Out, 1, Max, nullptr);
}

//===----------------------------------------------------------------------===//
// Frame buffers
//===----------------------------------------------------------------------===//

namespace {
constexpr unsigned kFrameBuffers = 64;
constexpr unsigned kMaxFrames = trace::kMaxStackDepth;
/// Mapped when sampling starts (mapFrameBuffers), not static: a process
/// that never traces keeps no data for them (a conservative garbage
/// collector scans .bss as roots).
MappedArray<uintptr_t[kMaxFrames], kFrameBuffers> FrameBuffers;
uint64_t FrameBuffersInUse; // bit I: buffer I is claimed
} // namespace

bool mapFrameBuffers() { return FrameBuffers.get() != nullptr; }

uintptr_t *claimFrameBuffer(unsigned &Index) {
  uintptr_t(*Buffers)[kMaxFrames] = FrameBuffers.peek();
  if (!Buffers)
    return nullptr;
  uint64_t Used = __atomic_load_n(&FrameBuffersInUse, __ATOMIC_RELAXED);
  while (~Used) {
    unsigned I = unsigned(__builtin_ctzll(~Used));
    if (__atomic_compare_exchange_n(&FrameBuffersInUse, &Used,
                                    Used | (uint64_t(1) << I), true,
                                    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
      Index = I;
      return Buffers[I];
    }
  }
  return nullptr;
}

void releaseFrameBuffer(unsigned Index) {
  __atomic_fetch_and(&FrameBuffersInUse, ~(uint64_t(1) << Index),
                     __ATOMIC_RELEASE);
}

//===----------------------------------------------------------------------===//
// StackTable
//===----------------------------------------------------------------------===//

namespace {
uint64_t hashFrames(const uintptr_t *Frames, unsigned N) {
  uint64_t H = 0xcbf29ce484222325ull ^ N;
  for (unsigned I = 0; I < N; ++I) {
    H ^= Frames[I];
    H *= 0x100000001b3ull;
    H ^= H >> 29;
  }
  return H < 2 ? H + 2 : H; // 0 and 1 mark free and claimed slots
}
constexpr unsigned kMaxProbes = 64;
} // namespace

bool StackTable::init(unsigned NewDepth) {
  if (Slots)
    return Depth == NewDepth;
  if (!NewDepth)
    return false;
  size_t NewStride = sizeof(Header) + NewDepth * sizeof(uintptr_t);
  void *Memory = reserveAddressSpace(NewStride * kSlots + usedBytes());
  if (!Memory)
    return false;
  Depth = NewDepth;
  Stride = NewStride;
  Slots = static_cast<char *>(Memory);
  Used = reinterpret_cast<uint32_t *>(Slots + Stride * kSlots);
  return true;
}

unsigned StackTable::size() const {
  unsigned N = __atomic_load_n(&NumUsed, __ATOMIC_ACQUIRE);
  return N < kSlots ? N : kSlots;
}

int StackTable::record(const uintptr_t *Frames, unsigned N, uint64_t Weight,
                       uint64_t AtomicWeight) {
  if (!Slots || !N)
    return -1;
  if (N > Depth)
    N = Depth;
  uint64_t Hash = hashFrames(Frames, N);
  unsigned I = unsigned(Hash >> 20) & (kSlots - 1);
  for (unsigned Probe = 0; Probe < kMaxProbes; ++Probe) {
    unsigned Index = (I + Probe) & (kSlots - 1);
    Header *H = slot(Index);
    uint64_t Seen = __atomic_load_n(&H->Hash, __ATOMIC_ACQUIRE);
    if (Seen == 0) {
      uint64_t Expected = 0;
      if (__atomic_compare_exchange_n(&H->Hash, &Expected, 1, false,
                                      __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
        memcpy(frames(H), Frames, N * sizeof(uintptr_t));
        H->Depth = N;
        __atomic_store_n(&H->Hash, Hash, __ATOMIC_RELEASE);
        // Each slot is claimed once (until clear()): at most kSlots.
        __atomic_store_n(
            &Used[__atomic_fetch_add(&NumUsed, 1, __ATOMIC_ACQ_REL)], Index,
            __ATOMIC_RELAXED);
        Seen = Hash;
      } else {
        Seen = Expected;
      }
    }
    if (Seen == Hash && H->Depth == N &&
        !memcmp(frames(H), Frames, N * sizeof(uintptr_t))) {
      __atomic_fetch_add(&H->Samples, Weight, __ATOMIC_RELAXED);
      __atomic_fetch_add(&H->AtomicSamples, AtomicWeight, __ATOMIC_RELAXED);
      return int(Index);
    }
  }
  __atomic_fetch_add(&Dropped, Weight, __ATOMIC_RELAXED);
  return -1;
}

void StackTable::addToSlot(int Slot, uint64_t Weight, uint64_t AtomicWeight) {
  Header *H = Slots && Slot >= 0 && unsigned(Slot) < kSlots
                  ? slot(unsigned(Slot))
                  : nullptr;
  if (!H || __atomic_load_n(&H->Hash, __ATOMIC_ACQUIRE) < 2) {
    drop(Weight);
    return;
  }
  __atomic_fetch_add(&H->Samples, Weight, __ATOMIC_RELAXED);
  __atomic_fetch_add(&H->AtomicSamples, AtomicWeight, __ATOMIC_RELAXED);
}

void StackTable::copyFrom(const StackTable &From) {
  if (!Slots || !From.Slots || Depth != From.Depth)
    return;
  for (unsigned K = 0; K < NumUsed; ++K)
    slot(Used[K])->Hash = 0;
  NumUsed = 0;
  for (unsigned K = 0, N = From.size(); K < N; ++K) {
    unsigned I = From.slotAt(K);
    if (I >= kSlots)
      continue;
    Header *S = From.slot(I), *D = slot(I);
    uint64_t Hash = __atomic_load_n(&S->Hash, __ATOMIC_ACQUIRE);
    // Free, being written, or listed twice (read before its index was).
    if (Hash < 2 || D->Hash)
      continue;
    D->Depth = S->Depth;
    memcpy(frames(D), From.frames(S), D->Depth * sizeof(uintptr_t));
    D->Samples = __atomic_load_n(&S->Samples, __ATOMIC_RELAXED);
    D->AtomicSamples = __atomic_load_n(&S->AtomicSamples, __ATOMIC_RELAXED);
    D->Hash = Hash;
    Used[NumUsed++] = I;
  }
  Dropped = __atomic_load_n(&From.Dropped, __ATOMIC_RELAXED);
}

void StackTable::clear() {
  if (Slots)
    releasePages(Slots, Stride * kSlots + usedBytes());
  NumUsed = 0;
  Dropped = 0;
}

StackTable::Entry StackTable::entry(unsigned I) const {
  if (!Slots || slot(I)->Hash < 2)
    return {nullptr, 0, 0, 0};
  Header *H = slot(I);
  return {frames(H), H->Depth, H->Samples, H->AtomicSamples};
}

} // namespace rt
} // namespace pcmap
