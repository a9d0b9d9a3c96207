//===- outline.cpp - Outline-atomic helpers -------------------------------===//

#include "core/outline.h"

#include "core/publication.h"
#include "core/registry.h"
#include "core/writer.h"
#include "pcmap/Format.h"
#include "platform/platform.h"

namespace pcmap {
namespace rt {

namespace {

/// Helpers of all modules: a module links a few (one per operation, size
/// and order its code uses).
constexpr unsigned kMaxHelpers = 2048;

/// The published helpers, sorted by start; disjoint.
struct HelperIndexCopy {
  uint64_t Count;
  /// kMaxHelpers starts, then as many ends and numbers: mapped by the first
  /// writer (publication.h), null until then; end() and number() only
  /// once Start is not.
  uint64_t *Start;
  uint64_t *end() const { return Start + kMaxHelpers; }
  uint64_t *number() const { return Start + 2 * kMaxHelpers; }
  bool mapEntries() {
    return mapIndexEntries(&Start, 3 * kMaxHelpers * sizeof(uint64_t));
  }
};

Published<HelperIndexCopy> HelperIndex;

/// Writers: entry To of Copy gets the fields of entry From of Source.
/// Readers may be reading Copy (and retry): every store is atomic.
void copyEntry(HelperIndexCopy &Copy, uint64_t To,
               const HelperIndexCopy &Source, uint64_t From) {
  storeRelaxed(&Copy.Start[To], loadRelaxed(&Source.Start[From]));
  storeRelaxed(&Copy.end()[To], loadRelaxed(&Source.end()[From]));
  storeRelaxed(&Copy.number()[To], loadRelaxed(&Source.number()[From]));
}

/// Writers: copies the published index to the next copy.
/// Null if the index has no memory (it stays as it is).
HelperIndexCopy *beginUpdate() {
  const HelperIndexCopy &Current = HelperIndex.current();
  HelperIndexCopy *Next = HelperIndex.next();
  if (!Next)
    return nullptr;
  storeRelaxed(&Next->Count, Current.Count);
  for (uint64_t I = 0; I < Current.Count; ++I)
    copyEntry(*Next, I, Current, I);
  return Next;
}

/// Writers: the position of Start in Copy, or Copy.Count.
uint64_t positionOf(const HelperIndexCopy &Copy, uint64_t Start) {
  for (uint64_t I = 0; I < Copy.Count; ++I)
    if (Copy.Start[I] == Start)
      return I;
  return Copy.Count;
}

void addHelper(HelperIndexCopy &Copy, uint64_t Start, uint64_t End,
               uint32_t Number) {
  if (Copy.Count == kMaxHelpers || positionOf(Copy, Start) != Copy.Count)
    return;
  uint64_t J = openSortedSlot(Copy.Start, Copy.Count, Start, [&](uint64_t K) {
    copyEntry(Copy, K, Copy, K - 1);
  });
  storeRelaxed(&Copy.Start[J], Start);
  storeRelaxed(&Copy.end()[J], End);
  storeRelaxed(&Copy.number()[J], uint64_t(Number));
  storeRelaxed(&Copy.Count, Copy.Count + 1);
}

void removeHelper(HelperIndexCopy &Copy, uint64_t Start) {
  uint64_t J = positionOf(Copy, Start);
  if (J == Copy.Count)
    return;
  for (; J + 1 < Copy.Count; ++J)
    copyEntry(Copy, J, Copy, J + 1);
  storeRelaxed(&Copy.Count, Copy.Count - 1);
}

} // namespace

bool findOutlineHelper(uintptr_t PC, OutlineHelper &Out) {
  return HelperIndex.readRetrying([PC, &Out](const HelperIndexCopy &Copy) {
    uint64_t Base;
    if (!lastAtOrBefore(&Copy.Count, Copy.Start, kMaxHelpers, PC, Base))
      return false;
    Out.Start = loadRelaxed(&Copy.Start[Base]);
    Out.End = loadRelaxed(&Copy.end()[Base]);
    Out.Number = uint32_t(loadRelaxed(&Copy.number()[Base]));
    return PC >= Out.Start && PC < Out.End &&
           Out.Number < format::kNumOutlineHelpers;
  });
}

void fillOutlineAtomic(const OutlineHelper &H, pcmap_atomic &Out) {
  format::AtomicDescriptor D = format::outlineHelperDescriptor(H.Number);
  Out.pc = H.Start;
  Out.kind = D.Kind;
  Out.size = D.sizeInBytes();
  Out.order = D.Order;
  Out.failure_order =
      D.Kind == format::AK_CmpXchg ? uint32_t(D.FailureOrder) : 0;
  Out.rmw_op = D.Kind == format::AK_RMW ? uint32_t(D.Op) : 0;
  Out.flags = PCMAP_ATOMIC_OUTLINE_HELPER;
  fillOutlineFunction(H, Out.function);
  Out.has_function = 1;
}

void fillOutlineFunction(const OutlineHelper &H, pcmap_function &Out) {
  Out.start = H.Start;
  Out.size = H.End - H.Start;
  Out.features = PCMAP_FEATURE_ATOMICS;
  Out.num_atomics = 1;
  Out.source = PCMAP_SOURCE_OUTLINE_HELPER;
  Out.upstream_features = 0;
  Out.upstream_stack_args = 0;
  Out.first_atomic = 0;
  Out.entry = H.Start;
  // The module that linked the helper, when its tables cover it.
  struct Module {
    const char *Path;
    uint64_t Bias;
  };
  Module M = readConsistently([&H](const IndexCopy &Copy) {
    TableView V;
    uint64_t Offset;
    if (!findModuleOfCode(Copy, H.Start, V, Offset))
      return Module{nullptr, 0};
    return Module{V.path(), V.bias()};
  });
  Out.module_path = M.Path;
  Out.module_bias = M.Bias;
}

bool lookupOutlineCallSite(uintptr_t PC, uintptr_t ReturnAddress,
                           pcmap_atomic &Out) {
  OutlineHelper H;
  uintptr_t Call = callSiteOfReturnAddress(ReturnAddress);
  if (!Call || !findOutlineHelper(PC, H) || !pcmap_lookup_atomic(Call, &Out))
    return false;
  Out.flags |= PCMAP_ATOMIC_OUTLINE_CALL;
  return true;
}

uintptr_t attributedPC(const void *SignalContext) {
  uintptr_t PC = signalContextPC(SignalContext);
  pcmap_atomic A;
  if (lookupOutlineCallSite(PC, signalContextReturnAddress(SignalContext), A))
    return A.pc;
  return PC;
}

bool outlineHelperName(const pcmap_atomic &A, char *Buffer, size_t Size) {
  if (!(A.flags & PCMAP_ATOMIC_OUTLINE_HELPER))
    return false;
  for (unsigned I = 0; I < format::kNumOutlineHelpers; ++I) {
    if (!format::outlineHelperExists(I))
      continue;
    format::AtomicDescriptor D = format::outlineHelperDescriptor(I);
    if (D.Kind != A.kind || D.sizeInBytes() != A.size || D.Order != A.order ||
        (D.Kind == format::AK_RMW && D.Op != A.rmw_op))
      continue;
    Text T(Buffer, Size);
    T << format::kOutlineHelperPrefix
      << format::kOutlineOps[format::outlineOp(I)]
      << format::kOutlineSizes[format::outlineSizeLog2(I)] << "_"
      << format::kOutlineOrders[format::outlineOrder(I)];
    return true;
  }
  return false;
}

} // namespace rt
} // namespace pcmap

using namespace pcmap::rt;

#pragma GCC visibility push(default)
extern "C" {

void __pcmap_outline_atomics_add(const void *const *Helpers, uint32_t Count) {
  if (!Helpers)
    return;
  WriterLock Lock;
  HelperIndexCopy *Next = beginUpdate();
  if (!Next)
    return;
  for (uint32_t I = 0; I < Count && I < pcmap::format::kNumOutlineHelpers;
       ++I) {
    uintptr_t Start = uintptr_t(Helpers[I]);
    size_t Size = Start ? outlineHelperSize(Start) : 0;
    if (Size && pcmap::format::outlineHelperExists(I))
      addHelper(*Next, Start, Start + Size, I);
  }
  HelperIndex.publish();
}

void __pcmap_outline_atomics_del(const void *const *Helpers, uint32_t Count) {
  if (!Helpers)
    return;
  WriterLock Lock;
  HelperIndexCopy *Next = beginUpdate();
  if (!Next)
    return;
  for (uint32_t I = 0; I < Count && I < pcmap::format::kNumOutlineHelpers; ++I)
    if (Helpers[I])
      removeHelper(*Next, uintptr_t(Helpers[I]));
  HelperIndex.publish();
}

} // extern "C"
#pragma GCC visibility pop
