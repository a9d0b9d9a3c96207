//===- arena.cpp - Memory the runtime's tables live in --------------------===//

#include "arena.h"

#include "platform.h"

namespace pcmap {
namespace rt {

ArenaState Arena;

namespace {

constexpr unsigned kMinClass = 6;  // 64 bytes
constexpr unsigned kMaxClass = 40; // 1 TiB, more than any region
/// Freed blocks at least this large keep their pages while the free lists
/// hold no more than the larger of kMinRetainedBytes and the bytes in use,
/// and give them back beyond that. Memory stays within twice what the live
/// tables need (plus a little) under endless dlopen/dlclose, while tables
/// rebuilt soon after reuse pages that are already there instead of
/// faulting in zeroed ones.
constexpr unsigned kReleaseClass = 16; // 64 KiB
constexpr uint64_t kMinRetainedBytes = uint64_t(64) << 20;
/// A guard past the end of the region, so that an element read at the last
/// masked offset stays inside the mapping.
constexpr uint64_t kGuard = 1 << 16;

uint64_t Bump;     // next unallocated offset
uint64_t InUse;    // bytes in allocated blocks
uint64_t Retained; // bytes of free blocks whose pages were kept
ArenaOffset FreeList[kMaxClass + 1]; // per class; the link is the block's
                                     // first 8 bytes

unsigned classOf(uint64_t Size) {
  unsigned C = kMinClass;
  while ((uint64_t(1) << C) < Size)
    ++C;
  return C;
}

} // namespace

bool arenaInit() {
  if (Arena.Base)
    return true;
  // As much address space as the system gives, from 64 GiB down to 1 GiB;
  // none of it is backed by memory until tables are written.
  for (unsigned Log = 36; Log >= 30; --Log) {
    uint64_t Size = uint64_t(1) << Log;
    if (void *P = reserveAddressSpace(Size + kGuard)) {
      Arena.Mask = Size - 1;
      // Offset 0 is reserved to mean "no block".
      Bump = 1 << kMinClass;
      __atomic_store_n(&Arena.Base, static_cast<char *>(P), __ATOMIC_RELEASE);
      return true;
    }
  }
  return false;
}

ArenaOffset arenaAllocate(uint64_t Size) {
  if (!Size)
    Size = 1;
  unsigned C = classOf(Size);
  if (C > kMaxClass)
    return 0;
  uint64_t ClassSize = uint64_t(1) << C;
  if (ArenaOffset Head = FreeList[C]) {
    FreeList[C] =
        loadRelaxed(static_cast<const uint64_t *>(arenaPointer(Head)));
    InUse += ClassSize;
    return Head;
  }
  // Align blocks to their size (up to a page), which keeps them from
  // straddling pages needlessly.
  uint64_t Align = ClassSize < 4096 ? ClassSize : 4096;
  uint64_t Offset = (Bump + Align - 1) & ~(Align - 1);
  if (Offset + ClassSize > Arena.Mask + 1)
    return 0;
  Bump = Offset + ClassSize;
  InUse += ClassSize;
  return Offset;
}

void arenaFree(ArenaOffset Offset, uint64_t Size) {
  if (!Offset)
    return;
  unsigned C = classOf(Size ? Size : 1);
  uint64_t ClassSize = uint64_t(1) << C;
  if (C >= kReleaseClass) {
    uint64_t Budget = InUse > kMinRetainedBytes ? InUse : kMinRetainedBytes;
    if (Retained + ClassSize > Budget)
      releasePages(arenaWritable(Offset), ClassSize);
    else
      Retained += ClassSize;
  }
  storeRelaxed(static_cast<uint64_t *>(arenaWritable(Offset)), FreeList[C]);
  FreeList[C] = Offset;
  InUse -= ClassSize;
}

uint64_t arenaBytesInUse() { return InUse; }

} // namespace rt
} // namespace pcmap
