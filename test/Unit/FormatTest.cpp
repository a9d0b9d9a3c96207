//===- FormatTest.cpp - include/pcmap/Format.h ----------------------------===//
//
// The format's definitions without the runtime: version bits, descriptor
// encoding and decoding (known values, sizes, round trips, defined and
// reserved bits), ULEB128 and relative PCs read and written, field and
// section names, upstream stack arguments. uleb() below is a reference
// encoder of its own, to check Format.h's writeULEB128 against; the tests
// that build sections use Format.h's (FakeModule.h).
//
//===----------------------------------------------------------------------===//

#include "pcmap/Format.h"

#include "gtest/gtest.h"

#include <string.h>
#include <vector>

using namespace pcmap::format;

namespace {

std::vector<uint8_t> uleb(uint64_t V) {
  std::vector<uint8_t> Out;
  do {
    uint8_t Byte = V & 0x7f;
    V >>= 7;
    Out.push_back(Byte | (V ? 0x80 : 0));
  } while (V);
  return Out;
}

AtomicDescriptor make(AtomicKind Kind, uint32_t SizeLog2, AtomicOrder Order) {
  AtomicDescriptor D;
  D.Kind = Kind;
  D.SizeLog2 = SizeLog2;
  D.Order = Order;
  return D;
}

TEST(FormatTest, VersionBits) {
  EXPECT_EQ(versionBase(1), 1u);
  EXPECT_EQ(versionBase(65537), 1u);
  EXPECT_FALSE(hasPtrSizedPCs(1));
  EXPECT_TRUE(hasPtrSizedPCs(65537));
  EXPECT_EQ(relativePCSize(1, 8), 4u);
  EXPECT_EQ(relativePCSize(65537, 8), 8u);
}

TEST(FormatTest, KnownDescriptorValues) {
  // The values the IR tests check, computed from the documented layout.
  EXPECT_EQ(encodeDescriptor(make(AK_Load, 2, AO_Acquire)), 272u);
  EXPECT_EQ(encodeDescriptor(make(AK_Store, 3, AO_SeqCst)), 473u);
  AtomicDescriptor Nand = make(AK_RMW, 2, AO_SeqCst);
  Nand.Op = RMW_Nand;
  EXPECT_EQ(encodeDescriptor(Nand), 8658u);
  AtomicDescriptor CX = make(AK_CmpXchg, 4, AO_SeqCst);
  CX.FailureOrder = AO_Acquire;
  EXPECT_EQ(encodeDescriptor(CX), 8675u);
  // Fences carry no size, whatever the caller passed.
  EXPECT_EQ(encodeDescriptor(make(AK_Fence, 3, AO_SeqCst)), 452u);
}

TEST(FormatTest, LoadsAndStoresFitInTwoBytesEverythingInThree) {
  for (AtomicKind K : {AK_Load, AK_Store, AK_Fence})
    for (uint32_t S = 0; S <= kSizeLog2Other; ++S)
      for (uint32_t O = 0; O < 8; ++O)
        for (bool V : {false, true}) {
          AtomicDescriptor D = make(K, S, AtomicOrder(O));
          D.Volatile = V;
          EXPECT_LE(sizeOfULEB128(encodeDescriptor(D)), 2u);
        }
  for (uint32_t Op = 0; Op <= RMW_Other; ++Op) {
    AtomicDescriptor D = make(AK_RMW, 4, AO_SeqCst);
    D.Op = RMWOp(Op);
    D.Volatile = true;
    EXPECT_LE(encodeDescriptor(D), kMaxDescriptor);
    EXPECT_LE(sizeOfULEB128(encodeDescriptor(D)), 3u);
  }
  AtomicDescriptor CX = make(AK_CmpXchg, 4, AO_SeqCst);
  CX.FailureOrder = AO_SeqCst;
  CX.Weak = CX.Volatile = true;
  EXPECT_LE(sizeOfULEB128(encodeDescriptor(CX)), 3u);
}

TEST(FormatTest, DescriptorRoundTrip) {
  for (uint32_t K = 0; K <= AK_LastKind; ++K)
    for (uint32_t S = 0; S <= kSizeLog2Other; ++S)
      for (uint32_t O = 0; O < 8; ++O) {
        AtomicDescriptor D = make(AtomicKind(K), S, AtomicOrder(O));
        if (D.Kind == AK_Fence)
          D.SizeLog2 = 0;
        D.Volatile = (S + O) & 1;
        if (D.Kind == AK_RMW)
          D.Op = RMWOp((S * 8 + O) % (RMW_LastKnown + 1));
        if (D.Kind == AK_CmpXchg) {
          D.FailureOrder = AtomicOrder(7 - O);
          D.Weak = S & 1;
        }
        AtomicDescriptor Back;
        ASSERT_TRUE(decodeDescriptor(encodeDescriptor(D), Back));
        EXPECT_EQ(Back.Kind, D.Kind);
        EXPECT_EQ(Back.SizeLog2, D.SizeLog2);
        EXPECT_EQ(Back.Order, D.Order);
        EXPECT_EQ(Back.FailureOrder, D.FailureOrder);
        EXPECT_EQ(Back.Op, D.Op);
        EXPECT_EQ(Back.Volatile, D.Volatile);
        EXPECT_EQ(Back.Weak, D.Weak);
      }
}

TEST(FormatTest, DefinedBitsAreWhatDecodingKeeps) {
  // Every value a descriptor may have: masking with the kind's defined bits
  // keeps exactly what decoding and encoding again keep.
  for (uint64_t V = 0; V <= kMaxDescriptor; ++V) {
    AtomicDescriptor D;
    uint32_t Kind = uint32_t(V & ((1u << kKindBits) - 1));
    ASSERT_EQ(decodeDescriptor(V, D), Kind <= AK_LastKind) << V;
    if (Kind <= AK_LastKind)
      ASSERT_EQ(V & definedDescriptorBits(Kind), encodeDescriptor(D)) << V;
  }
}

TEST(FormatTest, DecodeRejectsInvalidAndIgnoresReservedBits) {
  AtomicDescriptor D;
  EXPECT_FALSE(decodeDescriptor(5, D)); // kind 5
  EXPECT_FALSE(decodeDescriptor(7, D)); // kind 7
  EXPECT_FALSE(decodeDescriptor(kMaxDescriptor + 1, D));
  // A reserved bit (17) set by a newer producer is ignored.
  ASSERT_TRUE(decodeDescriptor(272 | (1u << 17), D));
  EXPECT_EQ(D.Kind, AK_Load);
  EXPECT_EQ(D.Order, AO_Acquire);
  EXPECT_EQ(D.sizeInBytes(), 4u);
}

TEST(FormatTest, FromAsmFlag) {
  // Bit 10 flags atomics from inline asm; it keeps fences, loads and stores
  // in 2 ULEB128 bytes.
  AtomicDescriptor D;
  D.Kind = AK_Fence;
  D.Order = AO_SeqCst;
  D.FromAsm = true;
  EXPECT_EQ(encodeDescriptor(D), 4u | 7u << 6 | 1u << 10);
  EXPECT_EQ(sizeOfULEB128(encodeDescriptor(D)), 2u);
  AtomicDescriptor Back;
  ASSERT_TRUE(decodeDescriptor(encodeDescriptor(D), Back));
  EXPECT_TRUE(Back.FromAsm);
  for (uint32_t Kind = 0; Kind <= AK_LastKind; ++Kind)
    EXPECT_TRUE(definedDescriptorBits(Kind) & (1u << kFromAsmShift)) << Kind;
}

TEST(FormatTest, ULEB128Bounds) {
  for (uint64_t V :
       {0ull, 1ull, 127ull, 128ull, 16383ull, 16384ull, (1ull << 63), ~0ull}) {
    std::vector<uint8_t> B = uleb(V);
    uint64_t Out = 0;
    EXPECT_EQ(readULEB128(B.data(), B.data() + B.size(), Out), B.size());
    EXPECT_EQ(Out, V);
    EXPECT_EQ(sizeOfULEB128(V), B.size());
    // Truncated: every shorter prefix fails without reading past it.
    for (size_t N = 0; N < B.size(); ++N)
      EXPECT_EQ(readULEB128(B.data(), B.data() + N, Out), 0u);
  }
  // More than 64 bits: 10th byte above 1, or an 11th byte.
  std::vector<uint8_t> TooBig(9, 0xff);
  TooBig.push_back(0x02);
  uint64_t Out;
  EXPECT_EQ(readULEB128(TooBig.data(), TooBig.data() + TooBig.size(), Out), 0u);
  std::vector<uint8_t> TooLong(10, 0x80);
  TooLong.push_back(0x00);
  EXPECT_EQ(readULEB128(TooLong.data(), TooLong.data() + TooLong.size(), Out),
            0u);
}

TEST(FormatTest, RelativePCs) {
  const uint8_t Minus4[] = {0xfc, 0xff, 0xff, 0xff};
  EXPECT_EQ(readRelativePC(Minus4, 4), -4);
  const uint8_t Plus[] = {0x10, 0x20, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
  EXPECT_EQ(readRelativePC(Plus, 8), 0x2010);
  const uint8_t Big[] = {0x00, 0x00, 0x00, 0x80, 0x01, 0x00, 0x00, 0x00};
  EXPECT_EQ(readRelativePC(Big, 8), 0x180000000ll);
}

TEST(FormatTest, Writers) {
  for (uint64_t V :
       {0ull, 1ull, 127ull, 128ull, 300ull, 16384ull, (1ull << 63), ~0ull}) {
    uint8_t B[kMaxULEB128Bytes] = {};
    unsigned N = writeULEB128(B, V);
    EXPECT_EQ(N, sizeOfULEB128(V));
    EXPECT_EQ(std::vector<uint8_t>(B, B + N), uleb(V));
  }
  for (int64_t V : {int64_t(-4), int64_t(0x2010), int64_t(INT32_MIN),
                    int64_t(INT32_MAX), int64_t(0x180000000ll)}) {
    for (unsigned Width : {4u, 8u}) {
      bool Fits = Width == 8 || (V >= INT32_MIN && V <= INT32_MAX);
      EXPECT_EQ(fitsRelativePC(V, Width), Fits) << V << " " << Width;
      if (!Fits)
        continue;
      uint8_t B[8] = {};
      writeRelativePC(B, V, Width);
      EXPECT_EQ(readRelativePC(B, Width), V);
    }
  }
  uint8_t W[4];
  writeU32(W, 0x12345678);
  EXPECT_EQ(W[0], 0x78);
  EXPECT_EQ(W[3], 0x12);
}

TEST(FormatTest, FieldNames) {
  EXPECT_STREQ(atomicKindName(AK_Load), "load");
  EXPECT_STREQ(atomicKindName(AK_Fence), "fence");
  EXPECT_EQ(atomicKindName(5), nullptr);
  EXPECT_STREQ(atomicOrderName(AO_Relaxed), "relaxed");
  EXPECT_STREQ(atomicOrderName(AO_AcqRel), "acq_rel");
  EXPECT_STREQ(atomicOrderName(AO_SeqCst), "seq_cst");
  EXPECT_STREQ(atomicOrderName(AO_Unknown), "unknown");
  EXPECT_STREQ(atomicOrderName(AO_Reserved3), "unknown");
  EXPECT_EQ(atomicOrderName(8), nullptr);
  EXPECT_STREQ(rmwOperationName(RMW_Xchg), "xchg");
  EXPECT_STREQ(rmwOperationName(RMW_Nand), "nand");
  EXPECT_STREQ(rmwOperationName(RMW_UIncWrap), "uinc_wrap");
  EXPECT_STREQ(rmwOperationName(RMW_FMinimum), "fminimum");
  EXPECT_STREQ(rmwOperationName(RMW_Other), "other");
  EXPECT_EQ(rmwOperationName(RMW_LastKnown + 1), nullptr);
  // Every descriptor a reader accepts has a printable kind and order.
  for (uint64_t V = 0; V < (1u << 11); ++V) {
    AtomicDescriptor D;
    if (!decodeDescriptor(V, D))
      continue;
    EXPECT_NE(atomicKindName(D.Kind), nullptr) << V;
    EXPECT_NE(atomicOrderName(D.Order), nullptr) << V;
  }
}

TEST(FormatTest, UpstreamStackArgs) {
  // Version 1: the UAR bit announces the stack-arguments size; version 2
  // needs UARHasSize (UAR alone means "no stack arguments").
  EXPECT_TRUE(upstreamHasStackArgs(kUpstreamVersionV1, kUpstreamFeatureUAR));
  EXPECT_FALSE(
      upstreamHasStackArgs(kUpstreamVersionV1, kUpstreamFeatureAtomics));
  EXPECT_FALSE(upstreamHasStackArgs(kUpstreamVersionV2, kUpstreamFeatureUAR));
  EXPECT_TRUE(upstreamHasStackArgs(
      kUpstreamVersionV2, kUpstreamFeatureUAR | kUpstreamFeatureUARHasSize));
}

MetadataSectionName parseName(const char *S) {
  MetadataSectionName N;
  N.Kind = MetadataKind(99);
  if (!parseMetadataSectionName(S, strlen(S), N))
    N.Kind = MK_None;
  return N;
}

TEST(FormatTest, SectionNames) {
  MetadataSectionName N = parseName("pcmap_atomics1");
  EXPECT_EQ(N.Kind, MK_Atomics);
  EXPECT_TRUE(N.HasVersion);
  EXPECT_EQ(N.Version, 1u);
  N = parseName("pcmap_functions65537");
  EXPECT_EQ(N.Kind, MK_Functions);
  EXPECT_EQ(N.Version, 65537u);
  N = parseName("sanmd_covered65538");
  EXPECT_EQ(N.Kind, MK_UpstreamCovered);
  EXPECT_EQ(N.Version, 65538u);
  N = parseName("sanmd_atomics");
  EXPECT_EQ(N.Kind, MK_UpstreamAtomics);
  EXPECT_FALSE(N.HasVersion);
  EXPECT_EQ(parseName("sanmd_atomics2x").Kind, MK_None);
  EXPECT_EQ(parseName("sanmd_atomics4294967296").Kind, MK_None);
  EXPECT_EQ(parseName("sanmd_atomics4294967295").Version, 0xffffffffu);
  EXPECT_EQ(parseName(".relapcmap_atomics1").Kind, MK_None);
  EXPECT_EQ(parseName("pcmap_atomic").Kind, MK_None);
  EXPECT_EQ(parseName(".text").Kind, MK_None);
  // The length bounds the name: no read past it.
  MetadataSectionName M;
  EXPECT_TRUE(parseMetadataSectionName("pcmap_atomics1junk", 14, M));
  EXPECT_EQ(M.Version, 1u);
  EXPECT_FALSE(parseMetadataSectionName("pcmap_atomics1", 5, M));
}

/// The symbols of fragments (docs/FORMAT.md, "Fragments") and the length
/// of their function's name; other names are 0.
TEST(FormatTest, FragmentSymbols) {
  auto Base = [](const char *S) { return fragmentBaseLength(S, strlen(S)); };
  EXPECT_EQ(Base("work.__part.1"), 4u);
  EXPECT_EQ(Base("work.__part.12"), 4u);
  EXPECT_EQ(Base("work.cold"), 4u);
  EXPECT_EQ(Base("work.eh"), 4u);
  EXPECT_EQ(Base("_ZN1a4workEv.__part.3"), strlen("_ZN1a4workEv"));
  EXPECT_EQ(Base("work"), 0u);
  EXPECT_EQ(Base("work.__part."), 0u);  // no number
  EXPECT_EQ(Base("work.__part.x"), 0u); // not a number
  EXPECT_EQ(Base(".cold"), 0u);         // no function name
  EXPECT_EQ(Base(".__part.1"), 0u);
  EXPECT_EQ(Base("work.cold.1"), 0u);
  EXPECT_EQ(Base("work.colder"), 0u);
  static_assert(fragmentBaseLength("f.cold", 6) == 1, "usable in constants");
}

} // namespace
