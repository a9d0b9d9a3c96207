//===- table.h - A module's tables and their index --------------*- C++ -*-===//
//
// A module's functions and atomics as sorted arrays of 32-bit offsets from
// the start of its code (TextLo), each with a bucket index over the code in
// the style of Go's findfunctab:
//
//   Base[b]       (uint32_t, one per 4 KiB bucket b, plus one at the end):
//                 index of the first key >= b * 4096
//   Sub[16b + s]  (uint16_t, one per 256-byte sub-bucket s of bucket b):
//                 index of the first key >= b * 4096 + s * 256, minus Base[b]
//
// A lookup reads Base and Sub, then binary-searches the keys of one
// 256-byte sub-bucket (at most 256 distinct offsets, 8 steps; usually 0 to 2
// keys): O(1) in the size of the table. The index costs 36 bytes per 4 KiB
// of code per array (0.9 %); an atomic costs 8 bytes (offset, descriptor).
//
// Tables are immutable once published. Readers reach them by arena offset
// (arena.h) and read every field with relaxed loads, so that a reader that
// raced with an update reads garbage, never faults, and is then told to
// retry by the registry's generation check.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_RT_TABLE_H
#define PCMAP_RT_TABLE_H

#include "arena.h"
#include "decode.h"

namespace pcmap {
namespace rt {

constexpr unsigned kBucketShift = 12, kSubBucketShift = 8;
constexpr unsigned kSubBuckets = 1u << (kBucketShift - kSubBucketShift);

struct BucketIndex {
  ArenaOffset Base = 0, Sub = 0;
  uint64_t NumBuckets = 0;
};

/// The header of a module's tables, in the arena.
struct ModuleTable {
  uint64_t TextLo, TextHi, Bias;
  ArenaOffset Path; // NUL-terminated
  uint64_t PathBytes;
  uint64_t NumFunctions, NumAtomics;
  ArenaOffset Functions; // FunctionRecord[NumFunctions], owned
  ArenaOffset AtomicOffsets, AtomicDescriptors; // uint32_t[NumAtomics]
  uint64_t OwnsAtomics; // else they belong to the one decoded section
  BucketIndex FunctionIndex, AtomicIndex;
  uint64_t Bytes; // memory of this table, for the stats
};

/// What a module has registered, beyond its decoded sections: whether its
/// functions' claims of completeness can be relied on.
struct ModuleAtomicsState {
  bool PCMapAtomicsRejected;    // a pcmap_atomics section was rejected
  bool UpstreamAtomicsPresent;  // a sanmd_atomics section is registered
  bool UpstreamAtomicsRejected; // a sanmd_atomics section was rejected
};

/// Builds a module's table from its decoded sections. A function is
/// complete for atomics (kFeatureAtomics in the table) only if its entry
/// says so and its atomics are there: not when it has atomics
/// (kFeatureHasAtomics) and none was registered, and not when an atomics
/// section of the module was rejected. Returns 0 when out of memory.
ArenaOffset buildModuleTable(const CodeRanges &Code, uintptr_t Bias,
                             const char *Path, const DecodedAtomics *Atomics,
                             unsigned NumAtomicSections,
                             const DecodedFunctions *Functions,
                             unsigned NumFunctionSections,
                             const ModuleAtomicsState &State);
/// Frees a table that no published view refers to any more.
void freeModuleTable(ArenaOffset Table);

//===----------------------------------------------------------------------===//
// Reader side (async-signal-safe)
//===----------------------------------------------------------------------===//

/// A reader's copy of the header fields a lookup needs.
struct TableView {
  uint64_t TextLo, TextHi, Bias;
  ArenaOffset Path;
  uint64_t NumFunctions, NumAtomics;
  ArenaOffset Functions, AtomicOffsets, AtomicDescriptors;
  BucketIndex FunctionIndex, AtomicIndex;
};
void readTableView(ArenaOffset Table, TableView &V);

/// Index of the last function starting at or before Offset, or -1.
int64_t lastFunctionAtOrBefore(const TableView &V, uint32_t Offset);
/// Index of the last atomic at or before Offset, or -1.
int64_t lastAtomicAtOrBefore(const TableView &V, uint32_t Offset);

FunctionRecord loadFunction(const TableView &V, uint64_t I);
inline uint32_t loadAtomicOffset(const TableView &V, uint64_t I) {
  return arenaLoad<uint32_t>(V.AtomicOffsets, I);
}
inline uint32_t loadAtomicDescriptor(const TableView &V, uint64_t I) {
  return arenaLoad<uint32_t>(V.AtomicDescriptors, I);
}

} // namespace rt
} // namespace pcmap

#endif // PCMAP_RT_TABLE_H
