//===- api.cpp - The C interface (include/pcmap/pcmap.h) -----------------===//
//
// Queries: find the module in the published index, then the function and
// the atomic through the module's index (table.h), all inside
// readConsistently (registry.h). Each query has a fast path for what a
// stretch's index entry describes, written so that it compiles to few
// instructions and no branch on loaded data, and calls out of line for the
// rest (a stretch with more atomics or boundaries than a window).
//
//===----------------------------------------------------------------------===//

#include "pcmap/pcmap.h"

#include "core/log.h"
#include "core/options.h"
#include "core/outline.h"
#include "core/registry.h"
#include "core/table.h"
#include "pcmap/Format.h"
#include "platform/platform.h"

#include <stddef.h>
#include <string.h>

using namespace pcmap::rt;
using namespace pcmap::format;

namespace {

/// The atomic at exactly Offset, or -1, searched for: the stretch holds more
/// atomics than a window.
__attribute__((noinline)) int64_t searchAtomic(TableView V, uint32_t Offset) {
  int64_t A = lastAtomicAtOrBefore(V, Offset);
  return A >= 0 && loadAtomicOffset(V, uint64_t(A)) == Offset ? A : -1;
}

/// The atomic at exactly Offset, or -1.
__attribute__((always_inline)) inline int64_t
atomicAt(TableView V, const Stretch &E, uint32_t Offset) {
  if (__builtin_expect(!E.atomicsInWindow(), 0))
    return searchAtomic(V, Offset);
  uint32_t Lanes = E.atomicLanes(uint8_t(Offset));
  return Lanes ? int64_t(E.firstAtomic()) + __builtin_ctz(Lanes) : -1;
}

/// The function holding Offset, if any, searched for: the stretch has more
/// boundaries than a window.
__attribute__((noinline)) int64_t searchFunction(TableView V, uint32_t Offset,
                                                 FunctionRecord &R) {
  int64_t F = lastFunctionAtOrBefore(V, Offset);
  if (F < 0)
    return -1;
  R = loadFunction(V, uint64_t(F));
  return Offset - R.Start < R.Size ? F : -1;
}

/// The function holding Offset, if any, where the stretch's boundaries fit
/// a window; R is its record. For a consistent table, the segment's
/// function is the one that holds Offset; a reader that raced with an
/// update reads a record somewhere in the arena (arenaPointer), and its
/// answer is thrown away by the generation check.
__attribute__((always_inline)) inline int64_t
describedFunctionAt(TableView V, const Stretch &E, uint32_t Offset,
                    FunctionRecord &R) {
  int64_t F = E.lastFunctionStart(uint8_t(Offset), E.firstFunction());
  if (F < 0)
    return -1;
  R = loadFunction(V, uint64_t(F));
  return Offset - R.Start < R.Size ? F : -1;
}

/// The function holding Offset, if any; R is its record.
int64_t functionAt(TableView V, const Stretch &E, uint32_t Offset,
                   FunctionRecord &R) {
  if (!E.boundariesInWindow())
    return searchFunction(V, Offset, R);
  return describedFunctionAt(V, E, Offset, R);
}

__attribute__((always_inline)) inline void
fillFunction(TableView V, const FunctionRecord &R, pcmap_function &Out) {
  static_assert(offsetof(pcmap_function, num_atomics) ==
                        offsetof(pcmap_function, features) + 4 &&
                    offsetof(pcmap_function, upstream_features) ==
                        offsetof(pcmap_function, source) + 4 &&
                    offsetof(FunctionRecord, NumAtomics) ==
                        offsetof(FunctionRecord, Features) + 4 &&
                    offsetof(FunctionRecord, UpstreamFeatures) ==
                        offsetof(FunctionRecord, Source) + 4,
                "fields copied in pairs");
  Out.start = uintptr_t(V.TextLo + R.Start);
  Out.size = R.Size;
  auto *Bytes = reinterpret_cast<char *>(&Out);
  memcpy(Bytes + offsetof(pcmap_function, features), &R.Features, 8);
  memcpy(Bytes + offsetof(pcmap_function, source), &R.Source, 8);
  Out.upstream_stack_args = R.UpstreamStackArgs;
  Out.module_path = V.path();
  Out.module_bias = uintptr_t(V.bias());
  Out.first_atomic = R.FirstAtomic;
  Out.entry = uintptr_t(V.TextLo + R.Entry);
}

/// Fills Out with atomic I (at Offset) and its function.
void fillAtomic(TableView V, const Stretch &E, uint64_t I, uint32_t Offset,
                pcmap_atomic &Out) {
  uint32_t Desc = loadAtomicDescriptor(V, I);
  Out = pcmap_atomic();
  Out.pc = uintptr_t(V.TextLo + Offset);
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
                (D.Weak ? PCMAP_ATOMIC_WEAK : 0) |
                (D.FromAsm ? PCMAP_ATOMIC_INLINE_ASM : 0);
  }
  FunctionRecord R;
  int64_t F = functionAt(V, E, Offset, R);
  Out.has_function = F >= 0;
  if (F >= 0)
    fillFunction(V, R, Out.function);
}

/// What a fast path returns when the stretch's entry does not tell: the
/// query calls its search, out of line, so that the fast path calls nothing
/// and keeps its values in registers.
constexpr int kSearch = 2;

/// is_atomic where the stretch's entry and window do not tell.
__attribute__((noinline)) int searchIsAtomic(uintptr_t PC) {
  return readConsistently([PC](const IndexCopy &Copy) {
    TableView V;
    uint64_t Offset;
    if (!findModule(Copy, PC, V, Offset))
      return PCMAP_UNKNOWN;
    Stretch E = loadStretch(V, Offset >> kStretchShift);
    if (atomicAt(V, E, uint32_t(Offset)) >= 0)
      return PCMAP_YES;
    FunctionRecord R;
    if (functionAt(V, E, uint32_t(Offset), R) >= 0 &&
        (R.Features & kFeatureAtomics))
      return PCMAP_NO;
    return PCMAP_UNKNOWN;
  });
}

/// lookup_function where its fast path found no function: the stretch's
/// entry did not describe the PC, a writer published meanwhile, or no
/// module's function holds the PC (an outline-atomic helper may).
__attribute__((noinline)) int lookupFunctionSlowly(uintptr_t PC,
                                                   pcmap_function &Out) {
  int Found = readConsistently([PC, &Out](const IndexCopy &Copy) {
    TableView V;
    uint64_t Offset;
    FunctionRecord R;
    if (!findModule(Copy, PC, V, Offset) ||
        functionAt(V, loadStretch(V, Offset >> kStretchShift), uint32_t(Offset),
                   R) < 0)
      return 0;
    fillFunction(V, R, Out);
    return 1;
  });
  OutlineHelper H;
  if (!Found && findOutlineHelper(PC, H)) {
    fillOutlineFunction(H, Out);
    return 1;
  }
  return Found;
}

/// The atomic of the outline-atomic helper holding PC, if any.
__attribute__((noinline)) int lookupOutlineHelper(uintptr_t PC,
                                                  pcmap_atomic &Out) {
  OutlineHelper H;
  if (!findOutlineHelper(PC, H))
    return 0;
  fillOutlineAtomic(H, Out);
  return 1;
}

/// is_atomic from the module's index: its stretch's entry and windows, or
/// kSearch where they do not tell.
__attribute__((always_inline)) inline int isAtomicIndexed(TableView V,
                                                          uint64_t Offset) {
  Stretch E = loadStretch(V, Offset >> kStretchShift);
  // One window holds the stretch's atomics, the other its boundaries:
  // whether the offset is an atomic and, if not, whether its segment lies
  // in a function complete for atomics, which makes the answer NO rather
  // than UNKNOWN. Computed without a branch on the answer (see table.h),
  // only on whether the windows had it all.
  static_assert(PCMAP_YES == 1 && PCMAP_NO == 0 && PCMAP_UNKNOWN == -1,
                "the answer is Hit - (!Hit & !Complete)");
  uint8_t Low = uint8_t(Offset);
  unsigned Hit = unsigned(E.atomicLanes(Low) != 0);
  unsigned Complete = unsigned(E.classAt(Low) / kClassComplete) & 1;
  if (__builtin_expect(
          unsigned(E.atomicsInWindow()) & (Hit | E.boundariesInWindow()), 1))
    return int(Hit) - int(~Hit & ~Complete & 1);
  return kSearch;
}

/// lookup_function's fast path: fills Out and returns true if the
/// function holding PC is one that a small module's function map or the
/// stretch's entry describes (table.h).
__attribute__((always_inline)) inline bool
quickFunction(const IndexCopy &Copy, uintptr_t PC, pcmap_function &Out) {
  TableView V;
  uint64_t Offset;
  if (!findModule(Copy, PC, V, Offset))
    return false;
  ArenaOffset Map = V.answerMap();
  int64_t F = Map ? mappedFunction(V, Map, Offset) : -2;
  if (F == -2) {
    Stretch E = loadStretch(V, Offset >> kStretchShift);
    if (!E.boundariesInWindow())
      return false;
    F = E.lastFunctionStart(uint8_t(Offset), E.firstFunction());
  }
  if (F < 0)
    return false;
  FunctionRecord R = loadFunction(V, uint64_t(F));
  if (Offset - R.Start >= R.Size)
    return false;
  fillFunction(V, R, Out);
  return true;
}

} // namespace

unsigned pcmap::rt::moduleBuildId(uintptr_t PC, uint8_t *Out, unsigned Size) {
  return readConsistently([PC, Out, Size](const IndexCopy &Copy) {
    TableView V;
    uint64_t Offset;
    if (!findModuleOfCode(Copy, PC, V, Offset))
      return 0u;
    const auto *T = static_cast<const ModuleTable *>(arenaPointer(V.table()));
    uint64_t N = loadRelaxed(&T->BuildIdSize);
    if (!N || N > sizeof(T->BuildId) || N > Size)
      return 0u;
    for (uint64_t I = 0; I < N; ++I)
      Out[I] = loadRelaxed(&T->BuildId[I]);
    return unsigned(N);
  });
}

namespace {
/// Fill(V) for the module whose text starts exactly at ModuleTextStart, if
/// Index is below Count(V); 1 if it was called.
template <class CountFn, class FillFn>
int atIndex(uintptr_t ModuleTextStart, size_t Index, CountFn Count,
            FillFn Fill) {
  return readConsistently([&](const IndexCopy &Copy) {
    TableView V;
    uint64_t Offset;
    if (!findModuleOfCode(Copy, ModuleTextStart, V, Offset) || Offset ||
        Index >= Count(V))
      return 0;
    Fill(V);
    return 1;
  });
}
} // namespace

// The interface is what the library exports; everything else is hidden.
#pragma GCC visibility push(default)
extern "C" {

int pcmap_is_atomic_pc(uintptr_t PC) {
  int Answer = readConsistently([PC](const IndexCopy &Copy) PCMAP_INLINE {
    TableView V;
    uint64_t Offset;
    if (!findModule(Copy, PC, V, Offset))
      return PCMAP_UNKNOWN;
    // A small module's answers are in its map (table.h); the branch goes
    // the same way for every query in the module.
    ArenaOffset Map = V.answerMap();
    if (Map)
      return answerFromMap(Map, Offset);
    return isAtomicIndexed(V, Offset);
  });
  if (__builtin_expect(Answer == kSearch, 0))
    Answer = searchIsAtomic(PC);
  // Outline-atomic helpers are in no module's table.
  OutlineHelper H;
  if (Answer == PCMAP_UNKNOWN && findOutlineHelper(PC, H))
    return PCMAP_YES;
  return Answer;
}

int pcmap_lookup_atomic(uintptr_t PC, struct pcmap_atomic *Out) {
  if (!Out)
    return 0;
  int Found = readConsistently([PC, Out](const IndexCopy &Copy) {
    TableView V;
    uint64_t Offset;
    if (!findModule(Copy, PC, V, Offset))
      return 0;
    Stretch E = loadStretch(V, Offset >> kStretchShift);
    int64_t A = atomicAt(V, E, uint32_t(Offset));
    if (A < 0)
      return 0;
    fillAtomic(V, E, uint64_t(A), uint32_t(Offset), *Out);
    return 1;
  });
  return Found || lookupOutlineHelper(PC, *Out);
}

int pcmap_lookup_atomic_in_context(const void *Context,
                                   struct pcmap_atomic *Out) {
  if (!Context || !Out)
    return 0;
  uintptr_t PC = signalContextPC(Context);
  return lookupOutlineCallSite(PC, signalContextReturnAddress(Context), *Out) ||
         pcmap_lookup_atomic(PC, Out);
}

int pcmap_lookup_atomic_before(uintptr_t PC, unsigned MaxBytes,
                               struct pcmap_atomic *Out) {
  if (!Out || !MaxBytes || !PC)
    return 0;
  int Found = readConsistently([PC, MaxBytes, Out](const IndexCopy &Copy) {
    // The instruction before PC ends at PC: look from PC - 1 backwards, in
    // the function that holds PC - 1.
    TableView V;
    uint64_t Offset;
    if (!findModule(Copy, PC - 1, V, Offset))
      return 0;
    FunctionRecord R;
    Stretch E = loadStretch(V, Offset >> kStretchShift);
    if (functionAt(V, E, uint32_t(Offset), R) < 0)
      return 0;
    int64_t A = lastAtomicAtOrBefore(V, uint32_t(Offset));
    if (A < 0)
      return 0;
    uint32_t At = loadAtomicOffset(V, uint64_t(A));
    // At <= PC - 1; within MaxBytes of PC and inside the function.
    if (Offset + 1 - At > MaxBytes || At < R.Start)
      return 0;
    fillAtomic(V, loadStretch(V, At >> kStretchShift), uint64_t(A), At, *Out);
    return 1;
  });
  // The instruction that ends at PC is inside a helper: the helper's atomic.
  return Found || lookupOutlineHelper(PC - 1, *Out);
}

int pcmap_lookup_function(uintptr_t PC, struct pcmap_function *Out) {
  if (!Out)
    return 0;
  // The fast path (quickFunction); anything else is the slow path's, a
  // tail call, so that the fast path calls nothing and keeps its values in
  // registers rather than on the stack across a call.
  bool Found = false;
  if (__builtin_expect(
          readOnce([PC, Out](const IndexCopy &Copy)
                       PCMAP_INLINE { return quickFunction(Copy, PC, *Out); },
                   Found) &&
              Found,
          1))
    return 1;
  return lookupFunctionSlowly(PC, *Out);
}

int pcmap_module_at(size_t Index, struct pcmap_module *Out) {
  if (!Out)
    return 0;
  return readConsistently([Index, Out](const IndexCopy &Copy) {
    uint64_t N = loadRelaxed(&Copy.Count);
    const uint64_t *TextLo = Copy.TextLo;
    if (Index >= N || Index >= kMaxModules || !TextLo)
      return 0;
    TableView V{&Copy.views()[Index], loadRelaxed(&TextLo[Index])};
    Out->path = V.path();
    Out->bias = uintptr_t(V.bias());
    Out->text_start = uintptr_t(V.TextLo);
    Out->text_end = uintptr_t(V.TextLo + V.codeSize());
    Out->num_functions = size_t(V.numFunctions());
    Out->num_atomics = size_t(V.numAtomics());
    return 1;
  });
}

int pcmap_function_at(uintptr_t ModuleTextStart, size_t Index,
                      struct pcmap_function *Out) {
  if (!Out)
    return 0;
  return atIndex(
      ModuleTextStart, Index,
      [](const TableView &V) { return V.numFunctions(); },
      [Index, Out](const TableView &V) {
        fillFunction(V, loadFunction(V, Index), *Out);
      });
}

int pcmap_atomic_at(uintptr_t ModuleTextStart, size_t Index,
                    struct pcmap_atomic *Out) {
  if (!Out)
    return 0;
  return atIndex(
      ModuleTextStart, Index, [](const TableView &V) { return V.numAtomics(); },
      [Index, Out](const TableView &V) {
        uint32_t At = loadAtomicOffset(V, Index);
        fillAtomic(V, loadStretch(V, At >> kStretchShift), Index, At, *Out);
      });
}

void pcmap_get_stats(struct pcmap_stats *Out) {
  if (!Out)
    return;
  // The counters count tables: those that wait are built first.
  buildTablesIfDeferred();
  Out->modules = size_t(loadRelaxed(&Stats.Modules));
  Out->functions = size_t(loadRelaxed(&Stats.Functions));
  Out->atomics = size_t(loadRelaxed(&Stats.Atomics));
  Out->table_bytes = size_t(loadRelaxed(&Stats.TableBytes));
  Out->sections = size_t(loadRelaxed(&Stats.Sections));
  Out->sections_rejected = size_t(loadRelaxed(&Stats.SectionsRejected));
  Out->entries_rejected = size_t(loadRelaxed(&Stats.EntriesRejected));
  Out->generation = size_t(ModuleIndex.generation());
}

#define PCMAP_CALLBACKS(Name, AddKind)                                         \
  void Name##_add(uint32_t V, const char *Start, const char *Stop) {           \
    addSection(AddKind, V, Start, Stop);                                       \
  }                                                                            \
  void Name##_del(uint32_t V, const char *Start, const char *Stop) {           \
    removeSection(AddKind, V, Start, Stop);                                    \
  }
PCMAP_CALLBACKS(__pcmap_atomics, MK_Atomics)
PCMAP_CALLBACKS(__pcmap_functions, MK_Functions)
PCMAP_CALLBACKS(__sanitizer_metadata_atomics, MK_UpstreamAtomics)
PCMAP_CALLBACKS(__sanitizer_metadata_covered, MK_UpstreamCovered)
#undef PCMAP_CALLBACKS

#define PCMAP_SECTIONS_CALLBACK(Name, Action)                                  \
  void Name(uint32_t V, const char *AtomicsStart, const char *AtomicsStop,     \
            const char *FunctionsStart, const char *FunctionsStop) {           \
    const SectionRef Sections[] = {                                            \
        {MK_Atomics, V, AtomicsStart, AtomicsStop},                            \
        {MK_Functions, V, FunctionsStart, FunctionsStop}};                     \
    Action(Sections, 2);                                                       \
  }
PCMAP_SECTIONS_CALLBACK(__pcmap_sections_add, addSections)
PCMAP_SECTIONS_CALLBACK(__pcmap_sections_del, removeSections)
#undef PCMAP_SECTIONS_CALLBACK

} // extern "C"
#pragma GCC visibility pop

namespace pcmap {
namespace rt {

int isAtomicIndexedAt(uintptr_t PC) {
  int Answer = readConsistently([PC](const IndexCopy &Copy) {
    TableView V;
    uint64_t Offset;
    if (!findModule(Copy, PC, V, Offset))
      return PCMAP_UNKNOWN;
    return isAtomicIndexed(V, Offset);
  });
  return Answer == kSearch ? searchIsAtomic(PC) : Answer;
}

int functionMappedAt(uintptr_t PC) {
  return readConsistently([PC](const IndexCopy &Copy) {
    TableView V;
    uint64_t Offset;
    if (!findModule(Copy, PC, V, Offset))
      return -1;
    ArenaOffset Map = V.answerMap();
    int64_t F = Map ? mappedFunction(V, Map, Offset) : -2;
    if (F < 0)
      return 0;
    FunctionRecord R = loadFunction(V, uint64_t(F));
    return Offset - R.Start < R.Size ? 1 : 0;
  });
}

int hasAnswerMapAt(uintptr_t PC) {
  return readConsistently([PC](const IndexCopy &Copy) {
    TableView V;
    uint64_t Offset;
    if (!findModule(Copy, PC, V, Offset))
      return -1;
    return V.answerMap() ? 1 : 0;
  });
}

int stretchDescribedAt(uintptr_t PC) {
  return readConsistently([PC](const IndexCopy &Copy) {
    TableView V;
    uint64_t Offset;
    if (!findModule(Copy, PC, V, Offset))
      return -1;
    return loadStretch(V, Offset >> kStretchShift).described() ? 1 : 0;
  });
}

} // namespace rt
} // namespace pcmap
