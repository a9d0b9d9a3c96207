//===- QueryTest.cpp - What the runtime answers about registered tables ---===//
//
// The public queries of pcmap.h (pcmap_is_atomic_pc, pcmap_lookup_atomic,
// pcmap_lookup_atomic_before, pcmap_lookup_function, pcmap_module_at,
// pcmap_function_at) over sections that were accepted: every answer (yes,
// no, unknown), every descriptor field as decoded, functions and their
// counts, upstream (sanmd) entries, both relative-PC widths, and the index
// (every byte of dense, sparse, unsorted and overlapping layouts agrees with
// a plain model, from the answer map and from the index). Which sections are
// accepted, rejected or removed is RegistrationTest.cpp's; test/rt/c-api.c asks
// the same from C.
//
//===----------------------------------------------------------------------===//

#include "FakeModule.h"

#include "core/options.h"

#include <algorithm>
#include <iterator>
#include <random>

using namespace pcmap_test;

namespace {

class QueryTest : public RuntimeTest {};

/// The sample module's sections (FakeModule.h), registered functions first,
/// with 4-byte and with pointer-sized relative PCs.
class SampleModuleTest : public QueryTest,
                         public ::testing::WithParamInterface<uint32_t> {
protected:
  void SetUp() override {
    QueryTest::SetUp();
    M.add(Sample.Functions);
    M.add(Sample.Atomics);
  }
  void TearDown() override {
    M.del(Sample.Atomics);
    M.del(Sample.Functions);
    QueryTest::TearDown();
  }
  uintptr_t pc(uint64_t Offset) const { return M.pc(Offset); }
  static constexpr uint64_t F1 = SampleModule::F1, F2 = SampleModule::F2,
                            F3 = SampleModule::F3;
  FakeModule M;
  SampleModule Sample{M, GetParam()};
};

TEST_P(SampleModuleTest, Answers) {
  // Atomics: yes (atomicAt checks it of each, in Descriptors). Other PCs of
  // complete functions: no.
  EXPECT_EQ(pcmap_is_atomic_pc(pc(F1)), PCMAP_NO);
  EXPECT_EQ(pcmap_is_atomic_pc(pc(0x111)), PCMAP_NO); // inside the load
  EXPECT_EQ(pcmap_is_atomic_pc(pc(0x114)), PCMAP_NO);
  EXPECT_EQ(pcmap_is_atomic_pc(pc(F1 + 0x3f)), PCMAP_NO); // last byte
  EXPECT_EQ(pcmap_is_atomic_pc(pc(F2 + 1)), PCMAP_NO);
  // The function without the atomics feature: its atomics may be missing.
  EXPECT_EQ(pcmap_is_atomic_pc(pc(F3)), PCMAP_UNKNOWN);
  EXPECT_EQ(pcmap_is_atomic_pc(pc(F3 + 5)), PCMAP_UNKNOWN);
  // Outside functions.
  EXPECT_TRUE(knowsNothingAbout(pc(F1 - 1)));
  EXPECT_TRUE(knowsNothingAbout(pc(F1 + 0x40))); // past f1's end
  EXPECT_TRUE(knowsNothingAbout(pc(0x280)));     // between f2 and f3
  EXPECT_TRUE(knowsNothingAbout(pc(0x501)));     // after the atomic outside
  EXPECT_TRUE(knowsNothingAbout(pc(0)));         // the text's first byte
  EXPECT_TRUE(knowsNothingAbout(M.textEnd()));
  EXPECT_TRUE(knowsNothingAbout(pc(0) - 1));
  // The code of this test, in no registered module.
  EXPECT_TRUE(knowsNothingAbout(reinterpret_cast<uintptr_t>(&stats)));
}

TEST_P(SampleModuleTest, Descriptors) {
  EXPECT_EQ(atomicAt(M, 0x110), "load 4 acquire in +0x100");
  EXPECT_EQ(atomicAt(M, 0x118), "load 4 acquire in +0x100");
  EXPECT_EQ(atomicAt(M, 0x120),
            "cmpxchg 4 acq_rel failure=acquire weak in +0x100");
  EXPECT_EQ(atomicAt(M, 0x130), "fence 0 seq_cst in +0x100");
  EXPECT_EQ(atomicAt(M, 0x208), "rmw 8 seq_cst add in +0x200");
  EXPECT_EQ(atomicAt(M, 0x20c), "store 2 relaxed volatile asm in +0x200");
  EXPECT_EQ(atomicAt(M, 0x304), "store 1 release in +0x300");
  EXPECT_EQ(atomicAt(M, 0x500), "load 8 relaxed in no function");
  EXPECT_EQ(atomicAt(M, 0x114), "none");
  EXPECT_EQ(atomicAt(M, F1), "none");
}

TEST_P(SampleModuleTest, Functions) {
  const std::string F1Text = "+0x100 size 0x40 features 0x1 atomics 4 pcmap "
                             "fake-module";
  EXPECT_EQ(functionAt(M, F1), F1Text);
  EXPECT_EQ(functionAt(M, F1 + 0x3f), F1Text);
  EXPECT_EQ(functionAt(M, 0x208),
            "+0x200 size 0x20 features 0x1 atomics 2 pcmap fake-module");
  EXPECT_EQ(functionAt(M, F3 + 0xf),
            "+0x300 size 0x10 features 0x0 atomics 1 pcmap fake-module");
  EXPECT_EQ(functionAt(M, F3 + 0x10), "none");
}

TEST_P(SampleModuleTest, AtomicBefore) {
  // Strictly before the PC, at most max_bytes before, in the same function.
  EXPECT_EQ(atomicBefore(pc(0x119), 16), pc(0x118));
  EXPECT_EQ(atomicBefore(pc(0x118), 16), pc(0x110));
  EXPECT_EQ(atomicBefore(pc(0x118), 8), pc(0x110));
  EXPECT_EQ(atomicBefore(pc(0x118), 7), 0u);
  EXPECT_EQ(atomicBefore(pc(0x110), 16), 0u);
  EXPECT_EQ(atomicBefore(pc(0x128), 4), 0u);
  EXPECT_EQ(atomicBefore(pc(0x128), 8), pc(0x120));
  EXPECT_EQ(atomicBefore(pc(F1 + 0x40), 64), pc(0x130)); // f1's end
  EXPECT_EQ(atomicBefore(pc(F2 + 1), 0x100), 0u);        // not from f1
  EXPECT_EQ(atomicBefore(pc(0x119), 0), 0u);
  EXPECT_EQ(atomicBefore(pc(0x501), 16), 0u); // outside functions
}

TEST_P(SampleModuleTest, Iteration) {
  // The module, once; its functions in address order, though the section
  // lists them out of it.
  pcmap_module Found;
  ASSERT_EQ(modulesNamed(M.name(), &Found), 1);
  EXPECT_EQ(Found.text_start, pc(0));
  EXPECT_EQ(Found.text_end, M.textEnd());
  EXPECT_EQ(Found.num_functions, SampleModule::NumFunctions);
  EXPECT_EQ(Found.num_atomics, SampleModule::NumAtomics);
  pcmap_function F;
  ASSERT_TRUE(pcmap_function_at(Found.text_start, 0, &F));
  EXPECT_EQ(F.start, pc(F1));
  ASSERT_TRUE(pcmap_function_at(Found.text_start, 1, &F));
  EXPECT_EQ(F.start, pc(F2));
  ASSERT_TRUE(pcmap_function_at(Found.text_start, 2, &F));
  EXPECT_EQ(F.start, pc(F3));
  EXPECT_FALSE(pcmap_function_at(Found.text_start, 3, &F));
}

INSTANTIATE_TEST_SUITE_P(Widths, SampleModuleTest,
                         ::testing::Values(kV1, kV1Wide),
                         [](const ::testing::TestParamInfo<uint32_t> &I) {
                           return I.param == kV1 ? "PC4" : "PCPointerSized";
                         });

TEST_F(QueryTest, DescriptorFields) {
  // Descriptors, and the atomics the runtime makes of them.
  const struct {
    uint64_t Desc;
    const char *Atomic;
  } Cases[] = {
      {cmpxchgDesc(3, AO_SeqCst, AO_Acquire, true) | kVolatileBit,
       "cmpxchg 8 seq_cst failure=acquire volatile weak"},
      {rmwDesc(RMW_UMin, 0, AO_AcqRel), "rmw 1 acq_rel umin"},
      {rmwDesc(RMW_Other, 3, AO_Relaxed), "rmw 8 relaxed other"},
      {desc(AK_Fence, 0, AO_SeqCst), "fence 0 seq_cst"},
      {desc(AK_Store, 4, AO_Release), "store 16 release"},
      {desc(AK_Load, 0, AO_Unordered), "load 1 unordered"},
  };
  const size_t N = std::size(Cases);
  FakeModule M;
  M.section(MK_Functions).function(M.pc(0), 0x100, kFeatureAtomics).add();
  auto S = M.section(MK_Atomics);
  for (size_t I = 0; I < N; ++I)
    S.record({M.pc(0x10 * (I + 1))}, Cases[I].Desc);
  S.add();
  for (size_t I = 0; I < N; ++I)
    EXPECT_EQ(atomicAt(M, 0x10 * (I + 1)),
              std::string(Cases[I].Atomic) + " in +0x0");
  EXPECT_EQ(atomicAt(M, 0x11), "none");
  EXPECT_EQ(functionAt(M, 0x10), "+0x0 size 0x100 features 0x1 atomics " +
                                     std::to_string(N) + " pcmap fake-module");
}

TEST_F(QueryTest, RecordsWithSeveralPCsAndDuplicates) {
  FakeModule M;
  M.section(MK_Functions).function(M.pc(0), 0x100, kFeatureAtomics).add();
  // An expanded loop: five PCs; one listed twice (a zero-size instruction).
  M.section(MK_Atomics)
      .record({M.pc(0x10), M.pc(0x13), M.pc(0x15), M.pc(0x15), M.pc(0x17),
               M.pc(0x1c)},
              rmwDesc(RMW_Nand, 2, AO_SeqCst))
      .add();
  for (uint64_t O : {0x10, 0x13, 0x15, 0x17, 0x1c})
    EXPECT_EQ(atomicAt(M, O), "rmw 4 seq_cst nand in +0x0") << O;
  pcmap_function F;
  ASSERT_TRUE(pcmap_lookup_function(M.pc(0x10), &F));
  EXPECT_EQ(F.num_atomics, 5u);
}

// Sections long enough for the decoder's bulk path (which reads 16 bytes of
// words at a time): records of 1 to 9 PCs and descriptors of 1 to 3 bytes,
// at both PC widths, decode as they do one entry at a time.
TEST_F(QueryTest, LongSectionsDecodeRecordByRecord) {
  const uint64_t Descs[] = {desc(AK_Load, 0, AO_Relaxed),         // 1 byte
                            desc(AK_Store, 3, AO_SeqCst),         // 2 bytes
                            rmwDesc(RMW_FMinimum, 2, AO_AcqRel)}; // 3 bytes
  for (uint32_t Version : {kV1, kV1Wide}) {
    FakeModule M;
    M.section(MK_Functions, Version)
        .function(M.pc(0), 0x10000, kFeatureAtomics)
        .add();
    auto S = M.section(MK_Atomics, Version);
    std::vector<std::pair<uint64_t, uint64_t>> Expected; // offset, descriptor
    uint64_t Offset = 0x10;
    for (unsigned R = 0; R < 300; ++R) {
      unsigned NumPCs = 1 + (R * 7) % 9;
      uint64_t D = Descs[(R * 5) % 3];
      for (unsigned I = 0; I < NumPCs; ++I, Offset += 3) {
        S.pcField(M.pc(Offset));
        Expected.push_back({Offset, D});
      }
      S.zeroWord().uleb(D);
    }
    S.add();
    ASSERT_EQ(stats().atomics, AtStart.atomics + Expected.size()) << Version;
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

TEST_F(QueryTest, UnsortedInput) {
  FakeModule M;
  auto Functions = M.section(MK_Functions);
  // Functions and records in reverse and interleaved order, as
  // -ffunction-sections and .text.hot / .text.unlikely reordering produce.
  for (int I = 199; I >= 0; --I)
    Functions.function(M.pc(I * 0x100), 0x80, kFeatureAtomics);
  Functions.add();
  auto Atomics = M.section(MK_Atomics);
  for (int I = 0; I < 200; ++I) {
    int J = (I * 73) % 200;
    Atomics.record({M.pc(J * 0x100 + 0x40), M.pc(J * 0x100 + 0x10)},
                   desc(AK_Load, 3, AO_Relaxed));
  }
  Atomics.add();
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

TEST_F(QueryTest, FunctionsAndGapsOfManyStretches) {
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
  auto F = M.section(MK_Functions);
  for (const Span &S : Functions)
    F.function(M.pc(S.Start), S.End - S.Start, kFeatureAtomics);
  F.add();
  auto A = M.section(MK_Atomics);
  for (const Span &S : Functions)
    A.record({M.pc(S.Start), M.pc(S.End - 1)}, desc(AK_Store, 2, AO_Release));
  A.add();
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
    // No stretch here has more than three segments: all are described,
    // from the first function's stretch to the last one's end (table.h,
    // "Covered code"); outside, no index answers.
    bool Covered = O >= (Functions.front().Start & ~uint64_t(255)) &&
                   O < Functions.back().End;
    ASSERT_EQ(__pcmap_testing_stretch_described(M.pc(O)), Covered ? 1 : -1)
        << "offset " << O;
    pcmap_function Fn;
    ASSERT_EQ(pcmap_lookup_function(M.pc(O), &Fn), In ? 1 : 0)
        << "offset " << O;
    if (In) {
      ASSERT_EQ(Fn.start, M.pc(Functions[Next].Start)) << "offset " << O;
      ASSERT_EQ(Fn.num_atomics, 2u) << "offset " << O;
    }
  }
}

TEST_F(QueryTest, IndexBoundaries) {
  // Atomics on both sides of every sub-bucket (256 B) and bucket (4 KiB)
  // edge, and on the first and last byte of the module and the function.
  const uint64_t Size = 3 * 4096;
  FakeModule M(Size);
  M.section(MK_Functions).function(M.pc(0), Size, kFeatureAtomics).add();
  std::vector<uint64_t> Offsets = {0,    1,    255,  256,  257,  4094,
                                   4095, 4096, 4097, 8191, 8192, Size - 1};
  auto S = M.section(MK_Atomics);
  for (uint64_t O : Offsets)
    S.record({M.pc(O)}, desc(AK_Load, 0, AO_Relaxed));
  S.add();
  for (uint64_t O = 0; O < Size; ++O) {
    bool Expected =
        std::find(Offsets.begin(), Offsets.end(), O) != Offsets.end();
    ASSERT_EQ(pcmap_is_atomic_pc(M.pc(O)), Expected ? PCMAP_YES : PCMAP_NO)
        << "offset " << O;
  }
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(Size)), PCMAP_UNKNOWN);
}

/// A function of a layout that every byte is checked against.
struct ModelFunction {
  uint64_t Start, Size;
  bool Complete;
};

/// Registers functions Fns (sorted by start) and atomics at the sorted,
/// unique offsets Atomics in a module of Size bytes, and checks every
/// query at every byte against a plain model: the last function starting
/// at or before an offset holds it if it reaches it. Described: 1 if every
/// stretch must be on the fast path (its windows hold all its atomics and
/// boundaries), -1 if it need not. Counts in *Searched the bytes whose
/// stretch is not described (searched), if asked.
void checkEveryByte(const std::vector<ModelFunction> &Fns,
                    const std::vector<uint64_t> &Atomics, uint64_t Size,
                    int Described, const std::string &What,
                    uint64_t *Searched) {
  FakeModule M(Size);
  auto F = M.section(MK_Functions);
  for (const ModelFunction &X : Fns)
    F.function(M.pc(X.Start), X.Size, X.Complete ? kFeatureAtomics : 0);
  F.add();
  auto A = M.section(MK_Atomics);
  const uint64_t Desc = desc(AK_Store, 2, AO_Release);
  for (uint64_t O : Atomics)
    A.record({M.pc(O)}, Desc);
  A.add();

  // The index and the maps cover the code from the stretch of the first
  // function or atomic to the end of the last (table.h, "Covered code").
  uint64_t Lo = Size, Hi = 0;
  for (const ModelFunction &X : Fns) {
    Lo = std::min(Lo, X.Start);
    Hi = std::max(Hi, X.Start + X.Size);
  }
  if (!Atomics.empty()) {
    Lo = std::min(Lo, Atomics.front());
    Hi = std::max(Hi, Atomics.back() + 1);
  }
  Lo &= ~uint64_t(255);
  Hi = std::min(Hi, Size);
  // pcmap_is_atomic_pc answers from the module's answer map if it has
  // one; its index must agree.
  const bool Mapped =
      Hi - Lo <= uint64_t(pcmap::rt::Flags.answer_map_kib) * 1024;
  ASSERT_EQ(__pcmap_testing_has_answer_map(M.pc(Lo)), Mapped ? 1 : 0) << What;
  size_t NextFn = 0;
  for (uint64_t O = 0; O < Size; ++O) {
    while (NextFn < Fns.size() && Fns[NextFn].Start <= O)
      ++NextFn;
    const ModelFunction *Holder = nullptr;
    if (NextFn && O < Fns[NextFn - 1].Start + Fns[NextFn - 1].Size)
      Holder = &Fns[NextFn - 1];
    bool IsAtomic = std::binary_search(Atomics.begin(), Atomics.end(), O);
    int Want = IsAtomic                     ? PCMAP_YES
               : Holder && Holder->Complete ? PCMAP_NO
                                            : PCMAP_UNKNOWN;
    ASSERT_EQ(pcmap_is_atomic_pc(M.pc(O)), Want) << What << " offset " << O;
    ASSERT_EQ(__pcmap_testing_is_atomic_indexed(M.pc(O)), Want)
        << What << " offset " << O << " (index)";
    int InWindows = __pcmap_testing_stretch_described(M.pc(O));
    const bool Covered = O >= Lo && O < Hi;
    ASSERT_EQ(InWindows == -1, !Covered) << What << " offset " << O;
    if (Described > 0 && Covered)
      ASSERT_EQ(InWindows, 1) << What << " offset " << O;
    if (Searched)
      *Searched += InWindows == 0;
    pcmap_function Fn;
    ASSERT_EQ(pcmap_lookup_function(M.pc(O), &Fn), Holder ? 1 : 0)
        << What << " offset " << O;
    // The function map answers wherever at most one function starts
    // inside the byte's 16-byte granule.
    if (Mapped && Holder) {
      const uint64_t First = O & ~uint64_t(15);
      size_t Inner = 0;
      for (const ModelFunction &X : Fns)
        Inner += X.Start > First && X.Start < First + 16;
      if (Inner <= 1)
        ASSERT_EQ(__pcmap_testing_function_mapped(M.pc(O)), 1)
            << What << " offset " << O;
    }
    if (Holder) {
      ASSERT_EQ(Fn.start, M.pc(Holder->Start)) << What << " offset " << O;
      ASSERT_EQ(Fn.size, Holder->Size) << What << " offset " << O;
    }
    pcmap_atomic At;
    ASSERT_EQ(pcmap_lookup_atomic(M.pc(O), &At), IsAtomic ? 1 : 0)
        << What << " offset " << O;
    if (IsAtomic) {
      ASSERT_EQ(At.pc, M.pc(O));
      ASSERT_EQ(At.has_function, Holder ? 1 : 0) << What << " offset " << O;
    }
  }
}

/// Checks every byte twice: registered without maps (every query through
/// the index; Searched counts the bytes of stretches that are searched),
/// then with a small module's maps (table.h).
void expectEveryByteAgrees(const std::vector<ModelFunction> &Fns,
                           const std::vector<uint64_t> &Atomics, uint64_t Size,
                           int Described, const std::string &What,
                           uint64_t *Searched = nullptr) {
  const int Saved = pcmap::rt::Flags.answer_map_kib;
  pcmap::rt::Flags.answer_map_kib = 0;
  checkEveryByte(Fns, Atomics, Size, Described, What + " (index)", Searched);
  pcmap::rt::Flags.answer_map_kib = int((Size + 1023) / 1024);
  uint64_t Ignored = 0;
  if (!::testing::Test::HasFatalFailure())
    checkEveryByte(Fns, Atomics, Size, Described, What + " (maps)", &Ignored);
  pcmap::rt::Flags.answer_map_kib = Saved;
}

TEST_F(QueryTest, EveryByteAgreesWithAModelOfTheLayout) {
  // Short functions (several to a 256-byte stretch, some of no bytes, some
  // not complete for atomics, a few starting inside the one before),
  // padding and gaps between them, atomics dense
  // enough that some stretches hold more than a window of them, and some
  // outside any function: every query at every byte must agree with a
  // plain model, whether the stretch's windows describe it or the query
  // has to search.
  for (unsigned Seed = 1; Seed <= 4; ++Seed) {
    std::mt19937 Rng(Seed);
    auto Uniform = [&](uint64_t Lo, uint64_t Hi) {
      return std::uniform_int_distribution<uint64_t>(Lo, Hi)(Rng);
    };
    const uint64_t Size = 1 << 15;
    std::vector<ModelFunction> Fns;
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
        const ModelFunction &Before = Fns.back();
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
    expectEveryByteAgrees(Fns, Atomics, Size, -1,
                          "seed " + std::to_string(Seed));
  }
}

TEST_F(QueryTest, DenseAtomicsStayOnTheFastPath) {
  // Lock-free code: functions of every size, back to back at 16-byte
  // alignment, with an atomic every 8 to 20 bytes (up to 32 in a 256-byte
  // stretch, one window); some functions not complete. Every stretch is
  // described by its windows, and every byte answers as the model does.
  for (unsigned Seed = 1; Seed <= 3; ++Seed) {
    std::mt19937 Rng(Seed);
    auto Uniform = [&](uint64_t Lo, uint64_t Hi) {
      return std::uniform_int_distribution<uint64_t>(Lo, Hi)(Rng);
    };
    const uint64_t Size = 1 << 15;
    std::vector<ModelFunction> Fns;
    std::vector<uint64_t> Atomics;
    uint64_t NextAtomic = Uniform(0, 8);
    for (uint64_t Cursor = 0; Cursor + 2100 < Size;) {
      uint64_t FSize = Uniform(0, 3) ? Uniform(24, 300) : Uniform(300, 2000);
      Fns.push_back({Cursor, FSize, Uniform(0, 5) != 0});
      for (; NextAtomic < Cursor + FSize; NextAtomic += Uniform(8, 20))
        if (NextAtomic >= Cursor)
          Atomics.push_back(NextAtomic);
      Cursor = (Cursor + FSize + 15) & ~uint64_t(15);
    }
    expectEveryByteAgrees(Fns, Atomics, Size, 1,
                          "dense, seed " + std::to_string(Seed));
  }
}

TEST_F(QueryTest, ManySmallFunctionsStayOnTheFastPath) {
  // Accessors, wrappers and template instances: functions of 1 to 16 bytes
  // at 16-byte alignment (up to 16 starts and 16 ends in a stretch, one
  // window of boundaries), some of no bytes, with none to two atomics each,
  // some not complete, and now and then a larger one. Every stretch is
  // described by its windows.
  for (unsigned Seed = 1; Seed <= 3; ++Seed) {
    std::mt19937 Rng(Seed);
    auto Uniform = [&](uint64_t Lo, uint64_t Hi) {
      return std::uniform_int_distribution<uint64_t>(Lo, Hi)(Rng);
    };
    const uint64_t Size = 1 << 15;
    std::vector<ModelFunction> Fns;
    std::vector<uint64_t> Atomics;
    for (uint64_t Cursor = 0; Cursor + 700 < Size;) {
      uint64_t FSize = Uniform(0, 19) ? Uniform(0, 16) : Uniform(17, 600);
      Fns.push_back({Cursor, FSize, Uniform(0, 4) != 0});
      for (uint64_t K = Uniform(0, 2); K && FSize; --K)
        Atomics.push_back(Cursor + Uniform(0, FSize - 1));
      Cursor = (Cursor + std::max<uint64_t>(FSize, 1) + 15) & ~uint64_t(15);
    }
    std::sort(Atomics.begin(), Atomics.end());
    Atomics.erase(std::unique(Atomics.begin(), Atomics.end()), Atomics.end());
    expectEveryByteAgrees(Fns, Atomics, Size, 1,
                          "small, seed " + std::to_string(Seed));
  }
}

TEST_F(QueryTest, LargeFunctionsWithAFewClustersOfSmallOnes) {
  // Mostly functions of hundreds of bytes, so that the module's
  // pcmap_lookup_function reads the entry alone where at most one function
  // starts in a stretch, and now and then a cluster of small ones (of no
  // bytes, inside the one before, back to back) where it reads the bytes:
  // both agree with the model at every byte.
  for (unsigned Seed = 1; Seed <= 3; ++Seed) {
    std::mt19937 Rng(Seed);
    auto Uniform = [&](uint64_t Lo, uint64_t Hi) {
      return std::uniform_int_distribution<uint64_t>(Lo, Hi)(Rng);
    };
    const uint64_t Size = 1 << 16;
    std::vector<ModelFunction> Fns;
    std::vector<uint64_t> Atomics;
    for (uint64_t Cursor = Uniform(0, 300); Cursor + 3000 < Size;) {
      if (Uniform(0, 29) == 0) {
        for (unsigned K = Uniform(2, 6); K; --K) {
          uint64_t FSize = Uniform(0, 3) ? Uniform(0, 40) : 0;
          Fns.push_back({Cursor, FSize, Uniform(0, 3) != 0});
          if (FSize > 4 && Uniform(0, 3) == 0) { // one inside it
            Fns.push_back({Cursor + FSize / 2, Uniform(0, FSize), true});
            FSize = std::max(FSize, FSize / 2 + Fns.back().Size);
          }
          Cursor += std::max<uint64_t>(FSize, 1) + Uniform(0, 9);
        }
        continue;
      }
      uint64_t FSize = Uniform(200, 2500);
      Fns.push_back({Cursor, FSize, Uniform(0, 5) != 0});
      for (uint64_t O = Cursor + Uniform(0, 40); O < Cursor + FSize;
           O += Uniform(1, 90))
        Atomics.push_back(O);
      Cursor += FSize + (Uniform(0, 3) ? Uniform(0, 15) : Uniform(16, 600));
    }
    std::sort(Atomics.begin(), Atomics.end());
    Atomics.erase(std::unique(Atomics.begin(), Atomics.end()), Atomics.end());
    expectEveryByteAgrees(Fns, Atomics, Size, -1,
                          "clusters, seed " + std::to_string(Seed));
  }
}

TEST_F(QueryTest, StretchesBeyondTheWindowsAreSearched) {
  // Beyond the fast path: functions of 1 to 7 bytes every 8 bytes (up to
  // 64 boundaries in a stretch) and stretches with an atomic every 2 to 7
  // bytes. Every byte still answers as the model does, and the stretches
  // that cannot be described say so.
  const uint64_t Size = 1 << 14;
  std::mt19937 Rng(7);
  auto Uniform = [&](uint64_t Lo, uint64_t Hi) {
    return std::uniform_int_distribution<uint64_t>(Lo, Hi)(Rng);
  };
  std::vector<ModelFunction> Fns;
  std::vector<uint64_t> Atomics;
  for (uint64_t Cursor = 0; Cursor + 8 < Size / 2; Cursor += 8) {
    Fns.push_back({Cursor, Uniform(1, 7), Uniform(0, 3) != 0});
    if (Uniform(0, 1))
      Atomics.push_back(Cursor);
  }
  Fns.push_back({Size / 2, Size / 2 - 64, true});
  for (uint64_t O = Size / 2; O < Size - 64; O += Uniform(2, 7))
    Atomics.push_back(O);
  uint64_t Searched = 0;
  expectEveryByteAgrees(Fns, Atomics, Size, -1, "beyond the windows",
                        &Searched);
  // Nearly every stretch of both halves.
  EXPECT_GT(Searched, Size * 3 / 4);
}

TEST_F(QueryTest, StretchOfAnAtomicAtEveryByte) {
  // 256 atomics in one stretch, more than its entry counts, with three
  // functions and a gap in it: the boundaries, whose bytes follow the
  // atomics', are searched too, and every byte answers as the model does.
  const uint64_t Size = 1024;
  std::vector<ModelFunction> Fns = {
      {0, 300, true}, {300, 100, false}, {420, 60, true}, {600, 300, true}};
  std::vector<uint64_t> Atomics;
  for (uint64_t O = 256; O < 512; ++O)
    Atomics.push_back(O);
  uint64_t Searched = 0;
  expectEveryByteAgrees(Fns, Atomics, Size, -1, "every byte", &Searched);
  EXPECT_EQ(Searched, 256u);
}

TEST_F(QueryTest, AnswerMapOnlyForSmallModules) {
  // A module of at most answer_map_kib KiB of code gets an answer map (2
  // bits per byte, in table_bytes); a larger one, or any with
  // answer_map_kib=0, answers from its index alone. Either way the answers
  // are the same, at the edges of the code too.
  pcmap::rt::Options Saved = pcmap::rt::Flags;
  struct Case {
    int Kib;
    uint64_t Size;
    bool Mapped;
  } Cases[] = {{256, 256 << 10, true}, {256, (256 << 10) + 1, false},
               {1, 1024, true},        {1, 1025, false},
               {1, 31, true},          {0, 4096, false},
               {-5, 4096, false}};
  for (const Case &C : Cases) {
    std::string What = std::to_string(C.Size) +
                       " bytes, answer_map_kib=" + std::to_string(C.Kib);
    pcmap::rt::Flags.answer_map_kib = C.Kib;
    pcmap_stats Before;
    pcmap_get_stats(&Before);
    // Two complete functions, a gap of two bytes between them (an atomic,
    // then a byte that is UNKNOWN), atomics at both ends of the code.
    std::vector<ModelFunction> Fns = {{0, C.Size / 2, true},
                                      {C.Size / 2 + 2, C.Size / 2 - 2, true}};
    std::vector<uint64_t> Atomics = {0, 7, C.Size / 2, C.Size - 1};
    {
      FakeModule M(C.Size);
      auto FB = M.section(MK_Functions);
      for (const ModelFunction &X : Fns)
        FB.function(M.pc(X.Start), X.Size, kFeatureAtomics);
      SectionBytes F = FB.add();
      auto AB = M.section(MK_Atomics);
      for (uint64_t O : Atomics)
        AB.record({M.pc(O)}, kLoad);
      SectionBytes A = AB.add();
      EXPECT_EQ(__pcmap_testing_has_answer_map(M.pc(0)), C.Mapped ? 1 : 0)
          << What;
      pcmap_stats With;
      pcmap_get_stats(&With);
      // The answer map's words hold 32 bytes of code each; the function
      // map has 2 bytes per 16 of code, in whole words.
      uint64_t MapBytes =
          (C.Size + 31) / 32 * 8 + ((C.Size + 15) / 16 * 2 + 7) / 8 * 8;
      uint64_t Added = With.table_bytes - Before.table_bytes;
      pcmap::rt::Flags.answer_map_kib = 0;
      M.del(A);
      M.add(A); // the same sections again, now without a map
      EXPECT_EQ(__pcmap_testing_has_answer_map(M.pc(0)), 0) << What;
      pcmap_stats Without;
      pcmap_get_stats(&Without);
      EXPECT_EQ(Added - (Without.table_bytes - Before.table_bytes),
                C.Mapped ? MapBytes : 0)
          << What;
      pcmap::rt::Flags.answer_map_kib = C.Kib;
      M.del(A);
      M.add(A);
      for (uint64_t O : {uint64_t(0), uint64_t(1), uint64_t(7), C.Size / 2,
                         C.Size / 2 + 1, C.Size - 2, C.Size - 1}) {
        int Want = std::count(Atomics.begin(), Atomics.end(), O) ? PCMAP_YES
                   : O == C.Size / 2 + 1                         ? PCMAP_UNKNOWN
                                                                 : PCMAP_NO;
        EXPECT_EQ(pcmap_is_atomic_pc(M.pc(O)), Want) << What << " at " << O;
        EXPECT_EQ(__pcmap_testing_is_atomic_indexed(M.pc(O)), Want)
            << What << " at " << O;
      }
      M.del(A);
      M.del(F);
    }
  }
  pcmap::rt::Flags = Saved;
}

TEST_F(QueryTest, TheIndexCoversOnlyTheInstrumentedCode) {
  // An executable whose instrumented code is two functions in the middle of
  // 4 MiB of code that is not (a statically linked runtime, libraries):
  // its tables are the size of those functions (an answer map, small), and
  // the code around them is still the module's for the queries that take
  // a module (pcmap_module_at, pcmap_function_at), while the others know
  // nothing there, as anywhere outside a function.
  const uint64_t Size = 4 << 20, F1 = (2 << 20) + 0x1230, F2 = F1 + 0x300;
  FakeModule M(Size);
  pcmap_stats Before;
  pcmap_get_stats(&Before);
  M.section(MK_Functions)
      .function(M.pc(F1), 0x200, kFeatureAtomics)
      .function(M.pc(F2), 0x100, kFeatureAtomics)
      .add();
  M.section(MK_Atomics).record({M.pc(F1 + 8), M.pc(F2 + 0xff)}, kLoad).add();
  pcmap_stats After;
  pcmap_get_stats(&After);
  // A few hundred bytes of index and maps for 0x500 bytes of code, where
  // 4 MiB would take 256 KiB of index.
  EXPECT_LT(After.table_bytes - Before.table_bytes, 4096u);
  EXPECT_EQ(__pcmap_testing_has_answer_map(M.pc(F1)), 1);
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(F1 + 8)), PCMAP_YES);
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(F1 + 9)), PCMAP_NO);
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(F2 + 0xff)), PCMAP_YES);
  EXPECT_EQ(__pcmap_testing_is_atomic_indexed(M.pc(F2 + 0xff)), PCMAP_YES);
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(F1 + 0x200)), PCMAP_UNKNOWN); // gap
  for (uint64_t O : {uint64_t(0), F1 & ~uint64_t(255), F1 - 1, F2 + 0x100,
                     (F2 + 0x100) | 255, F2 + 0x1000, Size - 1}) {
    EXPECT_EQ(pcmap_is_atomic_pc(M.pc(O)), PCMAP_UNKNOWN) << O;
    pcmap_function Fn;
    EXPECT_EQ(pcmap_lookup_function(M.pc(O), &Fn), 0) << O;
    pcmap_atomic At;
    EXPECT_EQ(pcmap_lookup_atomic_before(M.pc(O) + 1, 4096, &At), 0) << O;
  }
  pcmap_function Fn;
  ASSERT_EQ(pcmap_lookup_function(M.pc(F2 + 0x80), &Fn), 1);
  EXPECT_EQ(Fn.start, M.pc(F2));
  // The module is the whole code, and its entries are found from its start.
  bool Found = false;
  pcmap_module Mod;
  for (size_t I = 0; pcmap_module_at(I, &Mod); ++I)
    if (Mod.text_start == M.pc(0)) {
      Found = true;
      break;
    }
  ASSERT_TRUE(Found);
  EXPECT_EQ(Mod.text_end, M.pc(Size));
  EXPECT_EQ(Mod.num_functions, 2u);
  ASSERT_EQ(pcmap_function_at(M.pc(0), 1, &Fn), 1);
  EXPECT_EQ(Fn.start, M.pc(F2));
  pcmap_atomic At;
  ASSERT_EQ(pcmap_atomic_at(M.pc(0), 0, &At), 1);
  EXPECT_EQ(At.pc, M.pc(F1 + 8));
  EXPECT_EQ(At.function.start, M.pc(F1));
}

TEST_F(QueryTest, AtomicBeforeAtFunctionEdges) {
  FakeModule M;
  M.section(MK_Functions)
      .function(M.pc(0x100), 0x20, kFeatureAtomics)
      .function(M.pc(0x120), 0x20, kFeatureAtomics)
      .add();
  M.section(MK_Atomics)
      .record({M.pc(0x104)}, desc(AK_Store, 2, AO_Release))
      .record({M.pc(0x11c)}, desc(AK_Load, 2, AO_Acquire))
      .add();
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

TEST_F(QueryTest, MixedCodeModelsAndSourcesInOneModule) {
  FakeModule M;
  M.section(MK_Functions).function(M.pc(0x100), 0x10, kFeatureAtomics).add();
  M.section(MK_Atomics).record({M.pc(0x104)}, kLoad).add();
  M.section(MK_Functions, kV1Wide)
      .function(M.pc(0x200), 0x10, kFeatureAtomics)
      .add();
  M.section(MK_Atomics, kV1Wide)
      .record({M.pc(0x208)}, desc(AK_Store, 2, AO_Release))
      .add();
  // Upstream covers the first function too, and lists the same atomic.
  M.section(MK_UpstreamCovered)
      .function(M.pc(0x100), 0x10, kUpstreamFeatureAtomics)
      .add();
  M.section(MK_UpstreamAtomics).pcField(M.pc(0x104)).add();
  // pcmap's descriptor wins.
  EXPECT_EQ(atomicAt(M, 0x104), "load 4 acquire in +0x100");
  EXPECT_EQ(atomicAt(M, 0x208), "store 4 release in +0x200");
  pcmap_function F;
  ASSERT_TRUE(pcmap_lookup_function(M.pc(0x100), &F));
  EXPECT_EQ(F.source, PCMAP_SOURCE_PCMAP | PCMAP_SOURCE_UPSTREAM);
  EXPECT_EQ(F.num_atomics, 1u);
}

TEST_F(QueryTest, UpstreamV2) {
  FakeModule M;
  const uint64_t Atomics = kUpstreamFeatureAtomics, UAR = kUpstreamFeatureUAR,
                 UARSize = kUpstreamFeatureUAR | kUpstreamFeatureUARHasSize;
  M.section(MK_UpstreamCovered)
      .function(M.pc(0x000), 0x40, Atomics)
      .function(M.pc(0x100), 0x20, Atomics | UARSize)
      .uleb(24) // stack arguments
      .function(M.pc(0x200), 0x10, 0)
      .function(M.pc(0x300), 0x10, UAR)
      .function(M.pc(0x400), 0x20, UARSize)
      .uleb(144)
      .add();
  M.section(MK_UpstreamAtomics)
      .pcField(M.pc(0x10))
      .pcField(M.pc(0x108))
      .pcField(M.pc(0x10)) // twice
      .add();
  // Atomics: no kind, no order, no size.
  EXPECT_EQ(atomicAt(M, 0x10), "unknown 0 unknown upstream in +0x0");
  EXPECT_EQ(atomicAt(M, 0x108), "unknown 0 unknown upstream in +0x100");
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x11)), PCMAP_NO);
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x100)), PCMAP_NO);
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x109)), PCMAP_NO);
  // Functions without the atomics feature are not complete.
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x204)), PCMAP_UNKNOWN);
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x304)), PCMAP_UNKNOWN);
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x408)), PCMAP_UNKNOWN);
  EXPECT_TRUE(knowsNothingAbout(M.pc(0x80)));
  EXPECT_EQ(atomicBefore(M.pc(0x14), 8), M.pc(0x10));
  // Functions: pcmap's features from upstream's, and upstream's as they are.
  const char *Fields = " upstream fake-module upstream_features ";
  EXPECT_EQ(functionAt(M, 0x3f), "+0x0 size 0x40 features 0x1 atomics 1" +
                                     std::string(Fields) + "0x1 stack_args 0");
  EXPECT_EQ(functionAt(M, 0x100), "+0x100 size 0x20 features 0x1 atomics 1" +
                                      std::string(Fields) +
                                      "0x7 stack_args 24");
  EXPECT_EQ(functionAt(M, 0x200), "+0x200 size 0x10 features 0x0 atomics 0" +
                                      std::string(Fields) + "0x0 stack_args 0");
  EXPECT_EQ(functionAt(M, 0x30f), "+0x300 size 0x10 features 0x0 atomics 0" +
                                      std::string(Fields) + "0x2 stack_args 0");
  EXPECT_EQ(functionAt(M, 0x400), "+0x400 size 0x20 features 0x0 atomics 0" +
                                      std::string(Fields) +
                                      "0x6 stack_args 144");
}

TEST_F(QueryTest, UpstreamV1) {
  FakeModule M;
  // Version 1: 32-bit size and features; stack args iff features & UAR.
  M.section(MK_UpstreamCovered, kUpstreamVersionV1)
      .pcField(M.pc(0x100))
      .u32(0x20)
      .u32(kUpstreamFeatureAtomics | kUpstreamFeatureUAR)
      .u32(16)
      .add();
  M.section(MK_UpstreamCovered, kUpstreamVersionV1 | kVersionPtrSizeRel)
      .pcField(M.pc(0x200))
      .u32(0x20)
      .u32(kUpstreamFeatureAtomics)
      .add();
  pcmap_function F;
  ASSERT_TRUE(pcmap_lookup_function(M.pc(0x110), &F));
  EXPECT_EQ(F.upstream_features, 3u);
  EXPECT_EQ(F.upstream_stack_args, 16u);
  ASSERT_TRUE(pcmap_lookup_function(M.pc(0x210), &F));
  EXPECT_EQ(F.size, 0x20u);
}

// Found by fuzzing (the runtime rejected what pcmap-report accepted): feature
// bits above 31 are reserved, and readers ignore the bits they do not know.
TEST_F(QueryTest, HighFeatureBitsAreIgnored) {
  FakeModule M;
  M.section(MK_Functions)
      .function(M.pc(0x100), 0x10, kFeatureAtomics | (uint64_t(1) << 40))
      .function(M.pc(0x200), 0x10, ~uint64_t(0))
      .add();
  M.section(MK_UpstreamCovered)
      .function(M.pc(0x300), 0x20,
                kUpstreamFeatureAtomics | (uint64_t(1) << 63))
      .add();
  pcmap_function F;
  ASSERT_TRUE(pcmap_lookup_function(M.pc(0x100), &F));
  EXPECT_EQ(F.features, PCMAP_FEATURE_ATOMICS);
  ASSERT_TRUE(pcmap_lookup_function(M.pc(0x200), &F));
  EXPECT_EQ(F.size, 0x10u);
  ASSERT_TRUE(pcmap_lookup_function(M.pc(0x300), &F));
  EXPECT_EQ(F.upstream_features, 1u);
  EXPECT_EQ(stats().sections_rejected, AtStart.sections_rejected);
}

} // namespace
