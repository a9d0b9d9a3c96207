//===- stacks.cpp - The tracer's call stacks ------------------------------===//

#include "optional/stacks.h"

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
/// How many words above the stack pointer a PC without tables looks for
/// the return address into covered code (the C library's mutex and futex
/// paths keep a few hundred bytes).
constexpr unsigned kScanWords = 512;

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

Window windowFor(uintptr_t SP, const StackBounds &B) {
  if (B.Hi && SP >= B.Lo && SP < B.Hi)
    return {SP, B.Hi, false, 0};
  uintptr_t Hi =
      SP + kUnknownStackReach < SP ? ~uintptr_t(0) : SP + kUnknownStackReach;
  return {SP, Hi, true, SP & ~uintptr_t(4095)};
}

/// A return address into a covered function, whose code is mapped.
bool coveredReturnAddress(uintptr_t RA) {
  pcmap_function F;
  return RA > 1 && pcmap_lookup_function(RA - 1, &F) &&
         followsCall(RA, F.start);
}

/// The first word above SP (below Limit) that returns into covered code:
/// its slot's address, 0 if none.
uintptr_t scanForCoveredCaller(Window &W, uintptr_t SP, uintptr_t Limit) {
  uintptr_t Slot = (SP + 7) & ~uintptr_t(7);
  for (unsigned I = 0; I < kScanWords && Slot < Limit; ++I, Slot += 8) {
    if (!W.readable(Slot, 8))
      return 0;
    if (coveredReturnAddress(W.word(Slot)))
      return Slot;
  }
  return 0;
}

/// The covered function that holds PC: its start and size. Not inlined:
/// its lookup's structure stays off the stack while the rest of the walk
/// runs (in a signal handler, maybe on a fiber's small stack).
__attribute__((noinline)) bool coveredFunction(uintptr_t PC, uintptr_t &Start,
                                               uintptr_t &Size) {
  pcmap_function F;
  if (!pcmap_lookup_function(PC, &F))
    return false;
  Start = F.start;
  Size = F.size;
  return true;
}

/// Whether FP, above Slot, holds a frame record whose return address
/// goes back into covered code.
bool coveredFrameRecord(Window &W, uintptr_t FP, uintptr_t Slot) {
  return FP > Slot && !(FP & 7) && W.readable(FP, 16) &&
         coveredReturnAddress(W.word(FP + 8));
}

} // namespace

unsigned captureStack(const void *Context, uintptr_t PC,
                      const StackBounds &Bounds, uintptr_t *Out, unsigned Max) {
  if (!Max)
    return 0;
  unsigned N = 0;
  Out[N++] = PC;
  uintptr_t SP = signalContextSP(Context);
  uintptr_t FP = signalContextFP(Context);
  Window W = windowFor(SP, Bounds);
  uintptr_t Start, Size;
  if (coveredFunction(PC, Start, Size)) {
    // Its frame record is not linked yet (or no more): the caller's
    // return address is where the call left it.
    uintptr_t RA = unlinkedReturnAddress(Context, Start, Size);
    if (RA >= 4096 && N < Max)
      Out[N++] = RA - 1;
  } else {
    // Code without tables keeps no frame pointer: a link register that
    // returns into covered code (AArch64), else the nearest such return
    // address on the stack, is its caller.
    uintptr_t LR = signalContextReturnAddress(Context);
    if (LR && coveredReturnAddress(LR)) {
      Out[N++] = LR - 1;
    } else {
      if (uintptr_t Slot = scanForCoveredCaller(W, SP, W.Hi)) {
        Out[N++] = W.word(Slot) - 1;
        // The caller's own frame record: the frame pointer register, if
        // code without frame pointers left it alone (it usually does);
        // else the word below the next return address into covered code
        // (which may be stale, a rarer mistake).
        if (!coveredFrameRecord(W, FP, Slot))
          if (uintptr_t Next = scanForCoveredCaller(W, Slot + 8, W.Hi))
            FP = Next - 8;
      }
    }
  }
  // Frame records: [FP] the caller's frame pointer, [FP + 8] the return
  // address; each frame above the last.
  while (N < Max && !(FP & 7) && W.readable(FP, 16)) {
    uintptr_t Next = W.word(FP), RA = W.word(FP + 8);
    if (RA < 4096)
      break;
    Out[N++] = RA - 1;
    if (Next <= FP)
      break;
    FP = Next;
  }
  return N;
}

//===----------------------------------------------------------------------===//
// Frame buffers
//===----------------------------------------------------------------------===//

namespace {
constexpr unsigned kFrameBuffers = 64;
constexpr unsigned kMaxFrames = trace::kMaxStackDepth;
uintptr_t FrameBuffers[kFrameBuffers][kMaxFrames];
uint64_t FrameBuffersInUse; // bit I: buffer I is claimed
} // namespace

uintptr_t *claimFrameBuffer(unsigned &Index) {
  uint64_t Used = __atomic_load_n(&FrameBuffersInUse, __ATOMIC_RELAXED);
  while (~Used) {
    unsigned I = unsigned(__builtin_ctzll(~Used));
    if (__atomic_compare_exchange_n(&FrameBuffersInUse, &Used,
                                    Used | (uint64_t(1) << I), true,
                                    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
      Index = I;
      return FrameBuffers[I];
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
