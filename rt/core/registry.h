//===- registry.h - Loaded modules and the published index ------*- C++ -*-===//
//
// Writers (the registration callbacks, serialised by the writer lock) keep a
// record per module with its sections; after every change they build the
// module's table and publish a new index of all modules.
//
// The index is published as publication.h describes (two copies and a
// generation counter). Replaced tables return to the arena; a reader that
// still looks at one reads stale but mapped memory and retries.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_RT_REGISTRY_H
#define PCMAP_RT_REGISTRY_H

#include "core/arena.h"
#include "core/decode.h"
#include "core/publication.h"
#include "core/table.h"
#include "pcmap/pcmap.h"
#include "platform/platform.h"

namespace pcmap {
namespace rt {

constexpr unsigned kMaxModules = 4096;

/// The published modules, sorted by TextLo: the search reads only TextLo,
/// eight modules to a cache line, then the one view.
struct IndexCopy {
  uint64_t Count;
  /// kMaxModules starts, then as many views (table.h): mapped by the first
  /// writer (publication.h), null until then.
  uint64_t *TextLo;
  ModuleView *views() const {
    return TextLo ? reinterpret_cast<ModuleView *>(TextLo + kMaxModules)
                  : nullptr;
  }
  bool mapEntries() {
    return mapIndexEntries(
        &TextLo, kMaxModules * (sizeof(uint64_t) + sizeof(ModuleView)));
  }
};

extern Published<IndexCopy> ModuleIndex;

/// Nonzero until the first query (docs/design/Runtime.md, "Start-up"): until
/// then registration only records a module's sections, and the first query
/// decodes them and builds the tables of every module that waits. Zero
/// from the start with lazy_tables=0.
extern uint64_t TablesDeferred;

/// Builds the tables of the modules that wait, publishes them, and makes
/// every later registration build its module's table at once. Takes the
/// writer lock; in a handler that interrupted this thread's own writer, it
/// returns without building. Async-signal-safe.
void buildDeferredTables();

/// The same for a writer that holds the lock (an Event::Initialize
/// subscriber that will query from signal handlers, as the tracer does).
void buildTablesAtRegistration();

/// For the readers of the fast paths: inlined into both the first try and
/// the retries.
#define PCMAP_INLINE __attribute__((always_inline))

/// Builds the tables that wait, if any (one acquire load when none do).
/// Async-signal-safe.
__attribute__((always_inline)) inline void buildTablesIfDeferred() {
  if (__builtin_expect(__atomic_load_n(&TablesDeferred, __ATOMIC_ACQUIRE), 0))
    buildDeferredTables();
}

/// Runs Read(const IndexCopy &) on the published module index
/// (Published::readConsistently), once the tables that wait are built.
/// Async-signal-safe.
template <class ReadFn>
__attribute__((always_inline)) inline auto readConsistently(ReadFn Read) {
  buildTablesIfDeferred();
  return ModuleIndex.readConsistently(Read);
}
/// Runs Read(const IndexCopy &) once (Published::readOnce), on what is
/// published: a fast path whose caller takes readConsistently when Read
/// finds nothing, and so builds the tables that wait.
template <class ReadFn, class T>
__attribute__((always_inline)) inline bool readOnce(ReadFn Read, T &Result) {
  return ModuleIndex.readOnce(Read, Result);
}

/// The view of the last module whose code starts at or before PC in Copy,
/// and PC's offset from that start; false if none. Async-signal-safe;
/// tolerates a garbage copy. The search has no branch on the data.
__attribute__((always_inline)) inline bool
lastModuleAtOrBefore(const IndexCopy &Copy, uintptr_t PC, TableView &V,
                     uint64_t &Offset) {
  uint64_t Base;
  if (!lastAtOrBefore(&Copy.Count, Copy.TextLo, kMaxModules, PC, Base))
    return false;
  V.M = &Copy.views()[Base];
  V.TextLo = loadRelaxed(&Copy.TextLo[Base]);
  // Below TextLo, the difference wraps around to a large offset.
  Offset = PC - V.TextLo;
  return true;
}

/// The view of the module whose covered code (table.h) holds PC in Copy,
/// and PC's offset from its TextLo; false if none. Async-signal-safe.
__attribute__((always_inline)) inline bool findModule(const IndexCopy &Copy,
                                                      uintptr_t PC,
                                                      TableView &V,
                                                      uint64_t &Offset) {
  return lastModuleAtOrBefore(Copy, PC, V, Offset) && V.covers(Offset);
}

/// The same for any PC of the module's code, covered or not (the module of
/// a frame, of a helper the module linked), for queries that read no
/// index. Async-signal-safe.
inline bool findModuleOfCode(const IndexCopy &Copy, uintptr_t PC, TableView &V,
                             uint64_t &Offset) {
  return lastModuleAtOrBefore(Copy, PC, V, Offset) && Offset < V.codeSize();
}

/// The GNU build ID of the registered module whose code holds PC, copied to
/// Out (up to Size bytes); its size, 0 if there is none or no module holds
/// PC. Async-signal-safe.
unsigned moduleBuildId(uintptr_t PC, uint8_t *Out, unsigned Size);

/// Writers. A call that brings several sections builds each module's table
/// once (a pcmap module's constructor registers its atomics and functions
/// together).
struct SectionRef {
  MetadataKind Kind;
  uint32_t Version;
  const char *Start, *Stop;
};
constexpr unsigned kMaxSectionsPerCall = 4;
void addSections(const SectionRef *Sections, unsigned N);
void removeSections(const SectionRef *Sections, unsigned N);
void addSection(MetadataKind Kind, uint32_t Version, const char *Start,
                const char *Stop);
void removeSection(MetadataKind Kind, uint32_t Version, const char *Start,
                   const char *Stop);

/// Counters, read with relaxed loads by pcmap_get_stats.
struct Counters {
  uint64_t Modules, Functions, Atomics, TableBytes, Sections, SectionsRejected,
      EntriesRejected;
};
extern Counters Stats;

/// For tests (rt/testing/): Locate, if not null, describes the object that
/// holds a registered section before the loaded objects are searched, so that
/// sections in memory that no loader mapped can stand for a module.
void setObjectLocatorForTesting(bool (*Locate)(const void *, LoadedObject &));

/// For tests and benchmarks (rt/testing/): registration records and the
/// next query builds, as before a process's first query.
void deferTablesForTesting();

/// Which path a query takes, for tests and benchmarks (rt/testing/): -1 if
/// no module holds PC.
int isAtomicIndexedAt(uintptr_t PC);
int functionMappedAt(uintptr_t PC);
int hasAnswerMapAt(uintptr_t PC);
int stretchDescribedAt(uintptr_t PC);

} // namespace rt
} // namespace pcmap

#endif // PCMAP_RT_REGISTRY_H
