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
/// store, atomicrmw, cmpxchg or fence whose sync scope is not "singlethread",
/// or a direct call to a libatomic entry point (__atomic_load_4, ...).
/// Signal fences (singlethread) are compiler barriers, not atomics.
std::optional<format::AtomicDescriptor>
classifyAtomic(const llvm::Instruction &I, const llvm::DataLayout &DL);

} // namespace pcmap

#endif // PCMAP_INSTRUMENT_ATOMICCLASSIFIER_H
