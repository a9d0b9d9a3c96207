//===- mapped.h - Runtime data mapped when first needed ---------*- C++ -*-===//
//
// The runtime is linked into every program the drivers build, so its static
// data must stay small: a conservative garbage collector scans a program's
// writable segments as roots, and a process that never queries should not
// carry the runtime's tables. Every object larger than a few hundred bytes
// lives in memory mapped when it is first needed, behind one of these:
// the static part is one pointer.
//
// Mappings are reserved (MAP_NORESERVE) and zero-filled: pages that are never
// written cost nothing, and an object starts as a zero-initialised global
// would. Nothing is ever unmapped, so a pointer once read stays valid.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_RT_MAPPED_H
#define PCMAP_RT_MAPPED_H

#include "platform/platform.h"

#include <stddef.h>

namespace pcmap {
namespace rt {

/// Maps Size zero-filled bytes for *Slot unless it already holds a mapping;
/// returns *Slot (null if the system has no memory). Threads and signal
/// handlers may race to map: one mapping wins, the others are released.
/// Async-signal-safe.
void *mapOnce(void **Slot, size_t Size);

/// One object of type T (zero-initialisable, trivially destructible),
/// mapped at its first get().
template <class T> class Mapped {
public:
  /// The object, mapped at the first call; null if the system has no
  /// memory. Async-signal-safe.
  T *get() {
    if (T *P = peek())
      return P;
    return static_cast<T *>(mapOnce(reinterpret_cast<void **>(&Ptr),
                                    sizeof(T)));
  }
  /// The object if it has been mapped, else null: for readers that have
  /// nothing to read before then.
  T *peek() const { return __atomic_load_n(&Ptr, __ATOMIC_ACQUIRE); }
  /// Zeroes the object, if it has been mapped, by giving its pages back to
  /// the system (they stay mapped and read as zero): in a forked child, a
  /// memset would copy every page the parent had written, a fault each.
  /// For an object no other thread uses meanwhile.
  void release() {
    if (T *P = peek())
      releasePages(P, sizeof(T));
  }

private:
  T *Ptr;
};

/// An array of N elements of T, mapped at its first get().
template <class T, size_t N> class MappedArray {
public:
  T *get() {
    if (T *P = peek())
      return P;
    return static_cast<T *>(mapOnce(reinterpret_cast<void **>(&Ptr),
                                    N * sizeof(T)));
  }
  T *peek() const { return __atomic_load_n(&Ptr, __ATOMIC_ACQUIRE); }
  static constexpr size_t size() { return N; }

private:
  T *Ptr;
};

} // namespace rt
} // namespace pcmap

#endif // PCMAP_RT_MAPPED_H
