//===- AtomicClassifier.cpp - Which instructions pcmap records ------------===//

#include "AtomicClassifier.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
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

uint32_t sizeLog2(Type *Ty, const DataLayout &DL) {
  uint64_t Bytes = DL.getTypeStoreSize(Ty).getFixedValue();
  if (Bytes == 0 || !isPowerOf2_64(Bytes) || Log2_64(Bytes) > kMaxSizeLog2)
    return kSizeLog2Other;
  return Log2_64(Bytes);
}

} // namespace

std::optional<AtomicDescriptor> classifyAtomic(const Instruction &I,
                                               const DataLayout &DL) {
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
