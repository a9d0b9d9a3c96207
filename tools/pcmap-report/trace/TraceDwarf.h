//===- TraceDwarf.h - The data named from DWARF, within trace ---*- C++ -*-===//
//
// What TraceDataNames.cpp (static data's members) and TracePointerNames.cpp
// (the object a blocked thread's caller passed to its lock, the data an
// access's base register points into) share: the member path at an offset
// of a type, and the DWARF expressions that say a value is a register's
// plus a constant. The trace component's own header:
// Trace.h's users need no DWARF.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_REPORT_TRACEDWARF_H
#define PCMAP_REPORT_TRACEDWARF_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/DebugInfo/DWARF/DWARFDie.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace llvm {
class DWARFContext;
namespace object {
class ObjectFile;
} // namespace object
} // namespace llvm

namespace pcmap {
namespace report {

/// The path, as C writes it, from an object of type T to the member or
/// element that holds its bytes [Off, Off + Size): ".hits", "[1]",
/// ".shards[3].lock"; "" for the object itself (TraceDataNames.cpp).
std::string dataMemberPath(llvm::DWARFDie T, uint64_t Off, uint64_t Size);
/// T under its typedefs and qualifiers.
llvm::DWARFDie dataUnqualifiedType(llvm::DWARFDie T);
/// A variable's type, from its declaration or abstract origin if need be.
llvm::DWARFDie dataVariableType(llvm::DWARFDie V);

/// A value a DWARF expression gives as a register's (DWARF number Reg)
/// plus Offset: the register's value where the expression applies, or with
/// Entry its value at the function's entry (DW_OP_entry_value).
struct RegisterValue {
  unsigned Reg = 0;
  int64_t Offset = 0;
  bool Entry = false;
};

/// What an expression says of a register, if it is one of:
///   DW_OP_regN, DW_OP_regx N                  register N's value
///   DW_OP_bregN K, DW_OP_bregx N K            register N's plus K
///   DW_OP_entry_value(DW_OP_regN)             N's at the function's entry
/// the last two followed by any of DW_OP_plus_uconst K, (DW_OP_litK,
/// DW_OP_constu K, DW_OP_consts K) then DW_OP_plus or DW_OP_minus, and
/// DW_OP_stack_value. As a Location (DW_AT_location), a register is the
/// variable's value only alone, a computed value only with
/// DW_OP_stack_value (without, the variable is in memory there); as a
/// call's value (DW_AT_call_value), the expression is the value.
std::optional<RegisterValue> registerValue(llvm::ArrayRef<uint8_t> Expr,
                                           bool Location,
                                           uint8_t AddressSize = 8);

/// Names the object a pointer in the code points to, from one module's
/// DWARF and machine code (TracePointerNames.cpp): the word a blocked thread's
/// caller gave its lock or wait function, and the data a memory access's
/// base register points into.
class PointerNamer {
public:
  virtual ~PointerNamer();
  /// For an ELF file Obj and its debug information (both must outlive the
  /// namer); GlobalAt gives the global variable whose storage starts at an
  /// address, if any. Null for a machine without a rule (x86-64 and
  /// AArch64 have one).
  static std::unique_ptr<PointerNamer>
  create(const llvm::object::ObjectFile &Obj, llvm::DWARFContext &Dwarf,
         std::function<llvm::DWARFDie(uint64_t)> GlobalAt);
  /// Whether the debug information has a function at module offset PC.
  virtual bool hasFunction(uint64_t PC) = 0;
  /// Whether the function at PC is itself a lock or wait function (its
  /// frames are the library's, whatever the module).
  virtual bool inWaitFunction(uint64_t PC) = 0;
  /// The name of the argument of the call at PC (a return address less
  /// one) into a lock or wait function that is the word it blocked on:
  /// "S->mu", "Shard::mu", "cache->shards[3].mu"; none unless the DWARF
  /// says which pointer variable the argument lies in and at which member.
  /// That is the first argument, but for a condition variable's wait,
  /// which blocks on the variable (OnCondition: the blocked stack waited on
  /// it) or, woken, on taking back its mutex: pthread_cond_wait's second
  /// argument, and no argument of std::condition_variable::wait.
  virtual std::optional<std::string> argumentName(uint64_t PC,
                                                  bool OnCondition) = 0;
  /// The member of a record that the memory access of the instruction at
  /// PC touches, by its type: "ns::Entry::refs", "Cache::stats.hits". The
  /// instruction's operand must be a base register plus a constant (no
  /// index, segment or PC) and a pointer or reference variable in scope at
  /// PC must be that register plus a constant there (or a register it was
  /// copied from in the straight-line code before it), or the register
  /// must hold, on every path to PC, a global pointer variable's value
  /// (x86-64); none otherwise.
  virtual std::optional<std::string> accessName(uint64_t PC) = 0;
};

} // namespace report
} // namespace pcmap

#endif // PCMAP_REPORT_TRACEDWARF_H
