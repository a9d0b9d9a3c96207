//===- RegistrationTest.cpp - Which sections the runtime takes, and when --===//
//
// The registration callbacks of pcmap.h with sections built by hand
// (FakeModule.h): what is accepted and counted (pcmap_get_stats) in either
// order of functions and atomics, at both relative-PC widths, pcmap and
// upstream (sanmd); the same section twice counts once; null, reversed,
// partial and empty bounds and deleting what was never added change
// nothing; every kind of malformed section is rejected whole (counted, none
// of its entries used, deleting it harmless, valid sections accepted after
// it); a rejected atomics section leaves its functions' PCs unknown;
// removal undoes everything, memory included. What the queries answer is
// QueryTest.cpp's.
//
//===----------------------------------------------------------------------===//

#include "FakeModule.h"

#include <iterator>

using namespace pcmap_test;

namespace {

class RegistrationTest : public RuntimeTest {};

constexpr uint64_t F1 = SampleModule::F1, F3 = SampleModule::F3;
const char *const kF1Text =
    "+0x100 size 0x40 features 0x1 atomics 4 pcmap fake-module";

TEST_F(RegistrationTest, FunctionsThenAtomics) {
  uintptr_t Load, F1Start;
  {
    FakeModule M;
    EXPECT_TRUE(sameTables(AtStart)); // a fake module alone: nothing
    SampleModule Sample(M);
    M.add(Sample.Functions);
    pcmap_stats S1 = stats();
    EXPECT_TRUE(grewBy(AtStart, 1, SampleModule::NumFunctions, 0, 1));
    // No atomics yet. Whether the complete functions answer no or unknown
    // before their atomics arrive is the runtime's choice; yes it cannot be.
    EXPECT_NE(pcmap_is_atomic_pc(M.pc(0x110)), PCMAP_YES);
    EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x5000)), PCMAP_UNKNOWN);
    EXPECT_EQ(pcmap_is_atomic_pc(M.pc(F3)), PCMAP_UNKNOWN);

    M.add(Sample.Atomics);
    pcmap_stats S2 = stats();
    EXPECT_TRUE(grewBy(AtStart, 1, SampleModule::NumFunctions,
                       SampleModule::NumAtomics, 2));
    EXPECT_EQ(S2.sections_rejected, AtStart.sections_rejected);
    EXPECT_NE(S2.generation, S1.generation);

    // The same sections again: nothing changes, not even the generation.
    callback(Sample.Functions, true);
    callback(Sample.Atomics, true);
    EXPECT_TRUE(sameTables(S2));
    EXPECT_EQ(stats().sections_rejected, AtStart.sections_rejected);
    EXPECT_EQ(stats().generation, S2.generation);
    EXPECT_EQ(atomicAt(M, 0x110), "load 4 acquire in +0x100");
    EXPECT_EQ(functionAt(M, F1), kF1Text);

    // Deleted: atomics first, then functions.
    M.del(Sample.Atomics);
    EXPECT_TRUE(grewBy(AtStart, 1, SampleModule::NumFunctions, 0, 1));
    EXPECT_NE(pcmap_is_atomic_pc(M.pc(0x110)), PCMAP_YES);
    EXPECT_TRUE(knowsNothingAbout(M.pc(0x500)));
    M.del(Sample.Functions);
    Load = M.pc(0x110);
    F1Start = M.pc(F1);
  } // the fake module is forgotten
  EXPECT_TRUE(sameTables(AtStart));
  EXPECT_TRUE(knowsNothingAbout(Load));
  EXPECT_TRUE(knowsNothingAbout(F1Start));
  pcmap_module Mod;
  EXPECT_EQ(modulesNamed("fake-module", &Mod), 0);
}

// Before the first query (lazy_tables), registration records a module's
// sections and builds nothing; the first query builds the table and
// answers from it, and registration builds again from then on. Sections
// removed before any query are never decoded: a malformed one is not even
// reported.
TEST_F(RegistrationTest, TablesWaitForTheFirstQuery) {
  FakeModule M;
  SampleModule Sample(M);
  __pcmap_testing_defer_tables();
  M.add(Sample.Functions);
  M.add(Sample.Atomics);
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x110)), PCMAP_YES);
  EXPECT_EQ(atomicAt(M, 0x110), "load 4 acquire in +0x100");
  EXPECT_TRUE(grewBy(AtStart, 1, SampleModule::NumFunctions,
                     SampleModule::NumAtomics, 2));
  M.del(Sample.Atomics);
  M.del(Sample.Functions);
  EXPECT_TRUE(sameTables(AtStart));

  __pcmap_testing_defer_tables();
  SectionBytes Bad = M.section(MK_Atomics).bytes({1, 2, 3}).place();
  M.add(Sample.Functions);
  callback(Bad, true);
  callback(Bad, false);
  M.del(Sample.Functions);
  EXPECT_TRUE(sameTables(AtStart));
  EXPECT_EQ(stats().sections_rejected, AtStart.sections_rejected);
  EXPECT_TRUE(knowsNothingAbout(M.pc(0x110)));

  // After that query, registration builds at once.
  M.add(Sample.Functions);
  EXPECT_EQ(functionAt(M, F1), "+0x100 size 0x40 features 0x1 atomics 0 "
                               "pcmap fake-module");
  M.del(Sample.Functions);
}

// More sections before the first query than registration notes (128):
// the ones noted go to their modules' records, in order, and so do the
// later ones; the first query builds them all. Some removed before it.
TEST_F(RegistrationTest, ManySectionsBeforeTheFirstQuery) {
  constexpr unsigned kModules = 5, kSections = 30; // 150 sections
  FakeModule Modules[kModules];
  __pcmap_testing_defer_tables();
  SectionBytes Last[kModules];
  for (unsigned J = 0; J < kModules; ++J)
    for (unsigned I = 0; I < kSections; ++I)
      Last[J] = Modules[J]
                    .section(MK_Functions)
                    .function(Modules[J].pc(0x100 + 0x10 * I), 0x10, 0)
                    .add();
  // The last section of each module, removed before any query.
  for (unsigned J = 0; J < kModules; ++J)
    Modules[J].del(Last[J]);
  for (FakeModule &M : Modules) {
    EXPECT_EQ(functionAt(M, 0x100), "+0x100 size 0x10 features 0x0 atomics 0 "
                                    "pcmap fake-module");
    EXPECT_EQ(functionAt(M, 0x100 + 0x10 * (kSections - 2)),
              "+0x2c0 size 0x10 features 0x0 atomics 0 pcmap fake-module");
    EXPECT_TRUE(knowsNothingAbout(M.pc(0x100 + 0x10 * (kSections - 1))));
  }
  EXPECT_TRUE(grewBy(AtStart, kModules, kModules * (kSections - 1), 0,
                     kModules * (kSections - 1)));
}

TEST_F(RegistrationTest, AtomicsThenFunctionsPointerSized) {
  FakeModule M;
  SectionBytes Atomics =
      M.section(MK_Atomics, kV1Wide)
          .record({M.pc(0x10)}, desc(AK_Load, 2, AO_Relaxed))
          .record({M.pc(0x20)}, rmwDesc(RMW_Xchg, 1, AO_Acquire) | kVolatileBit)
          .record({M.pc(0x28)}, rmwDesc(RMW_UDecWrap, 2, AO_Release))
          .place();
  SectionBytes Functions = M.section(MK_Functions, kV1Wide)
                               .function(M.pc(0), 0x40, kFeatureAtomics)
                               .place();

  M.add(Atomics);
  EXPECT_TRUE(grewBy(AtStart, 1, 0, 3, 1));
  // Atomics without functions: yes, but nothing is known about other PCs.
  EXPECT_EQ(atomicAt(M, 0x10), "load 4 relaxed in no function");
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x14)), PCMAP_UNKNOWN);
  EXPECT_EQ(functionAt(M, 0x10), "none");

  M.add(Functions);
  pcmap_stats S2 = stats();
  EXPECT_TRUE(grewBy(AtStart, 1, 1, 3, 2));
  EXPECT_EQ(atomicAt(M, 0x10), "load 4 relaxed in +0x0");
  EXPECT_EQ(atomicAt(M, 0x20), "rmw 2 acquire xchg volatile in +0x0");
  EXPECT_EQ(atomicAt(M, 0x28), "rmw 4 release udec_wrap in +0x0");
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x14)), PCMAP_NO);
  EXPECT_EQ(functionAt(M, 0x3f),
            "+0x0 size 0x40 features 0x1 atomics 3 pcmap fake-module");

  // Again, in the other order: counted once.
  callback(Atomics, true);
  callback(Functions, true);
  EXPECT_TRUE(sameTables(S2));

  // Deleted: functions first; the atomics stay, in no function.
  M.del(Functions);
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x14)), PCMAP_UNKNOWN);
  EXPECT_EQ(atomicAt(M, 0x10), "load 4 relaxed in no function");
  M.del(Atomics);
  EXPECT_TRUE(sameTables(AtStart));
  EXPECT_TRUE(knowsNothingAbout(M.pc(0x10)));
  EXPECT_TRUE(knowsNothingAbout(M.pc(0x20)));
}

TEST_F(RegistrationTest, BoundsThatChangeNothing) {
  FakeModule M;
  SampleModule Sample(M, kV1Wide);
  M.add(Sample.Functions);
  M.add(Sample.Atomics);
  const pcmap_stats S = stats();
  const uint32_t V = kV1Wide;
  const char *AB = Sample.Atomics.Begin, *AE = Sample.Atomics.End;
  const char *FB = Sample.Functions.Begin, *FE = Sample.Functions.End;
  // The callback of a kind, add then del.
  auto AddDel = [](MetadataKind Kind, uint32_t Version, const char *Begin,
                   const char *End) {
    callback({Kind, Version, Begin, End}, true);
    callback({Kind, Version, Begin, End}, false);
  };

  // Null and null: what a constructor passes for a section --gc-sections
  // emptied. Not an error.
  for (uint32_t Version : {kV1, kV1Wide}) {
    AddDel(MK_Atomics, Version, nullptr, nullptr);
    AddDel(MK_Functions, Version, nullptr, nullptr);
  }
  AddDel(MK_UpstreamAtomics, kUpstreamVersionV2, nullptr, nullptr);
  AddDel(MK_UpstreamCovered, kUpstreamVersionV2, nullptr, nullptr);
  __pcmap_sections_add(kV1, nullptr, nullptr, nullptr, nullptr);
  __pcmap_sections_del(kV1, nullptr, nullptr, nullptr, nullptr);
  EXPECT_TRUE(sameTables(S));
  EXPECT_EQ(stats().sections_rejected, S.sections_rejected);
  EXPECT_EQ(stats().entries_rejected, S.entries_rejected);
  // Start after stop: the module's sections, and memory of no module.
  char X[4];
  AddDel(MK_Atomics, V, AE, AB);
  AddDel(MK_Functions, V, FE, FB);
  AddDel(MK_Atomics, kV1, X + 4, X);
  EXPECT_TRUE(sameTables(S));
  // One bound null.
  AddDel(MK_Atomics, V, AB, nullptr);
  AddDel(MK_Functions, V, nullptr, FE);
  EXPECT_TRUE(sameTables(S));
  // Empty.
  AddDel(MK_Atomics, V, AE, AE);
  AddDel(MK_Functions, V, FE, FE);
  AddDel(MK_Functions, kV1, X, X);
  EXPECT_TRUE(sameTables(S));
  EXPECT_EQ(stats().sections_rejected, S.sections_rejected);
  // Deleting what was never added: part of a section, and bytes that hold
  // none.
  callback({MK_Atomics, V, AB + 1, AE}, false);
  callback({MK_Atomics, V, AB, AE - 1}, false);
  callback({MK_Functions, V, FE + 0x100, FE + 0x10a}, false);
  EXPECT_TRUE(sameTables(S));
  EXPECT_EQ(atomicAt(M, 0x110), "load 4 acquire in +0x100");
  EXPECT_EQ(stats().sections_rejected, S.sections_rejected);
}

// A module's constructor registers both its sections in one call: the
// module's table is built (and published) once, not once per section.
TEST_F(RegistrationTest, BothSectionsInOneCallBuildTheTableOnce) {
  FakeModule M;
  SectionBytes F = M.section(MK_Functions)
                       .function(M.pc(0x100), 0x40, kFeatureAtomics)
                       .place();
  SectionBytes A = M.section(MK_Atomics).record({M.pc(0x104)}, kLoad).place();

  pcmap_stats Before = stats();
  __pcmap_sections_add(kV1, A.Begin, A.End, F.Begin, F.End);
  pcmap_stats After = stats();
  EXPECT_EQ(After.generation, Before.generation + 1);
  EXPECT_EQ(After.atomics, Before.atomics + 1);
  EXPECT_EQ(After.functions, Before.functions + 1);
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x104)), PCMAP_YES);
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x108)), PCMAP_NO);
  // Again: counts once, and changes nothing.
  __pcmap_sections_add(kV1, A.Begin, A.End, F.Begin, F.End);
  EXPECT_EQ(stats().generation, After.generation);

  __pcmap_sections_del(kV1, A.Begin, A.End, F.Begin, F.End);
  pcmap_stats Gone = stats();
  EXPECT_EQ(Gone.generation, After.generation + 1);
  EXPECT_EQ(Gone.atomics, Before.atomics);
  EXPECT_EQ(Gone.modules, Before.modules);
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x104)), PCMAP_UNKNOWN);

  // A module with one of the two sections passes null for the other.
  __pcmap_sections_add(kV1, nullptr, nullptr, F.Begin, F.End);
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x108)), PCMAP_NO);
  __pcmap_sections_del(kV1, nullptr, nullptr, F.Begin, F.End);
  __pcmap_sections_add(kV1, A.Begin, A.End, nullptr, nullptr);
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x104)), PCMAP_YES);
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x108)), PCMAP_UNKNOWN);
  __pcmap_sections_del(kV1, A.Begin, A.End, nullptr, nullptr);
  EXPECT_EQ(stats().modules, Before.modules);
}

TEST_F(RegistrationTest, UpstreamSectionsCountOnceAndAreRemoved) {
  uintptr_t First, Second;
  {
    FakeModule M;
    SectionBytes Atomics = M.section(MK_UpstreamAtomics)
                               .pcField(M.pc(0x10))
                               .pcField(M.pc(0x108))
                               .pcField(M.pc(0x10))
                               .place();
    SectionBytes Covered =
        M.section(MK_UpstreamCovered)
            .function(M.pc(0), 0x40, kUpstreamFeatureAtomics)
            .function(M.pc(0x100), 0x20,
                      kUpstreamFeatureAtomics | kUpstreamFeatureUAR |
                          kUpstreamFeatureUARHasSize)
            .uleb(24)
            .place();
    M.add(Atomics);
    M.add(Covered);
    pcmap_stats S1 = stats();
    EXPECT_TRUE(grewBy(AtStart, 1, 2, 2, 2)); // the PC twice: once
    EXPECT_EQ(S1.sections_rejected, AtStart.sections_rejected);
    // Twice: counted once.
    callback(Covered, true);
    callback(Atomics, true);
    EXPECT_TRUE(sameTables(S1));
    M.del(Covered);
    M.del(Atomics);
    First = M.pc(0x10);
    Second = M.pc(0x100);
  }
  EXPECT_TRUE(sameTables(AtStart));
  EXPECT_TRUE(knowsNothingAbout(First));
  EXPECT_TRUE(knowsNothingAbout(Second));
}

//===----------------------------------------------------------------------===//
// Malformed sections
//===----------------------------------------------------------------------===//

/// Where the first, valid, entry of a malformed section is: an atomic at
/// kGoodAtomic (inside the function [0x100, 0x140) that RejectionTest
/// registers first in one of its runs), or a function at kGoodFunction.
constexpr uint64_t kGoodAtomic = 0x104, kGoodFunction = 0x200;

struct BadSection {
  const char *Name;
  MetadataKind Kind;
  uint32_t Version;
  /// Writes the section: a valid entry, then the fault.
  void (*Build)(FakeModule &, SectionBuilder &);
  /// entries_rejected grows by at least this much.
  unsigned MinEntries;
  /// The version it is registered with, if not the one it is written in.
  uint32_t RegisteredAs = 0;

  bool isAtomics() const {
    return Kind == MK_Atomics || Kind == MK_UpstreamAtomics;
  }
  uint64_t good() const { return isAtomics() ? kGoodAtomic : kGoodFunction; }
  SectionBytes place(FakeModule &M) const {
    SectionBuilder S = M.section(Kind, Version);
    Build(M, S);
    SectionBytes Bytes = S.place();
    if (RegisteredAs)
      Bytes.Version = RegisteredAs;
    return Bytes;
  }
};

using Builder = SectionBuilder;

/// A valid first entry for each kind.
Builder &goodFunction(FakeModule &M, Builder &S) {
  return S.function(M.pc(kGoodFunction), 0x10, kFeatureAtomics);
}
Builder &goodRecord(FakeModule &M, Builder &S) {
  return S.record({M.pc(kGoodAtomic)}, kLoad);
}

const BadSection BadSections[] = {
    // pcmap_functions
    {"TruncatedFunctionSize", MK_Functions, kV1,
     [](FakeModule &M, Builder &S) { // a ULEB128 that never ends
       goodFunction(M, S)
           .function(M.pc(0x210), 0x10, kFeatureAtomics)
           .pcField(M.pc(0x300))
           .bytes({0x80});
     },
     2},
    {"MissingFeatures", MK_Functions, kV1,
     [](FakeModule &M, Builder &S) {
       goodFunction(M, S).pcField(M.pc(0x300)).uleb(0x10);
     },
     1},
    {"TruncatedFunctionPC", MK_Functions, kV1,
     [](FakeModule &M, Builder &S) {
       goodFunction(M, S).bytes({0x10, 0x10});
     },
     1},
    {"OverlongFunctionSize", MK_Functions, kV1,
     [](FakeModule &M, Builder &S) { // 11 bytes
       goodFunction(M, S)
           .pcField(M.pc(0x300))
           .bytes({0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
                   0x00})
           .uleb(kFeatureAtomics);
     },
     1},
    {"ZeroFunctionPC", MK_Functions, kV1,
     [](FakeModule &M, Builder &S) {
       goodFunction(M, S).zeroWord().uleb(0x10).uleb(kFeatureAtomics);
     },
     1},
    {"FunctionBeforeText", MK_Functions, kV1,
     [](FakeModule &M, Builder &S) {
       goodFunction(M, S).function(M.pc(0) - 0x100, 0x10, kFeatureAtomics);
     },
     1},
    {"FunctionPastText", MK_Functions, kV1,
     [](FakeModule &M, Builder &S) {
       goodFunction(M, S).function(M.textEnd() + 0x100, 0x10, kFeatureAtomics);
     },
     1},
    {"FunctionOverrunsText", MK_Functions, kV1,
     [](FakeModule &M, Builder &S) {
       goodFunction(M, S).function(M.textEnd() - 0x10, 0x20, kFeatureAtomics);
     },
     1},
    {"FunctionOverrunsModule", MK_Functions, kV1,
     [](FakeModule &M, Builder &S) {
       goodFunction(M, S).function(M.pc(0x1000), 1 << 30, kFeatureAtomics);
     },
     1},
    {"FunctionsUnknownVersion", MK_Functions, kVersionBase + 1,
     [](FakeModule &M, Builder &S) { goodFunction(M, S); }, 0},
    {"UnknownVersionFlags", MK_Functions, kV1 | kVersionPtrSizeRel << 1,
     [](FakeModule &M, Builder &S) { goodFunction(M, S); }, 0},
    // pcmap_atomics
    {"TruncatedPC", MK_Atomics, kV1,
     [](FakeModule &M, Builder &S) {
       goodRecord(M, S).bytes({0x20, 0x01, 0x00});
     },
     1},
    {"NoZeroWord", MK_Atomics, kV1,
     [](FakeModule &M, Builder &S) { goodRecord(M, S).pcField(M.pc(0x108)); },
     1},
    {"TruncatedDescriptor", MK_Atomics, kV1,
     [](FakeModule &M, Builder &S) {
       goodRecord(M, S).pcField(M.pc(0x108)).zeroWord().bytes({0x90});
     },
     1},
    {"OverlongDescriptor", MK_Atomics, kV1,
     [](FakeModule &M, Builder &S) { // 11 bytes
       goodRecord(M, S)
           .pcField(M.pc(0x108))
           .zeroWord()
           .bytes({0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                   0x01});
     },
     1},
    {"RecordWithoutPCs", MK_Atomics, kV1,
     [](FakeModule &M, Builder &S) { goodRecord(M, S).zeroWord().uleb(kLoad); },
     1},
    {"Kind7", MK_Atomics, kV1,
     [](FakeModule &M, Builder &S) {
       goodRecord(M, S).record({M.pc(0x108)},
                               desc(AtomicKind(7), 2, AO_Acquire));
     },
     1},
    {"Kind5", MK_Atomics, kV1,
     [](FakeModule &M, Builder &S) {
       goodRecord(M, S).record({M.pc(0x108)},
                               desc(AtomicKind(5), 2, AO_Acquire));
     },
     1},
    {"Descriptor2To21", MK_Atomics, kV1,
     [](FakeModule &M, Builder &S) {
       goodRecord(M, S).record({M.pc(0x108)}, kMaxDescriptor + 1);
     },
     1},
    {"PCBeforeText", MK_Atomics, kV1,
     [](FakeModule &M, Builder &S) {
       goodRecord(M, S).record({M.pc(0) - 16}, kLoad);
     },
     1},
    {"PCPastText", MK_Atomics, kV1,
     [](FakeModule &M, Builder &S) {
       goodRecord(M, S).record({M.textEnd()}, kLoad);
     },
     1},
    {"PCFarPastTextPointerSized", MK_Atomics, kV1Wide,
     [](FakeModule &M, Builder &S) {
       goodRecord(M, S).record({M.pc(uint64_t(1) << 36)}, kLoad);
     },
     1},
    // 4-byte PCs read as pointer-sized ones: garbage PCs.
    {"WrongPCWidth", MK_Atomics, kV1,
     [](FakeModule &M, Builder &S) {
       goodRecord(M, S).record({M.pc(0x108)}, kLoad);
     },
     0, kV1Wide},
    {"AtomicsUnknownVersion", MK_Atomics, kVersionBase + 1,
     [](FakeModule &M, Builder &S) { goodRecord(M, S); }, 0},
    // sanmd_atomics, sanmd_covered
    {"UpstreamZeroPC", MK_UpstreamAtomics, kUpstreamVersionV2,
     [](FakeModule &M, Builder &S) { S.pcField(M.pc(kGoodAtomic)).zeroWord(); },
     1},
    {"UpstreamPCPastText", MK_UpstreamAtomics, kUpstreamVersionV2,
     [](FakeModule &M, Builder &S) {
       S.pcField(M.pc(kGoodAtomic)).pcField(M.textEnd() + 4);
     },
     1},
    {"UpstreamTruncatedStackArgs", MK_UpstreamCovered, kUpstreamVersionV2,
     [](FakeModule &M, Builder &S) { // UAR with a size, and no size
       S.function(M.pc(kGoodFunction), 0x10, kUpstreamFeatureAtomics)
           .function(M.pc(0x300), 0x10,
                     kUpstreamFeatureAtomics | kUpstreamFeatureUAR |
                         kUpstreamFeatureUARHasSize);
     },
     1},
    {"UpstreamUnknownVersion", MK_UpstreamCovered, kUpstreamVersionV2 + 1,
     [](FakeModule &M, Builder &S) {
       S.function(M.pc(kGoodFunction), 0x10, 0);
     },
     0},
};

class RejectionTest : public RegistrationTest,
                      public ::testing::WithParamInterface<BadSection> {};

TEST_P(RejectionTest, RejectsWholeSection) {
  const BadSection &B = GetParam();
  // In a module of its own, and after a valid functions section.
  for (bool WithFunctions : {false, true}) {
    SCOPED_TRACE(WithFunctions ? "after functions" : "alone");
    FakeModule M;
    if (WithFunctions)
      M.section(MK_Functions)
          .function(M.pc(0x100), 0x40, kFeatureAtomics)
          .add();
    pcmap_stats Before = stats();
    SectionBytes S = M.add(B.place(M));
    pcmap_stats After = stats();
    EXPECT_EQ(After.sections_rejected, Before.sections_rejected + 1);
    EXPECT_GE(After.entries_rejected, Before.entries_rejected + B.MinEntries);
    EXPECT_TRUE(sameTables(Before));
    // Nothing of it is used, not even its valid first entry.
    if (!WithFunctions || !B.isAtomics())
      EXPECT_TRUE(knowsNothingAbout(M.pc(B.good())));
    else
      EXPECT_EQ(atomicAt(M, B.good()), "none");
    if (WithFunctions) {
      // Once a pcmap atomics section of the module is lost, its functions
      // may lack atomics: none of them answers "not atomic" any more.
      int Expected = B.Kind == MK_Atomics ? PCMAP_UNKNOWN : PCMAP_NO;
      EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x104)), Expected);
      EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x108)), Expected);
    }
    // Deleting it is harmless.
    M.del(S);
    EXPECT_TRUE(sameTables(Before));
  }
}

INSTANTIATE_TEST_SUITE_P(Malformed, RejectionTest,
                         ::testing::ValuesIn(BadSections),
                         [](const ::testing::TestParamInfo<BadSection> &I) {
                           return I.param.Name;
                         });

TEST_F(RegistrationTest, ValidSectionsAfterRejectionsAreAccepted) {
  FakeModule M;
  for (const BadSection &B : BadSections) {
    SectionBytes S = M.add(B.place(M));
    M.del(S);
  }
  EXPECT_EQ(stats().sections_rejected,
            AtStart.sections_rejected + std::size(BadSections));
  EXPECT_TRUE(sameTables(AtStart));
  pcmap_stats Before = stats();
  M.section(MK_Functions).function(M.pc(0x100), 0x40, kFeatureAtomics).add();
  M.section(MK_Atomics).record({M.pc(0x110)}, kLoad).add();
  pcmap_stats After = stats();
  EXPECT_EQ(After.sections, Before.sections + 2);
  EXPECT_EQ(After.sections_rejected, Before.sections_rejected);
  EXPECT_EQ(atomicAt(M, 0x110), "load 4 acquire in +0x100");
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x111)), PCMAP_NO);
}

TEST_F(RegistrationTest, SectionInNoModuleIsRejected) {
  FakeModule M; // the text its PCs name
  std::vector<uint8_t> Heap(256);
  SectionBuilder B(Heap.data(), Heap.data() + Heap.size(), MK_Functions,
                   kV1Wide);
  B.function(M.pc(0x100), 0x10, kFeatureAtomics);
  callback(B.place(), true);
  EXPECT_TRUE(sameTables(AtStart));
  EXPECT_EQ(stats().sections_rejected, AtStart.sections_rejected + 1);
  EXPECT_TRUE(knowsNothingAbout(M.pc(0x100)));
  callback(B.place(), false);
  EXPECT_TRUE(sameTables(AtStart));
}

// An atomics section of zero words: the fast decoder sees a "record" end
// every five bytes (a zero word and a one-byte descriptor) before it finds
// the section malformed, and must have room for each: a regression test for
// a write past its scratch (found by fuzz/report.test) at sizes around
// every capacity the scratch has had. Rejected, and nothing else changes;
// the ASan build sees any write out of bounds.
TEST_F(RegistrationTest, SectionsOfZeroWordsAreRejectedInBounds) {
  for (size_t Words : {size_t(300), size_t(500), size_t(15000)}) {
    FakeModule M;
    pcmap_stats Before = stats();
    SectionBuilder B = M.section(MK_Atomics);
    for (size_t I = 0; I < Words; ++I)
      B.zeroWord();
    SectionBytes Zeros = B.place();
    M.add(Zeros);
    EXPECT_EQ(stats().sections_rejected, Before.sections_rejected + 1) << Words;
    EXPECT_EQ(stats().atomics, Before.atomics) << Words;
    M.del(Zeros);
  }
}

// The functions are valid, the atomics section is not. The functions'
// atomics are then not all known: their PCs must not be "no" (that would say
// "not an atomic" of an atomic the rejected section names).
TEST_F(RegistrationTest, RejectedAtomicsLeaveTheirFunctionsUnknown) {
  FakeModule M;
  M.section(MK_Functions).function(M.pc(0x100), 0x40, kFeatureAtomics).add();
  pcmap_stats Before = stats();
  SectionBytes Bad =
      M.section(MK_Atomics)
          .record({M.pc(0x110)}, kLoad)
          .record({M.pc(0x120)}, desc(AtomicKind(7), 2, AO_Acquire))
          .add();
  EXPECT_EQ(stats().sections, Before.sections);
  EXPECT_EQ(stats().sections_rejected, Before.sections_rejected + 1);
  EXPECT_EQ(atomicAt(M, 0x110), "none");
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x110)), PCMAP_UNKNOWN);
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x100)), PCMAP_UNKNOWN);
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x108)), PCMAP_UNKNOWN);
  // Registered again: recognised, not counted twice.
  callback(Bad, true);
  EXPECT_EQ(stats().sections_rejected, Before.sections_rejected + 1);
  // Removed: the functions answer again.
  M.del(Bad);
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x108)), PCMAP_NO);
}

// A bad PC, or a descriptor too long, deep inside a long section (where the
// bulk path decodes) is found there too, and rejects the whole section.
TEST_F(RegistrationTest, LongSectionsAreCheckedThroughout) {
  for (uint32_t Version : {kV1, kV1Wide}) {
    for (unsigned Bad = 0; Bad < 4; ++Bad) {
      FakeModule M(1 << 16);
      M.section(MK_Functions, Version)
          .function(M.pc(0), 0x8000, kFeatureAtomics)
          .add();
      pcmap_stats Before = stats();
      auto S = M.section(MK_Atomics, Version);
      for (unsigned R = 0; R < 100; ++R) {
        if (R == 77) {
          if (Bad == 0) // one byte past the code
            S.record({M.pc(0x100), M.pc(1 << 16)}, kLoad);
          else if (Bad == 1) // one byte before it
            S.record({M.pc(0x100), M.pc(0) - 1, M.pc(0x104)}, kLoad);
          else if (Bad == 2) // a descriptor of four bytes
            S.record({M.pc(0x100)}, kMaxDescriptor + 1);
          else // a record without PCs
            S.zeroWord().uleb(kLoad);
          continue;
        }
        S.record({M.pc(8 * R), M.pc(8 * R + 2)}, kLoad);
      }
      S.add();
      pcmap_stats After = stats();
      EXPECT_EQ(After.sections_rejected, Before.sections_rejected + 1)
          << Version << " " << Bad;
      EXPECT_EQ(After.atomics, Before.atomics) << Version << " " << Bad;
    }
  }
}

TEST_F(RegistrationTest, FunctionWithAtomicsIsCompleteOnlyWithItsAtomics) {
  // Constructors register functions and atomics one after the other: in
  // between, a function that has atomics must not answer "not atomic".
  FakeModule M;
  M.section(MK_Functions)
      .function(M.pc(0x100), 0x40, kFeatureAtomics | kFeatureHasAtomics)
      .function(M.pc(0x200), 0x40, kFeatureAtomics)
      .add();
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x110)), PCMAP_UNKNOWN);
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x210)), PCMAP_NO); // has no atomics
  pcmap_function F;
  ASSERT_TRUE(pcmap_lookup_function(M.pc(0x110), &F));
  EXPECT_EQ(F.features, unsigned(kFeatureHasAtomics));
  M.section(MK_Atomics).record({M.pc(0x110)}, kLoad).add();
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x110)), PCMAP_YES);
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x111)), PCMAP_NO);
  ASSERT_TRUE(pcmap_lookup_function(M.pc(0x110), &F));
  EXPECT_EQ(F.features, unsigned(kFeatureAtomics | kFeatureHasAtomics));
}

TEST_F(RegistrationTest, UpstreamCompletenessNeedsUpstreamAtomics) {
  FakeModule M;
  M.section(MK_UpstreamCovered)
      .function(M.pc(0x100), 0x20, kUpstreamFeatureAtomics)
      .add();
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x108)), PCMAP_UNKNOWN);
  M.section(MK_UpstreamAtomics).pcField(M.pc(0x104)).add();
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x104)), PCMAP_YES);
  EXPECT_EQ(pcmap_is_atomic_pc(M.pc(0x108)), PCMAP_NO);
}

TEST_F(RegistrationTest, RemovingSectionsRemovesTheirEntries) {
  uintptr_t PC;
  {
    FakeModule M;
    M.section(MK_Functions).function(M.pc(0x100), 0x40, kFeatureAtomics).add();
    M.section(MK_Atomics).record({M.pc(0x104)}, kLoad).add();
    PC = M.pc(0x104);
    EXPECT_EQ(pcmap_is_atomic_pc(PC), PCMAP_YES);
    EXPECT_EQ(stats().modules, AtStart.modules + 1);
  } // unregisters both sections
  EXPECT_EQ(pcmap_is_atomic_pc(PC), PCMAP_UNKNOWN);
  pcmap_stats After = stats();
  EXPECT_EQ(After.modules, AtStart.modules);
  EXPECT_EQ(After.atomics, AtStart.atomics);
  EXPECT_EQ(After.table_bytes, AtStart.table_bytes);
}

TEST_F(RegistrationTest, MemoryIsReusedAcrossRegistrations) {
  // Registering and removing the same tables over and over must not grow
  // the table memory.
  size_t FirstBytes = 0;
  for (int Round = 0; Round < 50; ++Round) {
    FakeModule M(1 << 22);
    auto F = M.section(MK_Functions);
    for (int I = 0; I < 500; ++I)
      F.function(M.pc(I * 0x1000), 0x800, kFeatureAtomics);
    F.add();
    auto A = M.section(MK_Atomics);
    for (int I = 0; I < 500; ++I)
      A.record({M.pc(I * 0x1000 + 8)}, kLoad);
    A.add();
    size_t Bytes = stats().table_bytes;
    if (Round == 0)
      FirstBytes = Bytes;
    EXPECT_EQ(Bytes, FirstBytes);
  }
}

} // namespace
