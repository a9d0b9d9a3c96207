//===- Decoder.cpp - Decoding the bytes of one metadata section ----------===//

#include "Decoder.h"
#include "Text.h"

using namespace llvm;
using namespace pcmap::format;

namespace pcmap {
namespace report {

PCResolver::~PCResolver() = default;

namespace {

/// Pointer size of the 64-bit ELF files pcmap-report reads.
constexpr unsigned kPointerSize = 8;

Error fail(uint64_t Offset, const Twine &What) {
  return createStringError(inconvertibleErrorCode(),
                           "offset " + hexAddress(Offset) + ": " + What);
}

/// A bounds-checked cursor over a section.
class Cursor {
public:
  explicit Cursor(ArrayRef<uint8_t> Bytes) : Bytes(Bytes) {}
  bool atEnd() const { return Pos >= Bytes.size(); }
  uint64_t offset() const { return Pos; }
  uint64_t left() const { return Bytes.size() - Pos; }

  Error uleb(uint64_t &Value, const char *What) {
    unsigned Len =
        readULEB128(Bytes.data() + Pos, Bytes.data() + Bytes.size(), Value);
    if (!Len)
      return fail(Pos,
                  left() < kMaxULEB128Bytes &&
                          !hasULEBEnd(Bytes.data() + Pos, left())
                      ? Twine("truncated ULEB128 ") + What
                      : Twine("ULEB128 ") + What + " does not fit in 64 bits");
    Pos += Len;
    return Error::success();
  }

  Error u32(uint64_t &Value, const char *What) {
    if (left() < 4)
      return fail(Pos, Twine("truncated 32-bit ") + What);
    Value = 0;
    for (unsigned I = 0; I < 4; ++I)
      Value |= uint64_t(Bytes[Pos + I]) << (8 * I);
    Pos += 4;
    return Error::success();
  }

  /// Resolves the relative PC at the cursor and moves past it.
  Error pc(PCResolver &PCs, unsigned Width, CodeAddress &PC, bool &IsZero) {
    if (left() < Width)
      return fail(Pos, "truncated relative PC (" + Twine(left()) + " of " +
                           Twine(Width) + " bytes)");
    if (Error E = PCs.resolve(Pos, Width, PC, IsZero))
      return fail(Pos, toString(std::move(E)));
    Pos += Width;
    return Error::success();
  }

private:
  static bool hasULEBEnd(const uint8_t *P, uint64_t N) {
    for (uint64_t I = 0; I < N; ++I)
      if (!(P[I] & 0x80))
        return true;
    return false;
  }

  ArrayRef<uint8_t> Bytes;
  uint64_t Pos = 0;
};

} // namespace

Error checkVersion(MetadataKind Kind, uint32_t Version) {
  switch (checkSectionVersion(Kind, Version)) {
  case VC_Supported:
    return Error::success();
  case VC_UnknownFlags:
    return createStringError(inconvertibleErrorCode(),
                             "unknown version flags " +
                                 hexAddress(Version & ~kVersionBaseMask));
  case VC_UnknownBase:
    break;
  }
  return createStringError(inconvertibleErrorCode(),
                           "unsupported base version " +
                               Twine(versionBase(Version)));
}

Error decodeFunctions(MetadataKind Kind, uint32_t Version,
                      ArrayRef<uint8_t> Bytes, PCResolver &PCs,
                      std::vector<DecodedFunction> &Out) {
  if (Error E = checkVersion(Kind, Version))
    return E;
  const unsigned Width = relativePCSize(Version, kPointerSize);
  const bool Upstream = Kind == MK_UpstreamCovered;
  const uint32_t Base = versionBase(Version);
  const bool Fixed32 = Upstream && Base == kUpstreamVersionV1;
  auto Read = [&](Cursor &C, uint64_t &V, const char *What) {
    return Fixed32 ? C.u32(V, What) : C.uleb(V, What);
  };
  Cursor C(Bytes);
  while (!C.atEnd()) {
    uint64_t Start = C.offset();
    DecodedFunction F;
    bool IsZero = false;
    if (Error E = C.pc(PCs, Width, F.PC, IsZero))
      return E;
    if (IsZero)
      return fail(Start, "function entry with a zero relative PC");
    if (Error E = Read(C, F.Size, "function size"))
      return E;
    if (Error E = Read(C, F.Features, "function features"))
      return E;
    if (Upstream && upstreamHasStackArgs(Base, F.Features)) {
      F.HasStackArgs = true;
      if (Error E = Read(C, F.StackArgs, "stack-arguments size"))
        return E;
      // The runtime keeps 32 bits of it (docs/FORMAT.md).
      if (F.StackArgs > 0xffffffffu)
        return fail(Start, "stack-arguments size over 4 GiB");
    }
    if (!PCs.inCode(F.PC, F.Size))
      return fail(Start, "function [" + hexAddress(F.PC.Address) + ", +" +
                             Twine(F.Size) + ") is not inside executable code");
    Out.push_back(F);
  }
  return Error::success();
}

Error decodeAtomics(MetadataKind Kind, uint32_t Version,
                    ArrayRef<uint8_t> Bytes, PCResolver &PCs,
                    std::vector<DecodedAtomic> &Out) {
  if (Error E = checkVersion(Kind, Version))
    return E;
  const unsigned Width = relativePCSize(Version, kPointerSize);
  Cursor C(Bytes);
  if (isUpstreamKind(Kind)) {
    // sanmd_atomics: a plain array of relative PCs.
    while (!C.atEnd()) {
      uint64_t Start = C.offset();
      DecodedAtomic A;
      bool IsZero = false;
      if (Error E = C.pc(PCs, Width, A.PC, IsZero))
        return E;
      if (IsZero)
        return fail(Start, "zero relative PC");
      if (!PCs.inCode(A.PC, 0))
        return fail(Start, "atomic PC " + hexAddress(A.PC.Address) +
                               " is not inside executable code");
      Out.push_back(A);
    }
    return Error::success();
  }
  // pcmap_atomics: records of PCs, a zero word and a descriptor.
  while (!C.atEnd()) {
    size_t RecordBegin = Out.size();
    uint64_t RecordStart = C.offset();
    for (;;) {
      if (C.atEnd())
        return fail(C.offset(), "section ends inside a record (" +
                                    Twine(Out.size() - RecordBegin) +
                                    " PCs without zero word and descriptor)");
      uint64_t Start = C.offset();
      DecodedAtomic A;
      bool IsZero = false;
      if (Error E = C.pc(PCs, Width, A.PC, IsZero))
        return E;
      if (IsZero)
        break;
      if (!PCs.inCode(A.PC, 0))
        return fail(Start, "atomic PC " + hexAddress(A.PC.Address) +
                               " is not inside executable code");
      A.HasDescriptor = true;
      Out.push_back(A);
    }
    if (Out.size() == RecordBegin)
      return fail(RecordStart, "record without a PC before its zero word");
    uint64_t DescriptorStart = C.offset();
    uint64_t Value;
    if (Error E = C.uleb(Value, "descriptor"))
      return E;
    AtomicDescriptor D;
    if (!decodeDescriptor(Value, D))
      return fail(DescriptorStart, "invalid descriptor " + hexAddress(Value));
    for (size_t I = RecordBegin; I < Out.size(); ++I)
      Out[I].Descriptor = D;
  }
  return Error::success();
}

} // namespace report
} // namespace pcmap
