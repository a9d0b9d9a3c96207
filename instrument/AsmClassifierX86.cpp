//===- AsmClassifierX86.cpp - x86 atomics in inline asm (AT&T) ------------===//
//
// An x86 atomic is an instruction with a lock prefix (lock, xacquire,
// xrelease), an xchg with a memory operand, or a fence. Its offset is that of
// its first prefix, where the CPU sees the instruction begin, whether the
// prefix is a statement of its own (`lock; cmpxchgl ...`) or not.
//
//===----------------------------------------------------------------------===//

#include "AsmClassifier.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <optional>

using namespace llvm;
using namespace pcmap::format;

namespace pcmap {
namespace {

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

/// GNU as's REX prefixes as words: rex64, rex, rex.W, rex.WRXB, ...
bool isRexPrefix(StringRef M) {
  if (M == "rex64" || M == "rex")
    return true;
  if (!M.consume_front("rex.") || M.empty() || M.size() > 4)
    return false;
  return M.find_first_not_of("wrxbWRXB") == StringRef::npos;
}

bool isX86Prefix(StringRef M, bool &Locks) {
  Locks = M == "lock" || M == "xacquire" || M == "xrelease";
  return Locks || isRexPrefix(M) ||
         StringSwitch<bool>(M)
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
             .Case("bnd", true)
             .Case("cs", true)
             .Case("ds", true)
             .Case("es", true)
             .Case("fs", true)
             .Case("gs", true)
             .Case("ss", true)
             .Default(false);
}

/// What an operand reference with modifier Mod prints: GCC's x86 operand
/// modifiers (and LLVM's X86AsmPrinter). "a" prints an address, "(%reg)"
/// for a register; "c", "P" and "p" print a constant or symbol without its
/// "$", which AT&T syntax reads as an absolute memory operand; "H" the
/// memory operand 8 bytes on. Modifiers that print a register by its name
/// alone ("V"), a label ("l") or anything else this does not know may be
/// either.
std::optional<OperandKind> modifiedKind(StringRef Mod) {
  if (Mod.empty())
    return std::nullopt;
  if (Mod == "a" || Mod == "c" || Mod == "P" || Mod == "p" || Mod == "H")
    return OperandKind::Memory;
  if (Mod == "b" || Mod == "h" || Mod == "w" || Mod == "k" || Mod == "q" ||
      Mod == "x" || Mod == "t" || Mod == "g")
    return std::nullopt; // the operand, at another size
  return OperandKind::RegisterOrMemory;
}

OperandKind kindOf(const AsmClassification &Out, StringRef Op,
                   unsigned &Bytes) {
  Bytes = 0;
  unsigned N;
  StringRef Mod;
  if (operandReference(Op, N, Mod)) {
    const AsmOperand *Info = Out.operand(N);
    if (!Info)
      return OperandKind::RegisterOrMemory;
    if (std::optional<OperandKind> K = modifiedKind(Mod)) {
      Bytes = *K == OperandKind::Memory && Info->Kind == OperandKind::Memory
                  ? Info->Bytes
                  : 0;
      return *K;
    }
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
  if (mentionsOperand(Op))
    return OperandKind::RegisterOrMemory;
  // A bare symbol or number is an absolute memory operand in AT&T syntax.
  return OperandKind::Memory;
}

/// The access size: the suffix, else a register operand, else the memory
/// operand's type.
uint32_t sizeLog2(const AsmClassification &Out, const ParsedStatement &P,
                  unsigned SuffixBytes) {
  if (SuffixBytes)
    return log2Bytes(SuffixBytes);
  unsigned MemBytes = 0;
  for (StringRef Op : P.Operands) {
    unsigned Bytes;
    OperandKind K = kindOf(Out, Op, Bytes);
    if (K == OperandKind::Register && Bytes)
      return log2Bytes(Bytes);
    if (K == OperandKind::Memory && !MemBytes)
      MemBytes = Bytes;
  }
  return MemBytes ? log2Bytes(MemBytes) : kSizeLog2Other;
}

bool hasMemoryOperand(const AsmClassification &Out, const ParsedStatement &P,
                      bool &Unsure) {
  Unsure = false;
  bool Mem = false;
  for (StringRef Op : P.Operands) {
    unsigned Bytes;
    OperandKind K = kindOf(Out, Op, Bytes);
    Mem |= K == OperandKind::Memory;
    Unsure |= K == OperandKind::RegisterOrMemory;
  }
  return Mem;
}

/// `lock; addl $0,(%rsp)` and friends: a full barrier that touches only
/// the stack.
bool isStackFenceIdiom(StringRef Stem, const ParsedStatement &P) {
  if ((Stem != "add" && Stem != "or") || P.Operands.size() != 2)
    return false;
  StringRef Imm = P.Operands[0];
  StringRef Mem = P.Operands[1];
  return (Imm == "$0" || Imm == "$0x0") &&
         (Mem.ends_with("(%rsp)") || Mem.ends_with("(%esp)"));
}

/// mfence, lfence, sfence: the fence of the instruction at Offset.
void recordFence(AsmClassification &Out, const AsmStatement &S, StringRef M,
                 size_t Offset, bool Locked) {
  if (Locked) {
    Out.fail(S, "lock prefix before '" + M + "'");
    return;
  }
  AtomicDescriptor D;
  D.Kind = AK_Fence;
  // lfence and sfence order loads (resp. stores) only; recorded as
  // fences so that they never read as plain instructions.
  D.Order = M == "mfence" ? AO_SeqCst : M == "lfence" ? AO_Acquire : AO_Release;
  Out.record(Offset, D);
}

/// The instruction P, which begins (with its prefixes) at Offset.
void classifyInstruction(AsmClassification &Out, const AsmStatement &S,
                         const ParsedStatement &P, size_t Offset, bool Locked) {
  StringRef M = P.Mnemonic;
  if (M == "mfence" || M == "lfence" || M == "sfence") {
    recordFence(Out, S, M, Offset, Locked);
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
    if (!hasMemoryOperand(Out, P, Unsure)) {
      if (Unsure)
        Out.fail(S, "xchg with an operand that may be in memory");
      return;
    }
  } else if (!F) {
    Out.fail(S, "lock prefix before '" + M + "'");
    return;
  }
  AtomicDescriptor D;
  D.Order = AO_SeqCst;
  if (Locked && isStackFenceIdiom(Stem, P)) {
    D.Kind = AK_Fence;
    Out.record(Offset, D);
    return;
  }
  D.Kind = F->Kind;
  D.Op = F->Kind == AK_RMW ? F->Op : RMW_Xchg;
  if (F->Kind == AK_CmpXchg)
    D.FailureOrder = AO_SeqCst;
  D.SizeLog2 =
      F->FixedBytes ? log2Bytes(F->FixedBytes) : sizeLog2(Out, P, SuffixBytes);
  Out.record(Offset, D);
}

class X86AsmClassifier final : public AsmClassifier {
public:
  StringRef lineComment() const override { return "#"; }

  bool isMemoryConstraint(StringRef) const override { return false; }

  void classify(ArrayRef<AsmStatement> Statements,
                AsmClassification &Out) const override {
    // Prefixes seen and not yet applied: they may be statements of their own.
    bool Pending = false, PendingLock = false;
    size_t PendingOffset = 0;
    const AsmStatement *PendingStatement = nullptr;
    for (const AsmStatement &S : Statements) {
      ParsedStatement P = parseStatement(S);
      if (P.Mnemonic.empty())
        continue;
      size_t Begin = S.Offsets[P.Begin];
      // Prefixes, as statements of their own or before the mnemonic.
      AsmStatement Cur = S;
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
        AsmStatement Rest;
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
      if (!Out.isInstruction(S, P))
        continue;
      classifyInstruction(Out, S, P, Offset, Locked);
    }
    if (Pending)
      Out.fail(*PendingStatement, "prefix at the end of the asm");
  }
};

} // namespace

const AsmClassifier &x86AsmClassifier() {
  static const X86AsmClassifier Classifier{};
  return Classifier;
}

} // namespace pcmap
