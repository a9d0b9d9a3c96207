//===- publication.h - Indexes published to lock-free readers --*- C++ -*-===//
//
// The one publication mechanism of the runtime, used by the module index
// (registry.h), the stack-map index (stackmap.cpp) and the index of
// outline-atomic helpers (outline.cpp). It follows glibc's
// _dl_find_object: two copies of an index and a generation counter. A writer
// (holding the writer lock) fills the copy readers are not directed to, then
// increments the generation, which directs them to it. A reader loads the
// generation, reads copy[generation & 1], and accepts what it read only if
// the generation is unchanged afterwards; otherwise a writer published
// meanwhile (the copy or a table it points to may have been reused) and it
// reads again. Readers never wait, never write, never see a half-built index.
//
// A copy's entries live in memory its first writer maps (Index::mapEntries,
// mapped.h), not in .bss: a process that never builds the index keeps
// none. Until then a copy's arrays are null and its count is 0; readers
// reach an entry only below a count they read, through an array they
// checked (lastAtOrBefore).
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_RT_PUBLICATION_H
#define PCMAP_RT_PUBLICATION_H

#include "core/arena.h"
#include "platform/platform.h"

#include <stdint.h>

namespace pcmap {
namespace rt {

/// Holds the writer lock for a scope (registration, discovery of stack
/// maps, the options at start-up).
class WriterLock {
public:
  WriterLock() { lockWriters(); }
  ~WriterLock() { unlockWriters(); }
  WriterLock(const WriterLock &) = delete;
  WriterLock &operator=(const WriterLock &) = delete;
};

template <class Index> struct Published {
  uint64_t Generation;
  Index Copies[2];

  /// Writers: the copy to fill; readers are not directed to it. Null if
  /// its entries have no memory (the index stays as it is).
  Index *next() {
    Index &Next = Copies[(Generation + 1) & 1];
    return Next.mapEntries() ? &Next : nullptr;
  }
  /// Writers: the copy readers are directed to.
  const Index &current() const { return Copies[Generation & 1]; }
  /// Writers: directs readers to next().
  void publish() {
    __atomic_store_n(&Generation, Generation + 1, __ATOMIC_RELEASE);
  }
  uint64_t generation() const {
    return __atomic_load_n(&Generation, __ATOMIC_ACQUIRE);
  }

  /// Runs Read(const Index &) until it ran on a copy that no writer changed
  /// meanwhile, and returns its result. Async-signal-safe.
  template <class ReadFn> auto readRetrying(ReadFn Read) const {
    for (;;) {
      uint64_t G = __atomic_load_n(&Generation, __ATOMIC_ACQUIRE);
      auto Result = Read(Copies[G & 1]);
      __atomic_thread_fence(__ATOMIC_ACQUIRE);
      if (__atomic_load_n(&Generation, __ATOMIC_RELAXED) == G)
        return Result;
    }
  }

  /// The same for the queries' fast paths: the first try inline and
  /// straight-line, the retries out of line. A read that raced with a writer
  /// is rare, and a loop around the query would keep its addresses in
  /// registers for the next round, which costs the first.
  template <class ReadFn>
  __attribute__((always_inline)) auto readConsistently(ReadFn Read) const {
    uint64_t G = __atomic_load_n(&Generation, __ATOMIC_ACQUIRE);
    auto Result = Read(Copies[G & 1]);
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    if (__builtin_expect(__atomic_load_n(&Generation, __ATOMIC_RELAXED) == G,
                         1))
      return Result;
    return readAfterRace(Read);
  }

  /// The queries' fastest paths: Read runs once, inline and straight-line,
  /// on the published copy. Returns whether no writer published meanwhile;
  /// if one did, Result is garbage and the caller takes its slow path,
  /// which retries. A fast path that calls nothing (its slow path is a
  /// tail call) keeps its values in registers.
  template <class ReadFn, class T>
  __attribute__((always_inline)) bool readOnce(ReadFn Read, T &Result) const {
    uint64_t G = __atomic_load_n(&Generation, __ATOMIC_ACQUIRE);
    Result = Read(Copies[G & 1]);
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    return __atomic_load_n(&Generation, __ATOMIC_RELAXED) == G;
  }

private:
  template <class ReadFn>
  __attribute__((noinline)) auto readAfterRace(ReadFn Read) const {
    return readRetrying(Read);
  }
};

/// Writers: maps Bytes of zero-filled memory for the entries of an index
/// copy whose first array is *First, unless they are mapped already; false
/// if the system has none.
inline bool mapIndexEntries(uint64_t **First, size_t Bytes) {
  if (*First)
    return true;
  void *P = reserveAddressSpace(Bytes);
  if (!P)
    return false;
  __atomic_store_n(First, static_cast<uint64_t *>(P), __ATOMIC_RELEASE);
  return true;
}

/// Writers: makes room for Key in Keys[0, Count), kept sorted, and returns
/// its position. Shift(J) moves entry J - 1 of every parallel array to J.
/// Indexes hold few entries (one per module): insertion sort is enough.
template <class ShiftFn>
uint64_t openSortedSlot(const uint64_t *Keys, uint64_t Count, uint64_t Key,
                        ShiftFn Shift) {
  uint64_t J = Count;
  for (; J && loadRelaxed(&Keys[J - 1]) > Key; --J)
    Shift(J);
  return J;
}

} // namespace rt
} // namespace pcmap

#endif // PCMAP_RT_PUBLICATION_H
