//===- AsmClassifier.h - One target's atomics in inline asm -----*- C++ -*-===//
//
// Each target's knowledge of its instructions lives behind AsmClassifier, one
// file per target (AsmClassifierX86.cpp, AsmClassifierAArch64.cpp), as LLVM
// keeps its targets apart. A classifier reads the statements of a template
// (AsmTemplateLexer.h) and the kinds of the asm's operands, never IR:
// InlineAsmAtomics.cpp reads those from the call.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_INSTRUMENT_ASMCLASSIFIER_H
#define PCMAP_INSTRUMENT_ASMCLASSIFIER_H

#include "AsmTemplateLexer.h"
#include "InlineAsmAtomics.h"
#include "pcmap/Format.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"

#include <cstdint>

namespace pcmap {

enum class OperandKind { Register, Memory, Immediate, RegisterOrMemory };

/// An operand of the asm, as its constraint and IR type describe it.
struct AsmOperand {
  OperandKind Kind = OperandKind::Register;
  /// Store size of the operand's IR type (the pointee for indirect memory
  /// operands); 0 if unknown.
  unsigned Bytes = 0;
};

/// The classification of one asm in progress: what a classifier may read
/// (operands, the module's assembler macros) and where it writes.
class AsmClassification {
public:
  AsmClassification(llvm::ArrayRef<AsmOperand> Operands,
                    const llvm::StringSet<> &Macros, AsmAnalysis &Result)
      : Operands(Operands), Macros(Macros), Result(Result) {}

  /// Operand N of the template ($N), or null if the asm has none such.
  const AsmOperand *operand(unsigned N) const {
    return N < Operands.size() ? &Operands[N] : nullptr;
  }

  /// The checks every target makes: false for an empty statement, a
  /// directive or a macro, which need no more work (and fail the analysis
  /// unless the directive emits nothing that matters).
  bool isInstruction(const AsmStatement &S, const ParsedStatement &P);

  /// Marks the asm incomplete at S; the first failure is the one reported.
  void fail(const AsmStatement &S, const llvm::Twine &Reason);

  /// Records an atomic that begins at template offset Offset.
  void record(size_t Offset, format::AtomicDescriptor D);

private:
  llvm::ArrayRef<AsmOperand> Operands;
  const llvm::StringSet<> &Macros;
  AsmAnalysis &Result;
};

/// One target's inline asm: its comments, its constraints, its atomics.
class AsmClassifier {
public:
  virtual ~AsmClassifier() = default;

  /// What starts a comment to the end of the line in the target's assembly.
  virtual llvm::StringRef lineComment() const = 0;

  /// Whether Code, a constraint code that is not one of LLVM's generic ones,
  /// names a memory operand on this target.
  virtual bool isMemoryConstraint(llvm::StringRef Code) const = 0;

  /// Records the atomics of Statements in Out, or fails Out at the first
  /// statement that may hide one.
  virtual void classify(llvm::ArrayRef<AsmStatement> Statements,
                        AsmClassification &Out) const = 0;
};

/// x86 in AT&T syntax.
const AsmClassifier &x86AsmClassifier();
/// AArch64.
const AsmClassifier &aarch64AsmClassifier();

/// log2 of an access of Bytes bytes, as a descriptor holds it.
uint32_t log2Bytes(unsigned Bytes);

} // namespace pcmap

#endif // PCMAP_INSTRUMENT_ASMCLASSIFIER_H
