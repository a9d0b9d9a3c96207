//===- stackmap.h - Stack map tables and their published index --*- C++ -*-===//
//
// The records of every loaded module's .llvm_stackmaps section (decoded with
// include/pcmap/StackMap.h), copied into the arena and indexed by absolute
// PC, with their function's bounds and their call-site size.
//
// A module's table, in the arena (all arrays owned by the table):
//
//   StackMapTable  header: serial, covered code range [Lo, Hi), arrays
//   Buckets        uint32_t pairs {first record, first function} per 256
//                  bytes of [Lo, Hi), and one more at the end
//   Records        SMRecord, sorted by PC
//   Functions      SMFunction, sorted by start
//   Locations      SMLocation (constants resolved), LiveOuts SMLiveOut
//
// An exact lookup reads the bucket of the PC and binary-searches the
// records of that bucket: O(1) in the size of the table.
//
// Publication is the registry's (registry.h), with its own two index copies
// and generation counter: writers (serialised by the writer lock) fill the
// copy readers are not directed to, then bump the generation; readers retry
// when it changed under them. Replaced tables go back to the arena only
// after the new index is published; a stale reader reads mapped memory and
// retries. Every table has a serial number, never reused, which the
// records handed out carry: an accessor finds the table again by PC and
// answers only if the serial matches.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_RT_STACKMAP_H
#define PCMAP_RT_STACKMAP_H

#include "core/arena.h"
#include "core/decode.h"

#include <stddef.h>
#include <stdint.h>

namespace pcmap {
namespace rt {

constexpr unsigned kMaxStackMapModules = 4096;
constexpr unsigned kStackMapBucketShift = 8;

struct StackMapTable {
  uint64_t Serial;
  uint64_t Lo, Hi;
  ArenaOffset Buckets;
  uint64_t NumBuckets;
  ArenaOffset Records;
  uint64_t NumRecords;
  ArenaOffset Functions;
  uint64_t NumFunctions;
  ArenaOffset Locations;
  uint64_t NumLocations;
  ArenaOffset LiveOuts;
  uint64_t NumLiveOuts;
  ArenaOffset Path; // NUL-terminated
  uint64_t PathBytes;
  uint64_t Bias;
  uint64_t Version; // of the first blob
  uint64_t Bytes;   // of the whole table
};

struct SMRecord {
  uint64_t PC;
  uint64_t ID;
  uint32_t Function; // index in Functions
  uint32_t FirstLocation;
  uint32_t FirstLiveOut;
  uint32_t InstructionOffset;
  uint32_t CallSize;
  uint32_t RecordIndex; // in the section, over all blobs
  uint16_t Flags;
  uint16_t NumLocations;
  uint16_t NumLiveOuts;
  uint8_t CallKind; // stackmap::CallSiteKind: None, Call or Patchpoint
  uint8_t Padding;
};
static_assert(sizeof(SMRecord) == 48, "48-byte records");

struct SMFunction {
  uint64_t Address;   // from the section
  uint64_t StackSize; // UINT64_MAX: dynamic
  uint64_t Start;     // of the symbol containing Address, else Address
  uint64_t Size;      // of that symbol, else 0
  uint64_t RecordCount;
  uint64_t LastRecordPC;
};

struct SMLocation {
  uint8_t Kind;
  uint8_t Padding0;
  uint16_t Size;
  uint16_t DwarfReg;
  uint16_t Padding1;
  int32_t Offset;
  uint32_t Padding2;
  uint64_t Value; // Constant: sign-extended; ConstantIndex: the constant
};
static_assert(sizeof(SMLocation) == 24, "24-byte locations");

struct SMLiveOut {
  uint16_t DwarfReg;
  uint8_t Size;
  uint8_t Padding;
};

/// What discovery hands to the builder: the module's section as mapped
/// (relocated), and the module's executable ranges (where code may be
/// read, and where direct calls may go).
struct StackMapInput {
  const uint8_t *Section;
  size_t Size;
  uintptr_t Bias;
  const char *Path;
  static constexpr unsigned kMaxRanges = 16;
  uintptr_t CodeBegin[kMaxRanges], CodeEnd[kMaxRanges];
  unsigned NumRanges;
};

/// Fills Start and Size of each function (sorted by Address) from the
/// module's symbol table, where a function symbol contains its Address.
using SymbolizeFunctions = void (*)(void *Context, SMFunction *Functions,
                                    size_t Count);

/// Builds a module's table (writers only). Returns 0 and fills Error (its
/// Offset: bytes into the section) when the section is malformed or memory
/// runs out.
ArenaOffset buildStackMapTable(const StackMapInput &In,
                               SymbolizeFunctions Symbolize, void *Context,
                               DecodeError &Error);
void freeStackMapTable(ArenaOffset Table);

/// Publishes the index of the given tables (writers only, under the writer
/// lock): readers see the new set once this returns.
void publishStackMapTables(const ArenaOffset *Tables, size_t Count);

/// Counters read by pcmap_get_stackmap_stats; writers update them.
struct StackMapCounters {
  uint64_t Modules, Functions, Records, TableBytes, SectionsRejected;
};
extern StackMapCounters StackMapStats;

/// Discovery (stackmap_discovery.cpp): scans the loaded objects, adds the
/// tables of new ones, drops those of objects no longer loaded. Takes the
/// writer lock; not async-signal-safe.
void rescanStackMaps();

/// The first time it is called, finds the stack maps of the objects loaded
/// then (reading their files' section headers: open, pread and close, which
/// are async-signal-safe); from then on discovery follows every dlopen and
/// dlclose. Every query calls it. In a signal handler that interrupted this
/// thread's own update it does nothing: the query answers from the tables
/// published so far.
void discoverStackMaps();

} // namespace rt
} // namespace pcmap

#endif // PCMAP_RT_STACKMAP_H
