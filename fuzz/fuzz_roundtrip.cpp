//===- fuzz_roundtrip.cpp - decode(encode(x)) == x for the pcmap format ---===//
//
// Structured fuzzing: the input is a list of entries, not section bytes.
// They are encoded with pcmap/Format.h's encoders into a section, which the
// runtime must accept and decode to exactly the entries (sorted by PC, the
// first of several at one PC kept), and every descriptor must survive
// encodeDescriptor/decodeDescriptor unchanged.
//
// Input: byte 0: bit 0 functions (else atomics), bit 1 pointer-sized PCs.
// The module's code is the 1 MiB before the section. Then entries:
//   atomics:   count (1 + byte % 4) of 20-bit PC offsets (3 bytes each),
//              then kind, size, orders, operation and flags (4 bytes)
//   functions: 20-bit start (3 bytes), size (2 bytes), features (ULEB128
//              of up to 10 input bytes, any 64-bit value)
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

using namespace pcmap;
using namespace pcmap::format;
using namespace pcmap::fuzz;

namespace {

constexpr uint32_t kCodeSize = 1u << 20;

uint32_t offset20(InputReader &In) {
  uint32_t V = In.u8();
  V |= uint32_t(In.u8()) << 8;
  V |= uint32_t(In.u8() & 0x0f) << 16;
  return V;
}

/// A descriptor with every field in range and the fields of other kinds at
/// their defaults: what encodeDescriptor can represent exactly.
AtomicDescriptor descriptor(InputReader &In) {
  uint8_t B0 = In.u8(), B1 = In.u8(), B2 = In.u8(), B3 = In.u8();
  AtomicDescriptor D;
  D.Kind = AtomicKind(B0 % (AK_LastKind + 1));
  D.SizeLog2 = D.Kind == AK_Fence ? 0 : (B0 >> 3) & 7;
  D.Order = AtomicOrder(B1 & 7);
  D.Volatile = B1 & 8;
  if (D.Kind == AK_RMW)
    D.Op = RMWOp(B2 & 63);
  if (D.Kind == AK_CmpXchg) {
    D.FailureOrder = AtomicOrder(B3 & 7);
    D.Weak = B3 & 8;
  }
  return D;
}

bool sameDescriptor(const AtomicDescriptor &A, const AtomicDescriptor &B) {
  return A.Kind == B.Kind && A.SizeLog2 == B.SizeLog2 && A.Order == B.Order &&
         A.FailureOrder == B.FailureOrder && A.Op == B.Op &&
         A.Volatile == B.Volatile && A.Weak == B.Weak;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  InputReader In(Data, Size);
  uint8_t Selector = In.u8();
  const MetadataKind Kind = (Selector & 1) ? MK_Functions : MK_Atomics;
  const uint32_t Version =
      kVersionBase | ((Selector & 2) ? kVersionPtrSizeRel : 0);
  FakeModule Module;
  Module.Ranges.push_back({-int64_t(kCodeSize), kCodeSize});
  const int64_t TextLo = -int64_t(kCodeSize);

  std::vector<Atomic> Expected;
  std::vector<std::vector<Atomic>> Records;
  std::vector<Function> Functions;
  while (!In.atEnd()) {
    if (Kind == MK_Atomics) {
      unsigned N = 1 + In.u8() % 4;
      std::vector<uint32_t> PCs;
      for (unsigned I = 0; I < N; ++I)
        PCs.push_back(offset20(In));
      AtomicDescriptor D = descriptor(In);
      uint64_t Encoded = encodeDescriptor(D);
      FUZZ_CHECK(Encoded <= kMaxDescriptor, "descriptor 0x%llx too large",
                 (unsigned long long)Encoded);
      AtomicDescriptor Back;
      FUZZ_CHECK(decodeDescriptor(Encoded, Back) && sameDescriptor(D, Back),
                 "descriptor 0x%llx does not round-trip",
                 (unsigned long long)Encoded);
      std::vector<Atomic> Record;
      for (uint32_t PC : PCs)
        Record.push_back({PC, uint32_t(Encoded)});
      Expected.insert(Expected.end(), Record.begin(), Record.end());
      Records.push_back(Record);
    } else {
      Function F{};
      F.Offset = offset20(In);
      uint32_t Size = In.u8();
      Size |= uint32_t(In.u8()) << 8;
      F.Size = std::min(Size, kCodeSize - F.Offset);
      uint64_t Features = 0;
      for (unsigned Shift = 0; Shift < 64; Shift += 7) {
        uint8_t B = In.u8();
        Features |= uint64_t(B & 0x7f) << Shift;
        if (!(B & 0x80))
          break;
      }
      // Bits 32..63 are reserved: encoded, and ignored by the decoder.
      F.Features = uint32_t(Features);
      F.HighFeatures = uint32_t(Features >> 32);
      Functions.push_back(F);
    }
  }

  SectionEncoder Encoder(Kind, Version);
  std::vector<uint8_t> Bytes;
  bool Ok = Kind == MK_Atomics
                ? Encoder.encodeAtomics(Records, TextLo, Bytes)
                : Encoder.encodeFunctions(Functions, TextLo, Bytes);
  if (!Ok)
    return -1; // a 32-bit relative PC that cannot reach (huge inputs)
  SectionBuffer Section(Bytes.data(), Bytes.size());
  Decoded D = runtimeDecode(Kind, Version, Section.begin(), Section.end(),
                            Module.at(Section.begin()));
  FUZZ_CHECK(D.Accepted, "encoded section rejected: %s", D.Error);
  if (Kind == MK_Atomics) {
    sortUnique(Expected);
    FUZZ_CHECK(D.Atomics == Expected, "decoded %zu atomics, expected %zu",
               D.Atomics.size(), Expected.size());
  } else {
    sortUnique(Functions);
    FUZZ_CHECK(D.Functions == Functions, "decoded %zu functions, expected %zu",
               D.Functions.size(), Functions.size());
  }
  return 0;
}
