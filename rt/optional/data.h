//===- data.h - The data the tracer's samples touch -------------*- C++ -*-===//
//
// Contention by data (docs/Tracer.md, "Data"): at each sample the tracer
// decodes the memory access the sample is charged to (core/access.h) and
// counts it here, by its exact address, size, kind, thread, instruction and
// stack. The reports group the rows into cache lines, name them and judge
// their sharing (data_report.cpp; pcmap-report trace offline).
//
// Recording is async-signal-safe and lock-free, allocates nothing after the
// table is mapped, and a full table drops the access (the sample is still
// counted everywhere else).
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_RT_DATA_H
#define PCMAP_RT_DATA_H

#include <stddef.h>
#include <stdint.h>

namespace pcmap {
namespace rt {

/// What the service thread found at an access's address while the program
/// ran (DataTable::setHint), for a report written once it is gone (a page
/// the program unmapped): 0 when not looked at.
enum : uint8_t {
  DH_None,
  DH_Heap,  // the C library's heap or private anonymous memory
  DH_Stack, // the initial thread's stack
  DH_Other, // anything else (a module, a file, shared memory)
  DH_Gone,  // already unmapped
};

/// What a DataAccess's Flags say.
enum : uint8_t {
  DF_Atomic = 1,   // the instruction is an atomic of the tables
  DF_OwnStack = 2, // the address is on the sampled thread's own stack
};

/// One sampled access: the row's key, and what the report needs of it.
struct DataAccess {
  uintptr_t Address;
  uintptr_t Site;   // the accessing instruction
  intptr_t TpOffset; // Address less the thread's thread pointer
  int32_t Stack;    // the sample's stack (a StackTable slot), or -1
  uint32_t Tid;
  uint8_t Size; // bytes; 0 if not known
  uint8_t Kind; // AccessKind
  uint8_t Flags;
};

/// The access a sample is charged to, if it is one the tracer can name:
/// Site, the atomic the sample is charged to, when it is the instruction at
/// the signal Context's PC or one that ended there without changing the
/// registers its address is formed from; else (Site 0) the instruction at
/// the PC. None at a PC that follows a system call (the sample's time was
/// the kernel's), nor where the decoder does not know the instruction.
/// Fills every field but Stack, Tid and DF_OwnStack. Async-signal-safe.
bool sampledAccess(const void *Context, uintptr_t Site, DataAccess &Out);

struct AccessForm;

/// A timer's signal is taken as an instruction retires: one that stalled
/// (a load or store that missed the cache) is most often the one just
/// before the PC, not the one at it. In a covered function, the access of
/// the instruction that ran just before the PC, if it is known for sure
/// (instructionEndingAt) and left its address's registers as they were:
/// that instruction's address (its access in Form and Address), or 0.
/// Async-signal-safe.
uintptr_t retiredAccess(const void *Context, uintptr_t PC, AccessForm &Form,
                        uintptr_t &Address);

/// The sampled accesses and their samples: an open-addressing table in
/// memory reserved once, claimed like StackTable's slots (a row may rarely
/// take two slots, which readers add up).
class DataTable {
public:
  static constexpr unsigned kSlots = 1u << 14;

  /// Reserves the table; false if there is no memory.
  bool init();
  bool ready() const { return Rows != nullptr; }

  /// Adds Weight samples to access A. Lock-free; a full table counts them
  /// as dropped.
  void record(const DataAccess &A, uint64_t Weight);
  /// Copies From's rows, with relaxed loads, after forgetting the previous
  /// copy's (only the slots either holds are touched).
  void copyFrom(const DataTable &From);
  void clear();

  struct Entry {
    DataAccess Access;
    uint64_t Samples; // 0: the slot is free or being written
    uint8_t Hint;     // DH_*
  };
  /// The K-th row claimed, K < size().
  Entry entry(unsigned K) const;
  /// Notes what the K-th row's address was seen to be (DH_*): by one
  /// thread at a time (the service thread).
  void setHint(unsigned K, uint8_t Hint);
  unsigned size() const;
  /// Samples whose access was recorded, and those the table had no room
  /// for.
  uint64_t samples() const { return Samples; }
  uint64_t dropped() const { return Dropped; }

private:
  struct Row {
    uint64_t Hash; // 0: free; 1: being written
    DataAccess Access;
    uint64_t Samples;
    uint8_t Hint;
  };
  Row *Rows = nullptr;
  uint32_t *Used = nullptr; // the slots claimed, first claimed first
  uint32_t NumUsed = 0;
  uint64_t Samples = 0, Dropped = 0;
};

} // namespace rt
} // namespace pcmap

#endif // PCMAP_RT_DATA_H
