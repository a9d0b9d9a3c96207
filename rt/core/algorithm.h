//===- algorithm.h - The runtime's binary searches --------------*- C++ -*-===//
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
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_RT_ALGORITHM_H
#define PCMAP_RT_ALGORITHM_H

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

} // namespace rt
} // namespace pcmap

#endif // PCMAP_RT_ALGORITHM_H
