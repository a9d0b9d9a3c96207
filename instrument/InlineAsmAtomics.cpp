//===- InlineAsmAtomics.cpp - Atomics written in inline asm ---------------===//
//
// What ties the lexer and the classifiers together: it reads from the call
// what the classifiers need (the template's operands, from their constraints
// and IR types), lexes the template (AsmTemplateLexer.h) and hands its
// statements to the classifier of the module's target (AsmClassifier.h).
// Anything a classifier is not sure of makes the whole template incomplete:
// pcmap answers "unknown" there, never "not an atomic".
//
//===----------------------------------------------------------------------===//

#include "InlineAsmAtomics.h"

#include "AsmClassifier.h"
#include "AsmTemplateLexer.h"

#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace pcmap {
namespace {

/// The operand kind one constraint code asks for; Target adds its own memory
/// constraints to LLVM's generic ones.
OperandKind kindOfCode(StringRef Code, const AsmClassifier *Target) {
  if (Code.starts_with("{"))
    return OperandKind::Register;
  if (Code == "m" || Code == "o" || Code == "V" || Code == "<" || Code == ">" ||
      (Target && Target->isMemoryConstraint(Code)))
    return OperandKind::Memory;
  if (Code == "X" || Code == "g" || Code == "p")
    return OperandKind::RegisterOrMemory;
  if (Code.size() == 1 && StringRef("inesEFIJKLMNOGHZ").contains(Code[0]))
    return OperandKind::Immediate;
  return OperandKind::Register;
}

/// The kind of operand CI asks for, from all its codes and alternatives; a
/// tied code ("0") takes the kind of the operand in Earlier it names.
OperandKind kindOfConstraint(const InlineAsm::ConstraintInfo &CI,
                             ArrayRef<AsmOperand> Earlier,
                             const AsmClassifier *Target) {
  OperandKind Kind = OperandKind::Register;
  bool Mem = false, NotMem = false;
  auto Add = [&](const std::vector<std::string> &Codes) {
    for (const std::string &Code : Codes) {
      OperandKind K;
      unsigned Tied;
      if (!StringRef(Code).getAsInteger(10, Tied))
        K = Tied < Earlier.size() ? Earlier[Tied].Kind : OperandKind::Register;
      else
        K = kindOfCode(Code, Target);
      Mem |= K == OperandKind::Memory || K == OperandKind::RegisterOrMemory;
      NotMem |= K != OperandKind::Memory;
      if (K == OperandKind::Immediate && !Mem)
        Kind = OperandKind::Immediate;
    }
  };
  Add(CI.Codes);
  for (const InlineAsm::SubConstraintInfo &Alt : CI.multipleAlternatives)
    Add(Alt.Codes);
  if (Mem)
    return NotMem ? OperandKind::RegisterOrMemory : OperandKind::Memory;
  return Kind;
}

/// The IR type of the operand CI describes (the pointee for indirect memory
/// operands), null if unknown. ArgNo and ResultNo count the call's arguments
/// and results that earlier operands took.
Type *operandType(const CallBase &Call, const InlineAsm::ConstraintInfo &CI,
                  unsigned &ArgNo, unsigned &ResultNo) {
  Type *Ty = nullptr;
  if (CI.Type == InlineAsm::isOutput && !CI.isIndirect) {
    Type *RetTy = Call.getType();
    if (auto *ST = dyn_cast<StructType>(RetTy))
      Ty = ResultNo < ST->getNumElements() ? ST->getElementType(ResultNo)
                                           : nullptr;
    else if (!RetTy->isVoidTy())
      Ty = RetTy;
    ++ResultNo;
  } else if (ArgNo < Call.arg_size()) {
    Ty = CI.isIndirect ? Call.getParamElementType(ArgNo)
                       : Call.getArgOperand(ArgNo)->getType();
    ++ArgNo;
  }
  return Ty;
}

/// The operands of Call's asm in template numbering (clobbers have none).
SmallVector<AsmOperand, 8> operandsOf(const CallBase &Call,
                                      const AsmClassifier *Target) {
  const auto *IA = cast<InlineAsm>(Call.getCalledOperand());
  const DataLayout &DL = Call.getModule()->getDataLayout();
  SmallVector<AsmOperand, 8> Out;
  unsigned ArgNo = 0, ResultNo = 0;
  for (const InlineAsm::ConstraintInfo &CI : IA->ParseConstraints()) {
    if (CI.Type == InlineAsm::isClobber)
      continue;
    AsmOperand Info;
    if (CI.Type == InlineAsm::isLabel) {
      Info.Kind = OperandKind::Immediate;
      Out.push_back(Info);
      continue;
    }
    Type *Ty = operandType(Call, CI, ArgNo, ResultNo);
    if (Ty && Ty->isSized() && !Ty->isStructTy() && !Ty->isArrayTy())
      Info.Bytes = unsigned(DL.getTypeStoreSize(Ty).getKnownMinValue());
    Info.Kind = kindOfConstraint(CI, Out, Target);
    Out.push_back(Info);
  }
  return Out;
}

/// The classifier of TT's instructions, null for a target pcmap does not
/// read.
const AsmClassifier *classifierFor(const Triple &TT) {
  if (TT.isX86())
    return &x86AsmClassifier();
  if (TT.isAArch64())
    return &aarch64AsmClassifier();
  return nullptr;
}

/// An asm that pcmap does not read is complete only without instructions.
void failAnyInstruction(ArrayRef<AsmStatement> Statements,
                        AsmClassification &Out, const Twine &Reason) {
  for (const AsmStatement &S : Statements)
    if (!parseStatement(S).Mnemonic.empty())
      Out.fail(S, Reason);
}

} // namespace

InlineAsmAnalyzer::InlineAsmAnalyzer(const Module &M)
    : TT(M.getTargetTriple()), Classifier(classifierFor(TT)) {
  collectMacros(M.getModuleInlineAsm(), Macros);
  for (const Function &F : M)
    for (const BasicBlock &BB : F)
      for (const Instruction &I : BB)
        if (const auto *Call = dyn_cast<CallBase>(&I))
          if (const auto *IA = dyn_cast<InlineAsm>(Call->getCalledOperand()))
            collectMacros(IA->getAsmString(), Macros);
}

AsmAnalysis InlineAsmAnalyzer::analyze(const CallBase &Call,
                                       StringRef Template) const {
  AsmAnalysis Result;
  // Without a classifier, '#' starts a comment, as in most GNU assemblers.
  LexedTemplate L =
      lexTemplate(Template, Classifier ? Classifier->lineComment() : "#");
  if (!L.Problem.empty()) {
    Result.Complete = false;
    Result.Reason = L.Problem;
    Result.Statement = Template.trim().str();
    return Result;
  }
  SmallVector<AsmOperand, 8> Operands = operandsOf(Call, Classifier);
  AsmClassification Out(Operands, Macros, Result);
  // The x86 classifier reads AT&T syntax; Intel syntax is not analysed.
  const auto *IA = cast<InlineAsm>(Call.getCalledOperand());
  bool Intel = TT.isX86() && IA->getDialect() != InlineAsm::AD_ATT;
  if (Classifier && !Intel)
    Classifier->classify(L.Statements, Out);
  else if (Intel)
    failAnyInstruction(L.Statements, Out, "Intel syntax is not analysed");
  else
    failAnyInstruction(L.Statements, Out,
                       "inline asm for " + TT.getArchName() +
                           " is not analysed");
  if (!Result.Complete)
    Result.Atomics.clear();
  return Result;
}

} // namespace pcmap
