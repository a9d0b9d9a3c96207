//===- StackMapTest.cpp - Tests of include/pcmap/StackMap.h ---------------===//
//
// The stack map decoder pcmap-report and the runtime share: the documented
// fields of each version, every kind of malformed section rejected,
// concatenated sections, and corrupted bytes never read out of bounds.
//
//===----------------------------------------------------------------------===//

#include "pcmap/StackMap.h"

#include "core/arena.h"
#include "stackmaps/stackmap.h"

#include "gtest/gtest.h"

#include <random>
#include <string>
#include <vector>

using namespace pcmap::stackmap;

namespace {

/// Builds a .llvm_stackmaps blob byte by byte, in the layout of a version.
struct Builder {
  unsigned Version;
  std::vector<uint8_t> B;

  explicit Builder(unsigned Version) : Version(Version) {}

  void u8(uint64_t V) { B.push_back(static_cast<uint8_t>(V)); }
  void u16(uint64_t V) {
    u8(V);
    u8(V >> 8);
  }
  void u32(uint64_t V) {
    u16(V);
    u16(V >> 16);
  }
  void u64(uint64_t V) {
    u32(V);
    u32(V >> 32);
  }
  void align8() {
    while (B.size() % 8)
      u8(0);
  }
  void header(uint32_t NF, uint32_t NC, uint32_t NR) {
    u8(Version);
    u8(0);
    u16(0);
    u32(NF);
    u32(NC);
    u32(NR);
  }
  void function(uint64_t Addr, uint64_t Stack, uint64_t Count) {
    u64(Addr);
    u64(Stack);
    if (Version >= 2)
      u64(Count);
  }
  void recordHeader(uint64_t ID, uint32_t Off, uint16_t NumLocs) {
    u64(ID);
    u32(Off);
    u16(0);
    u16(NumLocs);
  }
  void location(uint8_t Kind, uint16_t Size, uint16_t Reg, int32_t Off) {
    u8(Kind);
    if (Version == 3) {
      u8(0);
      u16(Size);
      u16(Reg);
      u16(0);
    } else {
      u8(Size);
      u16(Reg);
    }
    u32(static_cast<uint32_t>(Off));
  }
  void liveOuts(std::vector<std::pair<uint16_t, uint8_t>> LOs) {
    align8();
    u16(0);
    u16(LOs.size());
    for (auto &[Reg, Size] : LOs) {
      u16(Reg);
      u8(0);
      u8(Size);
    }
    align8();
  }
};

/// Two functions (2 records and 1 record), two constants; the first record
/// has all five location kinds and two live-outs.
std::vector<uint8_t> sample(unsigned Version) {
  Builder S(Version);
  S.header(2, 2, 3);
  S.function(0x401000, 24, 2);
  S.function(0x402000, kDynamicStackSize, 1);
  S.u64(0x1122334455667788ull);
  S.u64(0xffffffffffull);
  S.recordHeader(7, 0x10, 5);
  S.location(LK_Register, 8, 3, 0);
  S.location(LK_Direct, 8, 7, -16);
  S.location(LK_Indirect, 4, 6, -8);
  S.location(LK_Constant, 8, 0, -5);
  S.location(LK_ConstantIndex, 8, 0, 1);
  S.liveOuts({{0, 8}, {17, 16}});
  S.recordHeader(8, 0x24, 1);
  S.location(LK_Constant, 8, 0, 42);
  S.liveOuts({});
  S.recordHeader(0xfffffffe, 0x7, 0);
  S.liveOuts({{5, 8}});
  return S.B;
}

class StackMapVersions : public ::testing::TestWithParam<unsigned> {};

TEST_P(StackMapVersions, DecodesDocumentedFields) {
  unsigned V = GetParam();
  std::vector<uint8_t> Bytes = sample(V);
  Section S;
  const char *Err = nullptr;
  ASSERT_TRUE(parse(Bytes.data(), Bytes.size(), S, &Err)) << Err;
  EXPECT_EQ(S.Version, V);
  EXPECT_EQ(S.Size, Bytes.size());
  ASSERT_EQ(S.NumFunctions, 2u);
  ASSERT_EQ(S.NumConstants, 2u);
  ASSERT_EQ(S.NumRecords, 3u);
  EXPECT_EQ(S.function(0).Address, 0x401000u);
  EXPECT_EQ(S.function(0).StackSize, 24u);
  EXPECT_EQ(S.function(1).Address, 0x402000u);
  EXPECT_EQ(S.function(1).StackSize, kDynamicStackSize);
  EXPECT_EQ(S.function(0).RecordCount, V == 1 ? kUnknownRecordCount : 2u);
  EXPECT_EQ(S.function(1).RecordCount, V == 1 ? kUnknownRecordCount : 1u);
  EXPECT_EQ(S.constant(0), 0x1122334455667788ull);
  EXPECT_EQ(S.constant(1), 0xffffffffffull);

  RecordIterator It = S.records();
  Record R;
  ASSERT_TRUE(It.next(R));
  EXPECT_EQ(R.Index, 0u);
  EXPECT_EQ(R.ID, 7u);
  EXPECT_EQ(R.InstructionOffset, 0x10u);
  EXPECT_EQ(R.Flags, 0u);
  EXPECT_EQ(R.FunctionIndex, V == 1 ? kUnknownFunction : 0u);
  ASSERT_EQ(R.NumLocations, 5u);
  const uint8_t Kinds[] = {LK_Register, LK_Direct, LK_Indirect, LK_Constant,
                           LK_ConstantIndex};
  const uint16_t Sizes[] = {8, 8, 4, 8, 8};
  const uint16_t Regs[] = {3, 7, 6, 0, 0};
  const int32_t Offs[] = {0, -16, -8, -5, 1};
  for (unsigned I = 0; I < 5; ++I) {
    Location L = R.location(I);
    EXPECT_EQ(L.Kind, Kinds[I]) << I;
    EXPECT_EQ(L.Size, Sizes[I]) << I;
    EXPECT_EQ(L.DwarfReg, Regs[I]) << I;
    EXPECT_EQ(L.Offset, Offs[I]) << I;
  }
  ASSERT_EQ(R.NumLiveOuts, 2u);
  EXPECT_EQ(R.liveOut(0).DwarfReg, 0u);
  EXPECT_EQ(R.liveOut(0).Size, 8u);
  EXPECT_EQ(R.liveOut(1).DwarfReg, 17u);
  EXPECT_EQ(R.liveOut(1).Size, 16u);
  // Record stride per version: 16 + 5 locations, padded, + 4 + 2 live-outs.
  size_t Expected = V == 3 ? 16 + 60 + 4 /*pad*/ + 4 + 8 + 0 : 16 + 40 + 4 + 8;
  Expected = (Expected + 7) & ~size_t(7);
  EXPECT_EQ(R.Size, Expected);

  ASSERT_TRUE(It.next(R));
  EXPECT_EQ(R.Index, 1u);
  EXPECT_EQ(R.ID, 8u);
  EXPECT_EQ(R.InstructionOffset, 0x24u);
  EXPECT_EQ(R.FunctionIndex, V == 1 ? kUnknownFunction : 0u);
  ASSERT_EQ(R.NumLocations, 1u);
  EXPECT_EQ(R.location(0).Kind, LK_Constant);
  EXPECT_EQ(R.location(0).Offset, 42);
  EXPECT_EQ(R.NumLiveOuts, 0u);

  ASSERT_TRUE(It.next(R));
  EXPECT_EQ(R.ID, 0xfffffffeu);
  EXPECT_EQ(R.FunctionIndex, V == 1 ? kUnknownFunction : 1u);
  EXPECT_EQ(R.NumLocations, 0u);
  ASSERT_EQ(R.NumLiveOuts, 1u);
  EXPECT_EQ(R.liveOut(0).DwarfReg, 5u);
  EXPECT_FALSE(It.next(R));
}

INSTANTIATE_TEST_SUITE_P(AllVersions, StackMapVersions,
                         ::testing::Values(1u, 2u, 3u));

TEST(StackMapTest, LayoutConstants) {
  EXPECT_EQ(functionRecordSize(1), 16u);
  EXPECT_EQ(functionRecordSize(2), 24u);
  EXPECT_EQ(functionRecordSize(3), 24u);
  EXPECT_EQ(locationSize(1), 8u);
  EXPECT_EQ(locationSize(2), 8u);
  EXPECT_EQ(locationSize(3), 12u);
  EXPECT_STREQ(locationKindName(LK_ConstantIndex), "ConstantIndex");
  EXPECT_STREQ(locationKindName(9), "unknown");
}

TEST(StackMapTest, CallSiteKindNames) {
  // The names pcmap-report prints (docs/report-json.md, "call_kind").
  EXPECT_STREQ(callSiteKindName(CK_None), "none");
  EXPECT_STREQ(callSiteKindName(CK_Call), "call");
  EXPECT_STREQ(callSiteKindName(CK_Patchpoint), "patchpoint");
  EXPECT_STREQ(callSiteKindName(CK_Nops), "nops");
  EXPECT_STREQ(callSiteKindName(CK_Unknown), "unknown");
  EXPECT_STREQ(callSiteKindName(200), "unknown");
}

TEST(StackMapTest, V1SingleFunctionAttribution) {
  Builder S(1);
  S.header(1, 0, 2);
  S.function(0x1000, 8, 0);
  S.recordHeader(1, 4, 0);
  S.liveOuts({});
  S.recordHeader(2, 9, 0);
  S.liveOuts({});
  Section Sec;
  ASSERT_TRUE(parse(S.B.data(), S.B.size(), Sec, nullptr));
  RecordIterator It = Sec.records();
  Record R;
  ASSERT_TRUE(It.next(R));
  EXPECT_EQ(R.FunctionIndex, 0u);
  ASSERT_TRUE(It.next(R));
  EXPECT_EQ(R.FunctionIndex, 0u);
  EXPECT_EQ(R.ID, 2u);
}

TEST(StackMapTest, ZeroRecordFunctionsAreSkipped) {
  Builder S(3);
  S.header(3, 0, 1);
  S.function(0x1000, 8, 0);
  S.function(0x2000, 8, 1);
  S.function(0x3000, 8, 0);
  S.recordHeader(1, 4, 0);
  S.liveOuts({});
  Section Sec;
  ASSERT_TRUE(parse(S.B.data(), S.B.size(), Sec, nullptr));
  RecordIterator It = Sec.records();
  Record R;
  ASSERT_TRUE(It.next(R));
  EXPECT_EQ(R.FunctionIndex, 1u);
}

std::string errorOf(const std::vector<uint8_t> &Bytes) {
  Section S;
  const char *Err = nullptr;
  if (parse(Bytes.data(), Bytes.size(), S, &Err))
    return "accepted";
  return Err ? Err : "(no message)";
}

TEST(StackMapTest, RejectsTruncatedHeader) {
  std::vector<uint8_t> B = sample(3);
  B.resize(15);
  EXPECT_EQ(errorOf(B), "stack map section is shorter than its 16-byte header");
  EXPECT_EQ(errorOf({}),
            "stack map section is shorter than its 16-byte header");
}

TEST(StackMapTest, RejectsBadVersion) {
  for (uint8_t V : {0, 4, 0xff}) {
    std::vector<uint8_t> B = sample(3);
    B[0] = V;
    EXPECT_EQ(errorOf(B), "unsupported stack map version (supported: 1, 2, 3)");
  }
}

TEST(StackMapTest, RejectsReservedHeaderBytes) {
  std::vector<uint8_t> B = sample(3);
  B[2] = 1;
  EXPECT_EQ(errorOf(B), "reserved stack map header bytes are not zero");
}

TEST(StackMapTest, RejectsCountsPastTheEnd) {
  for (size_t At :
       {kNumFunctionsOffset, kNumConstantsOffset, kNumRecordsOffset}) {
    std::vector<uint8_t> B = sample(2);
    B[At + 3] = 0x80; // 2^31 + n entries.
    EXPECT_EQ(errorOf(B), "stack map counts extend past the end of the section")
        << At;
  }
}

TEST(StackMapTest, RejectsRecordCountMismatch) {
  for (unsigned V : {2u, 3u}) {
    std::vector<uint8_t> B = sample(V);
    // Record count of function 1 is at 16 + 24 + 16.
    B[16 + 24 + 16] = 2;
    EXPECT_EQ(errorOf(B), "function record counts do not add up to NumRecords");
    B[16 + 24 + 16] = 0;
    EXPECT_EQ(errorOf(B), "function record counts do not add up to NumRecords");
    // A huge count must not wrap the sum around.
    B[16 + 24 + 16 + 7] = 0xff;
    EXPECT_EQ(errorOf(B), "function record counts do not add up to NumRecords");
  }
}

TEST(StackMapTest, RejectsTruncatedRecord) {
  std::vector<uint8_t> B = sample(3);
  // The last record: 16-byte header, no locations, u16 padding,
  // u16 NumLiveOuts = 1, one 4-byte live-out (24 bytes).
  B.resize(B.size() - 4);
  EXPECT_EQ(errorOf(B), "record live-outs extend past the end of the section");
  B.resize(B.size() - 4);
  EXPECT_EQ(errorOf(B), "truncated record live-out header");
  B.resize(B.size() - 8);
  EXPECT_EQ(errorOf(B), "truncated record header");
}

TEST(StackMapTest, RejectsTooManyLocations) {
  for (unsigned V : {1u, 2u, 3u}) {
    std::vector<uint8_t> B = sample(V);
    size_t FirstRecord = 16 + 2 * functionRecordSize(V) + 16;
    B[FirstRecord + kRecordNumLocationsOffset + 1] = 0x40; // 16389 locations
    EXPECT_EQ(errorOf(B), "record locations extend past the end of the section")
        << V;
  }
}

TEST(StackMapTest, RejectsBadLocations) {
  std::vector<uint8_t> B = sample(3);
  size_t FirstLoc = 16 + 2 * 24 + 16 + kRecordHeaderSize;
  B[FirstLoc] = 6;
  EXPECT_EQ(errorOf(B), "unknown location kind");
  B = sample(3);
  size_t FifthLocOffset = FirstLoc + 4 * 12 + 8;
  B[FifthLocOffset] = 2; // constant index 2 of 2 constants
  EXPECT_EQ(errorOf(B), "constant index out of range");
}

TEST(StackMapTest, ConcatenatedBlobs) {
  std::vector<uint8_t> A = sample(3), B = sample(3);
  B[16] = 0x99; // different first function address
  std::vector<uint8_t> All = A;
  All.insert(All.end(), B.begin(), B.end());
  All.insert(All.end(), 16, 0); // linker padding
  Section S;
  ASSERT_TRUE(parse(All.data(), All.size(), S, nullptr));
  EXPECT_EQ(S.Size, A.size());
  size_t Next = nextBlobOffset(All.data(), All.size(), S.Size);
  EXPECT_EQ(Next, A.size());
  ASSERT_TRUE(parse(All.data() + Next, All.size() - Next, S, nullptr));
  EXPECT_EQ(S.function(0).Address & 0xff, 0x99u);
  EXPECT_EQ(nextBlobOffset(All.data(), All.size(), Next + S.Size), All.size());
  // Bytes after a blob that are not zero padding are the next blob, and a
  // bad one is rejected.
  std::vector<uint8_t> Bad = A;
  Bad.push_back(0);
  Bad.push_back(7);
  ASSERT_TRUE(parse(Bad.data(), Bad.size(), S, nullptr));
  Next = nextBlobOffset(Bad.data(), Bad.size(), S.Size);
  EXPECT_EQ(Next, A.size());
  EXPECT_EQ(errorOf(std::vector<uint8_t>(Bad.begin() + Next, Bad.end())),
            "stack map section is shorter than its 16-byte header");
}

/// Every truncation and random byte corruption of valid sections either
/// parses or is rejected; whatever parses iterates without reading out of
/// bounds. The bytes are copied into an exactly-sized heap buffer so that
/// AddressSanitizer (or a crash) catches reads past the end.
TEST(StackMapTest, FuzzNeverReadsOutOfBounds) {
  std::mt19937 Rng(12345);
  unsigned Parsed = 0, Rejected = 0;
  for (unsigned V : {1u, 2u, 3u}) {
    std::vector<uint8_t> Good = sample(V);
    for (size_t Len = 0; Len <= Good.size(); ++Len) {
      std::vector<uint8_t> Bytes(Good.begin(), Good.begin() + Len);
      for (unsigned Round = 0; Round < 20; ++Round) {
        std::vector<uint8_t> Mut = Bytes;
        if (Round && !Mut.empty())
          for (unsigned K = 0; K < 1 + Rng() % 3; ++K)
            Mut[Rng() % Mut.size()] = static_cast<uint8_t>(Rng());
        uint8_t *Heap = new uint8_t[Mut.size() ? Mut.size() : 1];
        if (!Mut.empty())
          memcpy(Heap, Mut.data(), Mut.size());
        Section S;
        const char *Err = nullptr;
        if (parse(Heap, Mut.size(), S, &Err)) {
          ++Parsed;
          EXPECT_LE(S.Size, Mut.size());
          uint64_t Sum = 0;
          for (uint32_t I = 0; I < S.NumFunctions; ++I)
            Sum += S.function(I).StackSize;
          for (uint32_t I = 0; I < S.NumConstants; ++I)
            Sum += S.constant(I);
          Record R;
          uint32_t N = 0;
          for (RecordIterator It = S.records(); It.next(R); ++N) {
            for (unsigned L = 0; L < R.NumLocations; ++L)
              Sum += R.location(L).Offset;
            for (unsigned L = 0; L < R.NumLiveOuts; ++L)
              Sum += R.liveOut(L).Size;
          }
          EXPECT_EQ(N, S.NumRecords);
          (void)Sum;
        } else {
          ++Rejected;
          EXPECT_NE(Err, nullptr);
        }
        delete[] Heap;
      }
    }
  }
  EXPECT_GT(Parsed, 0u);
  EXPECT_GT(Rejected, 0u);
}

// The runtime's builder (rt/stackmaps) reports a rejected section the way
// the decoders do (DecodeError): why, and at which blob.
pcmap::rt::DecodeError buildError(const std::vector<uint8_t> &Bytes) {
  EXPECT_TRUE(pcmap::rt::arenaInit());
  pcmap::rt::StackMapInput In{};
  In.Section = Bytes.data();
  In.Size = Bytes.size();
  In.Path = "test";
  pcmap::rt::DecodeError E;
  pcmap::rt::ArenaOffset Table =
      pcmap::rt::buildStackMapTable(In, nullptr, nullptr, E);
  pcmap::rt::freeStackMapTable(Table);
  if (Table)
    E.What = "accepted";
  return E;
}

TEST(StackMapTest, RuntimeBuilderSaysWhyAndWhere) {
  std::vector<uint8_t> One = sample(3);
  EXPECT_EQ(buildError(One).What, std::string("accepted"));
  // A second blob with a bad version, at the next multiple of 8.
  std::vector<uint8_t> Two = One;
  Two.resize((One.size() + 7) & ~size_t(7), 0);
  const size_t Second = Two.size();
  Two.insert(Two.end(), One.begin(), One.end());
  Two[Second] = 9;
  pcmap::rt::DecodeError E = buildError(Two);
  ASSERT_NE(E.What, nullptr);
  EXPECT_EQ(std::string(E.What),
            "unsupported stack map version (supported: 1, 2, 3)");
  EXPECT_EQ(E.Offset, Second);
  // Records that no function holds.
  std::vector<uint8_t> Orphans = sample(3);
  // The header's function count (a uint32 after the 4-byte header).
  memset(&Orphans[4], 0, 4);
  E = buildError(Orphans);
  ASSERT_NE(E.What, nullptr);
  EXPECT_EQ(E.Offset, 0u);
}

} // namespace
