//===- RuntimeTest.cpp - The runtime through its registration path
//---------===//
//
// Each test encodes sections by hand (the real format, through Format.h),
// places them in a fake module whose code is a reserved, unmapped address
// range, registers them with the real callbacks and queries the public API.
//
//===----------------------------------------------------------------------===//

#include "pcmap/Format.h"
#include "pcmap/pcmap.h"
#include "pcmap/pcmap_testing.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <random>
#include <sys/mman.h>
#include <vector>

using namespace pcmap::format;

namespace {

/// A fake module: TextSize bytes of reserved address space for PCs, and
/// room for sections.
class FakeModule {
public:
  // Sections and code in one reservation, so that 32-bit relative PCs reach.
  explicit FakeModule(uint64_t TextSize = 1 << 20) : TextSize(TextSize) {
    void *P = mmap(nullptr, kSectionBytes + TextSize, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    EXPECT_NE(P, MAP_FAILED);
    EXPECT_EQ(mprotect(P, kSectionBytes, PROT_READ | PROT_WRITE), 0);
    Sections = static_cast<uint8_t *>(P);
    Text = reinterpret_cast<uintptr_t>(P) + kSectionBytes;
    EXPECT_TRUE(
        __pcmap_testing_add_fake_module(Sections, Sections + kSectionBytes,
                                        Text, Text + TextSize, "fake-module"));
  }
  ~FakeModule() {
    for (auto &[Kind, Version, Begin, End] : Registered)
      callback(Kind, /*Add=*/false, Version, Begin, End);
    __pcmap_testing_remove_fake_module(Sections);
    munmap(Sections, kSectionBytes + TextSize);
  }

  uintptr_t pc(uint64_t Offset) const { return Text + Offset; }

  /// Section builder: bytes are placed at their final address, because
  /// relative PCs depend on it.
  class Section {
  public:
    Section(FakeModule &M, uint32_t Version) : M(M), Version(Version) {
      Begin = M.Sections + M.Used;
      Pos = Begin;
    }
    unsigned width() const { return relativePCSize(Version, sizeof(void *)); }
    Section &pcField(uintptr_t PC) {
      int64_t Rel = int64_t(PC) - int64_t(reinterpret_cast<uintptr_t>(Pos));
      std::memcpy(Pos, &Rel, width()); // little endian: low bytes first
      Pos += width();
      return *this;
    }
    Section &zeroWord() {
      std::memset(Pos, 0, width());
      Pos += width();
      return *this;
    }
    Section &uleb(uint64_t V) {
      do {
        uint8_t B = V & 0x7f;
        V >>= 7;
        *Pos++ = B | (V ? 0x80 : 0);
      } while (V);
      return *this;
    }
    Section &u32(uint32_t V) {
      std::memcpy(Pos, &V, 4);
      Pos += 4;
      return *this;
    }
    Section &bytes(std::initializer_list<uint8_t> B) {
      for (uint8_t X : B)
        *Pos++ = X;
      return *this;
    }
    Section &record(std::initializer_list<uintptr_t> PCs, uint64_t Desc) {
      for (uintptr_t PC : PCs)
        pcField(PC);
      return zeroWord().uleb(Desc);
    }
    Section &function(uintptr_t PC, uint64_t Size, uint64_t Features) {
      return pcField(PC).uleb(Size).uleb(Features);
    }
    /// Registers the section; the module unregisters it at the end.
    /// Kind -1: the bytes are placed, and the test registers them.
    void add(int Kind) {
      M.Used = size_t(Pos - M.Sections);
      if (Kind < 0)
        return;
      M.callback(Kind, true, Version, reinterpret_cast<const char *>(Begin),
                 reinterpret_cast<const char *>(Pos));
      M.Registered.push_back({Kind, Version,
                              reinterpret_cast<const char *>(Begin),
                              reinterpret_cast<const char *>(Pos)});
    }
    const char *begin() const { return reinterpret_cast<const char *>(Begin); }
    const char *end() const { return reinterpret_cast<const char *>(Pos); }

  private:
    FakeModule &M;
    uint32_t Version;
    uint8_t *Begin, *Pos;
  };

  enum Kind { Atomics, Functions, SanmdAtomics, SanmdCovered };
  Section section(uint32_t Version = 1) { return Section(*this, Version); }

  static void callback(int Kind, bool Add, uint32_t Version, const char *B,
                       const char *E) {
    switch (Kind) {
    case Atomics:
      return Add ? __pcmap_atomics_add(Version, B, E)
                 : __pcmap_atomics_del(Version, B, E);
    case Functions:
      return Add ? __pcmap_functions_add(Version, B, E)
                 : __pcmap_functions_del(Version, B, E);
    case SanmdAtomics:
      return Add ? __sanitizer_metadata_atomics_add(Version, B, E)
                 : __sanitizer_metadata_atomics_del(Version, B, E);
    default:
      return Add ? __sanitizer_metadata_covered_add(Version, B, E)
                 : __sanitizer_metadata_covered_del(Version, B, E);
    }
  }

private:
  static constexpr uint64_t kSectionBytes = 1 << 16;
  uint64_t TextSize;
  uintptr_t Text;
  uint8_t *Sections;
  size_t Used = 0;
  struct Reg {
    int Kind;
    uint32_t Version;
    const char *Begin, *End;
  };
  std::vector<Reg> Registered;
};

uint64_t desc(AtomicKind K, uint32_t SizeLog2, AtomicOrder O) {
  AtomicDescriptor D;
  D.Kind = K;
  D.SizeLog2 = SizeLog2;
  D.Order = O;
  return encodeDescriptor(D);
}

pcmap_stats stats() {
  pcmap_stats S;
  pcmap_get_stats(&S);
  return S;
}

class RuntimeTest : public ::testing::Test {
protected:
  void SetUp() override { __pcmap_testing_set_verbosity(0); }
};

TEST_F(RuntimeTest, AnswersYesNoUnknown) {
  FakeModule M;
  M.section().function(M.pc(0x100), 0x40, kFeatureAtomics).add(M.Functions);
  M.section()
      .record({M.pc(0x110)}, desc(AK_Load, 2, AO_Acquire))
      .add(M.Atomics);
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x110)), PCMAP_YES);
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x111)), PCMAP_NO);
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x100)), PCMAP_NO);
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x13f)), PCMAP_NO);
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x140)), PCMAP_UNKNOWN); // past the end
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0xff)), PCMAP_UNKNOWN);
  EXPECT_EQ(pcmap_is_atomic_pc(reinterpret_cast<uintptr_t>(&stats)),
            PCMAP_UNKNOWN);
}

TEST_F(RuntimeTest, FunctionWithoutAtomicsFeatureIsUnknown) {
  FakeModule M;
  M.section().function(M.pc(0x100), 0x40, 0).add(M.Functions);
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x110)), PCMAP_UNKNOWN);
  pcmap_function F;
  ASSERT_TRUE(pcmap_lookup_function(M.pc(0x110), &F));
  EXPECT_EQ(F.features, 0u);
}

TEST_F(RuntimeTest, DescriptorFields) {
  FakeModule M;
  AtomicDescriptor CX;
  CX.Kind = AK_CmpXchg;
  CX.SizeLog2 = 3;
  CX.Order = AO_SeqCst;
  CX.FailureOrder = AO_Acquire;
  CX.Weak = true;
  CX.Volatile = true;
  AtomicDescriptor RMW;
  RMW.Kind = AK_RMW;
  RMW.SizeLog2 = 0;
  RMW.Order = AO_AcqRel;
  RMW.Op = RMW_UMin;
  M.section().function(M.pc(0), 0x100, kFeatureAtomics).add(M.Functions);
  M.section()
      .record({M.pc(0x10)}, encodeDescriptor(CX))
      .record({M.pc(0x20)}, encodeDescriptor(RMW))
      .record({M.pc(0x30)}, desc(AK_Fence, 0, AO_SeqCst))
      .record({M.pc(0x40)}, desc(AK_Store, 4, AO_Release))
      .add(M.Atomics);
  pcmap_atomic A;
  ASSERT_TRUE(pcmap_lookup_atomic(M.pc(0x10), &A));
  EXPECT_EQ(A.pc, M.pc(0x10));
  EXPECT_EQ(A.kind, unsigned(PCMAP_KIND_CMPXCHG));
  EXPECT_EQ(A.size, 8u);
  EXPECT_EQ(A.order, unsigned(PCMAP_ORDER_SEQ_CST));
  EXPECT_EQ(A.failure_order, unsigned(PCMAP_ORDER_ACQUIRE));
  EXPECT_EQ(A.flags, PCMAP_ATOMIC_WEAK | PCMAP_ATOMIC_VOLATILE);
  ASSERT_TRUE(A.has_function);
  EXPECT_EQ(A.function.start, M.pc(0));
  EXPECT_EQ(A.function.num_atomics, 4u);
  ASSERT_TRUE(pcmap_lookup_atomic(M.pc(0x20), &A));
  EXPECT_EQ(A.kind, unsigned(PCMAP_KIND_RMW));
  EXPECT_EQ(A.size, 1u);
  EXPECT_EQ(A.rmw_op, unsigned(PCMAP_RMW_UMIN));
  EXPECT_EQ(A.order, unsigned(PCMAP_ORDER_ACQ_REL));
  ASSERT_TRUE(pcmap_lookup_atomic(M.pc(0x30), &A));
  EXPECT_EQ(A.kind, unsigned(PCMAP_KIND_FENCE));
  EXPECT_EQ(A.size, 0u);
  ASSERT_TRUE(pcmap_lookup_atomic(M.pc(0x40), &A));
  EXPECT_EQ(A.kind, unsigned(PCMAP_KIND_STORE));
  EXPECT_EQ(A.size, 16u);
  EXPECT_FALSE(pcmap_lookup_atomic(M.pc(0x41), &A));
}

TEST_F(RuntimeTest, RecordsWithSeveralPCsAndDuplicates) {
  FakeModule M;
  M.section().function(M.pc(0), 0x100, kFeatureAtomics).add(M.Functions);
  uint64_t Nand = desc(AK_RMW, 2, AO_SeqCst) | (uint64_t(RMW_Nand) << 11);
  // An expanded loop: five PCs; one listed twice (a zero-size instruction).
  M.section()
      .record({M.pc(0x10), M.pc(0x13), M.pc(0x15), M.pc(0x15), M.pc(0x17),
               M.pc(0x1c)},
              Nand)
      .add(M.Atomics);
  for (uint64_t O : {0x10, 0x13, 0x15, 0x17, 0x1c}) {
    pcmap_atomic A;
    ASSERT_TRUE(pcmap_lookup_atomic(M.pc(O), &A)) << O;
    EXPECT_EQ(A.rmw_op, unsigned(PCMAP_RMW_NAND));
  }
  pcmap_function F;
  ASSERT_TRUE(pcmap_lookup_function(M.pc(0x10), &F));
  EXPECT_EQ(F.num_atomics, 5u);
}

// Sections long enough for the decoder's bulk path (which reads 16 bytes of
// words at a time): records of 1 to 9 PCs and descriptors of 1 to 3 bytes,
// at both PC widths, decode as they do one entry at a time.
TEST_F(RuntimeTest, LongSectionsDecodeRecordByRecord) {
  const uint64_t Descs[] = {desc(AK_Load, 0, AO_Relaxed), // 1 byte
                            desc(AK_Store, 3, AO_SeqCst), // 2 bytes
                            desc(AK_RMW, 2, AO_AcqRel) |
                                (uint64_t(RMW_FMinimum) << 11)}; // 3 bytes
  for (uint32_t Version : {1u, 1u | kVersionPtrSizeRel}) {
    FakeModule M;
    M.section(Version)
        .function(M.pc(0), 0x10000, kFeatureAtomics)
        .add(M.Functions);
    auto S = M.section(Version);
    std::vector<std::pair<uint64_t, uint64_t>> Expected; // offset, descriptor
    uint64_t Offset = 0x10;
    for (unsigned R = 0; R < 300; ++R) {
      unsigned NumPCs = 1 + (R * 7) % 9;
      uint64_t D = Descs[(R * 5) % 3];
      std::vector<uintptr_t> PCs;
      for (unsigned I = 0; I < NumPCs; ++I, Offset += 3) {
        PCs.push_back(M.pc(Offset));
        Expected.push_back({Offset, D});
      }
      for (uintptr_t PC : PCs)
        S.pcField(PC);
      S.zeroWord().uleb(D);
    }
    S.add(M.Atomics);
    ASSERT_EQ(stats().atomics, Expected.size()) << Version;
    for (auto [O, D] : Expected) {
      pcmap_atomic A;
      ASSERT_TRUE(pcmap_lookup_atomic(M.pc(O), &A)) << O;
      AtomicDescriptor Want;
      ASSERT_TRUE(decodeDescriptor(D, Want));
      EXPECT_EQ(A.kind, unsigned(Want.Kind)) << O;
      EXPECT_EQ(A.order, unsigned(Want.Order)) << O;
      EXPECT_EQ(pcmap_is_atomic_pc(M.pc(O + 1)), PCMAP_NO) << O;
    }
  }
}

// A bad PC, or a descriptor too long, deep inside a long section (where the
// bulk path decodes) is found there too, and rejects the whole section.
TEST_F(RuntimeTest, LongSectionsAreCheckedThroughout) {
  for (uint32_t Version : {1u, 1u | kVersionPtrSizeRel}) {
    for (unsigned Bad = 0; Bad < 4; ++Bad) {
      FakeModule M(1 << 16);
      M.section(Version)
          .function(M.pc(0), 0x8000, kFeatureAtomics)
          .add(M.Functions);
      pcmap_stats Before = stats();
      auto S = M.section(Version);
      for (unsigned R = 0; R < 100; ++R) {
        if (R == 77) {
          if (Bad == 0) // one byte past the code
            S.record({M.pc(0x100), M.pc(1 << 16)}, 272);
          else if (Bad == 1) // one byte before it
            S.record({M.pc(0x100), M.pc(0) - 1, M.pc(0x104)}, 272);
          else if (Bad == 2) // a descriptor of four bytes
            S.record({M.pc(0x100)}, uint64_t(1) << 21);
          else // a record without PCs
            S.zeroWord().uleb(272);
          continue;
        }
        S.record({M.pc(8 * R), M.pc(8 * R + 2)}, 272);
      }
      S.add(M.Atomics);
      pcmap_stats After = stats();
      EXPECT_EQ(After.sections_rejected, Before.sections_rejected + 1)
          << Version << " " << Bad;
      EXPECT_EQ(After.atomics, Before.atomics) << Version << " " << Bad;
    }
  }
}

TEST_F(RuntimeTest, UnsortedInput) {
  FakeModule M;
  auto Functions = M.section();
  // Functions and records in reverse and interleaved order, as
  // -ffunction-sections and .text.hot / .text.unlikely reordering produce.
  for (int I = 199; I >= 0; --I)
    Functions.function(M.pc(I * 0x100), 0x80, kFeatureAtomics);
  Functions.add(M.Functions);
  auto Atomics = M.section();
  for (int I = 0; I < 200; ++I) {
    int J = (I * 73) % 200;
    Atomics.record({M.pc(J * 0x100 + 0x40), M.pc(J * 0x100 + 0x10)},
                   desc(AK_Load, 3, AO_Relaxed));
  }
  Atomics.add(M.Atomics);
  for (int I = 0; I < 200; ++I) {
    EXPECT_EQ(pcmap_is_atomic_pc(M.pc(I * 0x100 + 0x10)), PCMAP_YES);
    EXPECT_EQ(pcmap_is_atomic_pc(M.pc(I * 0x100 + 0x40)), PCMAP_YES);
    EXPECT_EQ(pcmap_is_atomic_pc(M.pc(I * 0x100 + 0x20)), PCMAP_NO);
    EXPECT_EQ(pcmap_is_atomic_pc(M.pc(I * 0x100 + 0x90)), PCMAP_UNKNOWN);
    pcmap_function F;
    ASSERT_TRUE(pcmap_lookup_function(M.pc(I * 0x100 + 0x7f), &F));
    EXPECT_EQ(F.start, M.pc(I * 0x100));
    EXPECT_EQ(F.num_atomics, 2u);
  }
}

TEST_F(RuntimeTest, FunctionsAndGapsOfManyStretches) {
  // Functions and gaps of 1 to 20 stretches (256 B) and of odd sizes, on
  // both sides of the run of stretches the index build fills without a
  // loop; every byte answers from the right function, or from none.
  const uint64_t Size = 1 << 18;
  FakeModule M(Size);
  struct Span {
    uint64_t Start, End;
  };
  std::vector<Span> Functions;
  uint64_t At = 0x40;
  for (unsigned I = 0; At < Size - 0x3000; ++I) {
    uint64_t Length = 256 * (1 + I % 20) + (I % 3 ? 0 : 0x31);
    Functions.push_back({At, At + Length});
    At += Length + (I % 4 == 0 ? 0 : 256 * (I % 13) + (I % 5 ? 0 : 7));
  }
  auto F = M.section();
  for (const Span &S : Functions)
    F.function(M.pc(S.Start), S.End - S.Start, kFeatureAtomics);
  F.add(M.Functions);
  auto A = M.section();
  for (const Span &S : Functions)
    A.record({M.pc(S.Start), M.pc(S.End - 1)}, desc(AK_Store, 2, AO_Release));
  A.add(M.Atomics);
  size_t Next = 0;
  for (uint64_t O = 0; O < Size; ++O) {
    while (Next < Functions.size() && Functions[Next].End <= O)
      ++Next;
    bool In = Next < Functions.size() && Functions[Next].Start <= O;
    int Expected = !In ? PCMAP_UNKNOWN
                   : O == Functions[Next].Start || O == Functions[Next].End - 1
                       ? PCMAP_YES
                       : PCMAP_NO;
    ASSERT_EQ(pcmap_is_atomic_pc(M.pc(O)), Expected) << "offset " << O;
    // No stretch here has more than three segments: all are described.
    ASSERT_EQ(__pcmap_testing_stretch_described(M.pc(O)), 1) << "offset " << O;
    pcmap_function Fn;
    ASSERT_EQ(pcmap_lookup_function(M.pc(O), &Fn), In ? 1 : 0)
        << "offset " << O;
    if (In) {
      ASSERT_EQ(Fn.start, M.pc(Functions[Next].Start)) << "offset " << O;
      ASSERT_EQ(Fn.num_atomics, 2u) << "offset " << O;
    }
  }
}

TEST_F(RuntimeTest, IndexBoundaries) {
  // Atomics on both sides of every sub-bucket (256 B) and bucket (4 KiB)
  // edge, and on the first and last byte of the module and the function.
  const uint64_t Size = 3 * 4096;
  FakeModule M(Size);
  M.section().function(M.pc(0), Size, kFeatureAtomics).add(M.Functions);
  std::vector<uint64_t> Offsets = {0,    1,    255,  256,  257,  4094,
                                   4095, 4096, 4097, 8191, 8192, Size - 1};
  auto S = M.section();
  for (uint64_t O : Offsets)
    S.record({M.pc(O)}, desc(AK_Load, 0, AO_Relaxed));
  S.add(M.Atomics);
  for (uint64_t O = 0; O < Size; ++O) {
    bool Expected =
        std::find(Offsets.begin(), Offsets.end(), O) != Offsets.end();
    ASSERT_EQ(pcmap_is_atomic_pc(M.pc(O)), Expected ? PCMAP_YES : PCMAP_NO)
        << "offset " << O;
  }
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(Size)), PCMAP_UNKNOWN);
}

TEST_F(RuntimeTest, EveryByteAgreesWithAModelOfTheLayout) {
  // Short functions (several to a 256-byte stretch, some of no bytes, some
  // not complete for atomics, a few starting inside the one before),
  // padding and gaps between them, atomics dense
  // enough that some stretches hold more than a window of them, and some
  // outside any function: every query at every byte must agree with a
  // plain model, whether the stretch's index entry describes it or the
  // query has to search.
  struct Fn {
    uint64_t Start, Size;
    bool Complete;
  };
  for (unsigned Seed = 1; Seed <= 4; ++Seed) {
    std::mt19937 Rng(Seed);
    auto Uniform = [&](uint64_t Lo, uint64_t Hi) {
      return std::uniform_int_distribution<uint64_t>(Lo, Hi)(Rng);
    };
    const uint64_t Size = 1 << 15;
    std::vector<Fn> Fns;
    std::vector<uint64_t> Atomics;
    for (uint64_t Cursor = Uniform(0, 40); Cursor + 1000 < Size;) {
      if (Uniform(0, 15) == 0) { // a function of no bytes
        Fns.push_back({Cursor, 0, true});
        Cursor += Uniform(1, 8);
        continue;
      }
      if (!Fns.empty() && Fns.back().Size > 2 && Uniform(0, 19) == 0) {
        // Inside the function before (a malformed section, or symbols
        // that overlap): of no bytes, or reaching beyond its end. From its
        // start on, it is the function a PC is in, if any.
        const Fn &Before = Fns.back();
        uint64_t Start = Before.Start + Uniform(1, Before.Size - 1);
        uint64_t FSize = Uniform(0, 1) ? 0 : Uniform(1, 300);
        Fns.push_back({Start, FSize, Uniform(0, 1) != 0});
        Cursor = std::max(Cursor, Start + FSize) + Uniform(1, 8);
        continue;
      }
      // Mostly short; now and then one that spans stretches.
      uint64_t FSize = Uniform(0, 7) ? Uniform(1, 120) : Uniform(200, 900);
      Fns.push_back({Cursor, FSize, Uniform(0, 4) != 0});
      // Dense atomics in some functions, none in others.
      uint64_t Density = Uniform(0, 3) == 0 ? 2 : 16;
      for (uint64_t O = 0; O < FSize; ++O)
        if (Uniform(0, Density - 1) == 0)
          Atomics.push_back(Cursor + O);
      Cursor += FSize + (Uniform(0, 2) ? Uniform(0, 24) : 0);
      if (Uniform(0, 9) == 0) // an atomic between functions
        Atomics.push_back(Cursor++);
    }
    std::sort(Atomics.begin(), Atomics.end());
    Atomics.erase(std::unique(Atomics.begin(), Atomics.end()), Atomics.end());

    FakeModule M(Size);
    auto F = M.section();
    for (const Fn &X : Fns)
      F.function(M.pc(X.Start), X.Size, X.Complete ? kFeatureAtomics : 0);
    F.add(M.Functions);
    auto A = M.section();
    const uint64_t Desc = desc(AK_Store, 2, AO_Release);
    for (uint64_t O : Atomics)
      A.record({M.pc(O)}, Desc);
    A.add(M.Atomics);

    size_t NextFn = 0;
    for (uint64_t O = 0; O < Size; ++O) {
      while (NextFn < Fns.size() && Fns[NextFn].Start <= O)
        ++NextFn;
      // The last function starting at or before O holds it, if it
      // reaches it.
      const Fn *Holder = nullptr;
      if (NextFn && O < Fns[NextFn - 1].Start + Fns[NextFn - 1].Size)
        Holder = &Fns[NextFn - 1];
      bool IsAtomic = std::binary_search(Atomics.begin(), Atomics.end(), O);
      int Want = IsAtomic                     ? PCMAP_YES
                 : Holder && Holder->Complete ? PCMAP_NO
                                              : PCMAP_UNKNOWN;
      ASSERT_EQ(pcmap_is_atomic_pc(M.pc(O)), Want)
          << "seed " << Seed << " offset " << O;
      pcmap_function Fn;
      ASSERT_EQ(pcmap_lookup_function(M.pc(O), &Fn), Holder ? 1 : 0)
          << "seed " << Seed << " offset " << O;
      if (Holder) {
        ASSERT_EQ(Fn.start, M.pc(Holder->Start)) << "offset " << O;
        ASSERT_EQ(Fn.size, Holder->Size) << "offset " << O;
      }
      pcmap_atomic At;
      ASSERT_EQ(pcmap_lookup_atomic(M.pc(O), &At), IsAtomic ? 1 : 0)
          << "seed " << Seed << " offset " << O;
      if (IsAtomic) {
        ASSERT_EQ(At.pc, M.pc(O));
        ASSERT_EQ(At.has_function, Holder ? 1 : 0) << "offset " << O;
      }
    }
  }
}

TEST_F(RuntimeTest, AtomicBefore) {
  FakeModule M;
  M.section()
      .function(M.pc(0x100), 0x20, kFeatureAtomics)
      .function(M.pc(0x120), 0x20, kFeatureAtomics)
      .add(M.Functions);
  M.section()
      .record({M.pc(0x104)}, desc(AK_Store, 2, AO_Release))
      .record({M.pc(0x11c)}, desc(AK_Load, 2, AO_Acquire))
      .add(M.Atomics);
  pcmap_atomic A;
  // A watchpoint reports the PC after the store (0x104, 3 bytes long).
  ASSERT_TRUE(pcmap_lookup_atomic_before(M.pc(0x107), 15, &A));
  EXPECT_EQ(A.pc, M.pc(0x104));
  EXPECT_EQ(A.kind, unsigned(PCMAP_KIND_STORE));
  // Strictly before pc; within max_bytes.
  EXPECT_FALSE(pcmap_lookup_atomic_before(M.pc(0x104), 15, &A));
  EXPECT_FALSE(pcmap_lookup_atomic_before(M.pc(0x110), 4, &A));
  ASSERT_TRUE(pcmap_lookup_atomic_before(M.pc(0x110), 12, &A));
  // The load ends exactly at the function's end: PC 0x120 is the next
  // function, but PC - 1 is in the load's function.
  ASSERT_TRUE(pcmap_lookup_atomic_before(M.pc(0x120), 15, &A));
  EXPECT_EQ(A.pc, M.pc(0x11c));
  // Not across functions: 0x124's function starts at 0x120.
  EXPECT_FALSE(pcmap_lookup_atomic_before(M.pc(0x124), 15, &A));
}

TEST_F(RuntimeTest, PointerSizedPCs) {
  FakeModule M;
  M.section(1 | kVersionPtrSizeRel)
      .function(M.pc(0x200), 0x10, kFeatureAtomics)
      .add(M.Functions);
  M.section(1 | kVersionPtrSizeRel)
      .record({M.pc(0x204)}, desc(AK_Load, 3, AO_SeqCst))
      .add(M.Atomics);
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x204)), PCMAP_YES);
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x205)), PCMAP_NO);
}

TEST_F(RuntimeTest, MixedCodeModelsAndSourcesInOneModule) {
  FakeModule M;
  M.section().function(M.pc(0x100), 0x10, kFeatureAtomics).add(M.Functions);
  M.section()
      .record({M.pc(0x104)}, desc(AK_Load, 2, AO_Acquire))
      .add(M.Atomics);
  M.section(1 | kVersionPtrSizeRel)
      .function(M.pc(0x200), 0x10, kFeatureAtomics)
      .add(M.Functions);
  M.section(1 | kVersionPtrSizeRel)
      .record({M.pc(0x208)}, desc(AK_Store, 2, AO_Release))
      .add(M.Atomics);
  // Upstream covers the first function too, and lists the same atomic.
  M.section(2).pcField(M.pc(0x100)).uleb(0x10).uleb(1).add(M.SanmdCovered);
  M.section(2).pcField(M.pc(0x104)).add(M.SanmdAtomics);
  pcmap_atomic A;
  ASSERT_TRUE(pcmap_lookup_atomic(M.pc(0x104), &A));
  EXPECT_EQ(A.kind, unsigned(PCMAP_KIND_LOAD)); // pcmap's descriptor wins
  ASSERT_TRUE(pcmap_lookup_atomic(M.pc(0x208), &A));
  EXPECT_EQ(A.kind, unsigned(PCMAP_KIND_STORE));
  pcmap_function F;
  ASSERT_TRUE(pcmap_lookup_function(M.pc(0x100), &F));
  EXPECT_EQ(F.source, PCMAP_SOURCE_PCMAP | PCMAP_SOURCE_UPSTREAM);
  EXPECT_EQ(F.num_atomics, 1u);
}

TEST_F(RuntimeTest, UpstreamV2WithAndWithoutUARSize) {
  FakeModule M;
  M.section(2)
      .pcField(M.pc(0x100))
      .uleb(0x20)
      .uleb(1) // atomics
      .pcField(M.pc(0x200))
      .uleb(0x20)
      .uleb(2) // UAR, no size
      .pcField(M.pc(0x300))
      .uleb(0x20)
      .uleb(6)
      .uleb(144) // UAR + size
      .add(M.SanmdCovered);
  M.section(2).pcField(M.pc(0x108)).add(M.SanmdAtomics);
  pcmap_function F;
  ASSERT_TRUE(pcmap_lookup_function(M.pc(0x100), &F));
  EXPECT_EQ(F.source, PCMAP_SOURCE_UPSTREAM);
  EXPECT_EQ(F.upstream_features, 1u);
  EXPECT_EQ(F.features, PCMAP_FEATURE_ATOMICS);
  ASSERT_TRUE(pcmap_lookup_function(M.pc(0x300), &F));
  EXPECT_EQ(F.upstream_features, 6u);
  EXPECT_EQ(F.upstream_stack_args, 144u);
  EXPECT_EQ(F.features, 0u);
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x108)), PCMAP_YES);
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x109)), PCMAP_NO);
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x208)), PCMAP_UNKNOWN); // not complete
  pcmap_atomic A;
  ASSERT_TRUE(pcmap_lookup_atomic(M.pc(0x108), &A));
  EXPECT_EQ(A.kind, unsigned(PCMAP_KIND_UNKNOWN));
  EXPECT_EQ(A.flags, PCMAP_ATOMIC_UPSTREAM);
}

TEST_F(RuntimeTest, UpstreamV1) {
  FakeModule M;
  // Version 1: 32-bit size and features; stack args iff features & 2.
  M.section(1)
      .pcField(M.pc(0x100))
      .u32(0x20)
      .u32(3)
      .u32(16)
      .add(M.SanmdCovered);
  M.section(1 | kVersionPtrSizeRel)
      .pcField(M.pc(0x200))
      .u32(0x20)
      .u32(1)
      .add(M.SanmdCovered);
  pcmap_function F;
  ASSERT_TRUE(pcmap_lookup_function(M.pc(0x110), &F));
  EXPECT_EQ(F.upstream_features, 3u);
  EXPECT_EQ(F.upstream_stack_args, 16u);
  ASSERT_TRUE(pcmap_lookup_function(M.pc(0x210), &F));
  EXPECT_EQ(F.size, 0x20u);
}

// Found by fuzzing (the runtime rejected what pcmap-report accepted): feature
// bits above 31 are reserved, and readers ignore the bits they do not know.
TEST_F(RuntimeTest, HighFeatureBitsAreIgnored) {
  FakeModule M;
  pcmap_stats Before = stats();
  M.section()
      .function(M.pc(0x100), 0x10, kFeatureAtomics | (uint64_t(1) << 40))
      .function(M.pc(0x200), 0x10, ~uint64_t(0))
      .add(M.Functions);
  M.section(2)
      .pcField(M.pc(0x300))
      .uleb(0x20)
      .uleb(1 | (uint64_t(1) << 63))
      .add(M.SanmdCovered);
  pcmap_function F;
  ASSERT_TRUE(pcmap_lookup_function(M.pc(0x100), &F));
  EXPECT_EQ(F.features, PCMAP_FEATURE_ATOMICS);
  ASSERT_TRUE(pcmap_lookup_function(M.pc(0x200), &F));
  EXPECT_EQ(F.size, 0x10u);
  ASSERT_TRUE(pcmap_lookup_function(M.pc(0x300), &F));
  EXPECT_EQ(F.upstream_features, 1u);
  EXPECT_EQ(stats().sections_rejected, Before.sections_rejected);
}

// A module's constructor registers both its sections in one call: the
// module's table is built (and published) once, not once per section.
TEST_F(RuntimeTest, BothSectionsInOneCallBuildTheTableOnce) {
  FakeModule M;
  auto Functions = M.section();
  Functions.function(M.pc(0x100), 0x40, kFeatureAtomics);
  auto FB = Functions.begin(), FE = Functions.end();
  Functions.add(-1); // placed, not registered
  auto Atomics = M.section();
  Atomics.record({M.pc(0x104)}, desc(AK_Load, 2, AO_Acquire));
  auto AB = Atomics.begin(), AE = Atomics.end();
  Atomics.add(-1);

  pcmap_stats Before = stats();
  __pcmap_sections_add(1, AB, AE, FB, FE);
  pcmap_stats After = stats();
  EXPECT_EQ(After.generation, Before.generation + 1);
  EXPECT_EQ(After.atomics, Before.atomics + 1);
  EXPECT_EQ(After.functions, Before.functions + 1);
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x104)), PCMAP_YES);
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x108)), PCMAP_NO);
  // Again: counts once, and changes nothing.
  __pcmap_sections_add(1, AB, AE, FB, FE);
  EXPECT_EQ(stats().generation, After.generation);

  __pcmap_sections_del(1, AB, AE, FB, FE);
  pcmap_stats Gone = stats();
  EXPECT_EQ(Gone.generation, After.generation + 1);
  EXPECT_EQ(Gone.atomics, Before.atomics);
  EXPECT_EQ(Gone.modules, Before.modules);
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x104)), PCMAP_UNKNOWN);

  // A module with one of the two sections passes null for the other.
  __pcmap_sections_add(1, nullptr, nullptr, FB, FE);
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x108)), PCMAP_NO);
  __pcmap_sections_del(1, nullptr, nullptr, FB, FE);
  __pcmap_sections_add(1, AB, AE, nullptr, nullptr);
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x104)), PCMAP_YES);
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x108)), PCMAP_UNKNOWN);
  __pcmap_sections_del(1, AB, AE, nullptr, nullptr);
  EXPECT_EQ(stats().modules, Before.modules);
}

TEST_F(RuntimeTest, SameSectionTwiceCountsOnce) {
  FakeModule M;
  auto S = M.section();
  S.function(M.pc(0x100), 0x10, kFeatureAtomics).add(M.Functions);
  pcmap_stats Before = stats();
  __pcmap_functions_add(1, S.begin(), S.end());
  pcmap_stats After = stats();
  EXPECT_EQ(After.sections, Before.sections);
  EXPECT_EQ(After.functions, Before.functions);
  EXPECT_EQ(After.generation, Before.generation);
}

TEST_F(RuntimeTest, EmptyAndInvertedRangesAreIgnored) {
  pcmap_stats Before = stats();
  __pcmap_atomics_add(1, nullptr, nullptr);
  char X[4];
  __pcmap_atomics_add(1, X + 4, X);
  __pcmap_functions_add(1, X, X);
  __pcmap_atomics_del(1, nullptr, nullptr);
  pcmap_stats After = stats();
  EXPECT_EQ(After.sections, Before.sections);
  EXPECT_EQ(After.sections_rejected, Before.sections_rejected);
}

struct BadSection {
  const char *Name;
  void (*Build)(FakeModule &, FakeModule::Section &);
  int Kind;
  uint32_t Version;
};

class RejectionTest : public RuntimeTest,
                      public ::testing::WithParamInterface<BadSection> {};

TEST_P(RejectionTest, RejectsWholeSection) {
  FakeModule M;
  M.section().function(M.pc(0x100), 0x40, kFeatureAtomics).add(M.Functions);
  pcmap_stats Before = stats();
  auto S = M.section(GetParam().Version);
  GetParam().Build(M, S);
  S.add(GetParam().Kind);
  pcmap_stats After = stats();
  EXPECT_EQ(After.sections_rejected, Before.sections_rejected + 1);
  EXPECT_EQ(After.atomics, Before.atomics);
  EXPECT_EQ(After.sections, Before.sections);
  // Nothing of it is used, not even its valid first entries; and once a
  // pcmap atomics section of the module is lost, its functions may lack
  // atomics, so none of them answers "not atomic" any more.
  int Expected =
      GetParam().Kind == FakeModule::Atomics ? PCMAP_UNKNOWN : PCMAP_NO;
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x104)), Expected);
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x108)), Expected);
}

const BadSection BadSections[] = {
    {"TruncatedPC",
     [](FakeModule &M, FakeModule::Section &S) {
       S.record({M.pc(0x104)}, 272).bytes({1, 2});
     },
     FakeModule::Atomics, 1},
    {"TruncatedDescriptor",
     [](FakeModule &M, FakeModule::Section &S) {
       S.record({M.pc(0x104)}, 272)
           .pcField(M.pc(0x108))
           .zeroWord()
           .bytes({0x90});
     },
     FakeModule::Atomics, 1},
    {"OverlongULEB",
     [](FakeModule &M, FakeModule::Section &S) {
       S.record({M.pc(0x104)}, 272)
           .pcField(M.pc(0x108))
           .zeroWord()
           .bytes({0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                   0x01});
     },
     FakeModule::Atomics, 1},
    {"InvalidKind",
     [](FakeModule &M, FakeModule::Section &S) {
       S.record({M.pc(0x104)}, 272).record({M.pc(0x108)}, 7);
     },
     FakeModule::Atomics, 1},
    {"RecordWithoutPCs",
     [](FakeModule &M, FakeModule::Section &S) {
       S.record({M.pc(0x104)}, 272).zeroWord().uleb(272);
     },
     FakeModule::Atomics, 1},
    {"PCOutsideModule",
     [](FakeModule &M, FakeModule::Section &S) {
       S.record({M.pc(0x104)}, 272).record({M.pc(0) - 16}, 272);
     },
     FakeModule::Atomics, 1},
    {"UnknownVersion",
     [](FakeModule &M, FakeModule::Section &S) {
       S.record({M.pc(0x104)}, 272);
     },
     FakeModule::Atomics, 2},
    {"FunctionOverrunsModule",
     [](FakeModule &M, FakeModule::Section &S) {
       S.function(M.pc(0x1000), 1 << 30, 1);
     },
     FakeModule::Functions, 1},
    {"UpstreamZeroPC",
     [](FakeModule &M, FakeModule::Section &S) {
       S.pcField(M.pc(0x104)).zeroWord();
     },
     FakeModule::SanmdAtomics, 2},
    {"UpstreamUnknownVersion",
     [](FakeModule &M, FakeModule::Section &S) {
       S.pcField(M.pc(0x100)).uleb(0x10).uleb(0);
     },
     FakeModule::SanmdCovered, 3},
};

INSTANTIATE_TEST_SUITE_P(Malformed, RejectionTest,
                         ::testing::ValuesIn(BadSections),
                         [](const ::testing::TestParamInfo<BadSection> &I) {
                           return I.param.Name;
                         });

TEST_F(RuntimeTest, FunctionWithAtomicsIsCompleteOnlyWithItsAtomics) {
  // Constructors register functions and atomics one after the other: in
  // between, a function that has atomics must not answer "not atomic".
  FakeModule M;
  M.section()
      .function(M.pc(0x100), 0x40, kFeatureAtomics | kFeatureHasAtomics)
      .function(M.pc(0x200), 0x40, kFeatureAtomics)
      .add(M.Functions);
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x110)), PCMAP_UNKNOWN);
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x210)), PCMAP_NO); // has no atomics
  pcmap_function F;
  ASSERT_TRUE(pcmap_lookup_function(M.pc(0x110), &F));
  EXPECT_EQ(F.features, unsigned(kFeatureHasAtomics));
  M.section().record({M.pc(0x110)}, 272).add(M.Atomics);
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x110)), PCMAP_YES);
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x111)), PCMAP_NO);
  ASSERT_TRUE(pcmap_lookup_function(M.pc(0x110), &F));
  EXPECT_EQ(F.features, unsigned(kFeatureAtomics | kFeatureHasAtomics));
}

TEST_F(RuntimeTest, UpstreamCompletenessNeedsUpstreamAtomics) {
  FakeModule M;
  M.section(2).pcField(M.pc(0x100)).uleb(0x20).uleb(1).add(M.SanmdCovered);
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x108)), PCMAP_UNKNOWN);
  M.section(2).pcField(M.pc(0x104)).add(M.SanmdAtomics);
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x104)), PCMAP_YES);
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x108)), PCMAP_NO);
}

TEST_F(RuntimeTest, RejectedSectionIsRememberedUntilRemoved) {
  pcmap_stats Before = stats();
  {
    FakeModule M;
    M.section().function(M.pc(0x100), 0x40, kFeatureAtomics).add(M.Functions);
    auto Bad = M.section();
    Bad.record({M.pc(0x104)}, 7); // invalid kind
    Bad.add(M.Atomics);
    EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x108)), PCMAP_UNKNOWN);
    // Registered again: recognised, not counted twice.
    __pcmap_atomics_add(1, Bad.begin(), Bad.end());
    EXPECT_EQ(stats().sections_rejected, Before.sections_rejected + 1);
  }
  pcmap_stats After = stats();
  EXPECT_EQ(After.modules, Before.modules);
  EXPECT_EQ(After.sections, Before.sections);
}

TEST_F(RuntimeTest, RemovingSectionsRemovesTheirEntries) {
  pcmap_stats Before = stats();
  uintptr_t PC;
  {
    FakeModule M;
    M.section().function(M.pc(0x100), 0x40, kFeatureAtomics).add(M.Functions);
    M.section().record({M.pc(0x104)}, 272).add(M.Atomics);
    PC = M.pc(0x104);
    EXPECT_EQ(pcmap_is_atomic_pc(PC), PCMAP_YES);
    EXPECT_EQ(stats().modules, Before.modules + 1);
  } // unregisters both sections
  EXPECT_EQ(pcmap_is_atomic_pc(PC), PCMAP_UNKNOWN);
  pcmap_stats After = stats();
  EXPECT_EQ(After.modules, Before.modules);
  EXPECT_EQ(After.atomics, Before.atomics);
  EXPECT_EQ(After.table_bytes, Before.table_bytes);
}

TEST_F(RuntimeTest, IterationOverModulesAndFunctions) {
  FakeModule M;
  M.section()
      .function(M.pc(0x300), 0x10, kFeatureAtomics)
      .function(M.pc(0x100), 0x10, kFeatureAtomics)
      .add(M.Functions);
  bool Found = false;
  pcmap_module Mod;
  for (size_t I = 0; pcmap_module_at(I, &Mod); ++I) {
    if (std::strcmp(Mod.path, "fake-module"))
      continue;
    Found = true;
    EXPECT_EQ(Mod.num_functions, 2u);
    pcmap_function F;
    ASSERT_TRUE(pcmap_function_at(Mod.text_start, 0, &F));
    EXPECT_EQ(F.start, M.pc(0x100));
    ASSERT_TRUE(pcmap_function_at(Mod.text_start, 1, &F));
    EXPECT_EQ(F.start, M.pc(0x300));
    EXPECT_FALSE(pcmap_function_at(Mod.text_start, 2, &F));
  }
  EXPECT_TRUE(Found);
}

TEST_F(RuntimeTest, MemoryIsReusedAcrossRegistrations) {
  // Registering and removing the same tables over and over must not grow
  // the table memory.
  size_t FirstBytes = 0;
  for (int Round = 0; Round < 50; ++Round) {
    FakeModule M(1 << 22);
    auto F = M.section();
    auto A = M.section();
    for (int I = 0; I < 500; ++I)
      F.function(M.pc(I * 0x1000), 0x800, kFeatureAtomics);
    F.add(M.Functions);
    for (int I = 0; I < 500; ++I)
      A.record({M.pc(I * 0x1000 + 8)}, 272);
    A.add(M.Atomics);
    size_t Bytes = stats().table_bytes;
    if (Round == 0)
      FirstBytes = Bytes;
    EXPECT_EQ(Bytes, FirstBytes);
  }
}

} // namespace
