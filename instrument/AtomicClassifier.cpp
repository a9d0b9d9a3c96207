//===- AtomicClassifier.cpp - Which instructions pcmap records ------------===//

#include "AtomicClassifier.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;
using namespace pcmap::format;

namespace pcmap {
namespace {

AtomicOrder toOrder(AtomicOrdering O) {
  switch (O) {
  case AtomicOrdering::NotAtomic:
    return AO_Unknown;
  case AtomicOrdering::Unordered:
    return AO_Unordered;
  case AtomicOrdering::Monotonic:
    return AO_Relaxed;
  case AtomicOrdering::Acquire:
    return AO_Acquire;
  case AtomicOrdering::Release:
    return AO_Release;
  case AtomicOrdering::AcquireRelease:
    return AO_AcqRel;
  case AtomicOrdering::SequentiallyConsistent:
    return AO_SeqCst;
  }
  return AO_Unknown;
}

/// Orders as passed to libatomic (the C11 memory_order values).
AtomicOrder toOrder(const Value *CABIOrder) {
  const auto *C = dyn_cast_or_null<ConstantInt>(CABIOrder);
  if (!C)
    return AO_Unknown;
  switch (C->getZExtValue()) {
  case 0:
    return AO_Relaxed;
  case 1: // consume is strengthened to acquire, as LLVM does
  case 2:
    return AO_Acquire;
  case 3:
    return AO_Release;
  case 4:
    return AO_AcqRel;
  case 5:
    return AO_SeqCst;
  default:
    return AO_Unknown;
  }
}

RMWOp toRMWOp(AtomicRMWInst::BinOp Op) {
  switch (Op) {
  case AtomicRMWInst::Xchg:
    return RMW_Xchg;
  case AtomicRMWInst::Add:
    return RMW_Add;
  case AtomicRMWInst::Sub:
    return RMW_Sub;
  case AtomicRMWInst::And:
    return RMW_And;
  case AtomicRMWInst::Nand:
    return RMW_Nand;
  case AtomicRMWInst::Or:
    return RMW_Or;
  case AtomicRMWInst::Xor:
    return RMW_Xor;
  case AtomicRMWInst::Max:
    return RMW_Max;
  case AtomicRMWInst::Min:
    return RMW_Min;
  case AtomicRMWInst::UMax:
    return RMW_UMax;
  case AtomicRMWInst::UMin:
    return RMW_UMin;
  case AtomicRMWInst::FAdd:
    return RMW_FAdd;
  case AtomicRMWInst::FSub:
    return RMW_FSub;
  case AtomicRMWInst::FMax:
    return RMW_FMax;
  case AtomicRMWInst::FMin:
    return RMW_FMin;
  case AtomicRMWInst::UIncWrap:
    return RMW_UIncWrap;
  case AtomicRMWInst::UDecWrap:
    return RMW_UDecWrap;
#if LLVM_VERSION_MAJOR >= 20
  case AtomicRMWInst::USubCond:
    return RMW_USubCond;
  case AtomicRMWInst::USubSat:
    return RMW_USubSat;
#endif
#if LLVM_VERSION_MAJOR >= 21
  case AtomicRMWInst::FMaximum:
    return RMW_FMaximum;
  case AtomicRMWInst::FMinimum:
    return RMW_FMinimum;
#endif
  default:
    // An operation added after this plugin was written: still an atomic.
    return RMW_Other;
  }
}

uint32_t sizeLog2(uint64_t Bytes) {
  if (Bytes == 0 || !isPowerOf2_64(Bytes) || Log2_64(Bytes) > kMaxSizeLog2)
    return kSizeLog2Other;
  return Log2_64(Bytes);
}

uint32_t sizeLog2(Type *Ty, const DataLayout &DL) {
  return sizeLog2(DL.getTypeStoreSize(Ty).getFixedValue());
}

/// Parses a libatomic entry point name: "__atomic_<op>" (generic, size in
/// the first argument) or "__atomic_<op>_<N>".
std::optional<AtomicDescriptor> classifyLibatomicCall(const CallBase &CB) {
  const Function *Callee = CB.getCalledFunction();
  if (!Callee || Callee->isIntrinsic())
    return std::nullopt;
  StringRef Name = Callee->getName();
  if (!Name.consume_front("__atomic_"))
    return std::nullopt;

  // Split a trailing "_N" size suffix, if any.
  std::optional<uint64_t> SizedBytes;
  size_t Underscore = Name.rfind('_');
  if (Underscore != StringRef::npos) {
    uint64_t N;
    if (!Name.substr(Underscore + 1).getAsInteger(10, N) &&
        (N == 1 || N == 2 || N == 4 || N == 8 || N == 16)) {
      SizedBytes = N;
      Name = Name.substr(0, Underscore);
    }
  }

  AtomicDescriptor D;
  D.Libcall = true;
  // Argument positions of the order(s) differ by entry point; the generic
  // forms take the size first.
  unsigned OrderArg, FailureArg = ~0u;
  bool Generic = !SizedBytes;
  if (Name == "load") {
    D.Kind = AK_Load;
    OrderArg = Generic ? 3 : 1;
  } else if (Name == "store") {
    D.Kind = AK_Store;
    OrderArg = Generic ? 3 : 2;
  } else if (Name == "exchange") {
    D.Kind = AK_RMW;
    D.Op = RMW_Xchg;
    OrderArg = Generic ? 4 : 2;
  } else if (Name == "compare_exchange") {
    D.Kind = AK_CmpXchg;
    OrderArg = Generic ? 4 : 3;
    FailureArg = OrderArg + 1;
  } else if (SizedBytes) {
    // __atomic_fetch_<op>_N and __atomic_<op>_fetch_N.
    StringRef Op = Name;
    if (!Op.consume_front("fetch_") && !Op.consume_back("_fetch"))
      return std::nullopt;
    std::optional<RMWOp> R = StringSwitch<std::optional<RMWOp>>(Op)
                                 .Case("add", RMW_Add)
                                 .Case("sub", RMW_Sub)
                                 .Case("and", RMW_And)
                                 .Case("or", RMW_Or)
                                 .Case("xor", RMW_Xor)
                                 .Case("nand", RMW_Nand)
                                 .Case("max", RMW_Max)
                                 .Case("min", RMW_Min)
                                 .Case("umax", RMW_UMax)
                                 .Case("umin", RMW_UMin)
                                 .Default(std::nullopt);
    if (!R)
      return std::nullopt;
    D.Kind = AK_RMW;
    D.Op = *R;
    OrderArg = 2;
  } else {
    return std::nullopt;
  }

  if (OrderArg >= CB.arg_size() ||
      (FailureArg != ~0u && FailureArg >= CB.arg_size()))
    return std::nullopt;
  D.Order = toOrder(CB.getArgOperand(OrderArg));
  if (FailureArg != ~0u)
    D.FailureOrder = toOrder(CB.getArgOperand(FailureArg));
  if (SizedBytes) {
    D.SizeLog2 = sizeLog2(*SizedBytes);
  } else {
    const auto *Size = dyn_cast<ConstantInt>(CB.getArgOperand(0));
    D.SizeLog2 = Size ? sizeLog2(Size->getZExtValue()) : kSizeLog2Other;
  }
  return D;
}

} // namespace

std::optional<AtomicDescriptor> classifyAtomic(const Instruction &I,
                                               const DataLayout &DL) {
  if (const auto *CB = dyn_cast<CallBase>(&I))
    return classifyLibatomicCall(*CB);

  if (!I.isAtomic())
    return std::nullopt;
  std::optional<SyncScope::ID> Scope = getAtomicSyncScopeID(&I);
  if (!Scope || *Scope == SyncScope::SingleThread)
    return std::nullopt;

  AtomicDescriptor D;
  if (const auto *LI = dyn_cast<LoadInst>(&I)) {
    D.Kind = AK_Load;
    D.SizeLog2 = sizeLog2(LI->getType(), DL);
    D.Order = toOrder(LI->getOrdering());
    D.Volatile = LI->isVolatile();
  } else if (const auto *SI = dyn_cast<StoreInst>(&I)) {
    D.Kind = AK_Store;
    D.SizeLog2 = sizeLog2(SI->getValueOperand()->getType(), DL);
    D.Order = toOrder(SI->getOrdering());
    D.Volatile = SI->isVolatile();
  } else if (const auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
    D.Kind = AK_RMW;
    D.SizeLog2 = sizeLog2(RMW->getValOperand()->getType(), DL);
    D.Order = toOrder(RMW->getOrdering());
    D.Op = toRMWOp(RMW->getOperation());
    D.Volatile = RMW->isVolatile();
  } else if (const auto *CX = dyn_cast<AtomicCmpXchgInst>(&I)) {
    D.Kind = AK_CmpXchg;
    D.SizeLog2 = sizeLog2(CX->getCompareOperand()->getType(), DL);
    D.Order = toOrder(CX->getSuccessOrdering());
    D.FailureOrder = toOrder(CX->getFailureOrdering());
    D.Volatile = CX->isVolatile();
    D.Weak = CX->isWeak();
  } else if (const auto *FI = dyn_cast<FenceInst>(&I)) {
    D.Kind = AK_Fence;
    D.Order = toOrder(FI->getOrdering());
  } else {
    return std::nullopt;
  }
  return D;
}

} // namespace pcmap
