//===- FuzzSupport.h - Shared parts of the decoder fuzz harnesses -*- C++
//-*-===//
//
// The fake module a section is decoded against, the input layout the
// decoder harnesses share, encoders that turn decoded entries back into
// section bytes (with pcmap/Format.h's writers), and the one place that
// calls the runtime's decoder (rt/core/decode.h) and checks what it promises.
//
// Input layout of the decoder harnesses:
//   byte 0      selector: which section kind, version and PC width (each
//               harness says how it reads the bits); bit 7: the next four
//               bytes are the version itself (little endian), unchecked
//   byte 1      number of code ranges, 1 + (byte % 4)
//   per range   int32 start relative to the section's first byte, uint32
//               length (both little endian; the length is taken modulo 2^30)
//   the rest    the section's bytes
// Ranges are relative to the section so that a section cut out of a real
// binary keeps pointing into its code (fuzz/make_corpus.py writes them so).
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_FUZZ_SUPPORT_H
#define PCMAP_FUZZ_SUPPORT_H

#include "FuzzCheck.h"

#include "pcmap/Format.h"
#include "pcmap/pcmap.h"

#include "core/arena.h"
#include "core/decode.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

namespace pcmap {
namespace fuzz {

constexpr unsigned kPointerSize = sizeof(void *);

/// A byte reader over the fuzzer's input that yields zeros past its end.
class InputReader {
public:
  InputReader(const uint8_t *Data, size_t Size) : P(Data), End(Data + Size) {}
  uint8_t u8() { return P < End ? *P++ : 0; }
  uint32_t u32() {
    uint32_t V = 0;
    for (unsigned I = 0; I < 4; ++I)
      V |= uint32_t(u8()) << (8 * I);
    return V;
  }
  const uint8_t *rest() const { return P; }
  size_t left() const { return size_t(End - P); }
  bool atEnd() const { return P >= End; }

private:
  const uint8_t *P, *End;
};

/// Code ranges relative to a section's first byte.
struct RelativeRange {
  int64_t Start;
  uint64_t Length;
};

/// The fake module: ranges relative to the section, made absolute for a
/// section at a given address.
struct FakeModule {
  std::vector<RelativeRange> Ranges;

  /// Reads the ranges; false if their hull exceeds what a module may span
  /// (the registry rejects a module whose code spans 4 GiB or more).
  bool read(InputReader &In) {
    unsigned N = 1 + In.u8() % 4;
    int64_t Lo = INT64_MAX, Hi = INT64_MIN;
    for (unsigned I = 0; I < N; ++I) {
      RelativeRange R;
      R.Start = int32_t(In.u32());
      R.Length = In.u32() & ((1u << 30) - 1);
      Ranges.push_back(R);
      Lo = std::min(Lo, R.Start);
      Hi = std::max(Hi, R.Start + int64_t(R.Length));
    }
    return uint64_t(Hi - Lo) <= 0xffffffffu;
  }

  rt::CodeRanges at(const uint8_t *Section) const {
    rt::CodeRanges C;
    C.TextLo = ~uintptr_t(0);
    C.TextHi = 0;
    for (const RelativeRange &R : Ranges) {
      uintptr_t B = uintptr_t(Section) + uintptr_t(R.Start);
      C.Begin[C.NumRanges] = B;
      C.End[C.NumRanges] = B + R.Length;
      C.TextLo = std::min(C.TextLo, B);
      C.TextHi = std::max(C.TextHi, uintptr_t(B + R.Length));
      ++C.NumRanges;
    }
    return C;
  }
};

/// A section's bytes in a heap block of exactly their size, so that the
/// sanitizers see any read past its end.
class SectionBuffer {
public:
  explicit SectionBuffer(size_t Size)
      : Bytes(new uint8_t[Size ? Size : 1]), Size(Size) {}
  SectionBuffer(const uint8_t *Data, size_t Size) : SectionBuffer(Size) {
    if (Size)
      std::memcpy(Bytes.get(), Data, Size);
  }
  uint8_t *begin() const { return Bytes.get(); }
  uint8_t *end() const { return Bytes.get() + Size; }
  size_t size() const { return Size; }

private:
  std::unique_ptr<uint8_t[]> Bytes;
  size_t Size;
};

//===----------------------------------------------------------------------===//
// Entries, as both decoders' results are compared
//===----------------------------------------------------------------------===//

/// An atomic: its offset from the module's TextLo and its descriptor
/// (rt::kUpstreamDescriptor for sanmd atomics).
struct Atomic {
  uint32_t Offset;
  uint32_t Descriptor;
  bool operator==(const Atomic &O) const {
    return Offset == O.Offset && Descriptor == O.Descriptor;
  }
};

struct Function {
  uint32_t Offset;
  uint32_t Size;
  uint32_t Features; // pcmap features or sanmd features (low 32 bits)
  bool HasStackArgs;
  uint64_t StackArgs;
  /// Feature bits 32..63, which decoders do not keep (for the encoder).
  uint32_t HighFeatures;
  bool operator==(const Function &O) const {
    return Offset == O.Offset && Size == O.Size && Features == O.Features &&
           HasStackArgs == O.HasStackArgs && StackArgs == O.StackArgs;
  }
};

/// What a decoder made of a section.
struct Decoded {
  bool Accepted = false;
  const char *Error = nullptr;
  std::vector<Atomic> Atomics;
  std::vector<Function> Functions;
};

/// Entries in section order, normalised as the runtime keeps them: sorted
/// by offset, the first of several entries at one offset kept.
template <class T> void sortUnique(std::vector<T> &V) {
  std::vector<size_t> Order(V.size());
  for (size_t I = 0; I < V.size(); ++I)
    Order[I] = I;
  std::sort(Order.begin(), Order.end(), [&V](size_t A, size_t B) {
    return V[A].Offset != V[B].Offset ? V[A].Offset < V[B].Offset : A < B;
  });
  std::vector<T> Sorted;
  for (size_t I : Order)
    if (Sorted.empty() || Sorted.back().Offset != V[I].Offset)
      Sorted.push_back(V[I]);
  V = Sorted;
}

inline bool isAtomicsKind(format::MetadataKind K) {
  return K == format::MK_Atomics || K == format::MK_UpstreamAtomics;
}

//===----------------------------------------------------------------------===//
// The runtime's decoder, and the properties it promises
//===----------------------------------------------------------------------===//

/// With PCMAP_FUZZ_VERBOSE set (when running a harness on given inputs),
/// says what the runtime made of each section.
inline void traceResult(const Decoded &D) {
  static const bool Verbose = std::getenv("PCMAP_FUZZ_VERBOSE") != nullptr;
  if (!Verbose)
    return;
  if (D.Accepted)
    std::fprintf(stderr, "runtime: accepted %zu atomics, %zu functions\n",
                 D.Atomics.size(), D.Functions.size());
  else
    std::fprintf(stderr, "runtime: rejected: %s\n", D.Error);
}

inline rt::MetadataKind runtimeKind(format::MetadataKind K) {
  switch (K) {
  case format::MK_Atomics:
    return rt::MK_Atomics;
  case format::MK_Functions:
    return rt::MK_Functions;
  case format::MK_UpstreamAtomics:
    return rt::MK_UpstreamAtomics;
  default:
    return rt::MK_UpstreamCovered;
  }
}

/// Decodes [Begin, End) with the runtime against Code and checks:
/// - a rejected section leaves no table: the outputs are empty and the
///   arena's usage is what it was;
/// - every accepted entry lies inside the module's code (functions whole),
///   offsets are strictly increasing;
/// - freeing an accepted section gives the arena back what it took.
inline Decoded runtimeDecode(format::MetadataKind Kind, uint32_t Version,
                             const uint8_t *Begin, const uint8_t *End,
                             const rt::CodeRanges &Code) {
  FUZZ_CHECK(rt::arenaInit(), "cannot reserve the arena");
  const uint64_t ArenaBefore = rt::arenaBytesInUse();
  Decoded Result;
  const bool Upstream =
      Kind == format::MK_UpstreamAtomics || Kind == format::MK_UpstreamCovered;
  if (isAtomicsKind(Kind)) {
    rt::DecodedAtomics Out;
    rt::DecodeError E =
        rt::decodeAtomics(runtimeKind(Kind), Version, Begin, End, Code, Out);
    Result.Accepted = !E.What;
    Result.Error = E.What;
    if (!Result.Accepted) {
      FUZZ_CHECK(!Out.Count && !Out.Offsets && !Out.Descriptors,
                 "rejected atomics section (%s) left %u entries", E.What,
                 Out.Count);
      FUZZ_CHECK(rt::arenaBytesInUse() == ArenaBefore,
                 "rejected atomics section (%s) kept arena memory", E.What);
      traceResult(Result);
      return Result;
    }
    FUZZ_CHECK(!Out.Count == !Out.Offsets, "count %u without offsets",
               Out.Count);
    for (uint32_t I = 0; I < Out.Count; ++I) {
      Atomic A{rt::arenaLoad<uint32_t>(Out.Offsets, I),
               rt::arenaLoad<uint32_t>(Out.Descriptors, I)};
      FUZZ_CHECK(Code.contains(Code.TextLo + A.Offset, 0),
                 "atomic at offset 0x%x is outside the module", A.Offset);
      FUZZ_CHECK(I == 0 || A.Offset > Result.Atomics.back().Offset,
                 "atomics not sorted and unique at %u", I);
      if (Upstream) {
        FUZZ_CHECK(A.Descriptor == rt::kUpstreamDescriptor,
                   "sanmd atomic with descriptor 0x%x", A.Descriptor);
      } else {
        format::AtomicDescriptor D;
        FUZZ_CHECK(format::decodeDescriptor(A.Descriptor, D),
                   "kept an invalid descriptor 0x%x", A.Descriptor);
      }
      Result.Atomics.push_back(A);
    }
    rt::freeDecoded(Out);
  } else {
    rt::DecodedFunctions Out;
    rt::DecodeError E =
        rt::decodeFunctions(runtimeKind(Kind), Version, Begin, End, Code, Out);
    Result.Accepted = !E.What;
    Result.Error = E.What;
    if (!Result.Accepted) {
      FUZZ_CHECK(!Out.Count && !Out.Records && !Out.Capacity,
                 "rejected functions section (%s) left %u entries", E.What,
                 Out.Count);
      FUZZ_CHECK(rt::arenaBytesInUse() == ArenaBefore,
                 "rejected functions section (%s) kept arena memory", E.What);
      traceResult(Result);
      return Result;
    }
    FUZZ_CHECK(Out.Count <= Out.Capacity, "count %u above capacity %u",
               Out.Count, Out.Capacity);
    const auto *Records =
        static_cast<const rt::FunctionRecord *>(rt::arenaPointer(Out.Records));
    for (uint32_t I = 0; I < Out.Count; ++I) {
      const rt::FunctionRecord &R = Records[I];
      FUZZ_CHECK(Code.contains(Code.TextLo + R.Start, R.Size),
                 "function [0x%x, +%u) is outside the module", R.Start, R.Size);
      FUZZ_CHECK(I == 0 || R.Start > Result.Functions.back().Offset,
                 "functions not sorted and unique at %u", I);
      Function F{};
      F.Offset = R.Start;
      F.Size = R.Size;
      if (Upstream) {
        FUZZ_CHECK(R.Source == PCMAP_SOURCE_UPSTREAM && !R.Declared,
                   "sanmd function with source %u features %u", R.Source,
                   R.Declared);
        F.Features = R.UpstreamFeatures;
        F.HasStackArgs = format::upstreamHasStackArgs(
            format::versionBase(Version), R.UpstreamFeatures);
        F.StackArgs = R.UpstreamStackArgs;
        FUZZ_CHECK(F.HasStackArgs || !F.StackArgs,
                   "stack-arguments size without the feature");
      } else {
        FUZZ_CHECK(R.Source == PCMAP_SOURCE_PCMAP && !R.UpstreamFeatures &&
                       !R.UpstreamStackArgs,
                   "pcmap function with source %u", R.Source);
        F.Features = R.Declared;
      }
      Result.Functions.push_back(F);
    }
    rt::freeDecoded(Out);
  }
  FUZZ_CHECK(rt::arenaBytesInUse() == ArenaBefore,
             "freeing a decoded section did not give its memory back");
  traceResult(Result);
  return Result;
}

//===----------------------------------------------------------------------===//
// Encoders: entries back into section bytes
//===----------------------------------------------------------------------===//

/// Builds the bytes of a section of Kind and Version holding Entries (one
/// pcmap atomic record per group of equal descriptors in a row), laid out
/// for a module whose TextLo is at TextLoFromSection bytes from the
/// section's first byte. Returns false if a relative PC does not fit.
class SectionEncoder {
public:
  SectionEncoder(format::MetadataKind Kind, uint32_t Version)
      : Kind(Kind), Version(Version),
        Width(format::relativePCSize(Version, kPointerSize)) {}

  /// Atomic records: runs of PCs followed by a zero word and a descriptor.
  /// Each inner vector is one record (pcmap) or is flattened (sanmd).
  bool encodeAtomics(const std::vector<std::vector<Atomic>> &Records,
                     int64_t TextLoFromSection, std::vector<uint8_t> &Out) {
    Out.clear();
    for (const std::vector<Atomic> &Record : Records) {
      for (const Atomic &A : Record)
        if (!pc(Out, TextLoFromSection + A.Offset))
          return false;
      if (Kind == format::MK_UpstreamAtomics)
        continue;
      size_t At = Out.size();
      Out.resize(At + Width + format::kMaxULEB128Bytes);
      format::writeRelativePC(&Out[At], 0, Width);
      unsigned N =
          format::writeULEB128(&Out[At + Width], Record.front().Descriptor);
      Out.resize(At + Width + N);
    }
    return true;
  }

  bool encodeFunctions(const std::vector<Function> &Functions,
                       int64_t TextLoFromSection, std::vector<uint8_t> &Out) {
    Out.clear();
    const bool Fixed32 =
        Kind == format::MK_UpstreamCovered &&
        format::versionBase(Version) == format::kUpstreamVersionV1;
    for (const Function &F : Functions) {
      if (!pc(Out, TextLoFromSection + F.Offset))
        return false;
      value(Out, F.Size, Fixed32);
      value(Out, uint64_t(F.Features) | (uint64_t(F.HighFeatures) << 32),
            Fixed32);
      if (F.HasStackArgs) {
        if (Fixed32 && F.StackArgs > 0xffffffffu)
          return false;
        value(Out, F.StackArgs, Fixed32);
      }
    }
    return true;
  }

private:
  /// A relative PC to the code at Target bytes from the section start.
  bool pc(std::vector<uint8_t> &Out, int64_t Target) {
    int64_t Rel = Target - int64_t(Out.size());
    if (Rel == 0 || !format::fitsRelativePC(Rel, Width))
      return false;
    size_t At = Out.size();
    Out.resize(At + Width);
    format::writeRelativePC(&Out[At], Rel, Width);
    return true;
  }
  void value(std::vector<uint8_t> &Out, uint64_t V, bool Fixed32) {
    size_t At = Out.size();
    if (Fixed32) {
      Out.resize(At + 4);
      format::writeU32(&Out[At], uint32_t(V));
      return;
    }
    Out.resize(At + format::kMaxULEB128Bytes);
    Out.resize(At + format::writeULEB128(&Out[At], V));
  }

  format::MetadataKind Kind;
  uint32_t Version;
  unsigned Width;
};

/// decode(encode(decode(x))) == decode(x): re-encodes what the runtime
/// accepted (one entry per record) and checks that decoding the new section
/// against the same module gives the same entries.
inline void checkReencoding(format::MetadataKind Kind, uint32_t Version,
                            const FakeModule &Module, const Decoded &First) {
  if (!First.Accepted)
    return;
  SectionEncoder Encoder(Kind, Version);
  std::vector<uint8_t> Bytes;
  // TextLo relative to the section start, as the fake module places it.
  int64_t TextLo = INT64_MAX;
  for (const RelativeRange &R : Module.Ranges)
    TextLo = std::min(TextLo, R.Start);
  bool Ok;
  if (isAtomicsKind(Kind)) {
    std::vector<std::vector<Atomic>> Records;
    for (const Atomic &A : First.Atomics)
      Records.push_back({A});
    Ok = Encoder.encodeAtomics(Records, TextLo, Bytes);
  } else {
    Ok = Encoder.encodeFunctions(First.Functions, TextLo, Bytes);
  }
  if (!Ok)
    return; // an entry's relative PC does not fit at its new place
  SectionBuffer Section(Bytes.data(), Bytes.size());
  Decoded Second = runtimeDecode(Kind, Version, Section.begin(), Section.end(),
                                 Module.at(Section.begin()));
  FUZZ_CHECK(Second.Accepted, "re-encoded section rejected: %s", Second.Error);
  FUZZ_CHECK(Second.Atomics == First.Atomics,
             "re-encoded atomics differ (%zu vs %zu)", Second.Atomics.size(),
             First.Atomics.size());
  FUZZ_CHECK(Second.Functions == First.Functions,
             "re-encoded functions differ (%zu vs %zu)",
             Second.Functions.size(), First.Functions.size());
}

/// Reads the selector's version: bit 7 set means the next four bytes are
/// the version as is; otherwise Make(Selector) builds a valid one.
template <class MakeVersion>
uint32_t readVersion(InputReader &In, uint8_t Selector, MakeVersion Make) {
  if (Selector & 0x80)
    return In.u32();
  return Make(Selector);
}

} // namespace fuzz
} // namespace pcmap

#endif // PCMAP_FUZZ_SUPPORT_H
