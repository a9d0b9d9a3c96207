//===- AtomicClassifier.h - Which instructions pcmap records ----*- C++ -*-===//
//
// The policy of the plugin in one place: whether an IR instruction is an
// atomic for pcmap, and the descriptor that describes it.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_INSTRUMENT_ATOMICCLASSIFIER_H
#define PCMAP_INSTRUMENT_ATOMICCLASSIFIER_H

#include "pcmap/Format.h"

#include <optional>

namespace llvm {
class DataLayout;
class Instruction;
} // namespace llvm

namespace pcmap {

/// Returns the descriptor of I if I is an atomic for pcmap: an atomic load or
/// store, atomicrmw, cmpxchg or fence whose sync scope is not "singlethread".
/// Signal fences (singlethread) are compiler barriers, not atomics.
///
/// Calls into libatomic (__atomic_load_16, ...) are not: LLVM's call lowering
/// drops !pcsections from calls (SelectionDAG silently, FastISel with a
/// warning), so they could only ever be recorded now and then. The memory
/// access happens inside libatomic, whose code carries no metadata, so the
/// calling function's table stays complete for the instructions it has.
std::optional<format::AtomicDescriptor>
classifyAtomic(const llvm::Instruction &I, const llvm::DataLayout &DL);

} // namespace pcmap

#endif // PCMAP_INSTRUMENT_ATOMICCLASSIFIER_H
