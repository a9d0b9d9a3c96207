//===- AsmClassifier.cpp - What every target's classifier shares ----------===//
//
// The checks that do not depend on the target: directives, macros, and how a
// classifier reports what it found.
//
//===----------------------------------------------------------------------===//

#include "AsmClassifier.h"

#include "llvm/ADT/StringSwitch.h"

using namespace llvm;
using namespace pcmap::format;

namespace pcmap {
namespace {

/// Directives that emit no bytes into the code or only padding: an asm with
/// any other directive is not analysed.
bool isHarmlessDirective(StringRef D) {
  return D.starts_with(".cfi_") ||
         StringSwitch<bool>(D)
             .Case(".align", true)
             .Case(".p2align", true)
             .Case(".balign", true)
             .Case(".balignw", true)
             .Case(".balignl", true)
             .Case(".p2alignw", true)
             .Case(".p2alignl", true)
             .Case(".globl", true)
             .Case(".global", true)
             .Case(".local", true)
             .Case(".weak", true)
             .Case(".hidden", true)
             .Case(".protected", true)
             .Case(".internal", true)
             .Case(".type", true)
             .Case(".size", true)
             .Case(".set", true)
             .Case(".equ", true)
             .Case(".equiv", true)
             .Case(".loc", true)
             .Case(".file", true)
             .Case(".nops", true)
             // What the assembler accepts, not what it emits.
             .Case(".arch", true)
             .Case(".arch_extension", true)
             .Case(".cpu", true)
             .Case(".att_syntax", true)
             .Default(false);
}

} // namespace

bool AsmClassification::isInstruction(const AsmStatement &S,
                                      const ParsedStatement &P) {
  if (P.Mnemonic.empty())
    return false;
  if (P.Mnemonic[0] == '.') {
    if (!isHarmlessDirective(P.Mnemonic))
      fail(S, "directive '" + P.Mnemonic + "'");
    return false;
  }
  if (Macros.contains(P.Mnemonic)) {
    fail(S, "assembler macro '" + P.Mnemonic + "'");
    return false;
  }
  return true;
}

void AsmClassification::fail(const AsmStatement &S, const Twine &Reason) {
  if (!Result.Complete)
    return;
  Result.Complete = false;
  Result.Reason = Reason.str();
  Result.Statement = S.displayText();
}

void AsmClassification::record(size_t Offset, AtomicDescriptor D) {
  D.FromAsm = true;
  Result.Atomics.push_back({Offset, D});
}

uint32_t log2Bytes(unsigned Bytes) {
  switch (Bytes) {
  case 1:
    return 0;
  case 2:
    return 1;
  case 4:
    return 2;
  case 8:
    return 3;
  case 16:
    return 4;
  case 32:
    return 5;
  case 64:
    return 6;
  }
  return kSizeLog2Other;
}

} // namespace pcmap
