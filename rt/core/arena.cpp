//===- arena.cpp - Memory the runtime's tables live in --------------------===//

#include "core/arena.h"
#include "core/mapped.h"

#include "platform/platform.h"

namespace pcmap {
namespace rt {

PCMAP_STARTUP_STATE ArenaState Arena;

namespace {

constexpr unsigned kMinClass = 6;  // 64 bytes
constexpr unsigned kMaxClass = 40; // 1 TiB, more than any region
/// Freed blocks at least this large keep their pages while the free lists
/// hold no more than the larger of kMinRetainedBytes and the most bytes
/// ever in use at once, and give them back beyond that. Memory stays within
/// twice what the live tables needed at their peak (plus a little) under
/// endless dlopen/dlclose, while tables rebuilt soon after (a module's
/// second section, the next dlopen) reuse pages that are already there
/// instead of faulting in zeroed ones.
constexpr unsigned kReleaseClass = 16; // 64 KiB
constexpr uint64_t kMinRetainedBytes = uint64_t(64) << 20;
/// Blocks of at least 2 MiB come from the upper half of the region, which
/// asks for transparent huge pages: a query into a large table then costs
/// no page walk (a 10^6-atomic module has some 30 MiB of tables, 7500 small
/// pages but 15 huge ones). Small tables stay on small pages, so a program
/// with little metadata does not pay 2 MiB of resident memory for it.
constexpr unsigned kLargeClass = 21;
constexpr uint64_t kLargeAlign = uint64_t(1) << kLargeClass;
/// The second word of a free block: whether its pages were kept.
constexpr uint64_t kRetainedMark = 0x72657461696e6564ull;
/// A guard past the end of the region, so that an element read at the last
/// masked offset stays inside the mapping.
constexpr uint64_t kGuard = 1 << 16;

/// The region's size: the largest power of two up to kMaxRegionLog that
/// fits the limits (arenaInit), and at least 2^kMinRegionLog.
constexpr unsigned kMaxRegionLog = 36; // 64 GiB
constexpr unsigned kMinRegionLog = 20; // 1 MiB
/// Of an address-space limit (RLIMIT_AS), the share the region may take.
constexpr uint64_t kAddressSpaceShare = 16;
/// The region is reserved read-only and made writable in steps of this
/// much as blocks are allocated: memory, and commit charge under strict
/// overcommit, grow with the tables rather than with the reservation.
constexpr uint64_t kCommitStep = uint64_t(1) << 21;

PCMAP_STARTUP_STATE bool InitFailed;
PCMAP_STARTUP_STATE uint64_t
    SmallCommitted; // the lower half is writable up to this offset
PCMAP_STARTUP_STATE uint64_t
    LargeCommitted; // the upper half is, from its start up to this one
PCMAP_STARTUP_STATE uint64_t Bump; // next unallocated offset for small blocks
PCMAP_STARTUP_STATE uint64_t
    LargeBump;                      // next unallocated offset for large blocks
PCMAP_STARTUP_STATE uint64_t InUse; // bytes in allocated blocks
PCMAP_STARTUP_STATE uint64_t PeakInUse; // the most InUse has been
PCMAP_STARTUP_STATE uint64_t
    Retained; // bytes of free blocks whose pages were kept
PCMAP_STARTUP_STATE uint64_t
    Released; // bytes whose pages went back to the system (stats)
/// Per use (ArenaUse) and class; the link is the block's first 8 bytes.
PCMAP_STARTUP_STATE ArenaOffset FreeList[2][kMaxClass + 1];

void addInUse(uint64_t Bytes) {
  InUse += Bytes;
  if (InUse > PeakInUse)
    PeakInUse = InUse;
}

/// Makes the region writable up to End (from Committed, up to Limit).
bool commitUpTo(uint64_t &Committed, uint64_t End, uint64_t Limit) {
  if (End <= Committed)
    return true;
  uint64_t NewEnd = (End + kCommitStep - 1) & ~(kCommitStep - 1);
  if (NewEnd > Limit)
    NewEnd = Limit;
  if (!commitPages(Arena.Base + Committed, NewEnd - Committed))
    return false;
  Committed = NewEnd;
  return true;
}

unsigned classOf(uint64_t Size) {
  unsigned C = kMinClass;
  while ((uint64_t(1) << C) < Size)
    ++C;
  return C;
}

} // namespace

bool arenaInit(uint64_t LimitBytes) {
  if (Arena.Base)
    return true;
  if (InitFailed)
    return false;
  // The largest region the limits allow; none of it is memory, or commit
  // charge, until tables are written.
  uint64_t Max = uint64_t(1) << kMaxRegionLog;
  if (LimitBytes && LimitBytes < Max)
    Max = LimitBytes;
  if (uint64_t AS = addressSpaceLimit())
    if (AS / kAddressSpaceShare < Max)
      Max = AS / kAddressSpaceShare;
  for (unsigned Log = kMaxRegionLog; Log >= kMinRegionLog; --Log) {
    uint64_t Size = uint64_t(1) << Log;
    if (Size > Max)
      continue;
    if (void *P = reserveReadOnly(Size + kGuard)) {
      Arena.Mask = Size - 1;
      // Offset 0 is reserved to mean "no block".
      Bump = 1 << kMinClass;
      SmallCommitted = 0;
      LargeBump = LargeCommitted = Size / 2;
      __atomic_store_n(&Arena.Base, static_cast<char *>(P), __ATOMIC_RELEASE);
      return true;
    }
  }
  InitFailed = true;
  return false;
}

uint64_t arenaRegionBytes() { return Arena.Base ? Arena.Mask + 1 : 0; }
uint64_t arenaCommittedBytes() {
  return Arena.Base ? SmallCommitted + LargeCommitted - (Arena.Mask + 1) / 2
                    : 0;
}

ArenaOffset arenaAllocate(uint64_t Size, ArenaUse Use) {
  if (!Size)
    Size = 1;
  unsigned C = classOf(Size);
  if (C > kMaxClass)
    return 0;
  uint64_t ClassSize = uint64_t(1) << C;
  ArenaOffset *List = FreeList[unsigned(Use)];
  if (ArenaOffset Head = List[C]) {
    const auto *Words = static_cast<const uint64_t *>(arenaPointer(Head));
    List[C] = loadRelaxed(&Words[0]);
    if (C >= kReleaseClass && loadRelaxed(&Words[1]) == kRetainedMark)
      Retained -= ClassSize;
    addInUse(ClassSize);
    return Head;
  }
  // Align blocks to their size (up to a page; large ones to a huge page),
  // which keeps them from straddling pages needlessly.
  if (C >= kLargeClass) {
    uint64_t Offset = (LargeBump + kLargeAlign - 1) & ~(kLargeAlign - 1);
    uint64_t Before = LargeCommitted;
    if (Offset + ClassSize > Arena.Mask + 1 ||
        !commitUpTo(LargeCommitted, Offset + ClassSize, Arena.Mask + 1))
      return 0;
    // Tables of megabytes are read at random: huge pages spare the TLB.
    // Only what is committed is advised, so a process whose tables are
    // small has no huge page anywhere.
    if (LargeCommitted > Before)
      adviseHugePages(Arena.Base + Before, LargeCommitted - Before);
    LargeBump = Offset + ClassSize;
    addInUse(ClassSize);
    return Offset;
  }
  uint64_t Align = ClassSize < 4096 ? ClassSize : 4096;
  uint64_t Offset = (Bump + Align - 1) & ~(Align - 1);
  if (Offset + ClassSize > (Arena.Mask + 1) / 2 ||
      !commitUpTo(SmallCommitted, Offset + ClassSize, (Arena.Mask + 1) / 2))
    return 0;
  Bump = Offset + ClassSize;
  addInUse(ClassSize);
  return Offset;
}

void arenaFree(ArenaOffset Offset, uint64_t Size, ArenaUse Use) {
  if (!Offset)
    return;
  unsigned C = classOf(Size ? Size : 1);
  uint64_t ClassSize = uint64_t(1) << C;
  auto *Words = static_cast<uint64_t *>(arenaWritable(Offset));
  if (C >= kReleaseClass) {
    uint64_t Budget =
        PeakInUse > kMinRetainedBytes ? PeakInUse : kMinRetainedBytes;
    if (Retained + ClassSize > Budget) {
      releasePages(Words, ClassSize);
      Released += ClassSize;
    } else {
      Retained += ClassSize;
      storeRelaxed(&Words[1], kRetainedMark);
    }
  }
  ArenaOffset *List = FreeList[unsigned(Use)];
  storeRelaxed(&Words[0], List[C]);
  List[C] = Offset;
  InUse -= ClassSize;
}

uint64_t arenaBytesInUse() { return InUse; }
uint64_t arenaPeakBytesInUse() { return PeakInUse; }
uint64_t arenaBytesRetained() { return Retained; }
uint64_t arenaBytesReleased() { return Released; }

void *mapOnce(void **Slot, size_t Size) {
  if (void *P = __atomic_load_n(Slot, __ATOMIC_ACQUIRE))
    return P;
  void *Mine = reserveAddressSpace(Size);
  if (!Mine)
    return nullptr;
  void *Expected = nullptr;
  if (__atomic_compare_exchange_n(Slot, &Expected, Mine, false,
                                  __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    return Mine;
  releaseAddressSpace(Mine, Size); // another thread's mapping won
  return Expected;
}

} // namespace rt
} // namespace pcmap
