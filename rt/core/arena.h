//===- arena.h - Memory the runtime's tables live in ------------*- C++ -*-===//
//
// All tables live in one reserved region that is never unmapped; it is
// reserved read-only and made writable as blocks are allocated. Blocks are
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

#include "core/algorithm.h"

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
  if (__builtin_expect(!N || !Lo, 0)) // Lo: null until mapped
    return false;
  if (N <= 2) { // one module, or two: no loop
    Base = N == 2 && loadRelaxed(&Lo[1]) <= PC;
    return true;
  }
  Base = lastBelow(uint64_t(0), N,
                   [Lo, PC](uint64_t I) { return loadRelaxed(&Lo[I]) <= PC; });
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

/// Writers: initialise the arena (idempotent; false, for good, if no
/// region can be had): a region of up to 64 GiB of address space, at most
/// LimitBytes (0: no limit of the caller's) and a sixteenth of RLIMIT_AS,
/// at least 1 MiB. Allocate a block of at least Size bytes (its contents
/// are unspecified); free it. Offset 0 on failure.
bool arenaInit(uint64_t LimitBytes = 0);
/// The region's size, and how much of it is writable (committed) so far.
uint64_t arenaRegionBytes();
uint64_t arenaCommittedBytes();
/// What a block holds. Readers may read any block that once held tables,
/// long after it was freed (a stale reader, whose answer the generation
/// check then discards), with relaxed loads; writers write such blocks with
/// relaxed stores only. Blocks only writers ever read (a module's record,
/// its sections) are written plainly, so they are never made of blocks
/// that held tables, nor the other way round: each kind has free lists of
/// its own.
enum class ArenaUse : unsigned { Tables, WriterOnly };
ArenaOffset arenaAllocate(uint64_t Size, ArenaUse Use = ArenaUse::Tables);
void arenaFree(ArenaOffset Offset, uint64_t Size,
               ArenaUse Use = ArenaUse::Tables);
/// A writable pointer to a block a writer owns.
inline void *arenaWritable(ArenaOffset Offset) {
  return Arena.Base + (Offset & Arena.Mask);
}

/// A block that a writer owns, given back to the arena when its owner goes
/// out of scope or allocates anew, so that a build that fails half-way
/// frees what it allocated on every path. A table that is built takes its
/// blocks with release() and records their offsets and sizes in its header,
/// from which its free function gives them back. Move-only; writers only.
template <ArenaUse Use> class BasicArenaBlock {
public:
  BasicArenaBlock() = default;
  BasicArenaBlock(BasicArenaBlock &&Other)
      : Off(Other.Off), Bytes(Other.Bytes) {
    Other.Off = 0;
    Other.Bytes = 0;
  }
  BasicArenaBlock &operator=(BasicArenaBlock &&Other) {
    if (this != &Other) {
      reset();
      Off = Other.Off;
      Bytes = Other.Bytes;
      Other.Off = 0;
      Other.Bytes = 0;
    }
    return *this;
  }
  BasicArenaBlock(const BasicArenaBlock &) = delete;
  BasicArenaBlock &operator=(const BasicArenaBlock &) = delete;
  ~BasicArenaBlock() { reset(); }

  /// Frees the block held, if any, and allocates one of Size bytes (8 for
  /// 0; its contents are unspecified). False, and empty, when out of
  /// memory.
  bool allocate(uint64_t Size) {
    reset();
    Bytes = Size ? Size : 8;
    Off = arenaAllocate(Bytes, Use);
    if (!Off)
      Bytes = 0;
    return Off != 0;
  }
  /// Frees the block held, if any.
  void reset() {
    if (Off)
      arenaFree(Off, Bytes, Use);
    Off = 0;
    Bytes = 0;
  }
  /// Hands the block over (to a table's header, whose free function gives
  /// it back with size()): the offset, and the owner becomes empty.
  ArenaOffset release() {
    ArenaOffset O = Off;
    Off = 0;
    Bytes = 0;
    return O;
  }

  explicit operator bool() const { return Off != 0; }
  ArenaOffset offset() const { return Off; }
  /// The size it was allocated with, which arenaFree takes back.
  uint64_t size() const { return Bytes; }
  /// The block, writable, as an array of T.
  template <class T = void> T *data() const {
    return static_cast<T *>(arenaWritable(Off));
  }

private:
  ArenaOffset Off = 0;
  uint64_t Bytes = 0;
};
/// Blocks of tables (what readers read), and of writers' own records.
using ArenaBlock = BasicArenaBlock<ArenaUse::Tables>;
using WriterBlock = BasicArenaBlock<ArenaUse::WriterOnly>;

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
