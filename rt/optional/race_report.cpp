//===- race_report.cpp - Data races reported, as the sanitizers do --------===//
//
// Races are reported soon after they are found, never in the signal handler
// that finds them: the handler publishes the race (race_table.h) and writes
// a byte to a pipe; a service thread of the runtime's, started when the
// program starts its first thread, wakes, takes the writer lock, symbolizes
// and writes each new race (to the report destination with text reports,
// to the log otherwise: a CSV or JSON report stays machine-readable). Races
// whose sides are at the same source lines (a statement's load and store,
// an unrolled loop's copies) are one report, and a race the suppressions
// match is counted, not written. The exit report writes what was not
// written yet and a summary; the process's exit status becomes exitcode;
// with halt_on_error, the service thread ends the process after the first
// report. docs/design/Runtime.md, "Races", has the reasons.
//
//===----------------------------------------------------------------------===//

#include "optional/race.h"

#include "core/access.h"
#include "core/log.h"
#include "core/mapped.h"
#include "core/options.h"
#include "optional/data_report.h"
#include "optional/describe.h"
#include "optional/race_suppressions.h"
#include "optional/race_table.h"
#include "optional/report.h"
#include "platform/hooks.h"
#include "platform/platform.h"

#include "pcmap/TraceDump.h"

#include <string.h>

namespace pcmap {
namespace rt {

namespace {

/// What the report knows of each group of races (those at the same source
/// lines on both sides): its key, where the SUMMARY line places it, and
/// whether it was written, suppressed, or left out for its memory: a
/// shared mapping (another process or the kernel may write it; written
/// with race_shared) or the kernel's own ([vvar], [vdso]: never).
enum GroupState : uint8_t {
  GS_Pending,
  GS_Written,
  GS_Suppressed,
  GS_SharedMemory,
  GS_KernelMemory
};

/// The state of a new group whose location is at Address: left out for
/// its memory, or else Pending (Suppressed if the suppressions match it).
GroupState memoryState(uintptr_t Address, bool Suppressed) {
  MappingInfo Map;
  char Path[32];
  if (mappingAt(Address, Map, Path, sizeof(Path))) {
    if (!strcmp(Path, "[vvar]") || !strcmp(Path, "[vdso]") ||
        !strcmp(Path, "[vsyscall]") || !strncmp(Path, "[vvar_", 6))
      return GS_KernelMemory;
    if (Map.Shared && !Flags.race_shared)
      return GS_SharedMemory;
  }
  return Suppressed ? GS_Suppressed : GS_Pending;
}

/// The report's memory, mapped at the first report. Group[Slot] is the
/// group of the table's slot plus one (0: not classified yet); Names[Slot]
/// its location's name.
struct RaceReportMemory {
  uint16_t Group[kRaces];
  char Names[kRaces][128];
  char Keys[kRaces][512];
  uint8_t States[kRaces];
  uint16_t FirstSlot[kRaces];
  unsigned NumGroups;
  LoadedObject ModuleStore[ModuleList::kMax + 1];
};
Mapped<RaceReportMemory> ReportMemory;

/// The service thread's wake-up pipe, and its thread.
int ReporterPipe[2] = {-1, -1};
int ReporterTid;
bool ReporterStarted;
/// Set by prepareRaceDetector: the detector is on.
bool Prepared;

const char *kindText(unsigned Kind) {
  return Kind == AK_ReadWrite ? "Read and write"
         : Kind == AK_Write   ? "Write"
                              : "Read";
}

/// PC's module and its symbolized frames.
struct RacePlace {
  char Module[512];
  uintptr_t Bias = 0;
  bool InModule;
  SymbolizedPC Sy;
  RacePlace(Symbolizer &Sym, uintptr_t PC) {
    Sy.Function[0] = Sy.Location[0] = '\0';
    Sy.NumFrames = 0;
    InModule = moduleOf(PC, Module, sizeof(Module), Bias);
    if (InModule)
      Sym.symbolize(PC, Module, PC - Bias, Sy);
  }
};

/// "#N function file:line:col (module+0xoffset)", a line per inlined frame.
void writeFrames(Writer &W, Symbolizer &Sym, const RaceSide &S) {
  unsigned N = 0;
  for (unsigned F = 0; F < S.Depth; ++F) {
    uintptr_t PC = S.Frames[F];
    RacePlace At(Sym, PC);
    const char *Base = At.InModule ? baseName(At.Module) : "?";
    unsigned Inlined = At.Sy.Function[0] ? At.Sy.NumFrames : 0;
    for (unsigned I = 0; I < (Inlined ? Inlined : 1); ++I) {
      W << "    #" << uint64_t(N++) << " ";
      if (Inlined) {
        const SymbolizedFrame &Fr = At.Sy.Frames[I];
        W << (Fr.Function[0] ? Fr.Function : "??");
        if (Fr.Location[0])
          W << " " << Fr.Location;
      } else {
        W.hex(PC);
      }
      W << " (" << Base << "+";
      W.hex(PC - At.Bias) << ")\n";
    }
  }
}

/// "FILE:LINE:COL in FUNCTION" of PC, or "in ??": the innermost inlined
/// frame's line and function, as ThreadSanitizer's summary names them (the
/// line is always the innermost one's; the function must be the same
/// frame's, not the function that holds PC).
void writeSummaryPlace(Writer &W, Symbolizer &Sym, uintptr_t PC) {
  RacePlace At(Sym, PC);
  const char *Function = At.Sy.Function;
  if (At.Sy.NumFrames && At.Sy.Frames[0].Function[0])
    Function = At.Sy.Frames[0].Function;
  if (At.Sy.Location[0])
    W << At.Sy.Location << " ";
  W << "in " << (Function[0] ? Function : "??");
}

/// "function location" of PC, or its hex value if it has no name.
void placeKey(Symbolizer &Sym, uintptr_t PC, Writer &W) {
  RacePlace At(Sym, PC);
  if (At.Sy.Function[0] && At.Sy.Location[0])
    W << At.Sy.Function << " " << At.Sy.Location;
  else
    W.hex(PC);
}

/// Whether a suppression matches a frame of side S: a function (inlined
/// ones too), its source file or its module.
bool sideSuppressed(Symbolizer &Sym, const RaceSide &S) {
  for (unsigned F = 0; F < S.Depth; ++F) {
    RacePlace At(Sym, S.Frames[F]);
    if (At.InModule && raceNameSuppressed(At.Module))
      return true;
    for (unsigned I = 0; I < At.Sy.NumFrames; ++I) {
      const SymbolizedFrame &Fr = At.Sy.Frames[I];
      char File[256];
      memcpy(File, Fr.Location, sizeof(File));
      // "file:line:col" less ":line:col".
      for (int Cut = 0; Cut < 2; ++Cut)
        if (char *Colon = strrchr(File, ':'))
          *Colon = '\0';
      if (raceNameSuppressed(Fr.Function) || raceNameSuppressed(File))
        return true;
    }
  }
  return false;
}

/// Gives the published race at Slot its group (a new one unless a group
/// has the same key), its location's name, and, in a new group, whether
/// the suppressions match it.
void classifyRace(RaceReportMemory &M, Symbolizer &Sym, unsigned Slot,
                  const RaceEntry &E) {
  ModuleList Modules(M.ModuleStore);
  Modules.collect(E.Address);
  Text N(M.Names[Slot], sizeof(M.Names[Slot]));
  writeAddressName(N, Sym, Modules, E.Address);
  char Key[512];
  Text T(Key, sizeof(Key));
  placeKey(Sym, E.Access.PC, T);
  T << " | ";
  if (E.OtherKnown)
    placeKey(Sym, E.Other.PC, T);
  for (unsigned G = 0; G < M.NumGroups; ++G)
    if (!strcmp(M.Keys[G], Key)) {
      M.Group[Slot] = uint16_t(G + 1);
      return;
    }
  unsigned G = M.NumGroups++;
  memcpy(M.Keys[G], Key, sizeof(Key));
  M.FirstSlot[G] = uint16_t(Slot);
  M.Group[Slot] = uint16_t(G + 1);
  bool Suppressed =
      haveRaceSuppressions() &&
      (raceNameSuppressed(M.Names[Slot]) || sideSuppressed(Sym, E.Access) ||
       (E.OtherKnown && sideSuppressed(Sym, E.Other)));
  M.States[G] = memoryState(E.Address, Suppressed);
}

/// Classifies every published race not classified yet.
void classifyPending(RaceReportMemory &M, Symbolizer &Sym) {
  prepareDataReport();
  for (unsigned Slot = 0; Slot < kRaces; ++Slot)
    if (const RaceEntry *E = publishedRace(Slot))
      if (!M.Group[Slot])
        classifyRace(M, Sym, Slot, *E);
}

/// The count of group G: its races' counts summed.
uint64_t groupCount(const RaceReportMemory &M, unsigned G) {
  uint64_t N = 0;
  for (unsigned Slot = 0; Slot < kRaces; ++Slot)
    if (M.Group[Slot] == G + 1)
      if (const RaceEntry *E = publishedRace(Slot))
        N += __atomic_load_n(&E->Count, __ATOMIC_RELAXED);
  return N;
}

void writeRace(Writer &W, Symbolizer &Sym, const RaceReportMemory &M,
               unsigned Slot, uint64_t Count) {
  const RaceEntry &E = *publishedRace(Slot);
  W << "==================\n"
    << "WARNING: pcmap: data race (pid=" << uint64_t(currentProcessId())
    << ")\n";
  W << "  " << kindText(E.Access.Kind) << " of size " << uint64_t(E.Access.Size)
    << " at ";
  W.hex(E.Address) << " by thread " << uint64_t(E.Access.Tid);
  if (E.OtherKnown) {
    W << ":\n";
  } else {
    W << " (the location changed from ";
    W.hex(E.Before) << " to ";
    W.hex(E.After) << " while the thread waited "
                   << uint64_t(Flags.race_delay_us) << " us to access it):\n";
  }
  writeFrames(W, Sym, E.Access);
  if (E.OtherKnown) {
    W << "  Concurrent " << kindText(E.Other.Kind) << " of size "
      << uint64_t(E.Other.Size) << " by thread " << uint64_t(E.Other.Tid)
      << ":\n";
    writeFrames(W, Sym, E.Other);
  } else {
    W << "  The other side is not known: another thread wrote the "
         "location meanwhile\n";
  }
  W << "  Location is " << M.Names[Slot] << "\n  Seen " << Count
    << (Count == 1 ? " time\n" : " times\n");
  W << "SUMMARY: pcmap: data race ";
  writeSummaryPlace(W, Sym, E.Access.PC);
  W << "\n==================\n";
}

/// Writes every group not written yet (none the suppressions match): the
/// number written.
unsigned writePending(Writer &W, Symbolizer &Sym, RaceReportMemory &M) {
  classifyPending(M, Sym);
  unsigned Written = 0;
  for (unsigned G = 0; G < M.NumGroups; ++G)
    if (M.States[G] == GS_Pending) {
      writeRace(W, Sym, M, M.FirstSlot[G], groupCount(M, G));
      M.States[G] = GS_Written;
      ++Written;
    }
  return Written;
}

/// The groups in State.
uint64_t groupsIn(const RaceReportMemory &M, GroupState State) {
  uint64_t N = 0;
  for (unsigned G = 0; G < M.NumGroups; ++G)
    N += M.States[G] == State;
  return N;
}

/// The summary: the races found, those suppressed, the detector's counts,
/// and each race written with how often it was seen.
void writeSummary(Writer &W, Symbolizer &Sym, const RaceReportMemory &M) {
  RaceCounts C = raceCounts();
  W << "pcmap: data races: " << groupsIn(M, GS_Written) << " found";
  if (uint64_t S = groupsIn(M, GS_Suppressed))
    W << ", " << S << " suppressed";
  W << " (" << C.Detections << " detections, " << C.Dropped << " dropped) in "
    << C.Checks << " checks of plain accesses, "
    << uint64_t(Flags.race_delay_us) << " us each";
  if (uint64_t S = groupsIn(M, GS_SharedMemory))
    W << "; " << S << " on shared memory not reported (race_shared=1 reports "
      << (S == 1 ? "it)" : "them)");
  if (uint64_t S = groupsIn(M, GS_KernelMemory))
    W << "; " << S << " on the kernel's memory not reported";
  W << "\n";
  for (unsigned G = 0; G < M.NumGroups; ++G)
    if (M.States[G] == GS_Written) {
      uint64_t N = groupCount(M, G);
      W << "pcmap:   " << N << (N == 1 ? " time: " : " times: ")
        << "data race ";
      writeSummaryPlace(W, Sym, publishedRace(M.FirstSlot[G])->Access.PC);
      W << "\n";
    }
}

/// Output to the log, for the races of a process whose reports are CSV or
/// JSON.
class LogWriter : private detail::ReportBuffer, public Writer {
public:
  LogWriter() : Writer(Storage, sizeof(Storage), logFd()) {}
  ~LogWriter() { flush(); }
};

/// Writes the races not written yet, to the report destination (text) or
/// the log; with Summary, the summary after them. Under the writer lock.
unsigned reportPending(Symbolizer &Sym, bool Summary) {
  RaceReportMemory *M = ReportMemory.get();
  if (!M)
    return 0;
  unsigned N;
  if (reportFormat() == ReportFormat::Text) {
    ReportWriter W;
    N = writePending(W, Sym, *M);
    if (Summary)
      writeSummary(W, Sym, *M);
  } else {
    LogWriter W;
    N = writePending(W, Sym, *M);
    if (Summary)
      writeSummary(W, Sym, *M);
  }
  return N;
}

/// The service thread: reports each new race when the handler that found
/// it wakes it; with halt_on_error, ends the process after the first.
void *reportLoop(void *) {
  __atomic_store_n(&ReporterTid, currentThreadId(), __ATOMIC_RELEASE);
  Symbolizer Sym;
  for (;;) {
    int R = waitReadable(ReporterPipe[0], -1);
    if (R < 0)
      return nullptr;
    char Drain[64];
    while (readWithTimeout(ReporterPipe[0], Drain, sizeof(Drain), 0) > 0) {
    }
    lockWriters();
    unsigned N = reportPending(Sym, /*Summary=*/Flags.halt_on_error);
    unlockWriters();
    if (N && Flags.halt_on_error)
      exitProcessNow(Flags.exitcode);
  }
}

/// Starts the service thread once the program may have threads (a race
/// needs two).
void startRaceReporter() {
  if (!__atomic_load_n(&Prepared, __ATOMIC_ACQUIRE) ||
      __atomic_exchange_n(&ReporterStarted, true, __ATOMIC_ACQ_REL))
    return;
  if (!makeWakeupPipe(ReporterPipe) ||
      !startServiceThread(reportLoop, nullptr)) {
    Message M;
    M << "warning: cannot start the race reporter's thread; races are "
         "reported at exit";
    M.emit();
  }
}

/// At exit, after the tracer's report: the races a CSV or JSON report did
/// not write go to the log, and the exit status becomes exitcode if a race
/// was reported (ThreadSanitizer's rule: whatever status exit() was given).
void finishRaces() {
  if (!__atomic_load_n(&Prepared, __ATOMIC_ACQUIRE))
    return;
  lockWriters();
  RaceReportMemory *M = ReportMemory.peek();
  bool Pending = false;
  for (unsigned Slot = 0; Slot < kRaces && !Pending; ++Slot)
    Pending = publishedRace(Slot) && (!M || !M->Group[Slot]);
  if (reportFormat() != ReportFormat::Text && (Pending || M)) {
    Symbolizer Sym;
    reportPending(Sym, /*Summary=*/true);
  }
  M = ReportMemory.peek();
  bool Reported = M && groupsIn(*M, GS_Written);
  unlockWriters();
  if (Reported && Flags.exitcode)
    exitProcessNow(Flags.exitcode);
}

PCMAP_SUBSCRIBE(RaceHooks, 90,
                {{Event::ThreadCreate, startRaceReporter},
                 {Event::Exit, finishRaces}});

} // namespace

bool prepareRaceDetector() {
  if (!mapRaceTable())
    return false;
  loadRaceSuppressions();
  __atomic_store_n(&Prepared, true, __ATOMIC_RELEASE);
  if (mayHaveOtherThreads())
    startRaceReporter();
  return true;
}

void resetRaceDetector() {
  clearRaceTable();
  if (RaceReportMemory *M = ReportMemory.peek())
    memset(M, 0, sizeof(*M) - sizeof(M->ModuleStore));
  if (ReporterPipe[0] >= 0) {
    closeFd(ReporterPipe[0]);
    closeFd(ReporterPipe[1]);
    ReporterPipe[0] = ReporterPipe[1] = -1;
  }
  ReporterTid = 0;
  ReporterStarted = false;
}

void noteNewRace() {
  int Fd = __atomic_load_n(&ReporterPipe[1], __ATOMIC_RELAXED);
  if (Fd >= 0)
    writeToPipe(Fd, "r", 1); // a full pipe: a report is pending
}

bool isRaceReporterThread(int Tid) {
  return Tid && Tid == __atomic_load_n(&ReporterTid, __ATOMIC_ACQUIRE);
}

void writeTextRaces(Writer &W, Symbolizer &Sym) {
  RaceReportMemory *M = ReportMemory.get();
  if (!M)
    return;
  writePending(W, Sym, *M);
  writeSummary(W, Sym, *M);
}

//===----------------------------------------------------------------------===//
// The JSON dump
//===----------------------------------------------------------------------===//

namespace {

Writer &key(Writer &W, const char *Key, bool First = false) {
  return W << (First ? "\"" : ", \"") << Key << "\": ";
}

const char *kindKey(unsigned Kind) {
  return Kind == AK_ReadWrite ? trace::kAccessReadWrite
         : Kind == AK_Write   ? trace::kAccessWrite
                              : trace::kAccessRead;
}

void writeJSONSide(Writer &W, ModuleList &Modules, const RaceSide &S) {
  key(W << "{", trace::kKindKey, /*First=*/true)
      << "\"" << kindKey(S.Kind) << "\"";
  key(W, trace::kSizeKey) << uint64_t(S.Size);
  key(W, trace::kThreadKey) << uint64_t(S.Tid);
  key(W, trace::kFramesKey) << "[";
  for (unsigned F = 0; F < S.Depth; ++F)
    writeModuleAddress(F ? W << ", " : W, Modules, S.Frames[F]);
  W << "]}";
}

void writeJSONRace(Writer &W, ModuleList &Modules, const RaceReportMemory &M,
                   unsigned Slot, bool First) {
  const RaceEntry &E = *publishedRace(Slot);
  key(W << (First ? "{" : ", {"), trace::kCountKey, /*First=*/true)
      << __atomic_load_n(&E.Count, __ATOMIC_RELAXED);
  key(W, trace::kAddressKey) << "\"";
  W.hex(E.Address) << "\"";
  key(W, trace::kAddressNameKey).json(M.Names[Slot]);
  key(W, trace::kBeforeKey) << "\"";
  W.hex(E.Before) << "\"";
  key(W, trace::kAfterKey) << "\"";
  W.hex(E.After) << "\"";
  key(W, trace::kOtherKnownKey) << (E.OtherKnown ? "true" : "false");
  writeJSONSide(key(W, trace::kRaceAccessKey), Modules, E.Access);
  if (E.OtherKnown)
    writeJSONSide(key(W, trace::kRaceOtherKey), Modules, E.Other);
  W << "}";
}

} // namespace

void collectRaceModules(ModuleList &Modules) {
  for (unsigned Slot = 0; Slot < kRaces; ++Slot)
    if (const RaceEntry *E = publishedRace(Slot)) {
      for (unsigned F = 0; F < E->Access.Depth; ++F)
        Modules.collect(E->Access.Frames[F]);
      for (unsigned F = 0; E->OtherKnown && F < E->Other.Depth; ++F)
        Modules.collect(E->Other.Frames[F]);
    }
}

void writeJSONRaces(Writer &W, ModuleList &Modules) {
  RaceReportMemory *M = Prepared ? ReportMemory.get() : nullptr;
  if (!M)
    return;
  Symbolizer Sym;
  classifyPending(*M, Sym);
  RaceCounts C = raceCounts();
  key(W, trace::kRaceChecksKey) << C.Checks;
  key(W, trace::kRaceDetectionsKey) << C.Detections;
  key(W, trace::kRacesDroppedKey) << C.Dropped;
  key(W, trace::kRacesSuppressedKey) << groupsIn(*M, GS_Suppressed);
  key(W, trace::kRacesKey) << "[";
  bool First = true;
  for (unsigned Slot = 0; Slot < kRaces; ++Slot)
    if (M->Group[Slot] && publishedRace(Slot) &&
        (M->States[M->Group[Slot] - 1] == GS_Pending ||
         M->States[M->Group[Slot] - 1] == GS_Written)) {
      writeJSONRace(W, Modules, *M, Slot, First);
      First = false;
    }
  W << "]";
}

} // namespace rt
} // namespace pcmap
