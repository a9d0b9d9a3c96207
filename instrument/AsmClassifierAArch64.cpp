//===- AsmClassifierAArch64.cpp - AArch64 atomics in inline asm -----------===//
//
// An AArch64 atomic is an exclusive (ldxr/stxr and their acquire/release and
// pair forms), a load-acquire or store-release, an LSE atomic (ARMv8.1), or a
// barrier (dmb, dsb). Every other load or store is one pcmap knows to be
// plain, or the asm is not analysed: new atomic forms read as unknown.
//
//===----------------------------------------------------------------------===//

#include "AsmClassifier.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <optional>
#include <utility>

using namespace llvm;
using namespace pcmap::format;

namespace pcmap {
namespace {

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

/// The size of the register operand Op (w: 4, x: 8), 0 if not known.
unsigned registerBytes(const AsmClassification &Out, StringRef Op) {
  unsigned N;
  StringRef Mod;
  if (operandReference(Op, N, Mod)) {
    if (Mod == "w")
      return 4;
    if (Mod == "x")
      return 8;
    const AsmOperand *Info = Out.operand(N);
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

/// dmb and dsb: what their option (ld, st, or none) orders.
AtomicDescriptor barrier(const ParsedStatement &P) {
  AtomicDescriptor D;
  D.Kind = AK_Fence;
  StringRef Opt = P.Operands.empty() ? "" : P.Operands[0];
  std::string O = Opt.lower();
  D.Order = StringRef(O).ends_with("ld")   ? AO_Acquire
            : StringRef(O).ends_with("st") ? AO_Release
                                           : AO_SeqCst;
  return D;
}

/// The descriptor of the atomic of form F in statement P.
AtomicDescriptor descriptor(const AsmClassification &Out, const A64Form &F,
                            const ParsedStatement &P) {
  AtomicDescriptor D;
  D.Kind = F.Kind;
  D.Op = F.Op;
  D.Order = F.Order;
  if (D.Kind == AK_CmpXchg)
    D.FailureOrder =
        F.Order == AO_Acquire || F.Order == AO_AcqRel ? AO_Acquire : AO_Relaxed;
  unsigned Bytes = F.FixedBytes;
  if (!Bytes && F.DataOperand < P.Operands.size())
    Bytes = registerBytes(Out, P.Operands[F.DataOperand]);
  if (F.Pair)
    Bytes *= 2;
  D.SizeLog2 = log2Bytes(Bytes);
  return D;
}

class AArch64AsmClassifier final : public AsmClassifier {
public:
  StringRef lineComment() const override { return "//"; }

  bool isMemoryConstraint(StringRef Code) const override {
    return Code == "Q" || Code.starts_with("Um");
  }

  void classify(ArrayRef<AsmStatement> Statements,
                AsmClassification &Out) const override {
    for (const AsmStatement &S : Statements) {
      ParsedStatement P = parseStatement(S);
      if (!Out.isInstruction(S, P))
        continue;
      size_t Offset = S.Offsets[P.Begin];
      StringRef M = P.Mnemonic;
      if (M == "dmb" || M == "dsb") {
        Out.record(Offset, barrier(P));
        continue;
      }
      if (std::optional<A64Form> F = a64Form(M))
        Out.record(Offset, descriptor(Out, *F, P));
      else if ((M.starts_with("ld") || M.starts_with("st") ||
                M.starts_with("cas") || M.starts_with("swp")) &&
               !isPlainA64LoadStore(M))
        Out.fail(S, "unknown load/store mnemonic '" + M + "'");
    }
  }
};

} // namespace

const AsmClassifier &aarch64AsmClassifier() {
  static const AArch64AsmClassifier Classifier{};
  return Classifier;
}

} // namespace pcmap
