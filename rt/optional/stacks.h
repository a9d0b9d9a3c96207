//===- stacks.h - The tracer's call stacks ----------------------*- C++ -*-===//
//
// Every sample of the tracer records the stack it interrupted: captureStack
// walks it in the signal handler, StackTable keeps each distinct stack once
// with its samples. Both are async-signal-safe, take no lock and allocate
// nothing after init; a full table drops the stack (the sample is still
// counted everywhere else). docs/Tracer.md, "Call stacks", says what a
// stack holds for code with and without frame pointers.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_RT_STACKS_H
#define PCMAP_RT_STACKS_H

#include "optional/unwind.h"

#include <stddef.h>
#include <stdint.h>

namespace pcmap {
namespace rt {

/// The stack a thread runs on, [Lo, Hi); {0, 0} when unknown.
struct StackBounds {
  uintptr_t Lo, Hi;
};

/// Writes the stack of the code a signal interrupted to Out[0..Max) and
/// returns its depth: Out[0] is PC (the sampled instruction, or the atomic
/// site it is charged to), then return addresses less one (inside their
/// call instructions), innermost first. Each step follows the call frame
/// information (optional/unwind.h), or the frame record for code that has
/// none; a return address is accepted only in described code just after a
/// call, so that a stack is right or shorter, never wrong. Frames are read
/// only inside Bounds when the stack pointer is in them, else only in pages
/// found mapped. ReachedStart, if given, says whether the walk ended where
/// the call frame information says the thread's stack begins (_start,
/// clone, start_thread).
unsigned captureStack(const void *Context, uintptr_t PC,
                      const StackBounds &Bounds, uintptr_t *Out, unsigned Max,
                      bool *ReachedStart = nullptr);

/// The same for a thread that is not the caller and does not run (blocked
/// in a system call), from its PC and stack pointer alone (what
/// /proc/self/task/TID/syscall gives): no other register is known, so a
/// frame whose rules need one (a frame pointer the code below it left
/// alone) ends the walk. Its memory is read through Stack, which must not
/// fault where the thread's stack is not mapped.
unsigned captureStoppedStack(uintptr_t PC, uintptr_t SP,
                             const StackMemory &Stack, uintptr_t *Out,
                             unsigned Max);

/// Buffers a signal handler walks a stack into, off the stack it runs on
/// (a fiber's may be small): a fixed pool claimed by a compare-exchange,
/// so that any number of threads sample at once without a lock; null when
/// all are in use (as many handlers as the pool runs at once) or the pool
/// is not mapped.
uintptr_t *claimFrameBuffer(unsigned &Index);
void releaseFrameBuffer(unsigned Index);
/// Maps the pool, before a handler claims from it; false if there is no
/// memory.
bool mapFrameBuffers();

/// Distinct stacks and their samples: an open-addressing table in memory
/// reserved once. A slot is claimed by a compare-exchange of its hash
/// (0: free; 1: being written, skipped by other writers, so that a stack
/// may rarely take two slots, which readers add up).
class StackTable {
public:
  static constexpr unsigned kSlots = 8192;

  /// Reserves room for stacks of up to Depth frames; false (no stacks) if
  /// Depth is 0 or the memory cannot be reserved.
  bool init(unsigned Depth);
  bool ready() const { return Slots != nullptr; }
  unsigned depth() const { return Depth; }

  /// Adds Weight samples (AtomicWeight of them on an atomic) to the stack
  /// Frames[0..N) and returns its slot. Lock-free; a full table counts them
  /// as dropped and returns -1.
  int record(const uintptr_t *Frames, unsigned N, uint64_t Weight,
             uint64_t AtomicWeight);
  /// Adds Weight samples to the stack in Slot, a result of record: periods
  /// a thread ran after its last sample, charged to that sample's stack.
  /// Counts them as dropped if Slot is -1 or no longer holds a stack.
  void addToSlot(int Slot, uint64_t Weight, uint64_t AtomicWeight);
  /// Copies the stacks of From (same depth) into their same slots, with
  /// relaxed loads, after forgetting the previous copy's: it touches only
  /// the slots either holds, not the table's megabytes (a forked worker's
  /// report at exit would otherwise fault in every page of both).
  void copyFrom(const StackTable &From);
  void clear();

  /// Slot I's stack, or 0 frames if it is free.
  struct Entry {
    const uintptr_t *Frames;
    unsigned Depth;
    uint64_t Samples, AtomicSamples;
  };
  Entry entry(unsigned I) const;
  /// The slots that hold a stack, in the order their stacks were first
  /// recorded: the K-th for K < size(). A slot being claimed by a handler
  /// right now may be listed before its stack is written (entry() then
  /// says it is free) or after size() is read.
  unsigned size() const;
  unsigned slotAt(unsigned K) const {
    return __atomic_load_n(&Used[K], __ATOMIC_RELAXED);
  }
  uint64_t dropped() const { return Dropped; }
  /// Counts Weight samples whose stack was not recorded.
  void drop(uint64_t Weight) {
    __atomic_fetch_add(&Dropped, Weight, __ATOMIC_RELAXED);
  }

private:
  struct Header {
    uint64_t Hash;
    uint32_t Depth;
    uint32_t Unused;
    uint64_t Samples, AtomicSamples;
  };
  Header *slot(unsigned I) const {
    return reinterpret_cast<Header *>(Slots + size_t(I) * Stride);
  }
  uintptr_t *frames(Header *H) const {
    return reinterpret_cast<uintptr_t *>(H + 1);
  }
  static size_t usedBytes() { return kSlots * sizeof(uint32_t); }

  char *Slots = nullptr;
  uint32_t *Used = nullptr; // the slots claimed, first claimed first
  uint32_t NumUsed = 0;
  size_t Stride = 0;
  unsigned Depth = 0;
  uint64_t Dropped = 0;
};

} // namespace rt
} // namespace pcmap

#endif // PCMAP_RT_STACKS_H
