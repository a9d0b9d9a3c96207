//===- describe.h - Words for what the tables say ---------------*- C++ -*-===//
//
// Names of kinds, orders and operations, and the one-line descriptions of a
// PC that the fault reporter, pcmap_describe_pc and the reports print.
// Everything here is async-signal-safe.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_RT_DESCRIBE_H
#define PCMAP_RT_DESCRIBE_H

#include "core/writer.h"

#include "pcmap/pcmap.h"

#include <stddef.h>
#include <stdint.h>

namespace pcmap {
namespace rt {

const char *kindName(uint32_t Kind);   // "load", ..., "unknown"
const char *orderName(uint32_t Order); // "seq_cst", ..., "unknown"
const char *rmwOpName(uint32_t Op);    // "add", ..., "other"

/// A bounded string builder (never allocates; truncates).

/// "rmw add, 4 bytes, seq_cst" and the like, "(inline asm) rmw xchg, 1 byte,
/// seq_cst" for an atomic of an inline asm; "kind unknown (upstream
/// metadata)" for upstream atomics.
/// WithOrigin: starts with "(inline asm) " for an atomic of an inline asm
/// (callers that put the origin in a label say false).
void describeAtomic(const pcmap_atomic &A, Text &Out, bool WithOrigin = true);

/// The module of PC and its load bias: from the runtime's tables when they
/// cover PC, else from the process's mappings. Async-signal-safe.
bool moduleOf(uintptr_t PC, char *Path, size_t PathSize, uintptr_t &Bias);

/// Everything the runtime knows about PC in one line:
///   /path/mod+0x1234, function 0x5555..+0x1c (96 bytes, 3 atomics):
///   atomic rmw add, 4 bytes, seq_cst
/// When After is set, PC is the address after the instruction of interest
/// (a watchpoint trap): the atomic that ends at PC is described.
/// Returns the PCMAP_YES/NO/UNKNOWN answer for the described instruction.
int describePC(uintptr_t PC, bool After, Text &Out);

/// The file name part of Path.
const char *baseName(const char *Path);

} // namespace rt
} // namespace pcmap

#endif // PCMAP_RT_DESCRIBE_H
