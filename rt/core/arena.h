//===- arena.h - Memory the runtime's tables live in ------------*- C++ -*-===//
//
// All tables live in one reserved region that is never unmapped. Blocks are
// named by their offset in the region; readers turn an offset into a pointer
// with a mask, so that a reader holding a stale offset (its view has been
// replaced and the block reused) reads garbage but never faults; the
// generation check of the registry then discards what it read.
//
// Allocation (writers only, under the writer lock): power-of-two size
// classes with free lists; freed blocks are reused, and large ones keep
// their pages up to a budget and return them to the system beyond it.
// Blocks of 2 MiB and more live in the upper half of the region, on
// transparent huge pages where the system has them.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_RT_ARENA_H
#define PCMAP_RT_ARENA_H

#include <stddef.h>
#include <stdint.h>

namespace pcmap {
namespace rt {

/// Offset of a block in the arena. 0 is never a valid block.
using ArenaOffset = uint64_t;

struct ArenaState {
  char *Base;
  uint64_t Mask; // region size - 1; the region size is a power of two
};
extern ArenaState Arena;

/// Async-signal-safe: a pointer for any offset, inside the region.
inline const void *arenaPointer(ArenaOffset Offset) {
  return Arena.Base + (Offset & Arena.Mask);
}

/// Relaxed atomic accesses to memory a stale reader may read concurrently;
/// they compile to plain loads and stores.
template <class T> inline T loadRelaxed(const T *P) {
  return __atomic_load_n(P, __ATOMIC_RELAXED);
}
template <class T> inline void storeRelaxed(T *P, T V) {
  __atomic_store_n(P, V, __ATOMIC_RELAXED);
}

/// The last of the first N of Capacity published, sorted range starts Lo[i]
/// at or before PC (0 when PC is below them all) in Base; false when there
/// are none. Async-signal-safe; tolerates a garbage count. The search runs
/// log2(N) times.
inline bool lastAtOrBefore(const uint64_t *Count, const uint64_t *Lo,
                           uint64_t Capacity, uint64_t PC, uint64_t &Base) {
  uint64_t N = loadRelaxed(Count);
  if (N > Capacity)
    N = Capacity;
  if (__builtin_expect(!N, 0))
    return false;
  Base = 0;
  if (N <= 2) { // one module, or two: no loop
    Base = N == 2 && loadRelaxed(&Lo[1]) <= PC;
    return true;
  }
  for (uint64_t Len = N; Len > 1;) {
    uint64_t Half = Len / 2;
    Base = loadRelaxed(&Lo[Base + Half]) <= PC ? Base + Half : Base;
    Len -= Half;
  }
  return true;
}

/// The table of the range that holds PC among the first N of Capacity
/// published ranges [Lo[i], Hi[i]), sorted by Lo and disjoint, or 0.
/// Async-signal-safe; tolerates a garbage count.
inline uint64_t findInRanges(const uint64_t *Count, const uint64_t *Lo,
                             const uint64_t *Hi, const uint64_t *Table,
                             uint64_t Capacity, uint64_t PC) {
  uint64_t Base;
  if (!lastAtOrBefore(Count, Lo, Capacity, PC, Base) ||
      PC < loadRelaxed(&Lo[Base]) || PC >= loadRelaxed(&Hi[Base]))
    return 0;
  return loadRelaxed(&Table[Base]);
}

/// Element I of an array of T at Offset, as a reader sees it.
template <class T> inline T arenaLoad(ArenaOffset Offset, uint64_t I) {
  return loadRelaxed(
      static_cast<const T *>(arenaPointer(Offset + I * sizeof(T))));
}

/// Writers: initialise the arena (idempotent); allocate a block of at least
/// Size bytes (its contents are unspecified); free it. Size class 0 on
/// failure.
bool arenaInit();
ArenaOffset arenaAllocate(uint64_t Size);
void arenaFree(ArenaOffset Offset, uint64_t Size);
/// A writable pointer to a block a writer owns.
inline void *arenaWritable(ArenaOffset Offset) {
  return Arena.Base + (Offset & Arena.Mask);
}
/// Copies Bytes from Src to Dst, in a block a writer owns, with relaxed
/// atomic stores: a stale reader may still read a reused block with its
/// relaxed loads, and a plain copy (memcpy, assignment) would race with them.
inline void arenaStore(void *Dst, const void *Src, uint64_t Bytes) {
  const auto *In = static_cast<const unsigned char *>(Src);
  auto *Out = static_cast<unsigned char *>(Dst);
  uint64_t I = 0;
  if (reinterpret_cast<uintptr_t>(Out) % 8 == 0)
    for (; I + 8 <= Bytes; I += 8) {
      uint64_t Word;
      __builtin_memcpy(&Word, In + I, 8);
      storeRelaxed(reinterpret_cast<uint64_t *>(Out + I), Word);
    }
  if (reinterpret_cast<uintptr_t>(Out + I) % 4 == 0)
    for (; I + 4 <= Bytes; I += 4) {
      uint32_t Word;
      __builtin_memcpy(&Word, In + I, 4);
      storeRelaxed(reinterpret_cast<uint32_t *>(Out + I), Word);
    }
  for (; I < Bytes; ++I)
    storeRelaxed(Out + I, In[I]);
}
/// Bytes of blocks currently allocated, and the most at once so far; of
/// free blocks that kept their pages; given back to the system so far (all
/// writers only).
uint64_t arenaBytesInUse();
uint64_t arenaPeakBytesInUse();
uint64_t arenaBytesRetained();
uint64_t arenaBytesReleased();

} // namespace rt
} // namespace pcmap

#endif // PCMAP_RT_ARENA_H
