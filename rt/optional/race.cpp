//===- race.cpp - Data races by value change, without debug registers -----===//

#include "optional/race.h"
#include "optional/data.h"
#include "optional/race_table.h"

#include "core/access.h"
#include "core/mapped.h"
#include "core/options.h"
#include "platform/platform.h"

#include "pcmap/pcmap.h"

#include <string.h>

namespace pcmap {
namespace rt {

namespace {

/// Locations watched at once (threads waiting in a check).
constexpr unsigned kWatches = 32;

using Side = RaceSide;
using Race = RaceEntry;

/// A location a thread is checking, published while it waits. Seq is odd
/// while the slot is written; a reader keeps what it copied only if Seq was
/// even and unchanged around the copy.
struct Watch {
  uint32_t Seq;
  uint32_t Owner; // the thread that claimed the slot; 0: free
  uintptr_t Address; // 0: nothing watched
  Side S;
};

struct RaceState {
  Race Races[kRaces];
  Watch Watches[kWatches];
};
Mapped<RaceState> State;
uint64_t Checks, Detections, Dropped;

template <class T> void addRelaxed(T &Counter, T V) {
  __atomic_fetch_add(&Counter, V, __ATOMIC_RELAXED);
}

void fillSide(Side &S, uintptr_t PC, uint32_t Tid, const AccessForm &Form,
              const uintptr_t *Frames, unsigned Depth) {
  S.PC = PC;
  S.Tid = Tid;
  S.Kind = Form.Kind;
  S.Size = Form.Size;
  S.Depth = uint8_t(Depth < kRaceFrames ? Depth : kRaceFrames);
  for (unsigned I = 0; I < S.Depth; ++I)
    S.Frames[I] = Frames[I];
  if (!S.Depth) {
    S.Frames[0] = PC;
    S.Depth = 1;
  }
}

/// Keeps a race once per pair of sites (the access's PC and the other
/// side's, 0 if not known), counting it again when seen again.
void recordRace(RaceState &R, const Side &Access, const Side *Other,
                uintptr_t Address, uint64_t Before, uint64_t After) {
  addRelaxed(Detections, uint64_t(1));
  uintptr_t OtherPC = Other ? Other->PC : 0;
  uint64_t Hash = (uint64_t(Access.PC) * 0x9E3779B97F4A7C15ull) ^
                  (uint64_t(OtherPC) * 0xC2B2AE3D27D4EB4Full);
  for (unsigned I = 0; I < kRaces; ++I) {
    Race &E = R.Races[(Hash + I) % kRaces];
    uint32_t St = __atomic_load_n(&E.State, __ATOMIC_ACQUIRE);
    if (St == 2 && E.Access.PC == Access.PC &&
        (E.OtherKnown ? E.Other.PC : 0) == OtherPC) {
      addRelaxed(E.Count, uint64_t(1));
      return;
    }
    if (St != 0)
      continue;
    uint32_t Free = 0;
    if (!__atomic_compare_exchange_n(&E.State, &Free, 1u, false,
                                     __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
      continue;
    E.Address = Address;
    E.Before = Before;
    E.After = After;
    E.Access = Access;
    E.OtherKnown = Other != nullptr;
    if (Other)
      E.Other = *Other;
    E.Count = 1;
    __atomic_store_n(&E.State, 2u, __ATOMIC_RELEASE);
    noteNewRace();
    return;
  }
  addRelaxed(Dropped, uint64_t(1));
}

/// Another thread's watched access that overlaps [Address, Address + Size),
/// one of the two a write, copied into Out.
bool findWatched(RaceState &R, uint32_t Tid, uintptr_t Address, unsigned Size,
                 unsigned Kind, Side &Out) {
  for (Watch &W : R.Watches) {
    uint32_t Seq = __atomic_load_n(&W.Seq, __ATOMIC_ACQUIRE);
    if (Seq & 1)
      continue;
    uintptr_t A = __atomic_load_n(&W.Address, __ATOMIC_RELAXED);
    if (!A)
      continue;
    memcpy(&Out, &W.S, sizeof(Out));
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    if (__atomic_load_n(&W.Seq, __ATOMIC_RELAXED) != Seq || Out.Tid == Tid)
      continue;
    bool Overlap = A < Address + Size && Address < A + Out.Size;
    if (Overlap && ((Kind | Out.Kind) & AK_Write))
      return true;
  }
  return false;
}

void bumpSeq(Watch &W) {
  __atomic_store_n(&W.Seq, W.Seq + 1, __ATOMIC_RELEASE);
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

Watch *publishWatch(RaceState &R, uintptr_t Address, const Side &S) {
  for (Watch &W : R.Watches) {
    uint32_t Free = 0;
    if (!__atomic_compare_exchange_n(&W.Owner, &Free, S.Tid, false,
                                     __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
      continue;
    bumpSeq(W); // odd: being written
    W.S = S;
    __atomic_store_n(&W.Address, Address, __ATOMIC_RELAXED);
    bumpSeq(W); // even: readable
    return &W;
  }
  return nullptr;
}

void unpublishWatch(Watch &W) {
  bumpSeq(W);
  __atomic_store_n(&W.Address, uintptr_t(0), __ATOMIC_RELAXED);
  bumpSeq(W);
  __atomic_store_n(&W.Owner, 0u, __ATOMIC_RELEASE);
}

/// Waits Micros microseconds on the CPU (the thread is in its handler: it
/// must not sleep, which could end a system call it interrupted).
void spin(unsigned Micros) {
  uint64_t End = monotonicNanos() + uint64_t(Micros) * 1000;
  while (monotonicNanos() < End) {
#if defined(__x86_64__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
  }
}

/// Reads Size (1 to 8) bytes at Address without faulting.
bool readValue(uintptr_t Address, unsigned Size, uint64_t &Value) {
  Value = 0;
  return copyMemorySafely(Address, &Value, Size) == Size;
}

} // namespace

void checkForRace(const void *Context, uintptr_t PC, const uintptr_t *Frames,
                  unsigned Depth, uintptr_t StackLo, uintptr_t StackHi) {
  RaceState *R = State.peek();
  if (!R)
    return;
  // The access about to be made, as DataCollider checks, or else the one
  // that ran just before the PC (where a timer's signal lands as a slow
  // access retires): the thread is stopped right after it, so that a write
  // to its location in the wait is no more ordered after it than before.
  AccessForm Form;
  uintptr_t Address = 0, At = PC;
  if (accessAtSignalContext(Context, Form, Address) != AD_Memory) {
    At = retiredAccess(Context, PC, Form, Address);
    if (!At)
      return;
  }
  // Plain accesses of 1 to 8 bytes, off the thread's own stack, where the
  // tables know the code and say it is no atomic.
  if (Form.Locked || Form.Size == 0 || Form.Size > 8 || !Address ||
      (Address >= StackLo && Address < StackHi) ||
      pcmap_is_atomic_pc(At) != PCMAP_NO)
    return;
  uint64_t Before;
  if (!readValue(Address, Form.Size, Before))
    return;
  addRelaxed(Checks, uint64_t(1));
  Side Me;
  fillSide(Me, At, uint32_t(currentThreadId()), Form, Frames, Depth);
  Me.Frames[0] = At;
  Side Other;
  if (findWatched(*R, Me.Tid, Address, Form.Size, Form.Kind, Other)) {
    recordRace(*R, Me, &Other, Address, Before, Before);
    return;
  }
  Watch *W = publishWatch(*R, Address, Me);
  spin(unsigned(Flags.race_delay_us));
  if (W)
    unpublishWatch(*W);
  uint64_t After;
  if (readValue(Address, Form.Size, After) && After != Before)
    recordRace(*R, Me, nullptr, Address, Before, After);
}

bool mapRaceTable() { return State.get() != nullptr; }

void clearRaceTable() {
  State.release();
  Checks = Detections = Dropped = 0;
}

const RaceEntry *publishedRace(unsigned Slot) {
  RaceState *R = State.peek();
  if (!R || Slot >= kRaces)
    return nullptr;
  const Race &E = R->Races[Slot];
  return __atomic_load_n(&E.State, __ATOMIC_ACQUIRE) == 2 ? &E : nullptr;
}

RaceCounts raceCounts() {
  return {__atomic_load_n(&Checks, __ATOMIC_RELAXED),
          __atomic_load_n(&Detections, __ATOMIC_RELAXED),
          __atomic_load_n(&Dropped, __ATOMIC_RELAXED)};
}

} // namespace rt
} // namespace pcmap
