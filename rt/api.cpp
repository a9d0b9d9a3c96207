//===- api.cpp - The C interface (include/pcmap/pcmap.h)
//-------------------===//
//
// Queries: find the module, then the function and the atomic through the
// module's bucket indexes, all inside readConsistently (registry.h).
//
//===----------------------------------------------------------------------===//

#include "pcmap/pcmap.h"

#include "log.h"
#include "options.h"
#include "pcmap/Format.h"
#include "pcmap/pcmap_testing.h"
#include "registry.h"
#include "table.h"

using namespace pcmap::rt;
using namespace pcmap::format;

namespace {

struct Located {
  bool Found = false;
  TableView View;
  uint32_t Offset = 0; // PC - TextLo
};

/// The module of PC.
__attribute__((always_inline)) inline Located locate(const IndexCopy &Copy,
                                                     uintptr_t PC) {
  Located L;
  uint64_t Offset;
  L.Found = findModule(Copy, PC, L.View, Offset);
  L.Offset = uint32_t(Offset);
  return L;
}

/// The atomic at exactly L's offset, or -1: one compare of the window.
__attribute__((always_inline)) inline int64_t atomicAt(const Located &L,
                                                       const Stretch &E) {
  if (__builtin_expect(E.listed(), 1)) {
    uint32_t Lanes =
        matchWindow(L.View, E.firstAtomic(), L.Offset) & E.windowLanes();
    return Lanes ? int64_t(E.firstAtomic()) + __builtin_ctz(Lanes) : -1;
  }
  int64_t A = lastAtomicAtOrBefore(L.View, L.Offset);
  return A >= 0 && loadAtomicOffset(L.View, uint64_t(A)) == L.Offset ? A : -1;
}

/// The function holding L's offset, if any, searched for: the stretch's
/// entry does not describe it.
__attribute__((noinline)) int64_t searchFunction(const Located &L,
                                                 FunctionBounds &B) {
  int64_t F = lastFunctionAtOrBefore(L.View, L.Offset);
  if (F < 0)
    return -1;
  B = loadFunctionBounds(L.View, uint64_t(F));
  return L.Offset - B.Start < B.Size ? F : -1;
}

/// The function holding L's offset, if any: its index and bounds.
__attribute__((always_inline)) inline int64_t
functionAt(const Located &L, const Stretch &E, FunctionBounds &B) {
  unsigned Seg = E.segment(uint8_t(L.Offset));
  if (__builtin_expect(!E.described(), 0))
    return searchFunction(L, B);
  if (!(E.state(Seg) & kSegmentFunction))
    return -1;
  uint64_t F = E.functionOf(Seg);
  // Checked all the same: a reader that raced with an update may have read
  // garbage, and must not index out of the table.
  if (F >= L.View.NumFunctions)
    return -1;
  B = loadFunctionBounds(L.View, F);
  return L.Offset - B.Start < B.Size ? int64_t(F) : -1;
}

__attribute__((always_inline)) inline Stretch stretchOf(const Located &L) {
  return loadStretch(L.View, L.Offset >> kStretchShift);
}

/// is_atomic where the stretch's entry and window do not tell.
__attribute__((noinline)) int searchIsAtomic(const Located &L,
                                             const Stretch &E) {
  if (atomicAt(L, E) >= 0)
    return PCMAP_YES;
  FunctionBounds B;
  if (functionAt(L, E, B) >= 0 && (B.Features & kFeatureAtomics))
    return PCMAP_NO;
  return PCMAP_UNKNOWN;
}

void fillFunction(const TableView &V, const FunctionRecord &R,
                  pcmap_function &Out) {
  Out.start = uintptr_t(V.TextLo + R.Start);
  Out.size = R.Size;
  Out.features = R.Features & kKnownFeatures;
  Out.num_atomics =
      R.AtomicsEnd >= R.AtomicsBegin ? R.AtomicsEnd - R.AtomicsBegin : 0;
  Out.source = R.Source;
  Out.upstream_features = R.UpstreamFeatures;
  Out.upstream_stack_args = R.UpstreamStackArgs;
  Out.module_path = static_cast<const char *>(arenaPointer(V.path()));
  Out.module_bias = uintptr_t(V.bias());
  Out.first_atomic = R.AtomicsBegin;
}

void fillAtomic(const Located &L, uint64_t I, pcmap_atomic &Out) {
  uint32_t Offset = loadAtomicOffset(L.View, I);
  uint32_t Desc = loadAtomicDescriptor(L.View, I);
  Out = pcmap_atomic();
  Out.pc = uintptr_t(L.View.TextLo + Offset);
  AtomicDescriptor D;
  if (Desc == kUpstreamDescriptor || !decodeDescriptor(Desc, D)) {
    Out.kind = PCMAP_KIND_UNKNOWN;
    Out.flags = PCMAP_ATOMIC_UPSTREAM;
  } else {
    Out.kind = D.Kind;
    Out.size = D.Kind == AK_Fence ? 0 : D.sizeInBytes();
    Out.order = D.Order;
    Out.failure_order = D.FailureOrder;
    Out.rmw_op = D.Kind == AK_RMW ? D.Op : 0;
    Out.flags = (D.Volatile ? PCMAP_ATOMIC_VOLATILE : 0) |
                (D.Weak ? PCMAP_ATOMIC_WEAK : 0);
  }
  FunctionBounds B;
  int64_t F = functionAt(L, stretchOf(L), B);
  Out.has_function = F >= 0;
  if (F >= 0)
    fillFunction(L.View, loadFunction(L.View, uint64_t(F)), Out.function);
}

} // namespace

// The interface is what the library exports; everything else is hidden.
#pragma GCC visibility push(default)
extern "C" {

int pcmap_is_atomic_pc(uintptr_t PC) {
  return readConsistently([PC](const IndexCopy &Copy) {
    Located L = locate(Copy, PC);
    if (!L.Found)
      return PCMAP_UNKNOWN;
    Stretch E = stretchOf(L);
    // The window holds the stretch's atomics, and the entry its layout:
    // whether the offset is an atomic and, if not, whether its segment lies
    // in a function complete for atomics, which makes the answer NO rather
    // than UNKNOWN. Computed without a branch on the answer (see table.h),
    // only on whether the entry had it all.
    static_assert(PCMAP_YES == 1 && PCMAP_NO == 0 && PCMAP_UNKNOWN == -1,
                  "the answer is Hit - (!Hit & !Complete)");
    unsigned Hit = unsigned((matchWindow(L.View, E.firstAtomic(), L.Offset) &
                             E.windowLanes()) != 0);
    unsigned Complete =
        unsigned(E.state(E.segment(uint8_t(L.Offset))) == kSegmentComplete);
    if (__builtin_expect(E.listed() & (Hit | unsigned(E.described())), 1))
      return int(Hit) - int(~Hit & ~Complete & 1);
    return searchIsAtomic(L, E);
  });
}

int pcmap_lookup_atomic(uintptr_t PC, struct pcmap_atomic *Out) {
  if (!Out)
    return 0;
  return readConsistently([PC, Out](const IndexCopy &Copy) {
    Located L = locate(Copy, PC);
    int64_t A = L.Found ? atomicAt(L, stretchOf(L)) : -1;
    if (A < 0)
      return 0;
    fillAtomic(L, uint64_t(A), *Out);
    return 1;
  });
}

int pcmap_lookup_atomic_before(uintptr_t PC, unsigned MaxBytes,
                               struct pcmap_atomic *Out) {
  if (!Out || !MaxBytes || !PC)
    return 0;
  return readConsistently([PC, MaxBytes, Out](const IndexCopy &Copy) {
    // The instruction before PC ends at PC: look from PC - 1 backwards, in
    // the function that holds PC - 1.
    Located L = locate(Copy, PC - 1);
    FunctionBounds B;
    if (!L.Found || functionAt(L, stretchOf(L), B) < 0)
      return 0;
    int64_t A = lastAtomicAtOrBefore(L.View, L.Offset);
    if (A < 0)
      return 0;
    uint32_t Offset = loadAtomicOffset(L.View, uint64_t(A));
    // Offset <= PC - 1; within MaxBytes of PC and inside the function.
    if (uint64_t(L.Offset) + 1 - Offset > MaxBytes || Offset < B.Start)
      return 0;
    fillAtomic(L, uint64_t(A), *Out);
    return 1;
  });
}

int pcmap_lookup_function(uintptr_t PC, struct pcmap_function *Out) {
  if (!Out)
    return 0;
  return readConsistently([PC, Out](const IndexCopy &Copy) {
    Located L = locate(Copy, PC);
    FunctionBounds B;
    int64_t F = L.Found ? functionAt(L, stretchOf(L), B) : -1;
    if (F < 0)
      return 0;
    fillFunction(L.View, loadFunction(L.View, uint64_t(F)), *Out);
    return 1;
  });
}

int pcmap_module_at(size_t Index, struct pcmap_module *Out) {
  if (!Out)
    return 0;
  return readConsistently([Index, Out](const IndexCopy &Copy) {
    uint64_t N = loadRelaxed(&Copy.Count);
    if (Index >= N || Index >= kMaxModules)
      return 0;
    TableView V;
    readTableView(loadRelaxed(&Copy.View[Index].Table), V);
    Out->path = static_cast<const char *>(arenaPointer(V.path()));
    Out->bias = uintptr_t(V.bias());
    Out->text_start = uintptr_t(V.TextLo);
    Out->text_end = uintptr_t(V.TextLo + V.TextSize);
    Out->num_functions = size_t(V.NumFunctions);
    Out->num_atomics = size_t(V.numAtomics());
    return 1;
  });
}

int pcmap_function_at(uintptr_t ModuleTextStart, size_t Index,
                      struct pcmap_function *Out) {
  if (!Out)
    return 0;
  return readConsistently([ModuleTextStart, Index, Out](const IndexCopy &Copy) {
    Located L = locate(Copy, ModuleTextStart);
    if (!L.Found || L.View.TextLo != ModuleTextStart ||
        Index >= L.View.NumFunctions)
      return 0;
    fillFunction(L.View, loadFunction(L.View, Index), *Out);
    return 1;
  });
}

int pcmap_atomic_at(uintptr_t ModuleTextStart, size_t Index,
                    struct pcmap_atomic *Out) {
  if (!Out)
    return 0;
  return readConsistently([ModuleTextStart, Index, Out](const IndexCopy &Copy) {
    Located L = locate(Copy, ModuleTextStart);
    if (!L.Found || L.View.TextLo != ModuleTextStart ||
        Index >= L.View.numAtomics())
      return 0;
    L.Offset = loadAtomicOffset(L.View, Index);
    fillAtomic(L, Index, *Out);
    return 1;
  });
}

void pcmap_get_stats(struct pcmap_stats *Out) {
  if (!Out)
    return;
  Out->modules = size_t(loadRelaxed(&Stats.Modules));
  Out->functions = size_t(loadRelaxed(&Stats.Functions));
  Out->atomics = size_t(loadRelaxed(&Stats.Atomics));
  Out->table_bytes = size_t(loadRelaxed(&Stats.TableBytes));
  Out->sections = size_t(loadRelaxed(&Stats.Sections));
  Out->sections_rejected = size_t(loadRelaxed(&Stats.SectionsRejected));
  Out->entries_rejected = size_t(loadRelaxed(&Stats.EntriesRejected));
  Out->generation = size_t(__atomic_load_n(&Generation, __ATOMIC_ACQUIRE));
}

#define PCMAP_CALLBACKS(Name, AddKind)                                         \
  void Name##_add(uint32_t V, const char *Start, const char *Stop) {           \
    addSection(AddKind, V, Start, Stop);                                       \
  }                                                                            \
  void Name##_del(uint32_t V, const char *Start, const char *Stop) {           \
    removeSection(AddKind, V, Start, Stop);                                    \
  }
PCMAP_CALLBACKS(__pcmap_atomics, SectionKind::PCMapAtomics)
PCMAP_CALLBACKS(__pcmap_functions, SectionKind::PCMapFunctions)
PCMAP_CALLBACKS(__sanitizer_metadata_atomics, SectionKind::SanmdAtomics)
PCMAP_CALLBACKS(__sanitizer_metadata_covered, SectionKind::SanmdCovered)
#undef PCMAP_CALLBACKS

int __pcmap_testing_add_fake_module(const void *SectionStart,
                                    const void *SectionEnd, uintptr_t TextStart,
                                    uintptr_t TextEnd, const char *Name) {
  return addFakeModule(SectionStart, SectionEnd, TextStart, TextEnd, Name);
}

void __pcmap_testing_remove_fake_module(const void *SectionStart) {
  removeFakeModule(SectionStart);
}

void __pcmap_testing_set_verbosity(int Level) {
  Verbosity = Flags.verbosity = Level;
}

} // extern "C"
#pragma GCC visibility pop
