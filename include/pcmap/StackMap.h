//===- pcmap/StackMap.h - LLVM stack map sections, versions 1-3 -*- C++ -*-===//
//
// The one definition, in this project, of LLVM's .llvm_stackmaps section (the
// output of llvm.experimental.stackmap, llvm.experimental.patchpoint.* and
// gc.statepoint), versions 1, 2 and 3. Used by the runtime (no LLVM, no libc++,
// no exceptions, no allocation) and by pcmap-report. It depends on nothing but
// <stddef.h>, <stdint.h> and <string.h>. docs/StackMaps.md is the prose
// version of this file, with one table per version; keep the two in step.
//
// Byte order: the fields are read in the host's byte order, so only sections
// of a little-endian target are decoded correctly, and only on a
// little-endian host (x86-64, AArch64). Reads go through memcpy, so the
// section itself may have any alignment.
//
// A linked ELF file concatenates the .llvm_stackmaps of its object files: the
// section is a sequence of blobs, each with its own header, each starting at a
// multiple of 8 bytes from the start of the section. parse() decodes one blob;
// nextBlobOffset() finds the next one.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_STACKMAP_H
#define PCMAP_STACKMAP_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

namespace pcmap {
namespace stackmap {

/// ELF section name (Mach-O: segment __LLVM_STACKMAPS, section
/// __llvm_stackmaps).
constexpr const char kSectionName[] = ".llvm_stackmaps";

constexpr unsigned kMinVersion = 1;
constexpr unsigned kMaxVersion = 3;

/// Header: u8 version, u8 0, u16 0, u32 NumFunctions, u32 NumConstants,
/// u32 NumRecords (all versions).
constexpr size_t kHeaderSize = 16;
constexpr size_t kNumFunctionsOffset = 4;
constexpr size_t kNumConstantsOffset = 8;
constexpr size_t kNumRecordsOffset = 12;

/// Function record: u64 address, u64 stack size, and from version 2 on a u64
/// count of the records of the function.
constexpr size_t functionRecordSize(unsigned Version) {
  return Version == 1 ? 16 : 24;
}
constexpr size_t kConstantSize = 8;

/// Record header: u64 ID, u32 instruction offset, u16 flags (reserved),
/// u16 NumLocations; then the locations.
constexpr size_t kRecordHeaderSize = 16;
constexpr size_t kRecordOffsetOffset = 8;
constexpr size_t kRecordFlagsOffset = 12;
constexpr size_t kRecordNumLocationsOffset = 14;

/// Location: versions 1 and 2: {u8 kind, u8 size, u16 dwarf reg,
/// i32 offset}; version 3: {u8 kind, u8 0, u16 size, u16 dwarf reg, u16 0,
/// i32 offset}.
constexpr size_t locationSize(unsigned Version) {
  return Version == 3 ? 12 : 8;
}

/// After the locations: padding to 8 bytes (none in versions 1 and 2, whose
/// locations are 8 bytes), u16 padding, u16 NumLiveOuts, the live-outs
/// {u16 dwarf reg, u8 0, u8 size}, then padding to 8 bytes.
constexpr size_t kLiveOutSize = 4;

/// A function's stack size when it is not known statically (version 3).
constexpr uint64_t kDynamicStackSize = UINT64_MAX;
/// Record count of a function in version 1, which does not store it.
constexpr uint64_t kUnknownRecordCount = UINT64_MAX;
/// Function index of a record that cannot be attributed (version 1 with more
/// than one function).
constexpr uint32_t kUnknownFunction = UINT32_MAX;
/// Record ID LLVM writes for a record it had to drop (too many locations or
/// live-outs to encode).
constexpr uint64_t kInvalidRecordID = UINT64_MAX;

enum LocationKind : uint8_t {
  LK_Register = 1,
  LK_Direct = 2,
  LK_Indirect = 3,
  LK_Constant = 4,
  LK_ConstantIndex = 5,
};

constexpr const char *locationKindName(unsigned Kind) {
  return Kind == LK_Register        ? "Register"
         : Kind == LK_Direct        ? "Direct"
         : Kind == LK_Indirect      ? "Indirect"
         : Kind == LK_Constant      ? "Constant"
         : Kind == LK_ConstantIndex ? "ConstantIndex"
                                    : "unknown";
}

/// What the code at a record's PC is, which the section does not store and
/// pcmap reads from the code (docs/StackMaps.md, "Call-site kinds"). The
/// runtime's pcmap_stackmap_call_kind (pcmap.h) has the first three, with
/// these numbers, and counts nops alone as a patchpoint; pcmap-report tells
/// Nops apart and says Unknown where it cannot read the code.
enum CallSiteKind : uint8_t {
  CK_None = 0,       ///< no call: a stack map's shadow holds ordinary code
  CK_Call = 1,       ///< a call ends at the PC (its return address)
  CK_Patchpoint = 2, ///< a patchpoint's call sequence starts at the PC
  CK_Nops = 3,       ///< nops start at the PC: reserved bytes, no call
  CK_Unknown = 4,    ///< the code could not be read or decoded
};

/// Names of the call-site kinds, as reports print them.
constexpr const char *callSiteKindName(unsigned Kind) {
  constexpr const char *Names[] = {"none", "call", "patchpoint", "nops",
                                   "unknown"};
  static_assert(sizeof(Names) / sizeof(Names[0]) == CK_Unknown + 1,
                "one name per CallSiteKind");
  return Kind <= CK_Unknown ? Names[Kind] : "unknown";
}

namespace detail {
template <typename T> inline T read(const uint8_t *P) {
  T V;
  memcpy(&V, P, sizeof(T));
  return V;
}
constexpr size_t alignTo8(size_t N) {
  return (N + 7) & ~static_cast<size_t>(7);
}
} // namespace detail

struct Function {
  uint64_t Address;
  /// kDynamicStackSize when not statically known.
  uint64_t StackSize;
  /// kUnknownRecordCount in version 1.
  uint64_t RecordCount;
};

struct Location {
  uint8_t Kind; ///< LocationKind
  uint16_t Size;
  uint16_t DwarfReg;
  /// Offset (Direct, Indirect), small constant (Constant), index into the
  /// constants (ConstantIndex); 0 for Register.
  int32_t Offset;
};

struct LiveOut {
  uint16_t DwarfReg;
  uint8_t Size;
};

/// One decoded record. The locations and live-outs stay in the section and
/// are read with location(i) and liveOut(i).
struct Record {
  uint64_t ID;
  uint32_t InstructionOffset;
  uint16_t Flags;
  uint16_t NumLocations;
  uint16_t NumLiveOuts;
  unsigned Version;
  /// Index of the function the record belongs to, or kUnknownFunction.
  uint32_t FunctionIndex;
  /// Index of the record in its blob.
  uint32_t Index;
  /// Size of the record in bytes, padding included.
  size_t Size;
  const uint8_t *Locations;
  const uint8_t *LiveOuts;

  Location location(unsigned I) const {
    const uint8_t *P = Locations + I * locationSize(Version);
    Location L;
    L.Kind = P[0];
    if (Version == 3) {
      L.Size = detail::read<uint16_t>(P + 2);
      L.DwarfReg = detail::read<uint16_t>(P + 4);
      L.Offset = detail::read<int32_t>(P + 8);
    } else {
      L.Size = P[1];
      L.DwarfReg = detail::read<uint16_t>(P + 2);
      L.Offset = detail::read<int32_t>(P + 4);
    }
    return L;
  }
  LiveOut liveOut(unsigned I) const {
    const uint8_t *P = LiveOuts + I * kLiveOutSize;
    LiveOut L;
    L.DwarfReg = detail::read<uint16_t>(P);
    L.Size = P[3];
    return L;
  }
};

/// Decodes the record at P (Avail bytes available) of a blob at Base. Checks
/// every bound and the location kinds and constant indices (against
/// NumConstants). Returns false with a static message on error.
inline bool decodeRecord(const uint8_t *Base, const uint8_t *P, size_t Avail,
                         unsigned Version, uint32_t NumConstants, Record &Out,
                         const char **Error) {
  auto Fail = [&](const char *Msg) {
    if (Error)
      *Error = Msg;
    return false;
  };
  if (Avail < kRecordHeaderSize)
    return Fail("truncated record header");
  Out.ID = detail::read<uint64_t>(P);
  Out.InstructionOffset = detail::read<uint32_t>(P + kRecordOffsetOffset);
  Out.Flags = detail::read<uint16_t>(P + kRecordFlagsOffset);
  Out.NumLocations = detail::read<uint16_t>(P + kRecordNumLocationsOffset);
  Out.Version = Version;
  Out.Locations = P + kRecordHeaderSize;
  size_t LocBytes =
      static_cast<size_t>(Out.NumLocations) * locationSize(Version);
  if (LocBytes > Avail - kRecordHeaderSize)
    return Fail("record locations extend past the end of the section");
  // Padding to 8 bytes is relative to the start of the blob (which LLVM
  // aligns to 8), as the records are.
  size_t Rel = static_cast<size_t>(P - Base) + kRecordHeaderSize + LocBytes;
  size_t AfterLocs = detail::alignTo8(Rel) - static_cast<size_t>(P - Base);
  if (AfterLocs + 4 > Avail)
    return Fail("truncated record live-out header");
  Out.NumLiveOuts = detail::read<uint16_t>(P + AfterLocs + 2);
  Out.LiveOuts = P + AfterLocs + 4;
  size_t End =
      AfterLocs + 4 + static_cast<size_t>(Out.NumLiveOuts) * kLiveOutSize;
  if (End > Avail)
    return Fail("record live-outs extend past the end of the section");
  size_t Padded = detail::alignTo8(static_cast<size_t>(P - Base) + End) -
                  static_cast<size_t>(P - Base);
  if (Padded > Avail)
    return Fail("truncated record padding");
  Out.Size = Padded;
  for (unsigned I = 0; I < Out.NumLocations; ++I) {
    Location L = Out.location(I);
    if (L.Kind < LK_Register || L.Kind > LK_ConstantIndex)
      return Fail("unknown location kind");
    if (L.Kind == LK_ConstantIndex &&
        (L.Offset < 0 || static_cast<uint32_t>(L.Offset) >= NumConstants))
      return Fail("constant index out of range");
  }
  return true;
}

struct RecordIterator;

/// One validated blob of a .llvm_stackmaps section.
struct Section {
  const uint8_t *Data = nullptr;
  /// Bytes of the blob, up to the end of its last record.
  size_t Size = 0;
  unsigned Version = 0;
  uint32_t NumFunctions = 0;
  uint32_t NumConstants = 0;
  uint32_t NumRecords = 0;
  const uint8_t *Functions = nullptr;
  const uint8_t *Constants = nullptr;
  const uint8_t *Records = nullptr;

  Function function(uint32_t I) const {
    const uint8_t *P =
        Functions + static_cast<size_t>(I) * functionRecordSize(Version);
    Function F;
    F.Address = detail::read<uint64_t>(P);
    F.StackSize = detail::read<uint64_t>(P + 8);
    F.RecordCount =
        Version == 1 ? kUnknownRecordCount : detail::read<uint64_t>(P + 16);
    return F;
  }
  uint64_t constant(uint32_t I) const {
    return detail::read<uint64_t>(Constants +
                                  static_cast<size_t>(I) * kConstantSize);
  }
  /// Forward iteration over the records, see RecordIterator.
  inline RecordIterator records() const;
};

/// Forward iterator over the records of a Section that parse() accepted:
///   Record R;
///   for (RecordIterator It = S.records(); It.next(R);) ...
/// Record stride is computed per version. FunctionIndex follows the
/// functions' record counts (versions 2, 3); in version 1, which has no
/// counts, records are attributed to function 0 when there is exactly one
/// function and are kUnknownFunction otherwise (LLVM writes them in function
/// order, but nothing in the section marks where one function's records end).
struct RecordIterator {
  const Section *S = nullptr;
  const uint8_t *P = nullptr;
  uint32_t Index = 0;
  uint32_t Function = 0;
  uint64_t LeftInFunction = 0;

  bool next(Record &R) {
    if (!S || Index >= S->NumRecords)
      return false;
    size_t Avail = S->Size - static_cast<size_t>(P - S->Data);
    if (!decodeRecord(S->Data, P, Avail, S->Version, S->NumConstants, R,
                      nullptr))
      return false; // Not reached for a Section from parse().
    if (S->Version == 1) {
      R.FunctionIndex = S->NumFunctions == 1 ? 0 : kUnknownFunction;
    } else {
      while (LeftInFunction == 0 && Function < S->NumFunctions) {
        LeftInFunction = S->function(Function).RecordCount;
        if (LeftInFunction == 0)
          ++Function;
      }
      R.FunctionIndex = Function;
      if (--LeftInFunction == 0)
        ++Function;
    }
    R.Index = Index++;
    P += R.Size;
    return true;
  }
};

inline RecordIterator Section::records() const {
  RecordIterator It;
  It.S = this;
  It.P = Records;
  return It;
}

/// Validates the blob at Data (Size bytes available; bytes after the blob are
/// ignored) and fills Out. Rejects, with a static message in *Error: a
/// truncated header, an unknown version, nonzero reserved header bytes,
/// counts whose arrays cannot fit, function record counts (versions 2, 3)
/// that do not add up to NumRecords, and any record that is truncated or has
/// an unknown location kind or a constant index out of range. Never reads
/// outside [Data, Data + Size).
inline bool parse(const uint8_t *Data, size_t Size, Section &Out,
                  const char **Error) {
  auto Fail = [&](const char *Msg) {
    if (Error)
      *Error = Msg;
    return false;
  };
  if (!Data || Size < kHeaderSize)
    return Fail("stack map section is shorter than its 16-byte header");
  unsigned Version = Data[0];
  if (Version < kMinVersion || Version > kMaxVersion)
    return Fail("unsupported stack map version (supported: 1, 2, 3)");
  if (Data[1] != 0 || detail::read<uint16_t>(Data + 2) != 0)
    return Fail("reserved stack map header bytes are not zero");
  Section S;
  S.Data = Data;
  S.Version = Version;
  S.NumFunctions = detail::read<uint32_t>(Data + kNumFunctionsOffset);
  S.NumConstants = detail::read<uint32_t>(Data + kNumConstantsOffset);
  S.NumRecords = detail::read<uint32_t>(Data + kNumRecordsOffset);
  // 64-bit arithmetic: the counts are 32-bit, the products fit.
  uint64_t Need = kHeaderSize;
  Need += static_cast<uint64_t>(S.NumFunctions) * functionRecordSize(Version);
  uint64_t ConstantsAt = Need;
  Need += static_cast<uint64_t>(S.NumConstants) * kConstantSize;
  uint64_t RecordsAt = Need;
  Need += static_cast<uint64_t>(S.NumRecords) * kRecordHeaderSize;
  if (Need > Size)
    return Fail("stack map counts extend past the end of the section");
  S.Functions = Data + kHeaderSize;
  S.Constants = Data + ConstantsAt;
  S.Records = Data + RecordsAt;
  if (Version >= 2) {
    uint64_t Sum = 0;
    for (uint32_t I = 0; I < S.NumFunctions; ++I) {
      uint64_t N = S.function(I).RecordCount;
      if (N > S.NumRecords || Sum + N > S.NumRecords)
        return Fail("function record counts do not add up to NumRecords");
      Sum += N;
    }
    if (Sum != S.NumRecords)
      return Fail("function record counts do not add up to NumRecords");
  }
  const uint8_t *P = S.Records;
  for (uint32_t I = 0; I < S.NumRecords; ++I) {
    Record R;
    size_t Avail = Size - static_cast<size_t>(P - Data);
    if (!decodeRecord(Data, P, Avail, Version, S.NumConstants, R, Error))
      return false;
    P += R.Size;
  }
  S.Size = static_cast<size_t>(P - Data);
  Out = S;
  return true;
}

/// Offset in a section of SectionSize bytes of the blob after a blob that
/// ends at BlobEnd: the next multiple of 8 (blobs always end on one, records
/// being padded), or SectionSize when only zero bytes (linker padding)
/// follow. Whatever else follows is parsed as a blob, and rejected by parse()
/// when it is not one.
inline size_t nextBlobOffset(const uint8_t *SectionData, size_t SectionSize,
                             size_t BlobEnd) {
  size_t Next = detail::alignTo8(BlobEnd);
  if (Next >= SectionSize)
    return SectionSize;
  for (size_t I = Next; I < SectionSize; ++I)
    if (SectionData[I] != 0)
      return Next;
  return SectionSize;
}

} // namespace stackmap
} // namespace pcmap

#endif // PCMAP_STACKMAP_H
