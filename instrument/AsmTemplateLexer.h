//===- AsmTemplateLexer.h - The statements of an asm template ---*- C++ -*-===//
//
// An asm template split into statements the way the assembler splits it
// (newlines and ';', comments and strings skipped), with LLVM's template
// syntax resolved: `$$` is a dollar, `$N` and `${N:mod}` are operand
// references, `${:uid}` and `${:private}` are parts of names. The lexer knows
// no target's instructions; the classifiers (AsmClassifier.h) read what it
// gives.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_INSTRUMENT_ASMTEMPLATELEXER_H
#define PCMAP_INSTRUMENT_ASMTEMPLATELEXER_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"

#include <string>

namespace pcmap {

/// One statement of a template, with its operand references marked.
struct AsmStatement {
  std::string Text;
  /// Template offset of each character of Text.
  llvm::SmallVector<size_t, 32> Offsets;

  /// Text as a diagnostic shows it: each operand reference as `$N` or
  /// `$N:mod`, without the surrounding blanks.
  std::string displayText() const;
};

/// The statements of a template, or why the template cannot be read.
struct LexedTemplate {
  llvm::SmallVector<AsmStatement, 8> Statements;
  /// Empty if the whole template was read.
  std::string Problem;
};

/// Splits Template into statements; LineComment starts a comment that runs to
/// the end of the line ("#" on x86, "//" on AArch64).
LexedTemplate lexTemplate(llvm::StringRef Template,
                          llvm::StringRef LineComment);

/// A statement without its labels, split into mnemonic and operands. The
/// operands point into the statement's Text.
struct ParsedStatement {
  size_t Begin = 0;     // index in AsmStatement::Text of the mnemonic
  std::string Mnemonic; // lower case
  size_t OperandsBegin = 0;
  llvm::SmallVector<llvm::StringRef, 4> Operands;
};

ParsedStatement parseStatement(const AsmStatement &S);

/// If Op is exactly one operand reference, its number and modifier.
bool operandReference(llvm::StringRef Op, unsigned &N,
                      llvm::StringRef &Modifier);

/// Whether Op contains an operand reference anywhere.
bool mentionsOperand(llvm::StringRef Op);

/// Adds the names (lower case) of the assembler macros that Text defines.
void collectMacros(llvm::StringRef Text, llvm::StringSet<> &Macros);

} // namespace pcmap

#endif // PCMAP_INSTRUMENT_ASMTEMPLATELEXER_H
