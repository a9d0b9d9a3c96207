//===- InlineAsmAtomics.h - Atomics written in inline asm -------*- C++ -*-===//
//
// What the plugin asks of inline asm: which statements of an asm template
// are atomics for pcmap (x86 AT&T and AArch64), with their descriptors, and
// which statements pcmap cannot analyse, so that their function must not
// claim that all its atomics are recorded. The template is read by
// AsmTemplateLexer.h and judged by one AsmClassifier per target
// (AsmClassifier.h); docs/design/Instrumentation.md lists what is recognised.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_INSTRUMENT_INLINEASMATOMICS_H
#define PCMAP_INSTRUMENT_INLINEASMATOMICS_H

#include "pcmap/Format.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/TargetParser/Triple.h"

#include <string>

namespace llvm {
class CallBase;
class Module;
} // namespace llvm

namespace pcmap {

class AsmClassifier;

/// An atomic instruction in an asm template.
struct AsmAtomic {
  /// Offset in the template where the instruction begins: its first prefix
  /// (`lock`), where the CPU sees the instruction start.
  size_t Offset = 0;
  format::AtomicDescriptor Descriptor;
};

/// What an asm template holds.
struct AsmAnalysis {
  /// Every atomic of the template is in Atomics.
  bool Complete = true;
  /// When not complete: the statement that could not be analysed, and why.
  std::string Statement, Reason;
  llvm::SmallVector<AsmAtomic, 4> Atomics;
};

class InlineAsmAnalyzer {
public:
  /// Reads M's target and the assembler macros M defines (a statement that
  /// invokes one cannot be analysed).
  explicit InlineAsmAnalyzer(const llvm::Module &M);

  /// Analyses the inline asm that Call calls, with Template standing for the
  /// asm's template (the caller may pass one without pcmap's own additions).
  AsmAnalysis analyze(const llvm::CallBase &Call,
                      llvm::StringRef Template) const;

private:
  llvm::Triple TT;
  /// The classifier of TT's instructions; null for a target pcmap does not
  /// read.
  const AsmClassifier *Classifier;
  llvm::StringSet<> Macros;
};

} // namespace pcmap

#endif // PCMAP_INSTRUMENT_INLINEASMATOMICS_H
