//===- TraceRead.cpp - The tracer's JSON Lines dumps, checked -------------===//
//
// Each line of a trace file is one dump (versions 2 to 6,
// include/pcmap/TraceDump.h, docs/Tracer.md); blank
// lines are skipped. A file that is one JSON document over several lines
// (a version 1 trace, another report, a dump passed through a pretty
// printer) is read as one document, so that it gets the error that says
// what it is. Dumps are cumulative: per run, the one with the highest
// number stands for the process.
//
//===----------------------------------------------------------------------===//

#include "Trace.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/LineIterator.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"

#include <map>
#include <optional>
#include <set>

using namespace llvm;

namespace pcmap {
namespace report {

namespace {

/// An address field: "0x" and hexadecimal digits.
struct Hex {
  uint64_t Value = 0;
};

bool fromJSON(const json::Value &V, Hex &Out, json::Path P) {
  std::optional<StringRef> S = V.getAsString();
  if (!S || !S->consume_front("0x") || S->empty() ||
      S->getAsInteger(16, Out.Value)) {
    P.report("expected a hexadecimal string \"0x...\"");
    return false;
  }
  return true;
}

/// The fields of TraceEntry; Location only for sites.
bool mapEntry(json::ObjectMapper &O, TraceEntry &E, bool HasLocation) {
  Hex Offset;
  bool OK = O && O.map(trace::kModuleKey, E.Module) &&
            O.map(trace::kModuleOffsetKey, Offset) &&
            O.map(trace::kBuildIdKey, E.BuildID) &&
            O.map(trace::kFunctionKey, E.Function) &&
            (!HasLocation || O.map(trace::kLocationKey, E.Location)) &&
            O.map(trace::kSamplesKey, E.Samples);
  E.ModuleOffset = Offset.Value;
  E.BuildID = StringRef(E.BuildID).lower();
  return OK;
}

} // namespace

// In namespace report, for argument-dependent lookup from json::ObjectMapper.
static bool fromJSON(const json::Value &V, TraceSite &S, json::Path P) {
  json::ObjectMapper O(V, P);
  Hex PC, Start;
  bool OK = mapEntry(O, S, /*HasLocation=*/true) && O.map(trace::kPcKey, PC) &&
            O.map(trace::kFunctionStartKey, Start) &&
            O.map(trace::kFunctionOffsetKey, S.FunctionOffset) &&
            O.map(trace::kKindKey, S.Kind) && O.map(trace::kOpKey, S.Op) &&
            O.map(trace::kSizeKey, S.Size) &&
            O.map(trace::kOrderKey, S.Order) &&
            O.map(trace::kFailureOrderKey, S.FailureOrder) &&
            O.map(trace::kExactSamplesKey, S.ExactSamples) &&
            O.map(trace::kSkidSamplesKey, S.SkidSamples);
  S.PC = PC.Value;
  S.FunctionStart = Start.Value;
  return OK;
}

static bool fromJSON(const json::Value &V, TraceFunction &F, json::Path P) {
  json::ObjectMapper O(V, P);
  Hex Start;
  bool OK = mapEntry(O, F, /*HasLocation=*/false) &&
            O.map(trace::kStartKey, Start) &&
            O.map(trace::kAtomicSamplesKey, F.AtomicSamples);
  F.Start = Start.Value;
  return OK;
}

/// "observations" and "event_observations", which dumps before them do not
/// have.
static bool mapObservations(json::ObjectMapper &O, TraceProcess &T) {
  std::optional<uint64_t> N, Events;
  if (!O.map(trace::kObservationsKey, N) ||
      !O.mapOptional(trace::kEventObservationsKey, Events))
    return false;
  T.Observations = N.value_or(0);
  T.EventObservations = Events.value_or(0);
  T.ObservationsKnown = N.has_value();
  return true;
}

static bool fromJSON(const json::Value &V, TraceDump &D, json::Path P) {
  json::ObjectMapper O(V, P);
  TraceProcess &T = D.Process;
  return O && O.map(trace::kPidKey, T.Pid) && O.map(trace::kPpidKey, T.PPid) &&
         O.map(trace::kRunKey, T.Run) &&
         O.map(trace::kParentRunKey, T.ParentRun) &&
         O.map(trace::kDumpKey, T.Dump) && O.map(trace::kReasonKey, T.Reason) &&
         O.map(trace::kFinalKey, T.Final) && O.map(trace::kHzKey, T.Hz) &&
         O.map(trace::kThreadsKey, T.Threads) &&
         O.map(trace::kCpuNsKey, T.CpuNs) &&
         O.map(trace::kSamplesKey, T.Samples) && mapObservations(O, T) &&
         O.map(trace::kAtomicSamplesKey, T.AtomicSamples) &&
         O.map(trace::kCoveredSamplesKey, T.CoveredSamples) &&
         O.map(trace::kUncoveredSamplesKey, T.UncoveredSamples) &&
         O.map(trace::kDroppedSamplesKey, T.DroppedSamples) &&
         O.map(trace::kDistinctSitesKey, T.DistinctSites) &&
         O.map(trace::kDistinctFunctionsKey, T.DistinctFunctions) &&
         O.map(trace::kSitesKey, D.Sites) &&
         O.map(trace::kFunctionsKey, D.Functions);
}

static bool fromJSON(const json::Value &V, DumpModule &M, json::Path P) {
  json::ObjectMapper O(V, P);
  bool OK = O && O.map(trace::kPathKey, M.Path) &&
            O.map(trace::kBuildIdKey, M.BuildID);
  M.BuildID = StringRef(M.BuildID).lower();
  return OK;
}

/// A frame: [module index, "0x offset"].
static bool fromJSON(const json::Value &V, DumpFrame &F, json::Path P) {
  const json::Array *A = V.getAsArray();
  if (!A || A->size() != 2) {
    P.report("expected a frame [module index, \"0x...\"]");
    return false;
  }
  std::optional<int64_t> Module = (*A)[0].getAsInteger();
  if (!Module) {
    P.index(0).report("expected an integer module index");
    return false;
  }
  F.Module = *Module;
  Hex Offset;
  if (!fromJSON((*A)[1], Offset, P.index(1)))
    return false;
  F.Offset = Offset.Value;
  return true;
}

static bool fromJSON(const json::Value &V, DumpStack &S, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.map(trace::kSamplesKey, S.Samples) &&
         O.map(trace::kAtomicSamplesKey, S.AtomicSamples) &&
         O.map(trace::kFramesKey, S.Frames);
}

/// What version 3 adds: the stack fields, and each function's samples in
/// uncovered callees.
static bool mapVersion3(const json::Value &V, TraceDump &D, json::Path P) {
  json::ObjectMapper O(V, P);
  TraceProcess &T = D.Process;
  if (!(O && O.map(trace::kStackDepthKey, T.StackDepth) &&
        O.map(trace::kStackSamplesDroppedKey, T.StackSamplesDropped) &&
        O.map(trace::kModulesKey, D.Modules) &&
        O.map(trace::kStacksKey, D.Stacks)))
    return false;
  const json::Array *Functions =
      V.getAsObject()->getArray(trace::kFunctionsKey);
  for (size_t I = 0; Functions && I < Functions->size(); ++I) {
    json::ObjectMapper F((*Functions)[I], P.field("functions").index(I));
    if (!F.map(trace::kUncoveredCalleeSamplesKey,
               D.Functions[I].UncoveredCalleeSamples))
      return false;
  }
  return true;
}

/// A string field of a fixed set of values.
template <typename T, size_t N>
static bool fromJSONEnum(const json::Value &V, T &Out, json::Path P,
                         const std::pair<const char *, T> (&Values)[N],
                         StringLiteral Expected) {
  std::optional<StringRef> S = V.getAsString();
  for (size_t I = 0; S && I < N; ++I)
    if (*S == Values[I].first) {
      Out = Values[I].second;
      return true;
    }
  P.report(Expected);
  return false;
}

static bool fromJSON(const json::Value &V, AccessKind &K, json::Path P) {
  static const std::pair<const char *, AccessKind> Values[] = {
      {trace::kAccessRead, AccessKind::Read},
      {trace::kAccessWrite, AccessKind::Write},
      {trace::kAccessReadWrite, AccessKind::ReadWrite}};
  return fromJSONEnum(V, K, P, Values,
                      "expected \"read\", \"write\" or \"rmw\"");
}

static bool fromJSON(const json::Value &V, DataRegion &R, json::Path P) {
  static const std::pair<const char *, DataRegion> Values[] = {
      {trace::kRegionModule, DataRegion::Module},
      {trace::kRegionTLS, DataRegion::TLS},
      {trace::kRegionStack, DataRegion::Stack},
      {trace::kRegionShared, DataRegion::Shared},
      {trace::kRegionHeap, DataRegion::Heap},
      {trace::kRegionUnknown, DataRegion::Unknown}};
  return fromJSONEnum(V, R, P, Values,
                      "expected a region: \"module\", \"tls\", \"stack\", "
                      "\"shared\", \"heap\" or \"unknown\"");
}

/// The fields that name an access's region: a module's offset, a TLS
/// offset (and its module's, when given), a stack's owner (when given), a
/// shared file's.
static bool mapRegion(json::ObjectMapper &O, DataPlace &A) {
  Hex Offset;
  std::optional<int64_t> Module, Owner;
  bool OK = true;
  switch (A.Region) {
  case DataRegion::Module:
    OK = O.map(trace::kModuleKey, A.Module) && O.map(trace::kOffsetKey, Offset);
    break;
  case DataRegion::TLS:
    OK = O.map(trace::kTpOffsetKey, A.TpOffset) &&
         O.map(trace::kModuleKey, Module) &&
         (!Module || O.map(trace::kOffsetKey, Offset));
    A.Module = Module.value_or(-1);
    break;
  case DataRegion::Shared:
    OK = O.map(trace::kFileKey, A.File) && O.map(trace::kInodeKey, A.Inode) &&
         O.map(trace::kOffsetKey, Offset);
    break;
  case DataRegion::Stack:
    OK = O.map(trace::kStackOwnerKey, Owner);
    A.StackOwner = Owner.value_or(-1);
    break;
  default:
    break;
  }
  A.Offset = Offset.Value;
  return OK;
}

static bool fromJSON(const json::Value &V, DumpAccess &A, json::Path P) {
  json::ObjectMapper O(V, P);
  Hex Address;
  bool OK =
      O && O.map(trace::kSamplesKey, A.Samples) &&
      O.map(trace::kThreadKey, A.Thread) && O.map(trace::kKindKey, A.Kind) &&
      O.map(trace::kSizeKey, A.Size) && O.map(trace::kAddressKey, Address) &&
      O.map(trace::kAtomicKey, A.Atomic) && O.map(trace::kSiteKey, A.Site) &&
      O.map(trace::kStackKey, A.Stack) && O.map(trace::kRegionKey, A.Region) &&
      mapRegion(O, A);
  A.Address = Address.Value;
  return OK;
}

/// What version 4 adds: the data the samples touched.
static bool mapVersion4(const json::Value &V, TraceDump &D, json::Path P) {
  json::ObjectMapper O(V, P);
  TraceProcess &T = D.Process;
  return O && O.map(trace::kLineSizeKey, T.LineSize) &&
         O.map(trace::kDataSamplesKey, T.DataSamples) &&
         O.map(trace::kDataSamplesDroppedKey, T.DataSamplesDropped) &&
         O.map(trace::kAccessesKey, D.Accesses);
}

static bool fromJSON(const json::Value &V, DumpWaitStack &S, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.map(trace::kFramesKey, S.Frames);
}

/// A wait's object: a futex word ("address", "region" and the region's
/// fields), a descriptor ("fd", and "file" when given), or neither.
static bool mapWaitTarget(const json::Value &V, json::ObjectMapper &O,
                          DumpWait &W, json::Path P) {
  const json::Object *Obj = V.getAsObject();
  if (Obj->get(trace::kAddressKey) && Obj->get(trace::kFdKey)) {
    P.field(trace::kFdKey).report("a wait on both an address and a descriptor");
    return false;
  }
  if (Obj->get(trace::kAddressKey)) {
    Hex Address;
    W.Target = WaitTarget::Address;
    bool OK = O.map(trace::kAddressKey, Address) &&
              O.map(trace::kRegionKey, W.Region) && mapRegion(O, W);
    W.Address = Address.Value;
    return OK;
  }
  if (!Obj->get(trace::kFdKey))
    return true;
  W.Target = WaitTarget::Fd;
  std::optional<std::string> File;
  bool OK = O.map(trace::kFdKey, W.Fd) && O.map(trace::kFileKey, File);
  W.File = File.value_or("");
  return OK;
}

static bool fromJSON(const json::Value &V, DumpWait &W, json::Path P) {
  json::ObjectMapper O(V, P);
  std::optional<int64_t> Holder, HolderStack;
  bool OK =
      O && O.map(trace::kThreadKey, W.Thread) &&
      O.map(trace::kSyscallKey, W.Syscall) &&
      O.map(trace::kSyscallNrKey, W.SyscallNr) &&
      O.map(trace::kSamplesKey, W.Samples) &&
      O.map(trace::kWaitNsKey, W.WaitNs) && O.map(trace::kStackKey, W.Stack) &&
      O.map(trace::kHolderKey, Holder) &&
      O.map(trace::kHolderStackKey, HolderStack) && mapWaitTarget(V, O, W, P);
  W.Holder = Holder.value_or(0);
  W.HolderStack = HolderStack.value_or(-1);
  // The runtime wrote "" for a call its table did not name (before it
  // wrote "syscall NR"): such a dump is read, the call named by number.
  if (OK && W.Syscall.empty())
    W.Syscall = "syscall " + std::to_string(W.SyscallNr);
  return OK;
}

/// What version 5 adds: the waits of blocked threads.
static bool mapVersion5(const json::Value &V, TraceDump &D, json::Path P) {
  json::ObjectMapper O(V, P);
  TraceProcess &T = D.Process;
  return O && O.map(trace::kWaitHzKey, T.WaitHz) &&
         O.map(trace::kWaitObservationsKey, T.WaitObservations) &&
         O.map(trace::kWaitSamplesKey, T.WaitSamples) &&
         O.map(trace::kWaitSamplesDroppedKey, T.WaitSamplesDropped) &&
         O.map(trace::kWaitStacksKey, D.WaitStacks) &&
         O.map(trace::kWaitsKey, D.Waits);
}

static bool fromJSON(const json::Value &V, DumpRaceSide &S, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.map(trace::kKindKey, S.Kind) &&
         O.map(trace::kSizeKey, S.Size) && O.map(trace::kThreadKey, S.Thread) &&
         O.map(trace::kFramesKey, S.Frames);
}

static bool fromJSON(const json::Value &V, DumpRace &X, json::Path P) {
  json::ObjectMapper O(V, P);
  Hex Address, Before, After;
  bool OK = O && O.map(trace::kCountKey, X.Count) &&
            O.map(trace::kAddressKey, Address) &&
            O.map(trace::kAddressNameKey, X.AddressName) &&
            O.map(trace::kBeforeKey, Before) &&
            O.map(trace::kAfterKey, After) &&
            O.map(trace::kOtherKnownKey, X.OtherKnown) &&
            O.map(trace::kRaceAccessKey, X.Access) &&
            (!X.OtherKnown || O.map(trace::kRaceOtherKey, X.Other));
  X.Address = Address.Value;
  X.Before = Before.Value;
  X.After = After.Value;
  return OK;
}

/// What version 6 adds: the data races, when the process looked for them
/// (every key optional: without "races", none).
static bool mapVersion6(const json::Value &V, TraceDump &D, json::Path P) {
  json::ObjectMapper O(V, P);
  TraceProcess &T = D.Process;
  std::optional<uint64_t> Checks, Detections, Dropped, Suppressed;
  std::optional<std::vector<DumpRace>> Races;
  bool OK = O && O.map(trace::kRaceChecksKey, Checks) &&
            O.map(trace::kRaceDetectionsKey, Detections) &&
            O.map(trace::kRacesDroppedKey, Dropped) &&
            O.map(trace::kRacesSuppressedKey, Suppressed) &&
            O.map(trace::kRacesKey, Races);
  T.RaceChecks = Checks.value_or(0);
  T.RaceDetections = Detections.value_or(0);
  T.RacesDropped = Dropped.value_or(0);
  T.RacesSuppressed = Suppressed.value_or(0);
  D.HasRaces = Races.has_value();
  if (Races)
    D.Races = std::move(*Races);
  return OK;
}

namespace {

/// A place in the input: "file:line".
struct Where {
  StringRef File;
  unsigned Line;
  Error error(ExitCode Code, const Twine &Message) const {
    return makeError(Code, File + ":" + Twine(Line) + ": " + Message);
  }
};

/// What a JSON document that is not a pcmap trace is, for the error.
std::string describeOtherDocument(const json::Object &Obj) {
  if (std::optional<StringRef> Report = Obj.getString("report"))
    return "not a pcmap trace but a '" + Report->str() + "' report";
  if (std::optional<StringRef> Command = Obj.getString("command"))
    if (Obj.getString("tool") == std::optional<StringRef>("pcmap-report"))
      return "not a pcmap trace but pcmap-report's '" + Command->str() +
             "' output";
  return "not a pcmap trace (no \"report\" field)";
}

/// The report and version fields: is this a dump this tool reads? Sets
/// Version.
Error checkKind(const json::Value &V, const Where &W, unsigned &Version) {
  const json::Object *Obj = V.getAsObject();
  if (!Obj)
    return W.error(ExitCode::UnsupportedFile,
                   "not a pcmap trace (not a JSON object)");
  if (Obj->getString(trace::kReportKey) !=
      std::optional<StringRef>(trace::kReportName))
    return W.error(ExitCode::UnsupportedFile, describeOtherDocument(*Obj));
  std::optional<int64_t> Given = Obj->getInteger(trace::kVersionKey);
  if (!Given)
    return W.error(ExitCode::MalformedMetadata,
                   "pcmap trace without an integer \"version\"");
  if (*Given == 1)
    return W.error(ExitCode::UnsupportedFile,
                   "pcmap trace version 1 is not supported: it has no build "
                   "IDs to match modules across processes and runs (trace "
                   "again with a runtime that writes version " +
                       Twine(trace::kMinReadVersion) + " or later)");
  if (*Given < trace::kMinReadVersion || *Given > trace::kVersion)
    return W.error(ExitCode::UnsupportedFile,
                   "unsupported pcmap trace version " + Twine(*Given) +
                       " (pcmap-report reads versions " +
                       Twine(trace::kMinReadVersion) + " to " +
                       Twine(trace::kVersion) + ")");
  Version = unsigned(*Given);
  return Error::success();
}

/// A stack's frames, each in one of the dump's modules (or -1 with an
/// address); At says which stack.
Error checkFrames(const TraceDump &D, ArrayRef<DumpFrame> Frames,
                  const std::string &At, const Where &W) {
  for (size_t J = 0; J < Frames.size(); ++J) {
    const DumpFrame &F = Frames[J];
    std::string Frame = At + "frames[" + std::to_string(J) + "]: ";
    if (F.Module < trace::kNoModule || F.Module >= int64_t(D.Modules.size()))
      return W.error(ExitCode::MalformedMetadata,
                     Frame + "module index " + Twine(F.Module) +
                         ", but the dump has " + Twine(D.Modules.size()) +
                         " modules");
    if (F.Module == trace::kNoModule && F.Offset == 0)
      return W.error(ExitCode::MalformedMetadata,
                     Frame + "address 0x0 in no module");
  }
  return Error::success();
}

/// What the JSON types cannot say about a version 3 dump's stacks: frames
/// in its modules, counts that hold together.
Error checkStacks(const TraceDump &D, const Where &W) {
  const TraceProcess &P = D.Process;
  // trace_stack_depth=0: a dump without stacks.
  if (P.StackDepth > trace::kMaxStackDepth ||
      (P.StackDepth == 0 && !D.Stacks.empty()))
    return W.error(ExitCode::MalformedMetadata,
                   "malformed pcmap trace dump: stack_depth " +
                       Twine(P.StackDepth) + " (1 to " +
                       Twine(trace::kMaxStackDepth) + ", or 0 without stacks)");
  for (size_t I = 0; I < D.Stacks.size(); ++I) {
    const DumpStack &S = D.Stacks[I];
    std::string At =
        "malformed pcmap trace dump: stacks[" + std::to_string(I) + "]: ";
    if (S.Frames.empty() || S.Frames.size() > P.StackDepth)
      return W.error(ExitCode::MalformedMetadata,
                     At + Twine(S.Frames.size()) +
                         " frames (1 to stack_depth " + Twine(P.StackDepth) +
                         ")");
    if (S.AtomicSamples > S.Samples)
      return W.error(ExitCode::MalformedMetadata,
                     At + "atomic_samples " + Twine(S.AtomicSamples) +
                         " more than samples " + Twine(S.Samples));
    if (Error E = checkFrames(D, S.Frames, At, W))
      return E;
  }
  return Error::success();
}

/// A module index of a dump: one of its modules, or with Address, -1 and
/// an address (a frame in no module); "" if so, else what is wrong.
std::string checkModuleIndex(const TraceDump &D, int64_t Module,
                             std::optional<uint64_t> Address) {
  if (Module >= 0 && Module < int64_t(D.Modules.size()))
    return "";
  if (Address && Module == trace::kNoModule && *Address)
    return "";
  if (Address && Module == trace::kNoModule)
    return "address 0x0 in no module";
  return "module index " + std::to_string(Module) + ", but the dump has " +
         std::to_string(D.Modules.size()) + " modules";
}

/// What the JSON types cannot say about a version 4 dump's accesses: a
/// line size that is a power of two, sites, stacks and modules the dump
/// has.
Error checkAccesses(const TraceDump &D, const Where &W) {
  uint64_t Line = D.Process.LineSize;
  if ((Line < 8 || Line > 4096 || (Line & (Line - 1))) &&
      !(Line == 0 && D.Accesses.empty()))
    return W.error(ExitCode::MalformedMetadata,
                   "malformed pcmap trace dump: line_size " + Twine(Line) +
                       " (a power of two from 8 to 4096)");
  for (size_t I = 0; I < D.Accesses.size(); ++I) {
    const DumpAccess &A = D.Accesses[I];
    std::string Problem;
    if (std::string S = checkModuleIndex(D, A.Site.Module, A.Site.Offset);
        !S.empty())
      Problem = "site: " + S;
    else if (A.Stack < -1 || A.Stack >= int64_t(D.Stacks.size()))
      Problem = "stack " + std::to_string(A.Stack) + ", but the dump has " +
                std::to_string(D.Stacks.size()) + " stacks";
    else if (A.Region == DataRegion::Module || A.Module >= 0)
      if (std::string S = checkModuleIndex(D, A.Module, std::nullopt);
          !S.empty())
        Problem = S;
    if (!Problem.empty())
      return W.error(ExitCode::MalformedMetadata,
                     "malformed pcmap trace dump: accesses[" + Twine(I) +
                         "]: " + Problem);
  }
  return Error::success();
}

/// A wait stack's index: one of the dump's, or -1; "" if so.
std::string checkWaitStack(const TraceDump &D, StringRef Field, int64_t I) {
  if (I >= -1 && I < int64_t(D.WaitStacks.size()))
    return "";
  return (Field + " " + Twine(I) + ", but the dump has " +
          Twine(D.WaitStacks.size()) + " wait stacks")
      .str();
}

/// What is wrong with a wait, or "".
std::string checkWait(const TraceDump &D, const DumpWait &X) {
  if (std::string S = checkWaitStack(D, trace::kStackKey, X.Stack); !S.empty())
    return S;
  if (std::string S = checkWaitStack(D, trace::kHolderStackKey, X.HolderStack);
      !S.empty())
    return S;
  if (X.Holder < 0)
    return "holder " + std::to_string(X.Holder);
  if (X.Target == WaitTarget::Fd && X.Fd < 0)
    return "fd " + std::to_string(X.Fd);
  if (X.Target == WaitTarget::Address &&
      (X.Region == DataRegion::Module || X.Module >= 0))
    return checkModuleIndex(D, X.Module, std::nullopt);
  return "";
}

/// What the JSON types cannot say about a version 5 dump's waits: stacks
/// of frames in its modules, and waits whose stacks and modules it has.
Error checkWaits(const TraceDump &D, const Where &W) {
  for (size_t I = 0; I < D.WaitStacks.size(); ++I) {
    const DumpWaitStack &S = D.WaitStacks[I];
    std::string At =
        "malformed pcmap trace dump: wait_stacks[" + std::to_string(I) + "]: ";
    if (S.Frames.empty() || S.Frames.size() > trace::kMaxStackDepth)
      return W.error(ExitCode::MalformedMetadata,
                     At + Twine(S.Frames.size()) + " frames (1 to " +
                         Twine(trace::kMaxStackDepth) + ")");
    if (Error E = checkFrames(D, S.Frames, At, W))
      return E;
  }
  for (size_t I = 0; I < D.Waits.size(); ++I)
    if (std::string Problem = checkWait(D, D.Waits[I]); !Problem.empty())
      return W.error(ExitCode::MalformedMetadata,
                     "malformed pcmap trace dump: waits[" + Twine(I) +
                         "]: " + Problem);
  return Error::success();
}

/// What the JSON types cannot say about a version 6 dump's races: sides
/// with frames in its modules, counts of at least one.
Error checkRaces(const TraceDump &D, const Where &W) {
  for (size_t I = 0; I < D.Races.size(); ++I) {
    const DumpRace &X = D.Races[I];
    std::string At =
        "malformed pcmap trace dump: races[" + std::to_string(I) + "]: ";
    if (!X.Count)
      return W.error(ExitCode::MalformedMetadata, At + "count 0");
    for (const DumpRaceSide *S : {&X.Access, &X.Other}) {
      if (S == &X.Other && !X.OtherKnown)
        continue;
      std::string Side = At + (S == &X.Access ? "access: " : "other: ");
      if (S->Frames.empty() || S->Frames.size() > trace::kMaxStackDepth)
        return W.error(ExitCode::MalformedMetadata,
                       Side + Twine(S->Frames.size()) + " frames (1 to " +
                           Twine(trace::kMaxStackDepth) + ")");
      if (Error E = checkFrames(D, S->Frames, Side, W))
        return E;
    }
  }
  return Error::success();
}

class TraceReader {
public:
  /// Reads one file (index FileIndex of the command line); fails at the
  /// first line that is not a trace, skips a malformed dump with a
  /// warning (skipped()).
  Error readFile(StringRef Path, size_t FileIndex, uint64_t &DumpsRead);
  /// The malformed dumps skipped.
  uint64_t skipped() const { return Skipped; }
  /// One warning per file that repeated dumps already read.
  void warnDuplicates(ArrayRef<TraceFile> Files) const;
  std::vector<TraceDump> takeDumps() { return std::move(Dumps); }
  bool hasDumps() const { return !Dumps.empty(); }

private:
  Error readDocument(const json::Value &V, const Where &W, size_t FileIndex);
  Error checkRate(const TraceProcess &P, const Where &W);
  void checkLineSize(const TraceProcess &P, const Where &W);
  void keep(TraceDump D);
  /// E, unless it says a dump is malformed: then a warning, and the dump is
  /// skipped, so that one bad dump (a process killed while writing, a
  /// runtime's bug) does not lose the others.
  Error skipMalformed(Error E);

  std::vector<TraceDump> Dumps; // the highest dump of each run
  StringMap<size_t> RunIndex;   // run -> index in Dumps
  /// (run, dump number) -> index of the file it was first read from.
  std::map<std::pair<std::string, uint64_t>, size_t> Seen;
  /// (file, file it repeats) -> dumps repeated.
  std::map<std::pair<size_t, size_t>, uint64_t> Repeated;
  std::optional<TraceProcess> FirstRate; // the first dump: its hz and place
  /// The first dump with a line size (version 4), and the files already
  /// warned of for another.
  std::optional<TraceProcess> FirstLine;
  std::set<std::string> OtherLineSize;
  uint64_t Skipped = 0;
};

Error TraceReader::skipMalformed(Error E) {
  return handleErrors(
      std::move(E), [&](std::unique_ptr<ReportError> RE) -> Error {
        if (RE->code() != ExitCode::MalformedMetadata)
          return Error(std::move(RE));
        WithColor::warning(errs(), "pcmap-report")
            << RE->text() << "; skipped (the other dumps are merged)\n";
        ++Skipped;
        return Error::success();
      });
}

/// Whether Line (a part of Buf) is the file's last line and has no newline
/// after it: the end of a dump whose writer did not finish.
static bool isTornLastLine(const MemoryBuffer &Buf, StringRef Line) {
  StringRef All = Buf.getBuffer();
  return !All.ends_with("\n") && !All.rtrim().empty() &&
         All.rtrim().ends_with(Line);
}

Error TraceReader::readFile(StringRef Path, size_t FileIndex,
                            uint64_t &DumpsRead) {
  uint64_t SkippedBefore = Skipped;
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFileOrSTDIN(Path, /*IsText=*/true);
  if (std::error_code EC = Buf.getError())
    return makeError(ExitCode::FileError, "'" + Path + "': " + EC.message());
  for (line_iterator It(**Buf, /*SkipBlanks=*/true); !It.is_at_eof(); ++It) {
    StringRef Text = It->trim();
    if (Text.empty())
      continue;
    Where W{Path, unsigned(It.line_number())};
    Expected<json::Value> V = json::parse(Text);
    if (!V && DumpsRead == 0) {
      // One document over several lines?
      if (Expected<json::Value> Whole = json::parse((*Buf)->getBuffer())) {
        consumeError(V.takeError());
        Error E = readDocument(*Whole, W, FileIndex);
        DumpsRead += !E;
        return skipMalformed(std::move(E));
      } else {
        consumeError(Whole.takeError());
      }
    }
    if (!V && DumpsRead == 0 && !Text.starts_with("{")) {
      consumeError(V.takeError());
      return W.error(ExitCode::UnsupportedFile,
                     "not a pcmap trace (not JSON Lines)");
    }
    if (!V && isTornLastLine(**Buf, Text)) {
      // A process that ended while it wrote a dump (killed, or a fatal
      // signal during an interval dump) leaves its last line cut short: the
      // dumps before it are whole.
      consumeError(V.takeError());
      if (!DumpsRead) {
        WithColor::warning(errs(), "pcmap-report")
            << Path << ":" << W.Line
            << ": the only dump is cut short (the process ended while "
               "writing it); skipped\n";
        return Error::success();
      }
      WithColor::warning(errs(), "pcmap-report")
          << Path << ":" << W.Line
          << ": the last dump is cut short (the process ended while writing "
             "it); using the dumps before it\n";
      break;
    }
    if (!V) {
      if (Error E = skipMalformed(
              W.error(ExitCode::MalformedMetadata,
                      "not a JSON document: " + toString(V.takeError()))))
        return E;
      continue;
    }
    if (Error E = readDocument(*V, W, FileIndex)) {
      if (Error Fatal = skipMalformed(std::move(E)))
        return Fatal;
      continue;
    }
    ++DumpsRead;
  }
  if (!DumpsRead && Skipped == SkippedBefore)
    WithColor::warning(errs(), "pcmap-report")
        << "'" << Path
        << "': no trace dumps (an empty file: a process still running, or "
           "one that ended before its first dump); skipped\n";
  return Error::success();
}

Error TraceReader::readDocument(const json::Value &V, const Where &W,
                                size_t FileIndex) {
  TraceDump D;
  if (Error E = checkKind(V, W, D.Process.Version))
    return E;
  json::Path::Root Root("dump");
  bool Stacks = D.Process.Version >= 3, Data = D.Process.Version >= 4,
       Waits = D.Process.Version >= 5, Races = D.Process.Version >= 6;
  if (!fromJSON(V, D, Root) || (Stacks && !mapVersion3(V, D, Root)) ||
      (Data && !mapVersion4(V, D, Root)) ||
      (Waits && !mapVersion5(V, D, Root)) ||
      (Races && !mapVersion6(V, D, Root)))
    return W.error(ExitCode::MalformedMetadata,
                   "malformed pcmap trace dump: " + toString(Root.getError()));
  if (Stacks)
    if (Error E = checkStacks(D, W))
      return E;
  if (Data)
    if (Error E = checkAccesses(D, W))
      return E;
  if (Waits)
    if (Error E = checkWaits(D, W))
      return E;
  if (Races)
    if (Error E = checkRaces(D, W))
      return E;
  TraceProcess &P = D.Process;
  if (P.Run.empty() || P.Dump == 0 || P.Hz == 0)
    return W.error(ExitCode::MalformedMetadata,
                   "malformed pcmap trace dump: empty \"run\", or \"dump\" or "
                   "\"hz\" 0");
  if (Error E = checkRate(P, W))
    return E;
  checkLineSize(P, W);
  auto [It, New] = Seen.try_emplace({P.Run, P.Dump}, FileIndex);
  if (!New) {
    ++Repeated[{FileIndex, It->second}];
    return Error::success();
  }
  P.File = W.File.str();
  P.Line = W.Line;
  keep(std::move(D));
  return Error::success();
}

Error TraceReader::checkRate(const TraceProcess &P, const Where &W) {
  if (!FirstRate) {
    FirstRate = P;
    FirstRate->File = W.File.str();
    FirstRate->Line = W.Line;
    return Error::success();
  }
  if (P.Hz == FirstRate->Hz)
    return Error::success();
  return W.error(ExitCode::UnsupportedFile,
                 "sampled at " + Twine(P.Hz) + " Hz, but " + FirstRate->File +
                     ":" + Twine(FirstRate->Line) + " at " +
                     Twine(FirstRate->Hz) +
                     " Hz: traces sampled at different rates cannot be "
                     "merged (trace with the same trace_hz)");
}

/// Dumps of another line size still merge, in the first one's lines (an
/// access is at its own address whatever the size): one warning per file.
void TraceReader::checkLineSize(const TraceProcess &P, const Where &W) {
  if (!P.LineSize)
    return;
  if (!FirstLine) {
    FirstLine = P;
    FirstLine->File = W.File.str();
    FirstLine->Line = W.Line;
    return;
  }
  if (P.LineSize == FirstLine->LineSize ||
      !OtherLineSize.insert(W.File.str()).second)
    return;
  WithColor::warning(errs(), "pcmap-report")
      << W.File << ":" << W.Line << ": line_size " << P.LineSize << ", but "
      << FirstLine->File << ":" << FirstLine->Line << " has "
      << FirstLine->LineSize << ": the data is merged in lines of "
      << FirstLine->LineSize << " bytes (the first dump's)\n";
}

void TraceReader::keep(TraceDump D) {
  auto [It, New] = RunIndex.try_emplace(D.Process.Run, Dumps.size());
  if (New)
    Dumps.push_back(std::move(D));
  else if (D.Process.Dump > Dumps[It->second].Process.Dump)
    Dumps[It->second] = std::move(D);
}

void TraceReader::warnDuplicates(ArrayRef<TraceFile> Files) const {
  for (const auto &[Pair, Count] : Repeated) {
    auto [File, First] = Pair;
    raw_ostream &OS = WithColor::warning(errs(), "pcmap-report");
    OS << "'" << Files[File].Path << "': " << Count
       << (Count == 1 ? " dump" : " dumps") << " already read from ";
    if (File == First)
      OS << "this file";
    else if (Files[First].Path == Files[File].Path)
      OS << "it (the file is given twice)";
    else
      OS << "'" << Files[First].Path << "'";
    OS << "; each is counted once\n";
  }
}

} // namespace

namespace {

/// The files to read: each path given, a directory's regular files in
/// name order (the tracer's report_path files of a run, FILE.<pid>).
std::vector<std::string> expandDirectories(ArrayRef<std::string> Paths) {
  std::vector<std::string> Out;
  for (const std::string &Path : Paths) {
    if (!sys::fs::is_directory(Path)) {
      Out.push_back(Path);
      continue;
    }
    std::vector<std::string> Inside;
    std::error_code EC;
    for (sys::fs::directory_iterator It(Path, EC), End; It != End && !EC;
         It.increment(EC))
      if (sys::fs::is_regular_file(It->path()))
        Inside.push_back(It->path());
    llvm::sort(Inside);
    if (EC || Inside.empty()) // readFile says what is wrong with it
      Out.push_back(Path);
    Out.insert(Out.end(), Inside.begin(), Inside.end());
  }
  return Out;
}

/// An error about the files as a whole: said, and its exit code.
ExitCode makeErrorStatus(const Twine &Message) {
  WithColor::error(errs(), "pcmap-report") << Message << "\n";
  return ExitCode::NoMetadata;
}

} // namespace

ExitCode readTraces(ArrayRef<std::string> Paths, std::vector<TraceDump> &Dumps,
                    std::vector<TraceFile> &Files, uint64_t &Skipped) {
  TraceReader Reader;
  ExitCode Status = ExitCode::Success;
  for (const std::string &Path : expandDirectories(Paths)) {
    Files.push_back({Path, 0});
    Error E = Reader.readFile(Path, Files.size() - 1, Files.back().Dumps);
    bool Failed = false;
    handleAllErrors(std::move(E), [&](const ReportError &RE) {
      WithColor::error(errs(), "pcmap-report") << RE.text() << "\n";
      if (Status == ExitCode::Success)
        Status = RE.code();
      Failed = true;
    });
    // A file without dumps (said by readFile) adds nothing to the merge.
    if (!Failed && !Files.back().Dumps)
      Files.pop_back();
  }
  Skipped = Reader.skipped();
  if (Status == ExitCode::Success && Skipped && !Reader.hasDumps()) {
    WithColor::error(errs(), "pcmap-report")
        << "no readable trace dumps in the files given\n";
    Status = ExitCode::MalformedMetadata;
  }
  if (Status == ExitCode::Success && Files.empty())
    Status = makeErrorStatus("no trace dumps in any of the files given");
  if (Status == ExitCode::Success)
    Reader.warnDuplicates(Files);
  Dumps = Reader.takeDumps();
  return Status;
}

} // namespace report
} // namespace pcmap
