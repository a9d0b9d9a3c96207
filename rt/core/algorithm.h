//===- algorithm.h - The runtime's searches and sort ------------*- C++ -*-===//
//
// Binary search, written once for code without the C++ library (gwpsan's
// base/algorithm.h does the same). A sorted array is named by a range of
// indexes [Lo, Hi) and a function of an index (a predicate, or the key of
// the element), so that one search serves a writer's plain arrays and a
// reader's arena arrays, read with relaxed loads (arena.h). Async-signal-
// safe: no allocation, no recursion, and no call once inlined. An empty or
// inverted range (Lo >= Hi, as a stale reader may compute) is searched
// without a load.
//
// Two loops, each the one that the queries using it were measured with
// (bench/), so that writing them with a helper left their code as it was:
//   - partitionPoint halves [Lo, Hi) until it is empty; lowerBound and
//     upperBound are its std:: counterparts.
//   - lastBelow takes ceil(log2(Hi - Lo)) steps whatever the data, and skips
//     the test of the element it ends on: for the indexes of published
//     ranges (arena.h), whose callers test that element anyway.
//   - heapSort sorts in place, without memory or recursion (stack maps'
//     records, the tracer's data rows in a report).
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_RT_ALGORITHM_H
#define PCMAP_RT_ALGORITHM_H

#include <stddef.h>

namespace pcmap {
namespace rt {

/// The first index of [Lo, Hi) at which Below fails, where Below holds on a
/// prefix of the range and fails on the rest: Hi if it holds everywhere, Lo
/// if Lo >= Hi.
template <class Index, class BelowFn>
__attribute__((always_inline)) inline Index partitionPoint(Index Lo, Index Hi,
                                                           BelowFn Below) {
  while (Lo < Hi) {
    Index Mid = Lo + (Hi - Lo) / 2;
    if (Below(Mid))
      Lo = Mid + 1;
    else
      Hi = Mid;
  }
  return Lo;
}

/// The first index of [Lo, Hi), sorted by Key(I), whose key is not less
/// than X (std::lower_bound).
template <class Index, class T, class KeyFn>
__attribute__((always_inline)) inline Index lowerBound(Index Lo, Index Hi,
                                                       const T &X, KeyFn Key) {
  return partitionPoint(Lo, Hi, [&](Index I) { return Key(I) < X; });
}

/// The first index of [Lo, Hi), sorted by Key(I), whose key is greater than
/// X (std::upper_bound).
template <class Index, class T, class KeyFn>
__attribute__((always_inline)) inline Index upperBound(Index Lo, Index Hi,
                                                       const T &X, KeyFn Key) {
  return partitionPoint(Lo, Hi, [&](Index I) { return Key(I) <= X; });
}

/// The last index of [Lo, Hi) at which Below holds, where Below holds on a
/// prefix of the range and fails on the rest; Lo if it holds nowhere, or if
/// Lo >= Hi. Below is called only at indexes in (Lo, Hi): whether it holds
/// at the index returned is for the caller to test where it matters.
template <class Index, class BelowFn>
__attribute__((always_inline)) inline Index lastBelow(Index Lo, Index Hi,
                                                      BelowFn Below) {
  Index Base = Lo;
  for (Index Len = Lo < Hi ? Hi - Lo : 0; Len > 1;) {
    Index Half = Len / 2;
    Base += Below(Base + Half) ? Half : 0;
    Len -= Half;
  }
  return Base;
}

/// Sorts A[0..N) by Less: a heap sort, for code that may not allocate or
/// recurse (a report written after a fatal signal, a table's writer).
template <class T, class LessFn> void heapSort(T *A, size_t N, LessFn Less) {
  auto SiftDown = [&](size_t I, size_t End) {
    for (;;) {
      size_t C = 2 * I + 1;
      if (C >= End)
        return;
      if (C + 1 < End && Less(A[C], A[C + 1]))
        ++C;
      if (!Less(A[I], A[C]))
        return;
      T Tmp = A[I];
      A[I] = A[C];
      A[C] = Tmp;
      I = C;
    }
  };
  for (size_t I = N / 2; I-- > 0;)
    SiftDown(I, N);
  for (size_t End = N; End > 1; --End) {
    T Tmp = A[0];
    A[0] = A[End - 1];
    A[End - 1] = Tmp;
    SiftDown(0, End - 1);
  }
}

} // namespace rt
} // namespace pcmap

#endif // PCMAP_RT_ALGORITHM_H
