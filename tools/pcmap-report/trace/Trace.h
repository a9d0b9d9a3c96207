//===- Trace.h - The tracer's dumps, read and merged ------------*- C++ -*-===//
//
// `pcmap-report trace FILE...` (docs/Report.md, "Many processes' traces"):
// the runtime's tracer writes, per process, JSON Lines of cumulative dumps
// (versions 2 to 6, include/pcmap/TraceDump.h). TraceRead.cpp reads them
// and keeps the last dump of each process; TraceMerge.cpp merges the
// processes into one table of atomic sites, one of covered functions and
// one of call stacks, keyed by build ID (or module path) and module offset,
// TraceData.cpp the data the samples touched into cache lines, and
// TraceWaits.cpp the waits of blocked threads by what they waited on,
// TraceRaces.cpp the data races by their pair of source sites;
// TraceSymbolize.cpp names them offline (TraceDataNames.cpp the data);
// TraceStacks.cpp finds each row's callers; TraceOutput.cpp (text, CSV,
// folded stacks), TraceDataOutput.cpp (the data's text and HTML),
// TraceWaitOutput.cpp (the waits' text and HTML),
// TraceRaceOutput.cpp (the races' text and HTML),
// TraceJSON.cpp, TraceHTML.cpp and TracePprof.cpp write them.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_REPORT_TRACE_H
#define PCMAP_REPORT_TRACE_H

#include "BinaryReport.h"
#include "Views.h"

#include "pcmap/TraceDump.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace pcmap {
namespace report {

/// The formats of `pcmap-report trace`.
enum class TraceFormat { Text, CSV, JSON, HTML, Pprof, Folded };

/// The writers' options: the other subcommands', and how many callers each
/// top site and function lists (0: none).
struct TraceOptions : OutputOptions {
  TraceOptions() = default;
  TraceOptions(const OutputOptions &O) : OutputOptions(O) {}
  unsigned Callers = 3;
  /// The functions are ranked by their samples and those of their
  /// uncovered callees (rankFunctions), not by their own alone.
  bool WithUncoveredCallees = false;
  /// Also a table of every function in the call stacks ranked by the
  /// samples of the stacks that hold it (cumulativeFunctions).
  bool Cumulative = false;
  /// The top cache lines whose members, sites and callers the text
  /// details (0: none).
  size_t Lines = 5;
  /// The top wait objects whose waiting and holding stacks the text
  /// details (0: none).
  size_t Waits = 5;
  /// The stacks of the folded output: the CPU samples' (by samples), the
  /// blocked threads' (by wait nanoseconds) or their holders'.
  enum class Folded { CPU, Wait, Holder } FoldedStacks = Folded::CPU;
};

/// A source position a PC stands for; a PC in inlined code stands for
/// several, innermost first, the last the function that holds the code.
struct TraceSourceFrame {
  std::string Function;    // as shown: demangled unless --no-demangle
  std::string LinkageName; // as in the file ("" if unknown)
  std::string File;        // "" if unknown (or --no-source)
  uint32_t Line = 0, Column = 0;
  /// "file:line:col" (as much as is known), or "".
  std::string location(bool BaseName = false) const;
};

/// What sites and functions have in common, as the runtime wrote it: the
/// module (its path, "" if unknown; its GNU build ID, lowercase hex, ""
/// if none), the offset in the module (the address less the module's load
/// bias), names ("" if unknown), and samples.
struct TraceEntry {
  std::string Module;
  uint64_t ModuleOffset = 0;
  std::string BuildID;
  std::string Function;
  std::string Location; // "file:line:col"; functions get one offline only
  uint64_t Samples = 0;
};

/// One atomic site of a dump.
struct TraceSite : TraceEntry {
  uint64_t PC = 0;
  uint64_t FunctionStart = 0, FunctionOffset = 0;
  std::string Kind, Op, Order, FailureOrder;
  uint64_t Size = 0;
  uint64_t ExactSamples = 0, SkidSamples = 0;
  /// From the module file: the source positions of the PC, innermost
  /// first (Location is the first's); empty when not symbolized.
  std::vector<TraceSourceFrame> Inline;
  /// The function offsets of the other PCs of its function, atomic and
  /// source line that mergeSiteLines made part of this row.
  std::vector<uint64_t> LineOffsets;
};

/// One covered function of a dump.
struct TraceFunction : TraceEntry {
  uint64_t Start = 0;
  uint64_t AtomicSamples = 0;
  /// Samples in code without tables whose nearest covered caller this is
  /// (version 3; 0 in version 2).
  uint64_t UncoveredCalleeSamples = 0;
};

/// A process's CPU time and samples, or their sums over the processes.
struct SampleCounts {
  uint64_t CpuNs = 0; // user + system
  uint64_t Samples = 0, AtomicSamples = 0, CoveredSamples = 0,
           UncoveredSamples = 0, DroppedSamples = 0;
  uint64_t StackSamplesDropped = 0; // version 3: samples without a stack
  /// Version 4: samples whose access was decoded, and of them those the
  /// runtime's table had no room for.
  uint64_t DataSamples = 0, DataSamplesDropped = 0;
  /// Version 5: threads observed by wall clock, of them those blocked in a
  /// system call, and of those the ones the table had no room for.
  uint64_t WaitObservations = 0, WaitSamples = 0, WaitSamplesDropped = 0;
  /// Version 6: plain accesses checked for races, races seen (repeats
  /// counted), the races the table had no room for, and the distinct races
  /// the process's suppressions matched.
  uint64_t RaceChecks = 0, RaceDetections = 0, RacesDropped = 0,
           RacesSuppressed = 0;
  /// The sampling signals the samples came in (0: a dump that does not say),
  /// and of them those a task-clock event sent (0 too in older dumps).
  uint64_t Observations = 0, EventObservations = 0;
  /// Whether every process counted gave its observations.
  bool ObservationsKnown = true;
  void add(const SampleCounts &C);
};

/// A process (a run): the header of the dump that stands for it.
struct TraceProcess : SampleCounts {
  int64_t Pid = 0, PPid = 0;
  std::string Run, ParentRun;
  uint64_t Dump = 0;
  std::string Reason;
  bool Final = false;
  uint64_t Hz = 0, Threads = 0;
  uint64_t DistinctSites = 0, DistinctFunctions = 0;
  unsigned Version = 0;
  uint64_t StackDepth = 0; // version 3: the most frames a stack keeps
  uint64_t LineSize = 0;   // version 4: the cache line size
  uint64_t WaitHz = 0;     // version 5: 0 when wait sampling was off
  /// Version 3: the report's index of each module the dump lists.
  std::vector<uint32_t> Modules;
  /// Where the dump was read.
  std::string File;
  unsigned Line = 0;
};

/// A module of a version 3 dump, and a frame of one of its stacks: the
/// module's index (trace::kNoModule: none, Offset is the address) and the
/// offset in it.
struct DumpModule {
  std::string Path, BuildID;
};
struct DumpFrame {
  int64_t Module = 0;
  uint64_t Offset = 0;
};
struct DumpStack {
  uint64_t Samples = 0, AtomicSamples = 0;
  std::vector<DumpFrame> Frames; // innermost first
};

/// An access's kind, and where its address lies (TraceDump.h).
enum class AccessKind : uint8_t { Read, Write, ReadWrite };
enum class DataRegion : uint8_t { Module, TLS, Stack, Shared, Heap, Unknown };
/// "read", "write", "rmw"; "module", "tls", ... as the dumps spell them.
llvm::StringRef accessKindName(AccessKind K);
llvm::StringRef regionName(DataRegion R);

/// Where an address lies, as a dump says it (an access of version 4, the
/// futex word of a wait of version 5): the address, its region and the
/// region's fields.
struct DataPlace {
  uint64_t Address = 0;
  DataRegion Region = DataRegion::Unknown;
  /// Module: the module (index in the dump's modules) and the offset in it;
  /// TLS: the module whose block holds it and the offset in the block (-1:
  /// not given); Shared: Offset is the file offset.
  int64_t Module = -1;
  uint64_t Offset = 0;
  int64_t TpOffset = 0; // TLS: the address less the thread pointer
  /// Stack: the thread whose stack it is (when the dump says), -1.
  int64_t StackOwner = -1;
  std::string File;   // Shared
  uint64_t Inode = 0; // Shared
};

/// A row of a version 4 dump's "accesses": the samples at one address,
/// size, kind, thread, site and stack.
struct DumpAccess : DataPlace {
  uint64_t Samples = 0;
  int64_t Thread = 0;
  AccessKind Kind = AccessKind::Read;
  uint64_t Size = 0; // 0: not known
  bool Atomic = false;
  DumpFrame Site;
  int64_t Stack = -1; // index in the dump's stacks, or -1
};

/// What a blocked thread waits on (version 5): a futex word (an address),
/// a file descriptor, or nothing the dump names (nanosleep, select, ...).
enum class WaitTarget : uint8_t { None, Address, Fd };

/// A stack of a version 5 dump's "wait_stacks": frames as a stack's.
struct DumpWaitStack {
  std::vector<DumpFrame> Frames; // innermost first
};

/// A row of a version 5 dump's "waits": the samples of one thread blocked
/// in one system call on one object, with one stack and holder.
struct DumpWait : DataPlace {
  int64_t Thread = 0;
  std::string Syscall;
  int64_t SyscallNr = 0;
  uint64_t Samples = 0, WaitNs = 0;
  int64_t Stack = -1; // index in the dump's wait_stacks, or -1
  /// Futex: the thread in the word's owner field (0: none) and its stack
  /// (an index in wait_stacks, or -1).
  int64_t Holder = 0, HolderStack = -1;
  /// Address: the DataPlace fields; Fd: Fd, and File as /proc/self/fd
  /// names it ("" when not read).
  WaitTarget Target = WaitTarget::None;
  int64_t Fd = -1;
};

/// A side of a race of a version 6 dump's "races": the access a thread
/// made, its stack's frames as a stack's (frame 0: the access).
struct DumpRaceSide {
  AccessKind Kind = AccessKind::Read;
  uint64_t Size = 0;
  int64_t Thread = 0;
  std::vector<DumpFrame> Frames;
};

/// A race of a version 6 dump: one pair of sites, seen Count times.
struct DumpRace {
  uint64_t Count = 0, Address = 0, Before = 0, After = 0;
  std::string AddressName;
  bool OtherKnown = false;
  DumpRaceSide Access, Other; // Other: when OtherKnown
};

/// One dump line.
struct TraceDump {
  TraceProcess Process;
  std::vector<TraceSite> Sites;
  std::vector<TraceFunction> Functions;
  std::vector<DumpModule> Modules;  // version 3
  std::vector<DumpStack> Stacks;    // version 3
  std::vector<DumpAccess> Accesses; // version 4
  std::vector<DumpWaitStack> WaitStacks; // version 5
  std::vector<DumpWait> Waits;           // version 5
  std::vector<DumpRace> Races;           // version 6
  bool HasRaces = false;                 // version 6: the dump has race keys
};

/// A module the merged rows point into: one build ID, or one path for
/// modules without a build ID.
struct TraceModule {
  std::string BuildID;
  std::vector<std::string> Paths; // as the traces named it, first seen first
  /// Names and source lines came from the file at SymbolizedPath (its build
  /// ID matched), or else are the trace's; Note says why.
  bool Symbolized = false;
  std::string SymbolizedPath;
  std::string Note;
  /// The stand-in for frames in no module (JIT code): offsets are
  /// addresses.
  bool NoModule = false;
  /// The file's PLT entries, by address: "memcmp@plt" (no symbol covers
  /// them, and a symbolizer names them by the symbol before: _init).
  std::map<uint64_t, std::string> Plt;
  uint64_t PltEntrySize = 16;
  /// The PLT entry that holds Offset, or null.
  const std::string *pltEntryAt(uint64_t Offset) const;
};

/// One process's part of a merged row.
struct ProcessCount {
  uint32_t Process = 0; // index in TraceReport::Processes
  uint64_t Address = 0; // the site's PC, or the function's start
  uint64_t Samples = 0;
  uint64_t Exact = 0, Skid = 0; // sites
  uint64_t Atomic = 0;          // functions, stacks
  uint64_t UncoveredCallee = 0; // functions
};

/// A merged row: an atomic site or a covered function, summed over the
/// processes.
template <typename T> struct Merged {
  T Entry; // counts are the sums; addresses are the first process's
  uint32_t Module = 0;
  std::vector<ProcessCount> Processes; // most samples first
};
using MergedSite = Merged<TraceSite>;
using MergedFunction = Merged<TraceFunction>;

/// A frame of the merged stacks: a place in a module, named offline.
struct TraceFrame {
  uint32_t Module = 0;
  uint64_t Offset = 0;
  /// What the frame stands for, innermost first: several in inlined code;
  /// one with the trace's names (or none) when the module was not
  /// symbolized.
  std::vector<TraceSourceFrame> Lines;
  /// The atomic site at this offset and the covered function that holds
  /// it (indices in TraceReport::Sites and ::Functions), or -1.
  int64_t Site = -1, Function = -1;
  /// The start of the function that holds it, from the module file.
  std::optional<uint64_t> Start;
};

/// A call stack summed over the processes.
struct MergedStack {
  std::vector<uint32_t> Frames; // indices in TraceReport::Frames, innermost
                                // first
  uint64_t Samples = 0, AtomicSamples = 0;
  std::vector<ProcessCount> Processes; // most samples first
  /// As deep as its process's stack_depth: the outer frames may be cut.
  bool Truncated = false;
  /// The site of its frame 0 and the function it is charged to (the
  /// innermost frame in a covered function, at Frames[ChargedFrame]), or -1.
  int64_t Site = -1, Function = -1;
  uint32_t ChargedFrame = 0;
};

/// The way to a site or function: the frames from it outward, and the
/// samples of the stacks that share them.
struct CallerPath {
  std::vector<uint32_t> Frames;
  uint64_t Samples = 0;
  bool Truncated = false;
};

/// A thread of the trace: its process and its id (gettid).
struct DataThread {
  uint32_t Process = 0;
  int64_t Tid = 0;
};

/// An access of the merged data: a dump's row, in its line.
struct DataAccess {
  uint32_t Thread = 0; // index in TraceReport::Threads
  uint32_t Offset = 0; // of its first byte, from the line's start
  uint64_t Size = 0;   // 0: not known
  AccessKind Kind = AccessKind::Read;
  bool Atomic = false;
  DataRegion Region = DataRegion::Unknown; // as its dump said
  uint32_t Site = 0;                       // index in TraceReport::Frames
  int64_t Stack = -1; // index in TraceReport::Stacks, or -1
  uint64_t Samples = 0;
  uint64_t Address = 0; // in its process
  /// Module: the module offset; Shared: the file offset; TLS: the offset
  /// in its module's block (when TlsModule is one), and the address less
  /// the thread pointer.
  uint64_t Place = 0;
  int64_t TlsModule = -1; // index in TraceReport::Modules
  int64_t TpOffset = 0;
  int64_t StackOwner = -1; // Stack: its thread's id, when known
  /// What C would call the bytes (TraceDataNames.cpp), and whether it is a
  /// variable's member or element named from the debug information (else
  /// a symbol and offset, or the region's name).
  std::string Name;
  std::string Object; // the variable, or the region's name
  bool Typed = false;
  uint32_t Member = 0; // index in its line's Members
};

/// The PCs of one source line that touch a member (one when the line is
/// not known), with their samples.
struct DataSite {
  std::vector<uint32_t> Frames; // indices in TraceReport::Frames, heaviest
                                // first
  uint64_t Samples = 0;
  unsigned Kinds = 0; // bit 1 << AccessKind of each kind
};

/// The accesses of a line to one member (the same name; or without a type,
/// the same bytes).
struct DataMember {
  std::string Name;
  uint32_t Offset = 0, Size = 0; // the bytes of the line they touch
  uint64_t Samples = 0, Reads = 0, Writes = 0, ReadWrites = 0, Atomic = 0;
  uint32_t Threads = 0;
  std::vector<DataSite> Sites; // most samples first
};

/// A line's verdict (dataSharing), bits.
enum DataSharing : unsigned {
  NoSharing = 0,
  FalseSharing = 1,
  TrueSharing = 2
};

/// A cache line of the merged data: static data of a module (build ID or
/// path, offset), a shared file's bytes (inode, file, offset), or a
/// process's memory (process, address), whatever address each process
/// had it at.
struct DataLine {
  DataRegion Region = DataRegion::Unknown;
  uint32_t Module = 0;  // Module
  std::string File;     // Shared
  uint64_t Inode = 0;   // Shared
  uint32_t Process = 0; // the first process's
  /// Module: the line's module offset; Shared: its file offset; else its
  /// address.
  uint64_t Start = 0;
  std::vector<DataAccess> Accesses; // by offset, then most samples
  std::vector<DataMember> Members;  // by offset
  uint64_t Samples = 0;
  uint32_t Threads = 0, Processes = 0;
  unsigned Sharing = NoSharing;
  std::string Object; // what it holds: "stats", "g_a, g_b", "heap 0x..."
};

/// A stack of blocked threads (version 5), merged as the stacks are.
struct WaitStack {
  std::vector<uint32_t> Frames; // indices in TraceReport::Frames, innermost
                                // first
  bool Truncated = false;       // as deep as its process's stack_depth
};

/// A wait of the merged trace: a dump's row, its thread one of the
/// report's.
struct WaitRow {
  uint32_t Thread = 0; // index in TraceReport::Threads
  std::string Syscall;
  uint64_t Samples = 0, WaitNs = 0;
  /// Indices in TraceReport::WaitStacks, or -1.
  int64_t Stack = -1, HolderStack = -1;
  int64_t Holder = 0;  // futex: the holder's thread id (0: none)
  uint32_t Object = 0; // index in TraceReport::WaitObjects
  std::string Kind;    // waitKindOfStack's
};

/// What threads waited on, the same in every process where a line of the
/// data would be (DataLine): a futex word of a module's static data or of
/// a shared file, or a process's; a file (by its name, "pipe:[123]" or a
/// path; a process's descriptor where it has none); or, for a system call
/// that waits on none, the system call.
struct WaitObject {
  WaitTarget Target = WaitTarget::None;
  /// Address: the word as a line of one access of 4 bytes at Line.Start
  /// (the word's own address or offset), for the data's names.
  DataLine Line;
  int64_t Fd = -1;     // Fd without a file name: the descriptor
  std::string Syscall; // None: the system call
  /// As every format shows it ("big_lock", "cache.mu", "pipe:[123]",
  /// "(none)"), and the kind of its heaviest waits ("mutex", "read").
  std::string Name, Kind;
  uint64_t WaitNs = 0, Samples = 0;
  uint32_t Threads = 0, Processes = 0;
  std::vector<uint32_t> Rows; // in TraceReport::Waits, most wait first
};

/// The waiting (or holding) stacks of an object's waits, those with the
/// same frames summed.
struct WaitPath {
  std::vector<uint32_t> Frames;
  uint64_t WaitNs = 0, Samples = 0;
  bool Truncated = false;
};

/// A side of a merged race: frames in TraceReport::Frames, innermost
/// first, and the thread of its first sighting.
struct RaceSide {
  AccessKind Kind = AccessKind::Read;
  uint64_t Size = 0;
  uint32_t Thread = 0; // index in TraceReport::Threads
  std::vector<uint32_t> Frames;
};

/// A data race of the merged trace: the races of every process at one pair
/// of source sites (the access's, and the other side's when known; by
/// module offset where a site has no source line), counts summed; what
/// else it says is its first sighting's (most seen first).
struct TraceRace {
  RaceSide Access, Other;
  bool OtherKnown = false;
  uint64_t Count = 0;
  uint64_t Address = 0, Before = 0, After = 0; // in its first process
  std::string AddressName;
  std::vector<uint32_t> Processes; // indices in TraceReport::Processes
  /// The pair of source sites, as mergeRaces keys it.
  std::string Key;
};

struct TraceFile {
  std::string Path;
  uint64_t Dumps = 0; // dump lines read
};

struct TraceReport {
  std::vector<TraceFile> Files;
  uint64_t Hz = 0;
  std::vector<TraceProcess> Processes; // in the order first seen
  std::vector<TraceModule> Modules;
  std::vector<MergedSite> Sites;         // most samples first
  std::vector<MergedFunction> Functions; // most samples first
  std::vector<TraceFrame> Frames;        // every frame of the stacks
  std::vector<MergedStack> Stacks;       // most samples first
  SampleCounts Totals;                   // over the processes
  unsigned Version = 0;                  // the newest dump version read
  /// Version 4: the cache line size, the threads that touched data, the
  /// lines, most samples first.
  uint64_t LineSize = 0;
  std::vector<DataThread> Threads;
  std::vector<DataLine> Lines;
  /// Version 5: whether any dump sampled waits (or has waits); the stacks
  /// of blocked threads, the waits, and what they waited on, most wait
  /// time first.
  bool HasWaits = false;
  std::vector<WaitStack> WaitStacks;
  std::vector<WaitRow> Waits;
  std::vector<WaitObject> WaitObjects;
  uint64_t WaitNs = 0; // over every wait
  /// Version 6: whether any dump has race keys; the races, most seen first
  /// (after mergeRaces), and those the suppressions matched (the
  /// processes' own and --suppressions).
  bool HasRaces = false;
  std::vector<TraceRace> Races;
  uint64_t RacesSuppressed = 0;

  double cpuSeconds() const { return double(Totals.CpuNs) / 1e9; }
  /// Samples over what the CPU time at Hz would give (1.0: none lost).
  double sampleRatio() const;
  double share(uint64_t N) const {
    return Totals.Samples ? double(N) / Totals.Samples : 0;
  }
};

/// Reads every file and keeps, per run, the dump with the highest number.
/// Prints a warning for dumps read twice, and for each malformed dump,
/// which it skips (Skipped counts them: the caller merges the rest and
/// says so in its exit status); on another failure prints one error per
/// failing file and returns the first failure's code.
ExitCode readTraces(llvm::ArrayRef<std::string> Paths,
                    std::vector<TraceDump> &Dumps,
                    std::vector<TraceFile> &Files, uint64_t &Skipped);

/// Ranks the functions by their own samples and those of their uncovered
/// callees (time in the C library's mutex code, say, charged to the
/// covered function that called it), most first.
void rankFunctionsWithUncoveredCallees(TraceReport &R);

/// Makes the sites of one function, one kind of atomic and one source line
/// (an unrolled loop's copies of one statement; line known, column aside)
/// one row, their counts summed, ranked again; the stacks are linked to the
/// merged rows. For the text report, after symbolizeTrace.
void mergeSiteLines(TraceReport &R);

/// Merges the dumps into ranked sites, functions and stacks, linked with
/// the trace's names (linkStacks).
TraceReport mergeTraces(std::vector<TraceDump> Dumps,
                        std::vector<TraceFile> Files);

/// The data's cache lines while the dumps are merged (TraceData.cpp), found
/// by what makes a line the same in every process (DataLine).
class DataMerger {
public:
  explicit DataMerger(TraceReport &R) : R(R) {}
  /// Adds an access of process Process: Module is the report's index of
  /// its module (or -1), Site the frame of its site, Stack the merged stack
  /// (before ranking) or -1.
  void add(uint32_t Process, const DumpAccess &A, int64_t Module, uint32_t Site,
           int64_t Stack);
  /// Once the stacks are ranked (NewStack: each stack's index after):
  /// counts, verdicts and the regions' names of the lines, ranked by
  /// samples.
  void finish(llvm::ArrayRef<uint32_t> NewStack);

  /// The report's thread Tid of process Process.
  uint32_t thread(uint32_t Process, int64_t Tid);

private:
  TraceReport &R;
  /// (region group, module, inode or process, file, line start) -> line.
  std::map<std::tuple<int, uint64_t, std::string, uint64_t>, size_t> Index;
  std::map<std::pair<uint32_t, int64_t>, uint32_t> Threads;
};

/// The waits while the dumps are merged (TraceWaits.cpp): each row's
/// object found by what makes it the same in every process (WaitObject).
class WaitMerger {
public:
  explicit WaitMerger(TraceReport &R) : R(R) {}
  /// Adds a wait of process Process: Module is the report's index of its
  /// word's module (or -1), Thread the report's thread, Stack and
  /// HolderStack the merged wait stacks (or -1).
  void add(uint32_t Process, const DumpWait &W, int64_t Module, uint32_t Thread,
           int64_t Stack, int64_t HolderStack);
  /// Counts and ranks the objects by wait time, with the trace's names.
  void finish();

private:
  TraceReport &R;
  /// (key kind, module or inode or process, file or system call, offset or
  /// address or descriptor) -> object.
  std::map<std::tuple<int, uint64_t, std::string, uint64_t>, size_t> Index;
};

/// The kind of a wait in system call Syscall whose stack has the functions
/// Functions (innermost first, inline frames included, demangled; "" for
/// a frame without a name): for futex, pcmap::trace::waitKind's, or
/// "futex" when no frame matches; else the system call.
std::string waitKindOfStack(llvm::StringRef Syscall,
                            llvm::ArrayRef<std::string> Functions);
/// Each wait's kind from its stack's names, and each object's (its
/// heaviest waits').
void classifyWaits(TraceReport &R);
/// Names the futex words as the data is named (nameData), the library's
/// own members left out (withoutLibraryMembers); files by their names.
void nameWaitObjects(TraceReport &R, bool Demangle, bool Files, bool Types);
/// A data name without the members named as the C or C++ library names
/// its own (reserved names: "__x", "_X"): "big_lock" for
/// "big_lock.__data.__lock", "cache.mu" for "cache.mu._M_mutex".
std::string withoutLibraryMembers(llvm::StringRef Name);
/// The heaviest N waiting stacks of object O (with Holders, the holders'
/// stacks), by wait time, and the wait time of its rows with one.
std::vector<WaitPath> waitPaths(const TraceReport &R, const WaitObject &O,
                                bool Holders, size_t N, uint64_t &TotalNs);
/// "4200 samples of blocked threads in 5000 observations at 100 Hz, 0
/// dropped; 42.000 s of wait on 3 objects"
std::string waitSummary(const TraceReport &R);

/// The race: patterns of a suppressions file (pcmap/Suppressions.h), for
/// `pcmap-report trace --suppressions`.
struct RaceSuppressions {
  std::vector<std::string> Patterns;
  /// Whether a pattern matches Name.
  bool matches(llvm::StringRef Name) const;
};
/// Reads a suppressions file: a file that cannot be read or a malformed
/// line is an error.
llvm::Expected<RaceSuppressions> readRaceSuppressions(llvm::StringRef Path);
/// After symbolizeTrace: makes the races at the same pair of source sites
/// one (counts summed), drops those Suppressions matches (a frame's
/// function, inlined ones too, its file or module, or the location's name)
/// into RacesSuppressed, ranks the rest by count.
void mergeRaces(TraceReport &R, const RaceSuppressions &Suppressions);
/// "2 races in 3 processes (1 suppressed; 18 detections, 0 dropped, in 113
/// checks of plain accesses)"
std::string raceSummary(const TraceReport &R);

/// The verdict on a line (DataSharing bits), from its accesses; unless
/// AcrossProcesses (a shared mapping), only threads of one process share
/// (Threads: the report's).
unsigned dataSharing(llvm::ArrayRef<DataAccess> Accesses, uint64_t LineSize,
                     llvm::ArrayRef<DataThread> Threads, bool AcrossProcesses);

/// Names each line's data (TraceDataNames.cpp): with Files, from the module
/// files whose build ID matched (their symbols; with Types, their debug
/// information's variables); else, and for what they do not name, by
/// region. Then groups each line's accesses into its members.
void nameData(TraceReport &R, bool Demangle, bool Files, bool Types);
/// Groups each line's accesses into members by name (by bytes where there
/// is no type), their sites by source line (TraceData.cpp).
void groupMembers(TraceReport &R);

/// A line as the reports name it: "prog+0x4040" (static data),
/// "/dev/shm/x+0x40" (a shared file), "0x7f0000001000" (a process's
/// memory; "0x7f0000001000 pid 12" when the trace has several processes).
std::string lineText(const TraceReport &R, const DataLine &L);
/// "false", "true", "false+true" or "none" (pprof's label); with Long,
/// "false sharing", "true sharing", "false and true sharing", "no sharing".
std::string sharingText(unsigned Sharing, bool Long = false);
/// The heaviest N ways to member M of line L (its accesses' stacks, from
/// the access outward), and the samples of its accesses with a stack.
std::vector<CallerPath> memberCallers(const TraceReport &R, const DataLine &L,
                                      size_t M, size_t N, uint64_t &Total);
/// A member site's kinds: "rmw", "read/write".
std::string kindsText(unsigned Kinds);

/// Names and source lines (inline frames included) of sites, functions and
/// stack frames from the modules whose build ID matches the trace's (one
/// warning for each other module); without SourceLines, no locations. Then
/// ties each frame and stack to its site and function (linkStacks).
void symbolizeTrace(TraceReport &R, bool Demangle, bool SourceLines);

/// Ties frames to the sites and covered functions they lie in, and each
/// stack to the function it is charged to (TraceStacks.cpp).
void linkStacks(TraceReport &R);
/// The heaviest N ways to site or function I (most samples first), and the
/// samples of all the stacks charged to it.
std::vector<CallerPath> siteCallers(const TraceReport &R, size_t I, size_t N,
                                    uint64_t &Total);
std::vector<CallerPath> functionCallers(const TraceReport &R, size_t I,
                                        size_t N, uint64_t &Total);
/// siteCallers or functionCallers, for the writers' templates over both.
inline std::vector<CallerPath> rowCallers(const TraceReport &R,
                                          const TraceSite *, size_t I, size_t N,
                                          uint64_t &Total) {
  return siteCallers(R, I, N, Total);
}
inline std::vector<CallerPath> rowCallers(const TraceReport &R,
                                          const TraceFunction *, size_t I,
                                          size_t N, uint64_t &Total) {
  return functionCallers(R, I, N, Total);
}
/// The root frame of a stack cut at its process's stack_depth in the
/// folded, flame graph and pprof output: its outer frames are not known,
/// and its outermost known one is no root of the program's.
inline constexpr const char *kTruncatedRoot = "[truncated]";
/// A stack's frames as names, outermost first, inline frames expanded
/// (shortName'd with Short); "module+0xoffset" for a frame without a name;
/// kTruncatedRoot first if the stack is Truncated.
std::vector<std::string> foldedFrames(const TraceReport &R,
                                      const MergedStack &S, bool Short);
/// The same of the frames Frames (indices in R.Frames, innermost first).
std::vector<std::string> foldedFrames(const TraceReport &R,
                                      llvm::ArrayRef<uint32_t> Frames,
                                      bool Short, bool Truncated = false);
/// " [atomic rmw add seq_cst 8 bytes]": what the innermost frame of a
/// stack's atomic samples gets.
std::string atomicSuffix(const TraceReport &R, const MergedStack &S);

/// A function of the call stacks, covered or not, with the samples of the
/// stacks it is in (once per stack, recursion or inlining notwithstanding)
/// and of those whose innermost frame it is: pprof's "cum" and "flat".
struct CumulativeFunction {
  std::string Name; // as shown, or "module+0x..." where unnamed
  uint32_t Module = 0;
  uint64_t Cumulative = 0, Self = 0;
};
/// Every function of R's stacks, most cumulative samples first (ties: most
/// self samples, then by name). Empty without stacks.
std::vector<CumulativeFunction> cumulativeFunctions(const TraceReport &R);
/// The samples with a stack: what cumulative shares are of.
uint64_t stackSamples(const TraceReport &R);

/// The writers. O.Top cuts the rows; O.PerProcess adds each process's
/// counts to text and CSV; O.Callers, each top row's callers.
void writeTraceText(llvm::raw_ostream &OS, const TraceReport &R,
                    const TraceOptions &O);
void writeTraceCSV(llvm::raw_ostream &OS, const TraceReport &R,
                   const TraceOptions &O);
void writeTraceJSON(llvm::raw_ostream &OS, const TraceReport &R,
                    const TraceOptions &O);
void writeTraceHTML(llvm::raw_ostream &OS, const TraceReport &R,
                    const TraceOptions &O);
/// The data: the text report's tables of lines and their members, and the
/// HTML page's section (TraceDataOutput.cpp); nothing without version 4
/// dumps.
void writeDataText(llvm::raw_ostream &OS, const TraceReport &R,
                   const TraceOptions &O);
void writeDataHTML(llvm::raw_ostream &OS, const TraceReport &R,
                   const TraceOptions &O);
/// The wait time (version 5): the text report's table of objects and
/// their stacks, the HTML page's section (TraceWaitOutput.cpp); nothing
/// without waits.
void writeWaitText(llvm::raw_ostream &OS, const TraceReport &R,
                   const TraceOptions &O);
void writeWaitHTML(llvm::raw_ostream &OS, const TraceReport &R,
                   const TraceOptions &O);
/// The data races (version 6): the text report's warnings in the
/// sanitizers' form and the HTML page's section (TraceRaceOutput.cpp);
/// nothing without race keys in any dump.
void writeRaceText(llvm::raw_ostream &OS, const TraceReport &R,
                   const TraceOptions &O);
void writeRaceHTML(llvm::raw_ostream &OS, const TraceReport &R,
                   const TraceOptions &O);
/// A stack's frames as the text shows them, a frame a line after Indent,
/// innermost first, names and positions aligned ("..." last if Truncated).
void stackFramesText(llvm::raw_ostream &OS, const TraceReport &R,
                     llvm::ArrayRef<uint32_t> Frames, bool Truncated,
                     const TraceOptions &O, llvm::StringRef Indent);
/// The same as the items of an HTML list.
void stackFramesHTML(llvm::raw_ostream &OS, const TraceReport &R,
                     llvm::ArrayRef<uint32_t> Frames, bool Truncated,
                     const TraceOptions &O);
/// A way to a row as the text shows it: its samples and share of Total,
/// then a frame a line, each line after Indent (TraceOutput.cpp).
void callerPathText(llvm::raw_ostream &OS, const TraceReport &R,
                    const CallerPath &P, uint64_t Total, const TraceOptions &O,
                    llvm::StringRef Indent = "");
/// The same as an HTML list item.
void callerPathHTML(llvm::raw_ostream &OS, const TraceReport &R,
                    const CallerPath &P, uint64_t Total, const TraceOptions &O);
/// The HTML page's flame graph of the stacks (nothing without stacks).
void writeFlameGraph(llvm::raw_ostream &OS, const TraceReport &R,
                     const OutputOptions &O);
/// Brendan Gregg's folded stacks: "outer;...;inner COUNT" per line.
void writeTraceFolded(llvm::raw_ostream &OS, const TraceReport &R,
                      const TraceOptions &O);
/// A gzipped pprof profile (profile.proto); fails when this LLVM has no
/// zlib.
llvm::Error writeTracePprof(llvm::raw_ostream &OS, const TraceReport &R,
                            const TraceOptions &O);

//===----------------------------------------------------------------------===//
// Field text, for every format (TraceOutput.cpp)
//===----------------------------------------------------------------------===//

/// "3 processes, 2 files: 2950 samples at 1000 Hz in 3.010 s of CPU time
/// (0.980 of the 3010 expected from CPU time x rate)"
std::string traceSummary(const TraceReport &R);
/// "1200 on atomics (40.7%), 2900 in covered functions, 50 elsewhere,
/// 0 dropped"
std::string sampleBreakdown(const TraceReport &R);
/// "300 sampling signals for 1200 samples, one per 4.0 ms of CPU time (the
/// kernel's clock tick); a share's standard error is at most 2.9 points",
/// or "" where a dump did not give its observations.
std::string resolutionText(const TraceReport &R);
std::string cpuSecondsText(uint64_t Ns); // "1.234"
/// How many of N rows to show: O.Top, or all when it is 0.
size_t shownRows(size_t N, const OutputOptions &O);
/// Calls Fn(I, Paths, Total) for each shown row I of Rows (sites or
/// functions) that has callers: the heaviest O.Callers ways to it, and the
/// samples of all the stacks charged to it. The writers' one walk over the
/// top rows' callers.
template <typename T, typename FnT>
void forEachRowCallers(const TraceReport &R, const std::vector<Merged<T>> &Rows,
                       const TraceOptions &O, FnT Fn) {
  for (size_t I = 0, E = shownRows(Rows.size(), O); I < E && O.Callers; ++I) {
    uint64_t Total = 0;
    std::vector<CallerPath> Paths =
        rowCallers(R, static_cast<const T *>(nullptr), I, O.Callers, Total);
    if (!Paths.empty())
      Fn(I, Paths, Total);
  }
}
std::string percentText(double Share); // "40.7%"
/// "pid 1234", with the run ID when another process had the same PID.
std::string processLabel(const TraceReport &R, uint32_t Process);
/// The module's file name with the offset: "prog+0x1a2b" ("?+0x..." when
/// the trace has no path).
std::string moduleText(const TraceReport &R, uint32_t Module, uint64_t Offset);
/// "worker+0x12" for a site, "worker" for a function; "?" without a name.
std::string functionText(const TraceSite &S);
std::string functionText(const TraceFunction &F);
/// "rmw add seq_cst 8 bytes", "cmpxchg acq_rel/acquire 4 bytes"
std::string atomicText(const TraceSite &S);
/// A site's source positions: "ring.c:27:5 inlined into ring.c:40:3"
/// (file names only with BaseName).
std::string inlineText(const TraceSite &S, bool BaseName);
/// A frame's position as text shows it: its file:line:col, or
/// "module+0xoffset" when unknown.
std::string frameWhere(const TraceReport &R, const TraceFrame &F,
                       const TraceSourceFrame &L);

} // namespace report
} // namespace pcmap

#endif // PCMAP_REPORT_TRACE_H
