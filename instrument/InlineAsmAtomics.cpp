//===- InlineAsmAtomics.cpp - Atomics written in inline asm ---------------===//
//
// An asm template is split into statements the way the assembler splits it
// (newlines and ';', comments and strings skipped), with LLVM's template
// syntax resolved: `$$` is a dollar, `$N` and `${N:mod}` are operands,
// `${:uid}` and `${:private}` are parts of names. Each statement is then
// classified for its target. Anything the classifier is not sure of makes the
// whole template incomplete: pcmap answers "unknown" there, never "not an
// atomic".
//
//===----------------------------------------------------------------------===//

#include "InlineAsmAtomics.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Module.h"

#include <optional>

using namespace llvm;
using namespace pcmap::format;

namespace pcmap {
namespace {

//===----------------------------------------------------------------------===//
// Operands
//===----------------------------------------------------------------------===//

enum class OperandKind { Register, Memory, Immediate, RegisterOrMemory };

struct OperandInfo {
  OperandKind Kind = OperandKind::Register;
  /// Store size of the operand's IR type (the pointee for indirect memory
  /// operands); 0 if unknown.
  unsigned Bytes = 0;
};

OperandKind kindOfCode(StringRef Code, bool AArch64) {
  if (Code.starts_with("{"))
    return OperandKind::Register;
  if (Code == "m" || Code == "o" || Code == "V" || Code == "<" || Code == ">" ||
      (AArch64 && (Code == "Q" || Code.starts_with("Um"))))
    return OperandKind::Memory;
  if (Code == "X" || Code == "g" || Code == "p")
    return OperandKind::RegisterOrMemory;
  if (Code.size() == 1 && StringRef("inesEFIJKLMNOGHZ").contains(Code[0]))
    return OperandKind::Immediate;
  return OperandKind::Register;
}

/// The operands of Call's asm in template numbering (clobbers have none).
SmallVector<OperandInfo, 8> operandsOf(const CallBase &Call, bool AArch64) {
  const auto *IA = cast<InlineAsm>(Call.getCalledOperand());
  const DataLayout &DL = Call.getModule()->getDataLayout();
  SmallVector<OperandInfo, 8> Out;
  unsigned ArgNo = 0, ResultNo = 0;
  for (const InlineAsm::ConstraintInfo &CI : IA->ParseConstraints()) {
    if (CI.Type == InlineAsm::isClobber)
      continue;
    OperandInfo Info;
    Type *Ty = nullptr;
    if (CI.Type == InlineAsm::isLabel) {
      Info.Kind = OperandKind::Immediate;
      Out.push_back(Info);
      continue;
    }
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
    if (Ty && Ty->isSized() && !Ty->isStructTy() && !Ty->isArrayTy())
      Info.Bytes = unsigned(DL.getTypeStoreSize(Ty).getKnownMinValue());

    bool Mem = false, NotMem = false;
    auto Add = [&](const std::vector<std::string> &Codes) {
      for (const std::string &Code : Codes) {
        OperandKind K;
        unsigned Tied;
        if (!StringRef(Code).getAsInteger(10, Tied))
          K = Tied < Out.size() ? Out[Tied].Kind : OperandKind::Register;
        else
          K = kindOfCode(Code, AArch64);
        Mem |= K == OperandKind::Memory || K == OperandKind::RegisterOrMemory;
        NotMem |= K != OperandKind::Memory;
        if (K == OperandKind::Immediate && !Mem)
          Info.Kind = OperandKind::Immediate;
      }
    };
    Add(CI.Codes);
    for (const InlineAsm::SubConstraintInfo &Alt : CI.multipleAlternatives)
      Add(Alt.Codes);
    if (Mem)
      Info.Kind = NotMem ? OperandKind::RegisterOrMemory : OperandKind::Memory;
    else if (Info.Kind != OperandKind::Immediate)
      Info.Kind = OperandKind::Register;
    Out.push_back(Info);
  }
  return Out;
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

// An operand reference `$N` / `${N:mod}` stands in a statement's text as
// kOperandBegin N [':' mod] kOperandEnd.
constexpr char kOperandBegin = '\x01', kOperandEnd = '\x02';

struct Statement {
  std::string Text;
  /// Template offset of each character of Text.
  SmallVector<size_t, 32> Offsets;
};

struct Lexed {
  SmallVector<Statement, 8> Statements;
  std::string Problem;
};

Lexed lexTemplate(StringRef T, bool HashComments) {
  Lexed L;
  Statement Cur;
  auto Put = [&](StringRef S, size_t Off) {
    for (char C : S) {
      Cur.Text.push_back(C);
      Cur.Offsets.push_back(Off);
    }
  };
  auto Flush = [&] {
    L.Statements.push_back(std::move(Cur));
    Cur = Statement();
  };
  auto SkipLine = [&](size_t I) {
    size_t NL = T.find('\n', I);
    return NL == StringRef::npos ? T.size() : NL;
  };
  for (size_t I = 0, E = T.size(); I < E;) {
    char C = T[I];
    char Next = I + 1 < E ? T[I + 1] : '\0';
    if (C == '\n' || C == ';') {
      Flush();
      ++I;
    } else if (C == '"') {
      size_t J = I + 1;
      while (J < E && T[J] != '"')
        J += T[J] == '\\' ? 2 : 1;
      J = std::min(J + 1, E);
      Put(T.slice(I, J), I);
      I = J;
    } else if ((HashComments && C == '#') ||
               (!HashComments && C == '/' && Next == '/')) {
      I = SkipLine(I);
    } else if (C == '/' && Next == '*') {
      size_t End = T.find("*/", I + 2);
      I = End == StringRef::npos ? E : End + 2;
    } else if (C == '$') {
      if (Next == '$') {
        Put("$", I);
        I += 2;
      } else if (isDigit(Next)) {
        size_t J = I + 1;
        while (J < E && isDigit(T[J]))
          ++J;
        Put((Twine(kOperandBegin) + T.slice(I + 1, J) + Twine(kOperandEnd))
                .str(),
            I);
        I = J;
      } else if (Next == '{') {
        size_t End = T.find('}', I);
        if (End == StringRef::npos) {
          L.Problem = "unterminated '${'";
          return L;
        }
        StringRef Body = T.slice(I + 2, End);
        if (Body == ":uid") {
          Put("UID", I);
        } else if (Body == ":private") {
          Put(".L", I);
        } else if (Body == ":comment") {
          End = SkipLine(I) - 1;
        } else if (!Body.empty() && isDigit(Body[0])) {
          Put((Twine(kOperandBegin) + Body + Twine(kOperandEnd)).str(), I);
        } else {
          L.Problem = ("template escape '${" + Body + "}'").str();
          return L;
        }
        I = End + 1;
      } else {
        // `$(`, `$|`, `$)`: alternatives for several asm dialects.
        L.Problem = "dialect alternatives in the template";
        return L;
      }
    } else {
      Put(StringRef(&T.data()[I], 1), I);
      ++I;
    }
  }
  Flush();
  return L;
}

bool isLabelChar(char C) {
  return isAlnum(C) || C == '_' || C == '.' || C == '$';
}

/// A statement without its labels, split into mnemonic and operands.
struct Parsed {
  size_t Begin = 0;     // index in Statement::Text of the mnemonic
  std::string Mnemonic; // lower case
  size_t OperandsBegin = 0;
  SmallVector<StringRef, 4> Operands;
};

Parsed parseStatement(const Statement &S) {
  StringRef T = S.Text;
  Parsed P;
  size_t I = 0;
  auto SkipSpace = [&] {
    while (I < T.size() && isSpace(T[I]))
      ++I;
  };
  SkipSpace();
  for (;;) {
    size_t J = I;
    while (J < T.size() && isLabelChar(T[J]))
      ++J;
    if (J == I || J >= T.size() || T[J] != ':')
      break;
    I = J + 1;
    SkipSpace();
  }
  P.Begin = I;
  size_t J = I;
  while (J < T.size() && !isSpace(T[J]))
    ++J;
  P.Mnemonic = T.slice(I, J).lower();
  I = J;
  SkipSpace();
  P.OperandsBegin = I;
  // Operands, split at commas outside parentheses and brackets.
  StringRef Rest = T.substr(I).rtrim();
  unsigned Depth = 0;
  size_t Start = 0;
  for (size_t K = 0; K < Rest.size(); ++K) {
    char C = Rest[K];
    if (C == '(' || C == '[' || C == '{')
      ++Depth;
    else if ((C == ')' || C == ']' || C == '}') && Depth)
      --Depth;
    else if (C == ',' && !Depth) {
      P.Operands.push_back(Rest.slice(Start, K).trim());
      Start = K + 1;
    }
  }
  if (!Rest.empty())
    P.Operands.push_back(Rest.substr(Start).trim());
  return P;
}

/// If Op is exactly one operand reference, its number and modifier.
bool operandReference(StringRef Op, unsigned &N, StringRef &Modifier) {
  if (Op.size() < 3 || Op.front() != kOperandBegin || Op.back() != kOperandEnd)
    return false;
  StringRef Body = Op.drop_front().drop_back();
  if (Body.contains(kOperandBegin))
    return false;
  auto [Number, Mod] = Body.split(':');
  Modifier = Mod;
  return !Number.getAsInteger(10, N);
}

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

/// Collects the names of assembler macros that Text defines.
void collectMacros(StringRef Text, StringSet<> &Macros) {
  while (!Text.empty()) {
    size_t At = Text.find_insensitive(".macro");
    if (At == StringRef::npos)
      return;
    Text = Text.substr(At + 6);
    if (Text.empty() || !isSpace(Text[0]))
      continue;
    StringRef Name = Text.ltrim();
    Name = Name.take_while([](char C) { return isLabelChar(C); });
    if (!Name.empty())
      Macros.insert(Name.lower());
  }
}

//===----------------------------------------------------------------------===//
// Targets
//===----------------------------------------------------------------------===//

class StatementClassifier {
public:
  StatementClassifier(const SmallVector<OperandInfo, 8> &Operands,
                      const StringSet<> &Macros, AsmAnalysis &Result)
      : Operands(Operands), Macros(Macros), Result(Result) {}

  void fail(const Statement &S, const Twine &Reason) {
    if (!Result.Complete)
      return;
    Result.Complete = false;
    Result.Reason = Reason.str();
    std::string Text;
    for (char C : S.Text) {
      if (C == kOperandBegin)
        Text += '$';
      else if (C != kOperandEnd)
        Text += C;
    }
    Result.Statement = StringRef(Text).trim().str();
  }

  void record(size_t Offset, AtomicDescriptor D) {
    D.FromAsm = true;
    Result.Atomics.push_back({Offset, D});
  }

  /// Common checks. Returns false if the statement needs no more work.
  bool common(const Statement &S, const Parsed &P) {
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

  const OperandInfo *operand(unsigned N) const {
    return N < Operands.size() ? &Operands[N] : nullptr;
  }

  const SmallVector<OperandInfo, 8> &Operands;
  const StringSet<> &Macros;
  AsmAnalysis &Result;
};

//===- x86 (AT&T syntax) -------------------------------------------------===//

unsigned x86RegisterBytes(StringRef Name) {
  std::string Lower = Name.lower();
  StringRef R(Lower);
  if (R.size() >= 2 && R[0] == 'r' && isDigit(R[1])) {
    StringRef Suffix = R.drop_front(1).drop_while(isDigit);
    return StringSwitch<unsigned>(Suffix)
        .Case("", 8)
        .Case("d", 4)
        .Case("w", 2)
        .Case("b", 1)
        .Case("l", 1)
        .Default(0);
  }
  return StringSwitch<unsigned>(R)
      .Case("al", 1)
      .Case("bl", 1)
      .Case("cl", 1)
      .Case("dl", 1)
      .Case("ah", 1)
      .Case("bh", 1)
      .Case("ch", 1)
      .Case("dh", 1)
      .Case("sil", 1)
      .Case("dil", 1)
      .Case("bpl", 1)
      .Case("spl", 1)
      .Case("ax", 2)
      .Case("bx", 2)
      .Case("cx", 2)
      .Case("dx", 2)
      .Case("si", 2)
      .Case("di", 2)
      .Case("bp", 2)
      .Case("sp", 2)
      .Case("eax", 4)
      .Case("ebx", 4)
      .Case("ecx", 4)
      .Case("edx", 4)
      .Case("esi", 4)
      .Case("edi", 4)
      .Case("ebp", 4)
      .Case("esp", 4)
      .Case("rax", 8)
      .Case("rbx", 8)
      .Case("rcx", 8)
      .Case("rdx", 8)
      .Case("rsi", 8)
      .Case("rdi", 8)
      .Case("rbp", 8)
      .Case("rsp", 8)
      .Default(0);
}

/// The x86 instructions a lock prefix may precede: kind and operation.
struct LockedForm {
  AtomicKind Kind;
  RMWOp Op;
  unsigned FixedBytes; // cmpxchg8b/16b
};

std::optional<LockedForm> lockedForm(StringRef Stem) {
  return StringSwitch<std::optional<LockedForm>>(Stem)
      .Case("xchg", LockedForm{AK_RMW, RMW_Xchg, 0})
      .Case("xadd", LockedForm{AK_RMW, RMW_Add, 0})
      .Case("add", LockedForm{AK_RMW, RMW_Add, 0})
      .Case("inc", LockedForm{AK_RMW, RMW_Add, 0})
      .Case("sub", LockedForm{AK_RMW, RMW_Sub, 0})
      .Case("dec", LockedForm{AK_RMW, RMW_Sub, 0})
      .Case("and", LockedForm{AK_RMW, RMW_And, 0})
      .Case("or", LockedForm{AK_RMW, RMW_Or, 0})
      .Case("xor", LockedForm{AK_RMW, RMW_Xor, 0})
      .Case("adc", LockedForm{AK_RMW, RMW_Other, 0})
      .Case("sbb", LockedForm{AK_RMW, RMW_Other, 0})
      .Case("neg", LockedForm{AK_RMW, RMW_Other, 0})
      .Case("not", LockedForm{AK_RMW, RMW_Other, 0})
      .Case("bts", LockedForm{AK_RMW, RMW_Other, 0})
      .Case("btr", LockedForm{AK_RMW, RMW_Other, 0})
      .Case("btc", LockedForm{AK_RMW, RMW_Other, 0})
      .Case("cmpxchg", LockedForm{AK_CmpXchg, RMW_Xchg, 0})
      .Case("cmpxchg8b", LockedForm{AK_CmpXchg, RMW_Xchg, 8})
      .Case("cmpxchg16b", LockedForm{AK_CmpXchg, RMW_Xchg, 16})
      .Default(std::nullopt);
}

/// Splits an x86 mnemonic into a lockable stem and its size suffix (bytes,
/// 0 if none).
std::optional<LockedForm> splitLockable(StringRef M, unsigned &SuffixBytes) {
  SuffixBytes = 0;
  if (std::optional<LockedForm> F = lockedForm(M))
    return F;
  if (M.size() < 2)
    return std::nullopt;
  unsigned Bytes = StringSwitch<unsigned>(M.take_back())
                       .Case("b", 1)
                       .Case("w", 2)
                       .Case("l", 4)
                       .Case("q", 8)
                       .Default(0);
  if (!Bytes)
    return std::nullopt;
  std::optional<LockedForm> F = lockedForm(M.drop_back());
  if (F && !F->FixedBytes)
    SuffixBytes = Bytes;
  return F && !F->FixedBytes ? F : std::nullopt;
}

bool isX86Prefix(StringRef M, bool &Locks) {
  Locks = M == "lock" || M == "xacquire" || M == "xrelease";
  return Locks || StringSwitch<bool>(M)
                      .Case("rep", true)
                      .Case("repe", true)
                      .Case("repz", true)
                      .Case("repne", true)
                      .Case("repnz", true)
                      .Case("data16", true)
                      .Case("data32", true)
                      .Case("addr16", true)
                      .Case("addr32", true)
                      .Case("notrack", true)
                      .Case("cs", true)
                      .Case("ds", true)
                      .Case("es", true)
                      .Case("fs", true)
                      .Case("gs", true)
                      .Case("ss", true)
                      .Default(false);
}

class X86Classifier : public StatementClassifier {
public:
  using StatementClassifier::StatementClassifier;

  OperandKind kindOf(StringRef Op, unsigned &Bytes) const {
    Bytes = 0;
    unsigned N;
    StringRef Mod;
    if (operandReference(Op, N, Mod)) {
      const OperandInfo *Info = operand(N);
      if (!Info)
        return OperandKind::RegisterOrMemory;
      Bytes = Info->Bytes;
      if (Info->Kind == OperandKind::Register)
        Bytes = StringSwitch<unsigned>(Mod)
                    .Case("b", 1)
                    .Case("h", 1)
                    .Case("w", 2)
                    .Case("k", 4)
                    .Case("q", 8)
                    .Default(Bytes);
      return Info->Kind;
    }
    if (Op.contains('('))
      return OperandKind::Memory;
    if (Op.starts_with("%")) {
      Bytes = x86RegisterBytes(Op.drop_front());
      return OperandKind::Register;
    }
    if (Op.starts_with("$"))
      return OperandKind::Immediate;
    if (Op.contains(kOperandBegin))
      return OperandKind::RegisterOrMemory;
    // A bare symbol or number is an absolute memory operand in AT&T syntax.
    return OperandKind::Memory;
  }

  /// The access size: the suffix, else a register operand, else the memory
  /// operand's type.
  uint32_t sizeLog2(const Parsed &P, unsigned SuffixBytes) const {
    if (SuffixBytes)
      return log2Bytes(SuffixBytes);
    unsigned MemBytes = 0;
    for (StringRef Op : P.Operands) {
      unsigned Bytes;
      OperandKind K = kindOf(Op, Bytes);
      if (K == OperandKind::Register && Bytes)
        return log2Bytes(Bytes);
      if (K == OperandKind::Memory && !MemBytes)
        MemBytes = Bytes;
    }
    return MemBytes ? log2Bytes(MemBytes) : kSizeLog2Other;
  }

  bool hasMemoryOperand(const Statement &S, const Parsed &P, bool &Unsure) {
    Unsure = false;
    bool Mem = false;
    for (StringRef Op : P.Operands) {
      unsigned Bytes;
      OperandKind K = kindOf(Op, Bytes);
      Mem |= K == OperandKind::Memory;
      Unsure |= K == OperandKind::RegisterOrMemory;
    }
    return Mem;
  }

  /// `lock; addl $0,(%rsp)` and friends: a full barrier that touches only
  /// the stack.
  static bool isStackFenceIdiom(StringRef Stem, const Parsed &P) {
    if ((Stem != "add" && Stem != "or") || P.Operands.size() != 2)
      return false;
    StringRef Imm = P.Operands[0];
    StringRef Mem = P.Operands[1];
    return (Imm == "$0" || Imm == "$0x0") &&
           (Mem.ends_with("(%rsp)") || Mem.ends_with("(%esp)"));
  }

  void classify(ArrayRef<Statement> Statements) {
    bool Pending = false, PendingLock = false;
    size_t PendingOffset = 0;
    const Statement *PendingStatement = nullptr;
    for (const Statement &S : Statements) {
      Parsed P = parseStatement(S);
      if (P.Mnemonic.empty())
        continue;
      size_t Begin = S.Offsets[P.Begin];
      // Prefixes, as statements of their own or before the mnemonic.
      Statement Cur = S;
      bool Locks;
      while (isX86Prefix(P.Mnemonic, Locks)) {
        if (!Pending) {
          Pending = true;
          PendingOffset = Begin;
        }
        PendingLock |= P.Mnemonic == "lock";
        PendingStatement = &S;
        if (P.OperandsBegin >= Cur.Text.size()) {
          P.Mnemonic.clear();
          break;
        }
        // The rest of the statement is the instruction.
        Statement Rest;
        Rest.Text = Cur.Text.substr(P.OperandsBegin);
        Rest.Offsets.assign(Cur.Offsets.begin() + P.OperandsBegin,
                            Cur.Offsets.end());
        Cur = std::move(Rest);
        P = parseStatement(Cur);
      }
      if (P.Mnemonic.empty())
        continue;
      size_t Offset = Pending ? PendingOffset : Begin;
      bool Locked = PendingLock;
      Pending = PendingLock = false;
      PendingStatement = nullptr;
      if (!common(S, P))
        continue;
      classifyInstruction(S, P, Offset, Locked);
    }
    if (Pending)
      fail(*PendingStatement, "prefix at the end of the asm");
  }

  void classifyInstruction(const Statement &S, const Parsed &P, size_t Offset,
                           bool Locked) {
    StringRef M = P.Mnemonic;
    if (M == "mfence" || M == "lfence" || M == "sfence") {
      if (Locked) {
        fail(S, "lock prefix before '" + M + "'");
        return;
      }
      AtomicDescriptor D;
      D.Kind = AK_Fence;
      // lfence and sfence order loads (resp. stores) only; recorded as
      // fences so that they never read as plain instructions.
      D.Order = M == "mfence"   ? AO_SeqCst
                : M == "lfence" ? AO_Acquire
                                : AO_Release;
      record(Offset, D);
      return;
    }
    unsigned SuffixBytes;
    std::optional<LockedForm> F = splitLockable(M, SuffixBytes);
    StringRef Stem = SuffixBytes ? M.drop_back() : M;
    if (!Locked) {
      // xchg with a memory operand locks without a prefix.
      if (!F || F->Kind != AK_RMW || F->Op != RMW_Xchg)
        return;
      bool Unsure;
      if (!hasMemoryOperand(S, P, Unsure)) {
        if (Unsure)
          fail(S, "xchg with an operand that may be in memory");
        return;
      }
    } else if (!F) {
      fail(S, "lock prefix before '" + M + "'");
      return;
    }
    AtomicDescriptor D;
    D.Order = AO_SeqCst;
    if (Locked && isStackFenceIdiom(Stem, P)) {
      D.Kind = AK_Fence;
      record(Offset, D);
      return;
    }
    D.Kind = F->Kind;
    D.Op = F->Kind == AK_RMW ? F->Op : RMW_Xchg;
    if (F->Kind == AK_CmpXchg)
      D.FailureOrder = AO_SeqCst;
    D.SizeLog2 =
        F->FixedBytes ? log2Bytes(F->FixedBytes) : sizeLog2(P, SuffixBytes);
    record(Offset, D);
  }
};

//===- AArch64 -----------------------------------------------------------===//

struct A64Form {
  AtomicKind Kind;
  RMWOp Op = RMW_Xchg;
  AtomicOrder Order = AO_Relaxed;
  unsigned FixedBytes = 0; // from a b/h suffix
  unsigned DataOperand = 0;
  bool Pair = false;
};

AtomicOrder a64Order(StringRef Suffix) {
  return StringSwitch<AtomicOrder>(Suffix)
      .Case("a", AO_Acquire)
      .Case("l", AO_Release)
      .Case("al", AO_AcqRel)
      .Default(AO_Relaxed);
}

/// Splits Rest into an order suffix from Orders and a size suffix b/h.
bool splitA64Suffixes(StringRef Rest, ArrayRef<StringRef> Orders,
                      bool SizeSuffix, StringRef &Order, unsigned &Bytes) {
  for (StringRef O : Orders) {
    if (!Rest.starts_with(O))
      continue;
    StringRef S = Rest.drop_front(O.size());
    unsigned B = StringSwitch<unsigned>(S)
                     .Case("", 0)
                     .Case("b", SizeSuffix ? 1 : ~0u)
                     .Case("h", SizeSuffix ? 2 : ~0u)
                     .Default(~0u);
    if (B == ~0u)
      continue;
    Order = O;
    Bytes = B;
    return true;
  }
  return false;
}

/// Exclusives and load-acquire/store-release, with b/h size suffixes.
std::optional<A64Form> a64OrderedForm(StringRef M) {
  struct Named {
    StringRef Base;
    AtomicKind Kind;
    AtomicOrder Order;
    unsigned DataOperand;
    bool Pair;
  };
  static const Named Table[] = {
      {"ldxr", AK_Load, AO_Relaxed, 0, false},
      {"ldaxr", AK_Load, AO_Acquire, 0, false},
      {"stxr", AK_Store, AO_Relaxed, 1, false},
      {"stlxr", AK_Store, AO_Release, 1, false},
      {"ldxp", AK_Load, AO_Relaxed, 0, true},
      {"ldaxp", AK_Load, AO_Acquire, 0, true},
      {"stxp", AK_Store, AO_Relaxed, 1, true},
      {"stlxp", AK_Store, AO_Release, 1, true},
      {"ldar", AK_Load, AO_Acquire, 0, false},
      {"ldapr", AK_Load, AO_Acquire, 0, false},
      {"ldapur", AK_Load, AO_Acquire, 0, false},
      {"ldlar", AK_Load, AO_Acquire, 0, false},
      {"stlr", AK_Store, AO_Release, 0, false},
      {"stlur", AK_Store, AO_Release, 0, false},
      {"stllr", AK_Store, AO_Release, 0, false},
  };
  for (const Named &N : Table) {
    if (!M.starts_with(N.Base))
      continue;
    StringRef Rest = M.drop_front(N.Base.size());
    unsigned Bytes = StringSwitch<unsigned>(Rest)
                         .Case("", 0)
                         .Case("b", 1)
                         .Case("sb", 1)
                         .Case("h", 2)
                         .Case("sh", 2)
                         .Case("sw", 4)
                         .Default(~0u);
    if (Bytes == ~0u || (N.Pair && Bytes) ||
        (Rest.starts_with("s") && N.Base != "ldapur"))
      continue;
    A64Form F{N.Kind};
    F.Order = N.Order;
    F.FixedBytes = Bytes;
    F.DataOperand = N.DataOperand;
    F.Pair = N.Pair;
    return F;
  }
  return std::nullopt;
}

/// The LSE atomics (ARMv8.1): CAS, CASP, SWP and the LD<op>/ST<op> family.
std::optional<A64Form> a64LSEForm(StringRef M) {
  static const StringRef AllOrders[] = {"al", "a", "l", ""};
  static const StringRef StoreOrders[] = {"l", ""};
  StringRef Order;
  unsigned Bytes;
  if (M.starts_with("casp") &&
      splitA64Suffixes(M.drop_front(4), AllOrders, false, Order, Bytes)) {
    A64Form F{AK_CmpXchg};
    F.Order = a64Order(Order);
    F.Pair = true;
    return F;
  }
  if (M.starts_with("cas") &&
      splitA64Suffixes(M.drop_front(3), AllOrders, true, Order, Bytes)) {
    A64Form F{AK_CmpXchg};
    F.Order = a64Order(Order);
    F.FixedBytes = Bytes;
    return F;
  }
  if (M.starts_with("swp") &&
      splitA64Suffixes(M.drop_front(3), AllOrders, true, Order, Bytes)) {
    A64Form F{AK_RMW, RMW_Xchg, a64Order(Order), Bytes};
    return F;
  }
  static const std::pair<StringRef, RMWOp> Ops[] = {
      {"add", RMW_Add},   {"clr", RMW_Other}, {"eor", RMW_Xor},
      {"set", RMW_Or},    {"smax", RMW_Max},  {"smin", RMW_Min},
      {"umax", RMW_UMax}, {"umin", RMW_UMin}};
  for (const auto &[Name, Op] : Ops) {
    for (bool Load : {true, false}) {
      StringRef Stem = Load ? "ld" : "st";
      if (!M.starts_with(Stem) || !M.drop_front(2).starts_with(Name))
        continue;
      StringRef Rest = M.drop_front(2 + Name.size());
      if (Load ? splitA64Suffixes(Rest, AllOrders, true, Order, Bytes)
               : splitA64Suffixes(Rest, StoreOrders, true, Order, Bytes))
        return A64Form{AK_RMW, Op, a64Order(Order), Bytes};
    }
  }
  return std::nullopt;
}

std::optional<A64Form> a64Form(StringRef M) {
  if (std::optional<A64Form> F = a64OrderedForm(M))
    return F;
  return a64LSEForm(M);
}

/// Loads and stores that are not atomics. Any other mnemonic starting with
/// ld, st, cas or swp is not analysed: new atomic forms read as unknown.
bool isPlainA64LoadStore(StringRef M) {
  if (M.size() == 3 && (M.starts_with("ld") || M.starts_with("st")) &&
      M[2] >= '1' && M[2] <= '4')
    return true; // ld1..ld4, st1..st4
  if (M.size() == 4 && M.starts_with("ld") && M[2] >= '1' && M[2] <= '4' &&
      M[3] == 'r')
    return true; // ld1r..ld4r
  return StringSwitch<bool>(M)
      .Case("ldr", true)
      .Case("ldrb", true)
      .Case("ldrh", true)
      .Case("ldrsb", true)
      .Case("ldrsh", true)
      .Case("ldrsw", true)
      .Case("ldur", true)
      .Case("ldurb", true)
      .Case("ldurh", true)
      .Case("ldursb", true)
      .Case("ldursh", true)
      .Case("ldursw", true)
      .Case("ldp", true)
      .Case("ldpsw", true)
      .Case("ldnp", true)
      .Case("str", true)
      .Case("strb", true)
      .Case("strh", true)
      .Case("stur", true)
      .Case("sturb", true)
      .Case("sturh", true)
      .Case("stp", true)
      .Case("stnp", true)
      .Case("ldtr", true)
      .Case("ldtrb", true)
      .Case("ldtrh", true)
      .Case("ldtrsb", true)
      .Case("ldtrsh", true)
      .Case("ldtrsw", true)
      .Case("sttr", true)
      .Case("sttrb", true)
      .Case("sttrh", true)
      .Case("ldg", true)
      .Case("ldgm", true)
      .Case("stg", true)
      .Case("stzg", true)
      .Case("st2g", true)
      .Case("stz2g", true)
      .Case("stgp", true)
      .Case("stgm", true)
      .Case("ldraa", true)
      .Case("ldrab", true)
      .Default(false);
}

class AArch64Classifier : public StatementClassifier {
public:
  using StatementClassifier::StatementClassifier;

  unsigned registerBytes(StringRef Op) const {
    unsigned N;
    StringRef Mod;
    if (operandReference(Op, N, Mod)) {
      if (Mod == "w")
        return 4;
      if (Mod == "x")
        return 8;
      const OperandInfo *Info = operand(N);
      return Info && Info->Kind == OperandKind::Register ? Info->Bytes : 0;
    }
    Op = Op.trim();
    std::string L = Op.lower();
    StringRef R(L);
    if (R == "wzr" || R == "wsp" ||
        (R.consume_front("w") && !R.empty() && all_of(R, isDigit)))
      return 4;
    R = L;
    if (R == "xzr" || R == "sp" ||
        (R.consume_front("x") && !R.empty() && all_of(R, isDigit)))
      return 8;
    return 0;
  }

  void classify(ArrayRef<Statement> Statements) {
    for (const Statement &S : Statements) {
      Parsed P = parseStatement(S);
      if (!common(S, P))
        continue;
      size_t Offset = S.Offsets[P.Begin];
      StringRef M = P.Mnemonic;
      if (M == "dmb" || M == "dsb") {
        AtomicDescriptor D;
        D.Kind = AK_Fence;
        StringRef Opt = P.Operands.empty() ? "" : P.Operands[0];
        std::string O = Opt.lower();
        D.Order = StringRef(O).ends_with("ld")   ? AO_Acquire
                  : StringRef(O).ends_with("st") ? AO_Release
                                                 : AO_SeqCst;
        record(Offset, D);
        continue;
      }
      std::optional<A64Form> F = a64Form(M);
      if (!F) {
        if ((M.starts_with("ld") || M.starts_with("st") ||
             M.starts_with("cas") || M.starts_with("swp")) &&
            !isPlainA64LoadStore(M))
          fail(S, "unknown load/store mnemonic '" + M + "'");
        continue;
      }
      AtomicDescriptor D;
      D.Kind = F->Kind;
      D.Op = F->Op;
      D.Order = F->Order;
      if (D.Kind == AK_CmpXchg)
        D.FailureOrder = F->Order == AO_Acquire || F->Order == AO_AcqRel
                             ? AO_Acquire
                             : AO_Relaxed;
      unsigned Bytes = F->FixedBytes;
      if (!Bytes && F->DataOperand < P.Operands.size())
        Bytes = registerBytes(P.Operands[F->DataOperand]);
      if (F->Pair)
        Bytes *= 2;
      D.SizeLog2 = log2Bytes(Bytes);
      record(Offset, D);
    }
  }
};

} // namespace

InlineAsmAnalyzer::InlineAsmAnalyzer(const Module &M)
    : TT(M.getTargetTriple()), M(M) {
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
  const auto *IA = cast<InlineAsm>(Call.getCalledOperand());
  bool X86 = TT.isX86(), AArch64 = TT.isAArch64();
  Lexed L = lexTemplate(Template, /*HashComments=*/!AArch64);
  if (!L.Problem.empty()) {
    Result.Complete = false;
    Result.Reason = L.Problem;
    Result.Statement = Template.trim().str();
    return Result;
  }
  SmallVector<OperandInfo, 8> Operands = operandsOf(Call, AArch64);
  if (X86 && IA->getDialect() == InlineAsm::AD_ATT) {
    X86Classifier(Operands, Macros, Result).classify(L.Statements);
  } else if (AArch64) {
    AArch64Classifier(Operands, Macros, Result).classify(L.Statements);
  } else {
    // Not analysed: only an asm without instructions is complete.
    StatementClassifier C(Operands, Macros, Result);
    for (const Statement &S : L.Statements)
      if (!parseStatement(S).Mnemonic.empty())
        C.fail(S,
               X86 ? Twine("Intel syntax is not analysed")
                   : "inline asm for " + TT.getArchName() + " is not analysed");
  }
  if (!Result.Complete)
    Result.Atomics.clear();
  return Result;
}

} // namespace pcmap
