//===- TracePprof.cpp - The merged trace as a pprof profile ---------------===//
//
// A gzipped profile.proto (github.com/google/pprof, proto/profile.proto),
// the protocol buffer encoded by hand: two sample types, samples/count and
// cpu/nanoseconds; a Sample per merged stack (locations leaf first), one
// labelled as an atomic for its samples on an atomic site, and one per
// access of the data with that stack, labelled with its cache line, object
// and verdict (version 4); with waits (version 5), four more sample types
// and a Sample per wait at its waiting stack and at its holder's; a
// Mapping per module, a Location per frame (its
// inline frames as Lines, innermost first, the last the function that
// holds the code), a Function per name.
// A process of a version 2 dump, which has no stacks, gives a one-frame
// Sample per site and one per function for its samples off atomics.
// Modules are laid out at addresses of their own ((index + 1) << 32), so
// that no two mappings overlap: the profile has no process's addresses.
//
//===----------------------------------------------------------------------===//

#include "Trace.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CRC.h"
#include "llvm/Support/Compression.h"

#include <map>
#include <tuple>

using namespace llvm;

namespace pcmap {
namespace report {

namespace {

/// Protocol buffers' wire format, as much of it as profile.proto needs:
/// varints, length-delimited fields and packed repeated varints.
class ProtoWriter {
public:
  void varint(uint32_t Field, uint64_t V) {
    key(Field, 0);
    raw(V);
  }
  /// A bool or a number that is left out when false or zero.
  void optional(uint32_t Field, uint64_t V) {
    if (V)
      varint(Field, V);
  }
  void bytes(uint32_t Field, StringRef S) {
    key(Field, 2);
    raw(S.size());
    Buf += S;
  }
  void message(uint32_t Field, const ProtoWriter &M) { bytes(Field, M.Buf); }
  void packed(uint32_t Field, ArrayRef<uint64_t> Values) {
    ProtoWriter P;
    for (uint64_t V : Values)
      P.raw(V);
    bytes(Field, P.Buf);
  }
  const std::string &data() const { return Buf; }

private:
  void key(uint32_t Field, unsigned WireType) {
    raw(uint64_t(Field) << 3 | WireType);
  }
  void raw(uint64_t V) {
    for (; V >= 0x80; V >>= 7)
      Buf += char(0x80 | (V & 0x7f));
    Buf += char(V);
  }
  std::string Buf;
};

/// Field numbers of profile.proto.
enum ProfileField : uint32_t {
  SampleTypeField = 1,
  SampleField = 2,
  MappingField = 3,
  LocationField = 4,
  FunctionField = 5,
  StringTableField = 6,
  PeriodTypeField = 11,
  PeriodField = 12,
  CommentField = 13,
  DefaultSampleTypeField = 14,
};

constexpr unsigned kModuleShift = 32;

/// The labels of samples that touched data: the cache line, the member's
/// name, the line's verdict.
struct DataLabels {
  std::string Line, Object, Sharing;
};

class ProfileBuilder {
public:
  explicit ProfileBuilder(const TraceReport &R)
      : R(R), Waits(!R.Waits.empty()), ModuleLimit(R.Modules.size(), 0) {
    str("");
  }
  void addStacks();
  void addVersion2Processes();
  void addWaits();
  std::string finish(const TraceOptions &O);

private:
  int64_t str(StringRef S);
  uint64_t function(const TraceSourceFrame &L, uint32_t Module,
                    uint64_t Offset);
  uint64_t location(uint32_t Module, uint64_t Offset,
                    ArrayRef<TraceSourceFrame> Lines);
  uint64_t truncatedLocation();
  std::vector<uint64_t> stackLocations(ArrayRef<uint32_t> Frames,
                                       bool Truncated);
  using Labels = std::vector<std::pair<StringRef, std::string>>;
  void sample(ArrayRef<uint64_t> Locations, uint64_t Samples, bool Atomic,
              const TraceSite *Site, const DataLabels *Data = nullptr);
  void emit(ArrayRef<uint64_t> Locations, ArrayRef<uint64_t> Values,
            const Labels &L);
  void stackSample(
      const MergedStack &S, ArrayRef<uint64_t> Locations,
      ArrayRef<std::pair<const DataLine *, const DataAccess *>> Accesses);
  void mappings();
  void valueType(uint32_t Field, StringRef Type, StringRef Unit);

  const TraceReport &R;
  /// Whether the profile has the waits' sample types: then every Sample
  /// has six values, CPU samples 0 in the waits' and waits 0 in the CPU's.
  bool Waits;
  ProtoWriter Out;
  std::vector<std::string> Strings;
  std::map<std::string, int64_t> StringIds;
  std::map<std::tuple<std::string, std::string, std::string>, uint64_t>
      Functions;
  std::map<std::pair<uint32_t, uint64_t>, uint64_t> Locations;
  std::vector<uint64_t> ModuleLimit; // the highest offset + 1 of each
};

int64_t ProfileBuilder::str(StringRef S) {
  auto [It, New] = StringIds.try_emplace(S.str(), Strings.size());
  if (New)
    Strings.push_back(S.str());
  return It->second;
}

/// A Function per (name, name in the file, file); a frame without a name
/// is named by its module and offset.
uint64_t ProfileBuilder::function(const TraceSourceFrame &L, uint32_t Module,
                                  uint64_t Offset) {
  std::string Name =
      L.Function.empty() ? moduleText(R, Module, Offset) : L.Function;
  std::string System = L.LinkageName.empty() ? Name : L.LinkageName;
  auto [It, New] =
      Functions.try_emplace({Name, System, L.File}, Functions.size() + 1);
  if (!New)
    return It->second;
  ProtoWriter F;
  F.varint(1, It->second);
  F.varint(2, str(Name));
  F.varint(3, str(System));
  F.optional(4, str(L.File));
  Out.message(FunctionField, F);
  return It->second;
}

uint64_t ProfileBuilder::location(uint32_t Module, uint64_t Offset,
                                  ArrayRef<TraceSourceFrame> Lines) {
  auto [It, New] =
      Locations.try_emplace({Module, Offset}, Locations.size() + 1);
  if (!New)
    return It->second;
  ModuleLimit[Module] = std::max(ModuleLimit[Module], Offset + 1);
  bool InModule = !R.Modules[Module].NoModule;
  ProtoWriter L;
  L.varint(1, It->second);
  L.optional(2, InModule ? Module + 1 : 0);
  L.varint(3,
           InModule ? (uint64_t(Module) + 1) << kModuleShift | Offset : Offset);
  TraceSourceFrame Unnamed;
  for (const TraceSourceFrame &S :
       Lines.empty() ? ArrayRef<TraceSourceFrame>(Unnamed) : Lines) {
    ProtoWriter Line;
    Line.varint(1, function(S, Module, Offset));
    Line.optional(2, S.Line);
    Line.optional(3, S.Column);
    L.message(4, Line);
  }
  Out.message(LocationField, L);
  return It->second;
}

/// The root of the stacks cut at their process's stack_depth: a Location
/// of no mapping whose one line is the function kTruncatedRoot, so that
/// pprof shows them under it rather than under their outermost known frame.
uint64_t ProfileBuilder::truncatedLocation() {
  // Keyed by a module index no module has: its id is one of the map's.
  auto [It, New] =
      Locations.try_emplace({~uint32_t(0), 0}, Locations.size() + 1);
  if (!New)
    return It->second;
  TraceSourceFrame Root;
  Root.Function = kTruncatedRoot;
  ProtoWriter L;
  L.varint(1, It->second);
  ProtoWriter Line;
  Line.varint(1, function(Root, 0, 0));
  L.message(4, Line);
  Out.message(LocationField, L);
  return It->second;
}

/// The Locations of a stack's frames, innermost first, the truncated root
/// last if it was cut.
std::vector<uint64_t> ProfileBuilder::stackLocations(ArrayRef<uint32_t> Frames,
                                                     bool Truncated) {
  std::vector<uint64_t> Locs;
  for (uint32_t F : Frames) {
    const TraceFrame &Frame = R.Frames[F];
    Locs.push_back(location(Frame.Module, Frame.Offset, Frame.Lines));
  }
  if (Truncated)
    Locs.push_back(truncatedLocation());
  return Locs;
}

/// Nanoseconds of CPU time that N samples stand for.
uint64_t nanoseconds(uint64_t N, uint64_t Hz) {
  return uint64_t(double(N) * 1e9 / double(Hz) + 0.5);
}

/// A Sample; one of samples on an atomic is labelled with it (and with
/// Site, the site its frame 0 is, if known), one of samples that touched
/// data with it.
void ProfileBuilder::sample(ArrayRef<uint64_t> Locs, uint64_t Samples,
                            bool Atomic, const TraceSite *Site,
                            const DataLabels *Data) {
  if (!Samples)
    return;
  Labels L;
  if (Atomic && !Site)
    L.push_back({"atomic", "?"});
  if (Atomic && Site) {
    L.push_back({"atomic", atomicText(*Site)});
    L.push_back({"atomic_kind", Site->Kind});
    L.push_back({"atomic_order", Site->Order});
    L.push_back({"atomic_site", functionText(*Site)});
  }
  if (Data) {
    L.push_back({"cache_line", Data->Line});
    L.push_back({"object", Data->Object});
    L.push_back({"sharing", Data->Sharing});
  }
  std::vector<uint64_t> Values = {Samples, nanoseconds(Samples, R.Hz)};
  if (Waits)
    Values.resize(6, 0);
  emit(Locs, Values, L);
}

/// A Sample of the locations, values and labels (empty ones left out).
void ProfileBuilder::emit(ArrayRef<uint64_t> Locs, ArrayRef<uint64_t> Values,
                          const Labels &L) {
  ProtoWriter S;
  S.packed(1, Locs);
  S.packed(2, Values);
  for (const auto &[Key, Value] : L) {
    if (Value.empty())
      continue;
    ProtoWriter Label;
    Label.varint(1, str(Key));
    Label.varint(2, str(Value));
    S.message(3, Label);
  }
  Out.message(SampleField, S);
}

/// The waits: a Sample per wait at its waiting stack, its samples and
/// nanoseconds in contentions/count and wait/nanoseconds, and one at its
/// holder's stack in holder_contentions/count and holder_wait/nanoseconds
/// (labelled holder=1), each labelled with the object, kind and system
/// call.
void ProfileBuilder::addWaits() {
  if (!Waits)
    return;
  std::vector<std::vector<uint64_t>> Stacks(R.WaitStacks.size());
  for (size_t I = 0; I < R.WaitStacks.size(); ++I)
    Stacks[I] =
        stackLocations(R.WaitStacks[I].Frames, R.WaitStacks[I].Truncated);
  for (const WaitObject &O : R.WaitObjects)
    for (uint32_t I : O.Rows) {
      const WaitRow &W = R.Waits[I];
      Labels L = {{"object", O.Name}, {"kind", W.Kind}, {"syscall", W.Syscall}};
      emit(W.Stack >= 0 ? ArrayRef(Stacks[W.Stack]) : ArrayRef<uint64_t>(),
           {0, 0, W.Samples, W.WaitNs, 0, 0}, L);
      if (W.HolderStack < 0)
        continue;
      L.push_back({"holder", "1"});
      emit(Stacks[W.HolderStack], {0, 0, 0, 0, W.Samples, W.WaitNs}, L);
    }
}

/// A stack's samples: those of each access with this stack labelled with
/// its data (an atomic access's taken from the stack's atomic samples
/// first), the rest as before; the stack's counts are the sum, whatever
/// the accesses say.
void ProfileBuilder::stackSample(
    const MergedStack &S, ArrayRef<uint64_t> Locs,
    ArrayRef<std::pair<const DataLine *, const DataAccess *>> Accesses) {
  const TraceSite *Site = S.Site >= 0 ? &R.Sites[S.Site].Entry : nullptr;
  uint64_t Atomic = S.AtomicSamples, Plain = S.Samples - S.AtomicSamples;
  for (auto [L, A] : Accesses) {
    uint64_t &First = A->Atomic ? Atomic : Plain;
    uint64_t &Second = A->Atomic ? Plain : Atomic;
    uint64_t FromFirst = std::min(A->Samples, First);
    First -= FromFirst;
    uint64_t FromSecond = std::min(A->Samples - FromFirst, Second);
    Second -= FromSecond;
    DataLabels D{lineText(R, *L), A->Name, sharingText(L->Sharing)};
    sample(Locs, A->Atomic ? FromFirst : FromSecond, true, Site, &D);
    sample(Locs, A->Atomic ? FromSecond : FromFirst, false, nullptr, &D);
  }
  sample(Locs, Atomic, true, Site);
  sample(Locs, Plain, false, nullptr);
}

void ProfileBuilder::addStacks() {
  std::vector<std::vector<std::pair<const DataLine *, const DataAccess *>>>
      Accesses(R.Stacks.size());
  for (const DataLine &L : R.Lines)
    for (const DataAccess &A : L.Accesses)
      if (A.Stack >= 0)
        Accesses[A.Stack].push_back({&L, &A});
  for (size_t I = 0; I < R.Stacks.size(); ++I)
    stackSample(R.Stacks[I],
                stackLocations(R.Stacks[I].Frames, R.Stacks[I].Truncated),
                Accesses[I]);
}

/// The processes without stacks: a site's samples at the site, a
/// function's other samples at its start.
void ProfileBuilder::addVersion2Processes() {
  auto OldProcess = [&](const ProcessCount &C) {
    return R.Processes[C.Process].Version < 3;
  };
  for (const MergedSite &Row : R.Sites) {
    const TraceSite &E = Row.Entry;
    TraceSourceFrame Name;
    Name.Function = E.Function;
    for (const ProcessCount &C : Row.Processes)
      if (OldProcess(C))
        sample(
            {location(Row.Module, E.ModuleOffset,
                      E.Inline.empty() ? ArrayRef<TraceSourceFrame>(Name)
                                       : ArrayRef<TraceSourceFrame>(E.Inline))},
            C.Samples, true, &E);
  }
  for (const MergedFunction &Row : R.Functions) {
    TraceSourceFrame Name;
    Name.Function = Row.Entry.Function;
    for (const ProcessCount &C : Row.Processes)
      if (OldProcess(C) && C.Samples > C.Atomic)
        sample({location(Row.Module, Row.Entry.ModuleOffset, Name)},
               C.Samples - C.Atomic, false, nullptr);
  }
}

/// A Mapping per module in the profile: its file and build ID, and what
/// its Locations hold when its names came from the file.
void ProfileBuilder::mappings() {
  for (size_t I = 0; I < R.Modules.size(); ++I) {
    const TraceModule &M = R.Modules[I];
    if (M.NoModule || !ModuleLimit[I])
      continue;
    uint64_t Start = (uint64_t(I) + 1) << kModuleShift;
    ProtoWriter P;
    P.varint(1, I + 1);
    P.varint(2, Start);
    P.varint(3, Start + ModuleLimit[I]);
    P.optional(5, str(M.Paths.empty() ? "" : M.Paths.front()));
    P.optional(6, str(M.BuildID));
    for (uint32_t Field : {7, 8, 9, 10})
      P.optional(Field, M.Symbolized);
    Out.message(MappingField, P);
  }
}

void ProfileBuilder::valueType(uint32_t Field, StringRef Type, StringRef Unit) {
  ProtoWriter V;
  V.varint(1, str(Type));
  V.varint(2, str(Unit));
  Out.message(Field, V);
}

std::string ProfileBuilder::finish(const TraceOptions &) {
  mappings();
  valueType(SampleTypeField, "samples", "count");
  valueType(SampleTypeField, "cpu", "nanoseconds");
  if (Waits) {
    valueType(SampleTypeField, "contentions", "count");
    valueType(SampleTypeField, "wait", "nanoseconds");
    valueType(SampleTypeField, "holder_contentions", "count");
    valueType(SampleTypeField, "holder_wait", "nanoseconds");
    // pprof shows the last type unless told: the CPU time stays the view.
    Out.varint(DefaultSampleTypeField, str("cpu"));
  }
  valueType(PeriodTypeField, "cpu", "nanoseconds");
  Out.varint(PeriodField, nanoseconds(1, R.Hz));
  Out.varint(CommentField, str("pcmap-report trace of " + traceSummary(R)));
  // The string table last: every string is known by now.
  for (const std::string &S : Strings)
    Out.bytes(StringTableField, S);
  return Out.data();
}

/// RFC 1952: a header, zlib's deflate stream without its own header (2
/// bytes, no preset dictionary) and Adler-32 (4), the CRC-32 and size of
/// the data.
Expected<std::string> gzip(StringRef Data) {
  if (!compression::zlib::isAvailable())
    return createStringError(inconvertibleErrorCode(),
                             "this pcmap-report was built with an LLVM "
                             "without zlib: no pprof output");
  SmallVector<uint8_t, 0> Z;
  compression::zlib::compress(arrayRefFromStringRef(Data), Z,
                              compression::zlib::BestSizeCompression);
  std::string Out = {'\x1f', '\x8b', 8, 0, 0, 0, 0, 0, 2, 3};
  Out.append(reinterpret_cast<const char *>(Z.data()) + 2, Z.size() - 6);
  auto Word = [&](uint32_t V) {
    for (unsigned I = 0; I < 4; ++I)
      Out += char(V >> (8 * I));
  };
  Word(crc32(arrayRefFromStringRef(Data)));
  Word(uint32_t(Data.size()));
  return Out;
}

} // namespace

Error writeTracePprof(raw_ostream &OS, const TraceReport &R,
                      const TraceOptions &O) {
  ProfileBuilder B(R);
  B.addStacks();
  B.addVersion2Processes();
  B.addWaits();
  Expected<std::string> Data = gzip(B.finish(O));
  if (!Data)
    return Data.takeError();
  OS << *Data;
  return Error::success();
}

} // namespace report
} // namespace pcmap
