//===- registry.cpp - Loaded modules and the published index --------------===//

#include "core/registry.h"

#include "core/fragments.h"
#include "core/log.h"
#include "core/options.h"
#include "core/table.h"
#include "platform/hooks.h"
#include "platform/platform.h"

#include <string.h>

namespace pcmap {
namespace rt {

Published<IndexCopy> ModuleIndex;
uint64_t TablesDeferred = 1; // until the first query, or lazy_tables=0
Counters Stats;

namespace {

struct SectionRecord {
  MetadataKind Kind;
  uint32_t Version;
  const uint8_t *Start, *Stop;
  /// Whether the section has been decoded: a section registered before the
  /// tables are wanted is decoded with its module's table, at the first
  /// query (docs/design/Runtime.md, "Start-up").
  bool Decoded;
  /// Rejected sections are remembered (without entries) so that their
  /// module knows some of its metadata is missing, and so that their
  /// removal and a second registration are recognised.
  bool Rejected;
  DecodedAtomics Atomics;
  DecodedFunctions Functions;
  /// Functions with the records of their fragments (fragments.h), when the
  /// section has functions that may be split; made anew by each rebuild.
  DecodedFunctions WithFragments;
  bool HasFragmented; // an entry declares kFeatureFragmented
};

/// What a module adds to the counters pcmap_get_stats reads.
struct StatsShare {
  uint64_t Functions, Atomics, TableBytes;
  uint32_t Modules, Sections;
};

/// A module as the writers know it (never read by readers). Small, with
/// its path and its sections in blocks of their own, so that a library's
/// registration touches few pages: most modules register two sections.
struct ModuleRecord {
  uintptr_t Key;
  uintptr_t Bias;
  CodeRanges Code;
  const char *Path; // NUL-terminated, in PathBlock
  WriterBlock PathBlock;
  uint8_t BuildId[32];
  unsigned BuildIdSize;
  /// Registered while the tables were not wanted yet: its sections wait,
  /// undecoded, for the first query (buildDeferredTables).
  bool Pending;
  SectionRecord *Sections; // NumSections of SectionsBlock's
  WriterBlock SectionsBlock;
  unsigned NumSections;
  ArenaOffset Table;
  /// What readers are given of Table (publish copies it), and what the
  /// module adds to the counters (updateStats), as of its last rebuild: a
  /// registration then reads no other module's table.
  ModuleView View;
  StatsShare Counted;
  ModuleFragments Fragments; // read when a section has split functions
};

// Eight records to a page: a library's registration rarely touches a new one.
static_assert(sizeof(ModuleRecord) <= 512, "a module record fits 512 bytes");

/// The sections a module's record has room for at first, and at most.
constexpr unsigned kInitialSections = 4;
static_assert(kInitialSections <= kMaxSectionsPerModule, "");

/// Room in M for one more section; false when out of memory.
bool reserveSection(ModuleRecord &M) {
  const uint64_t Capacity = M.SectionsBlock.size() / sizeof(SectionRecord);
  if (M.NumSections < Capacity)
    return true;
  uint64_t NewCapacity = Capacity ? 2 * Capacity : kInitialSections;
  if (NewCapacity > kMaxSectionsPerModule)
    NewCapacity = kMaxSectionsPerModule;
  WriterBlock Bigger;
  if (!Bigger.allocate(NewCapacity * sizeof(SectionRecord)))
    return false;
  // Writers' memory: no reader looks at records.
  if (M.NumSections)
    memcpy(Bigger.data(), M.Sections, M.NumSections * sizeof(SectionRecord));
  M.SectionsBlock.reset();
  M.SectionsBlock = static_cast<WriterBlock &&>(Bigger);
  M.Sections = M.SectionsBlock.data<SectionRecord>();
  return true;
}

/// The module records, sorted by TextLo (publish relies on it), in an
/// arena block that grows: a process with few modules touches a few words
/// beside its first record at start-up, not a page of a 4096-entry array.
/// No destructor: records are used until the process ends.
PCMAP_STARTUP_STATE ModuleRecord **Modules;
PCMAP_STARTUP_STATE unsigned NumModules, ModulesCapacity;

/// Room in Modules for one more record; false when out of memory or at
/// kMaxModules.
bool reserveModule() {
  if (NumModules < ModulesCapacity)
    return true;
  if (ModulesCapacity == kMaxModules)
    return false;
  unsigned NewCapacity = ModulesCapacity ? 2 * ModulesCapacity : 16;
  if (NewCapacity > kMaxModules)
    NewCapacity = kMaxModules;
  ArenaOffset Bigger =
      arenaAllocate(NewCapacity * sizeof(ModuleRecord *), ArenaUse::WriterOnly);
  if (!Bigger)
    return false;
  auto *To = static_cast<ModuleRecord **>(arenaWritable(Bigger));
  // Writers' memory: no reader looks at the records.
  if (NumModules)
    memcpy(To, Modules, NumModules * sizeof(ModuleRecord *));
  if (Modules)
    arenaFree(uint64_t(reinterpret_cast<char *>(Modules) - Arena.Base),
              ModulesCapacity * sizeof(ModuleRecord *), ArenaUse::WriterOnly);
  Modules = To;
  ModulesCapacity = NewCapacity;
  return true;
}

/// Whether registration builds a module's table (set by the first query,
/// by lazy_tables=0 and by the layers that query from the start, such as
/// the tracer); until then it only records the sections, and NumPending
/// modules wait.
PCMAP_STARTUP_STATE bool TablesWanted;
PCMAP_STARTUP_STATE unsigned NumPending;
void buildPendingLocked();

/// Sections registered before the first query, in the order they came,
/// not yet given to a module's record: until then registration only notes
/// where they are (no module is looked up, no memory reserved), and the
/// first query records and builds them (flushEarly). When the list is
/// full, its sections are recorded and later ones go to their records at
/// once, still without a table (EarlyClosed).
constexpr unsigned kMaxEarlySections = 128;
PCMAP_STARTUP_STATE SectionRef EarlySections[kMaxEarlySections];
PCMAP_STARTUP_STATE unsigned NumEarly;
PCMAP_STARTUP_STATE bool EarlyClosed;

/// Set by tests (rt/testing/) to describe objects that are not loaded.
PCMAP_STARTUP_STATE bool (*ObjectLocator)(const void *Address,
                                          LoadedObject &Out);

PCMAP_STARTUP_STATE bool Initialized;

/// A module whose tables do not fit answers UNKNOWN (it has no table);
/// said for the first such module, and, at verbosity 2, for every one.
void reportOutOfMemory(const char *Path) {
  static bool Said;
  if (Verbosity < 1 || (Said && Verbosity < 2))
    return;
  Message M;
  M << "warning: out of memory for the tables of " << Path << " ("
    << (arenaBytesInUse() >> 20) << " of " << (arenaRegionBytes() >> 20)
    << " MiB in use; tables_limit_mb sets the limit)";
  if (!Said)
    M << "; its queries, and those of any module that does not fit, "
         "answer UNKNOWN";
  Said = true;
  M.emit();
}

/// Options, and the services they ask for. The tables' address space
/// waits for the first table (ensureArena).
PCMAP_STARTUP_CODE bool ensureInitialized() {
  if (Initialized)
    return true;
  initOptions();
  Initialized = true;
  if (!Flags.lazy_tables)
    buildPendingLocked();
  // The layers above start the services the options ask for.
  announce(Event::Initialize);
  announceExitAtExit();
  return true;
}

/// The arena, reserved when the first module is recorded (at the first
/// query, or at registration once tables are wanted); false, said once,
/// when there is no room: every query then answers UNKNOWN.
bool ensureArena() {
  if (arenaRegionBytes())
    return true;
  if (!arenaInit(uint64_t(Flags.tables_limit_mb) << 20)) {
    // Said once: arenaInit fails for good.
    static bool Said;
    if (!Said && Verbosity >= 1) {
      Said = true;
      Message M;
      M << "warning: no address space for the tables";
      if (uint64_t AS = addressSpaceLimit())
        M << " (they may take a sixteenth of RLIMIT_AS, " << (AS >> 20)
          << " MiB, and need 1 MiB)";
      if (Flags.tables_limit_mb)
        M << " (tables_limit_mb=" << uint64_t(Flags.tables_limit_mb) << ")";
      M << "; every query answers UNKNOWN";
      M.emit();
    }
    return false;
  }
  if (Verbosity >= 2) {
    Message M;
    M << "tables: " << (arenaRegionBytes() >> 20)
      << " MiB of address space reserved";
    if (uint64_t AS = addressSpaceLimit())
      M << " (a sixteenth at most of RLIMIT_AS, " << (AS >> 20) << " MiB)";
    M.emit();
  }
  return true;
}

/// The module index's entries could not be mapped: it stays as it was
/// (with none, every query answers UNKNOWN). Said once.
void noteNoMemoryForIndex() {
  static bool Said;
  if (Said || Verbosity < 1)
    return;
  Said = true;
  Message M;
  M << "warning: no memory for the module index; queries of the modules "
       "loaded since answer UNKNOWN";
  M.emit();
}

bool describeObject(const void *Address, LoadedObject &Out) {
  if (ObjectLocator && ObjectLocator(Address, Out))
    return true;
  return findLoadedObject(uintptr_t(Address), Out);
}

void report(const char *What, MetadataKind Kind, uint32_t Version,
            const char *Start, const char *Stop, const char *Module,
            const DecodeError *E) {
  if (Verbosity < 1)
    return;
  Message M;
  M << "rejected section " << format::metadataSectionBase(Kind)
    << uint64_t(Version & 0xffff) << " (version " << uint64_t(Version) << ", "
    << uint64_t(Stop - Start) << " bytes at ";
  M.hex(uintptr_t(Start)) << ")";
  if (Module)
    M << " of " << Module;
  M << ": " << What;
  if (E)
    M << " at byte " << E->Offset;
  M.emit();
}

void copyView(ModuleView &To, const ModuleView &From) {
  const auto *In = reinterpret_cast<const uint64_t *>(&From);
  auto *Out = reinterpret_cast<uint64_t *>(&To);
  for (unsigned I = 0; I < sizeof(ModuleView) / 8; ++I)
    storeRelaxed(&Out[I], loadRelaxed(&In[I]));
}

/// The view readers are given of a module's table (registry.h, table.h).
ModuleView viewOf(ArenaOffset Table) {
  const auto *T = static_cast<const ModuleTable *>(arenaPointer(Table));
  ModuleView V;
  // Offsets from TextLo address the index and the map as they are
  // (table.h, "Covered code").
  V.IndexLo = uint32_t(T->IndexLo);
  V.IndexSize = uint32_t(T->IndexSize);
  V.Index = T->Index - (T->IndexLo >> kStretchShift) * sizeof(IndexEntry);
  V.StretchBytes = T->StretchBytes;
  V.Functions = T->Functions;
  // A biased map that happens to be 0 reads as none: the index answers.
  V.AnswerMap = T->AnswerMap
                    ? T->AnswerMap - (T->IndexLo >> kMapBytesPerWordShift) *
                                         sizeof(uint64_t)
                    : 0;
  V.Table = Table;
  V.Bias = T->Bias;
  V.Path = static_cast<const char *>(arenaPointer(T->Path));
  return V;
}

/// Index copies are rebuilt from the module records, which Modules keeps
/// sorted by TextLo, and which hold their views: one pass over the
/// records, however the modules were loaded, that reads no table.
void publish() {
  IndexCopy *NextCopy = ModuleIndex.next();
  if (!NextCopy) {
    noteNoMemoryForIndex();
    return;
  }
  IndexCopy &Next = *NextCopy;
  uint64_t Count = 0;
  for (unsigned I = 0; I < NumModules; ++I) {
    const ModuleRecord *M = Modules[I];
    if (!M->Table)
      continue;
    storeRelaxed(&Next.TextLo[Count], uint64_t(M->Code.TextLo));
    copyView(Next.views()[Count], M->View);
    ++Count;
  }
  storeRelaxed(&Next.Count, Count);
  ModuleIndex.publish();
}

StatsShare shareOf(const ModuleRecord &M) {
  StatsShare S{};
  for (unsigned J = 0; J < M.NumSections; ++J)
    S.Sections += !M.Sections[J].Rejected;
  if (!M.Table)
    return S;
  const auto *T = static_cast<const ModuleTable *>(arenaPointer(M.Table));
  S.Modules = 1;
  S.Functions = T->NumFunctions;
  S.Atomics = T->NumAtomics;
  S.TableBytes = T->Bytes;
  return S;
}

/// Brings the counters up to date with M's rebuild: its share replaces
/// what it added before (constant time, whatever the number of modules).
void updateStats(ModuleRecord &M) {
  const StatsShare Old = M.Counted, New = shareOf(M);
  auto Apply = [](uint64_t &Counter, uint64_t From, uint64_t To) {
    storeRelaxed(&Counter, Counter - From + To);
  };
  Apply(Stats.Modules, Old.Modules, New.Modules);
  Apply(Stats.Functions, Old.Functions, New.Functions);
  Apply(Stats.Atomics, Old.Atomics, New.Atomics);
  Apply(Stats.TableBytes, Old.TableBytes, New.TableBytes);
  Apply(Stats.Sections, Old.Sections, New.Sections);
  M.Counted = New;
}

/// Rebuilds M's table from its sections and, if Publish, publishes it; the
/// old table is freed after publication. A caller that does not publish
/// builds a module that has no table yet (nothing to free) and publishes
/// once for all the modules it builds.
void rebuild(ModuleRecord *M, bool Publish = true) {
  DecodedAtomics Atomics[kMaxSectionsPerModule];
  DecodedFunctions *Functions[kMaxSectionsPerModule];
  unsigned NA = 0, NF = 0;
  // An atomics section that was rejected may have held atomics of any
  // function of the module: none of them may be reported complete.
  ModuleAtomicsState State{false, false, false};
  for (unsigned I = 0; I < M->NumSections; ++I) {
    SectionRecord &S = M->Sections[I];
    if (S.Rejected) {
      if (S.Kind == MK_Atomics)
        State.PCMapAtomicsRejected = true;
      if (S.Kind == MK_UpstreamAtomics)
        State.UpstreamAtomicsRejected = true;
      continue;
    }
    if (S.Kind == MK_UpstreamAtomics)
      State.UpstreamAtomicsPresent = true;
    if (S.Kind == MK_Atomics || S.Kind == MK_UpstreamAtomics)
      Atomics[NA++] = S.Atomics;
    else
      Functions[NF++] = &S.Functions;
  }
  // The fragments of split functions: read from the module's file once,
  // then joined to the functions at every rebuild, since whether a
  // function has its atomics depends on the atomics registered so far.
  DecodedFunctions Replaced[kMaxSectionsPerModule];
  unsigned NumReplaced = 0;
  for (unsigned I = 0, F = 0; I < M->NumSections; ++I) {
    SectionRecord &S = M->Sections[I];
    if (S.Rejected || S.Kind == MK_Atomics || S.Kind == MK_UpstreamAtomics)
      continue;
    unsigned Slot = F++;
    Replaced[NumReplaced] = S.WithFragments;
    NumReplaced += S.WithFragments.Records != 0;
    S.WithFragments = DecodedFunctions();
    if (!S.HasFragmented)
      continue;
    if (!M->Fragments.Read)
      readFragments(M->Path, M->Bias, M->Code, M->Fragments);
    if (addFragments(S.Functions, M->Fragments, Atomics, NA, S.WithFragments))
      Functions[Slot] = &S.WithFragments;
  }
  ArenaOffset Old = M->Table;
  bool HasEntries = NA || NF;
  M->Table = HasEntries ? buildModuleTable(M->Code, M->Bias, M->Path, Atomics,
                                           NA, Functions, NF, State)
                        : 0;
  if (M->Table) {
    auto *T = static_cast<ModuleTable *>(arenaWritable(M->Table));
    static_assert(sizeof(T->BuildId) == sizeof(M->BuildId), "");
    arenaStore(T->BuildId, M->BuildId, sizeof(T->BuildId));
    storeRelaxed(&T->BuildIdSize, uint64_t(M->BuildIdSize));
    M->View = viewOf(M->Table);
  }
  if (HasEntries && !M->Table)
    reportOutOfMemory(M->Path);
  // A table a reader may hold is freed only once a newer one is published.
  if (Publish || Old)
    publish();
  freeModuleTable(Old);
  for (unsigned I = 0; I < NumReplaced; ++I)
    freeDecoded(Replaced[I]);
  updateStats(*M);
}

ModuleRecord *findRecordByKey(uintptr_t Key) {
  for (unsigned I = 0; I < NumModules; ++I)
    if (Modules[I]->Key == Key)
      return Modules[I];
  return nullptr;
}

ModuleRecord *createRecord(const LoadedObject &O) {
  if (!reserveModule())
    return nullptr;
  // Written plainly: never memory a stale reader may read (arena.h).
  ArenaOffset Off = arenaAllocate(sizeof(ModuleRecord), ArenaUse::WriterOnly);
  if (!Off)
    return nullptr;
  auto *M = static_cast<ModuleRecord *>(arenaWritable(Off));
  // All zero is a record with empty blocks and no sections (the arena's
  // memory is raw: no constructor runs).
  memset(static_cast<void *>(M), 0, sizeof(*M));
  const size_t PathLen = strnlen(O.Path, sizeof(O.Path) - 1);
  if (!M->PathBlock.allocate(PathLen + 1) || !reserveSection(*M)) {
    M->PathBlock.reset();
    arenaFree(Off, sizeof(ModuleRecord), ArenaUse::WriterOnly);
    return nullptr;
  }
  char *Path = M->PathBlock.data<char>();
  memcpy(Path, O.Path, PathLen);
  Path[PathLen] = '\0';
  M->Path = Path;
  M->Key = O.Key;
  M->Bias = O.Bias;
  memcpy(M->BuildId, O.BuildId, sizeof(M->BuildId));
  M->BuildIdSize = O.BuildIdSize;
  CodeRanges &C = M->Code;
  C.NumRanges = 0;
  C.TextLo = ~uintptr_t(0);
  C.TextHi = 0;
  for (unsigned I = 0; I < O.NumSegments && I < CodeRanges::kMaxRanges; ++I) {
    C.Begin[C.NumRanges] = O.SegmentBegin[I];
    C.End[C.NumRanges] = O.SegmentEnd[I];
    if (O.SegmentBegin[I] < C.TextLo)
      C.TextLo = O.SegmentBegin[I];
    if (O.SegmentEnd[I] > C.TextHi)
      C.TextHi = O.SegmentEnd[I];
    ++C.NumRanges;
  }
  if (!C.NumRanges)
    C.TextLo = C.TextHi = 0;
  // Modules stays sorted by TextLo (publish relies on it).
  unsigned At = NumModules;
  for (; At > 0 && Modules[At - 1]->Code.TextLo > C.TextLo; --At)
    Modules[At] = Modules[At - 1];
  Modules[At] = M;
  ++NumModules;
  return M;
}

void destroyRecord(ModuleRecord *M) {
  NumPending -= M->Pending;
  for (unsigned I = 0; I < NumModules; ++I) {
    if (Modules[I] != M)
      continue;
    for (--NumModules; I < NumModules; ++I)
      Modules[I] = Modules[I + 1];
    break;
  }
  freeFragments(M->Fragments);
  M->PathBlock.reset();
  M->SectionsBlock.reset();
  arenaFree(uint64_t(reinterpret_cast<char *>(M) - Arena.Base),
            sizeof(ModuleRecord), ArenaUse::WriterOnly);
}

void bump(uint64_t &Counter, uint64_t N = 1) {
  storeRelaxed(&Counter, Counter + N);
}

/// Options are read at start-up even in a program that registers nothing
/// (help=1 must print); registration before this constructor runs (shared
/// objects' constructors run before the executable's) initialises earlier.
PCMAP_STARTUP_CODE __attribute__((constructor)) void initAtStartUp() {
  WriterLock Lock;
  ensureInitialized();
}

} // namespace

namespace {

PCMAP_STARTUP_CODE bool nonEmpty(const SectionRef &R) {
  // Null or empty bounds: the linker discarded every piece of the section
  // (--gc-sections), or the module has none; nothing to register.
  return R.Start && R.Stop && R.Stop > R.Start;
}

/// Says why R is not registered and counts it; null, for the callers'
/// returns.
ModuleRecord *rejectSection(const SectionRef &R, const char *Why,
                            const char *Module) {
  report(Why, R.Kind, R.Version, R.Start, R.Stop, Module, nullptr);
  bump(Stats.SectionsRejected);
  return nullptr;
}

/// The record of the module that holds R, created if need be, with room
/// for R; null when R is registered already (it counts once) or cannot be
/// (said and counted).
ModuleRecord *moduleForSection(const SectionRef &R) {
  LoadedObject O;
  if (!describeObject(R.Start, O))
    return rejectSection(R, "not inside any loaded object", nullptr);
  if (ModuleRecord *M = findRecordByKey(O.Key)) {
    for (unsigned I = 0; I < M->NumSections; ++I) {
      const SectionRecord &S = M->Sections[I];
      if (S.Kind == R.Kind && S.Version == R.Version &&
          S.Start == reinterpret_cast<const uint8_t *>(R.Start) &&
          S.Stop == reinterpret_cast<const uint8_t *>(R.Stop))
        return nullptr; // registered before: counts once
    }
    if (M->NumSections == kMaxSectionsPerModule)
      return rejectSection(R, "too many sections in one module", M->Path);
    if (!reserveSection(*M))
      return rejectSection(R, "out of memory", M->Path);
    return M;
  }
  if (!O.NumSegments)
    return rejectSection(R, "the object has no executable segment", O.Path);
  ModuleRecord *M = createRecord(O);
  if (!M)
    return rejectSection(
        R, NumModules == kMaxModules ? "too many modules" : "out of memory",
        O.Path);
  if (M->Code.TextHi - M->Code.TextLo > 0xffffffffu) {
    destroyRecord(M);
    return rejectSection(R, "executable code spans more than 4 GiB", O.Path);
  }
  return M;
}

/// Decodes S, a section of M: its entries, or why it is rejected (said and
/// counted).
void decodeSection(const ModuleRecord &M, SectionRecord &S) {
  const MetadataKind Kind = S.Kind;
  const char *Start = reinterpret_cast<const char *>(S.Start);
  const char *Stop = reinterpret_cast<const char *>(S.Stop);
  DecodeError E =
      (Kind == MK_Atomics || Kind == MK_UpstreamAtomics)
          ? decodeAtomics(Kind, S.Version, S.Start, S.Stop, M.Code, S.Atomics)
          : decodeFunctions(Kind, S.Version, S.Start, S.Stop, M.Code,
                            S.Functions);
  S.Decoded = true;
  if (E.What) {
    report(E.What, Kind, S.Version, Start, Stop, M.Path, &E);
    bump(Stats.SectionsRejected);
    bump(Stats.EntriesRejected, E.EntriesSeen);
    S.Rejected = true;
  }
  S.HasFragmented = !S.Rejected && Kind == MK_Functions &&
                    hasFragmentedFunctions(S.Functions);
  if (Verbosity >= 2 && !S.Rejected) {
    Message Msg;
    Msg << (M.Pending ? "decoded " : "registered ")
        << format::metadataSectionBase(Kind) << uint64_t(S.Version & 0xffff)
        << " of " << M.Path << ": "
        << uint64_t(S.Atomics.Count + S.Functions.Count) << " entries";
    Msg.emit();
  }
}

/// Decodes the sections of M that wait for it.
void decodeSections(ModuleRecord &M) {
  for (unsigned I = 0; I < M.NumSections; ++I)
    if (!M.Sections[I].Decoded)
      decodeSection(M, M.Sections[I]);
}

/// Adds a section to its module's record (created if need be), undecoded.
/// Returns the module, whose table is then to be built, or null when there
/// is nothing to build (the section was registered before, or it belongs
/// to no module).
ModuleRecord *recordSection(const SectionRef &R) {
  ModuleRecord *M = moduleForSection(R);
  if (!M)
    return nullptr;
  SectionRecord S;
  memset(static_cast<void *>(&S), 0, sizeof(S));
  S.Kind = R.Kind;
  S.Version = R.Version;
  S.Start = reinterpret_cast<const uint8_t *>(R.Start);
  S.Stop = reinterpret_cast<const uint8_t *>(R.Stop);
  M->Sections[M->NumSections++] = S;
  if (Verbosity >= 2 && !TablesWanted) {
    Message Msg;
    Msg << "registered " << format::metadataSectionBase(R.Kind)
        << uint64_t(R.Version & 0xffff) << " of " << M->Path << ": "
        << uint64_t(S.Stop - S.Start) << " bytes, decoded at the first query";
    Msg.emit();
  }
  return M;
}

PCMAP_STARTUP_CODE bool sameSection(const SectionRef &A, const SectionRef &B) {
  return A.Kind == B.Kind && A.Version == B.Version && A.Start == B.Start &&
         A.Stop == B.Stop;
}

/// Notes R in EarlySections if the tables are not wanted yet; true if R
/// is taken care of (noted, or noted before). At verbosity 2 registration
/// says which module each section is of, and records it at once.
PCMAP_STARTUP_CODE bool noteEarly(const SectionRef &R) {
  if (TablesWanted || EarlyClosed || Verbosity >= 2)
    return false;
  for (unsigned I = 0; I < NumEarly; ++I)
    if (sameSection(EarlySections[I], R))
      return true; // registered before: counts once
  if (NumEarly == kMaxEarlySections)
    return false;
  EarlySections[NumEarly++] = R;
  return true;
}

/// Takes R out of EarlySections, keeping their order; false if it is not
/// there.
PCMAP_STARTUP_CODE bool forgetEarly(const SectionRef &R) {
  for (unsigned I = 0; I < NumEarly; ++I) {
    if (!sameSection(EarlySections[I], R))
      continue;
    for (--NumEarly; I < NumEarly; ++I)
      EarlySections[I] = EarlySections[I + 1];
    return true;
  }
  return false;
}

/// Gives the noted sections to their modules' records, which then wait
/// for their tables (Pending), or are published at once if they had one.
void flushEarly() {
  unsigned N = NumEarly;
  NumEarly = 0;
  if (!N || !ensureArena())
    return;
  for (unsigned I = 0; I < N; ++I) {
    ModuleRecord *M = recordSection(EarlySections[I]);
    if (M && !M->Pending) {
      M->Pending = true;
      ++NumPending;
    }
  }
}

/// Builds M's table now if the tables are wanted; else M waits for the
/// first query, which buildDeferredTables announces to readers.
void buildOrDefer(ModuleRecord *M) {
  if (TablesWanted) {
    decodeSections(*M);
    rebuild(M);
    return;
  }
  // TablesDeferred is set: no query has asked yet.
  NumPending += !M->Pending;
  M->Pending = true;
}

/// Builds every pending module's table and publishes them once; from then
/// on, registration builds. Holding the writer lock.
void buildPendingLocked() {
  TablesWanted = true;
  // Tables are wanted from now on: the arena is reserved now (before the
  // tracer's first sample, when the tracer asks).
  if (!ensureArena()) {
    NumEarly = 0;
    __atomic_store_n(&TablesDeferred, uint64_t(0), __ATOMIC_RELEASE);
    return;
  }
  flushEarly();
  if (NumPending) {
    for (unsigned I = 0; I < NumModules; ++I) {
      ModuleRecord *M = Modules[I];
      if (!M->Pending)
        continue;
      decodeSections(*M);
      M->Pending = false;
      rebuild(M, /*Publish=*/false);
    }
    NumPending = 0;
    publish();
  }
  // After the publication: a reader that sees no deferred tables reads an
  // index that has them.
  __atomic_store_n(&TablesDeferred, uint64_t(0), __ATOMIC_RELEASE);
}

/// Takes a registered section out of its module's record. Returns the
/// module (whose table is then to be rebuilt) or null if the section is not
/// registered.
ModuleRecord *takeSection(const SectionRef &R, SectionRecord &Removed) {
  for (unsigned I = 0; I < NumModules; ++I) {
    ModuleRecord *M = Modules[I];
    for (unsigned J = 0; J < M->NumSections; ++J) {
      SectionRecord &S = M->Sections[J];
      if (S.Kind != R.Kind || S.Version != R.Version ||
          S.Start != reinterpret_cast<const uint8_t *>(R.Start) ||
          S.Stop != reinterpret_cast<const uint8_t *>(R.Stop))
        continue;
      Removed = S;
      M->Sections[J] = M->Sections[--M->NumSections];
      return M;
    }
  }
  return nullptr;
}

/// Adds Module to Set (of N) unless it is there; null is not added.
void addToSet(ModuleRecord *Module, ModuleRecord **Set, unsigned &N) {
  if (!Module)
    return;
  for (unsigned I = 0; I < N; ++I)
    if (Set[I] == Module)
      return;
  Set[N++] = Module;
}

} // namespace

PCMAP_STARTUP_CODE void addSections(const SectionRef *Sections, unsigned N) {
  if (N > kMaxSectionsPerCall)
    N = kMaxSectionsPerCall;
  bool Any = false;
  for (unsigned I = 0; I < N; ++I)
    Any |= nonEmpty(Sections[I]);
  if (!Any)
    return;
  WriterLock Lock;
  if (!ensureInitialized())
    return;
  // All sections are recorded first, so that each module's table is built
  // once, with everything the call brings. Before the first query they
  // are only noted.
  ModuleRecord *Changed[kMaxSectionsPerCall];
  unsigned NumChanged = 0;
  for (unsigned I = 0; I < N; ++I) {
    if (!nonEmpty(Sections[I]) || noteEarly(Sections[I]))
      continue;
    if (!TablesWanted && !EarlyClosed) {
      // The list is full (or verbosity 2): its sections go to their
      // records now, in the order they came, before this one.
      flushEarly();
      EarlyClosed = Verbosity < 2;
    }
    if (!ensureArena())
      return;
    addToSet(recordSection(Sections[I]), Changed, NumChanged);
  }
  for (unsigned I = 0; I < NumChanged; ++I)
    buildOrDefer(Changed[I]);
}

PCMAP_STARTUP_CODE void removeSections(const SectionRef *Sections, unsigned N) {
  if (N > kMaxSectionsPerCall)
    N = kMaxSectionsPerCall;
  WriterLock Lock;
  if (!Initialized)
    return;
  SectionRecord Removed[kMaxSectionsPerCall];
  unsigned NumRemoved = 0;
  ModuleRecord *Changed[kMaxSectionsPerCall];
  unsigned NumChanged = 0;
  for (unsigned I = 0; I < N; ++I) {
    if (!nonEmpty(Sections[I]) || forgetEarly(Sections[I]))
      continue;
    if (ModuleRecord *M = takeSection(Sections[I], Removed[NumRemoved])) {
      ++NumRemoved;
      addToSet(M, Changed, NumChanged);
    }
  }
  // Publish the modules without the sections before freeing their arrays:
  // the modules' previous tables may refer to them. A pending module has no
  // table to rebuild: its sections wait, undecoded.
  for (unsigned I = 0; I < NumChanged; ++I)
    if (!Changed[I]->Pending)
      rebuild(Changed[I]);
  for (unsigned I = 0; I < NumRemoved; ++I) {
    freeDecoded(Removed[I].Atomics);
    freeDecoded(Removed[I].Functions);
    freeDecoded(Removed[I].WithFragments);
  }
  for (unsigned I = 0; I < NumChanged; ++I)
    if (!Changed[I]->NumSections)
      destroyRecord(Changed[I]);
}

namespace {
/// The stack the first query builds the tables on: that query may run in
/// a signal handler on a small alternate stack (the fault reporter's
/// decision, a program's handler), and a build takes tens of KiB (more
/// under a sanitizer). Reserved by the first build (reserveStack is
/// async-signal-safe); used under the writer lock, so by one thread at a
/// time.
constexpr size_t kBuildStackBytes = 256 * 1024;
PCMAP_STARTUP_STATE char *BuildStack;

struct BuildOnStack {
  bool OnOwnStack;
  stack_t OldSignalStack;
};

void buildOnItsStack(void *Arg) {
  auto &B = *static_cast<BuildOnStack *>(Arg);
  // A signal taken during the build is delivered below it on this stack,
  // not at the top of an alternate stack whose frames are live (a handler
  // that queried from there).
  B.OnOwnStack =
      useStackForSignals(BuildStack, kBuildStackBytes, B.OldSignalStack);
  buildPendingLocked();
}
} // namespace

void buildDeferredTables() {
  // A handler that interrupted this thread's own registration does not
  // wait for itself: its query answers from what is published, and a later
  // one builds.
  if (!lockWritersUnlessHeldHere())
    return;
  if (Initialized) {
    if (!BuildStack)
      BuildStack = static_cast<char *>(reserveStack(kBuildStackBytes));
    if (BuildStack) {
      BuildOnStack B = {};
      callOnStack(BuildStack + kBuildStackBytes, buildOnItsStack, &B);
      if (B.OnOwnStack)
        restoreSignalStack(B.OldSignalStack);
    } else {
      buildPendingLocked(); // no memory for a stack: on this one
    }
  }
  unlockWriters();
}

void buildTablesAtRegistration() { buildPendingLocked(); }

void addSection(MetadataKind Kind, uint32_t Version, const char *Start,
                const char *Stop) {
  SectionRef R{Kind, Version, Start, Stop};
  addSections(&R, 1);
}

void removeSection(MetadataKind Kind, uint32_t Version, const char *Start,
                   const char *Stop) {
  SectionRef R{Kind, Version, Start, Stop};
  removeSections(&R, 1);
}

void deferTablesForTesting() {
  WriterLock Lock;
  TablesWanted = false;
  EarlyClosed = false;
  __atomic_store_n(&TablesDeferred, uint64_t(1), __ATOMIC_RELEASE);
}

void setObjectLocatorForTesting(bool (*Locate)(const void *, LoadedObject &)) {
  WriterLock Lock;
  ObjectLocator = Locate;
}

} // namespace rt
} // namespace pcmap
