//===- FakeModule.h - Hand-built sections in fake modules -------*- C++ -*-===//
//
// What RegistrationTest.cpp and QueryTest.cpp share: a fake module (a
// reserved, unmapped range of "code" and, in front of it, room for sections,
// made known to the runtime through rt/testing/pcmap_testing.h), a builder that writes
// pcmap and sanmd sections there byte by byte as docs/FORMAT.md describes
// them (with Format.h's encoders and names), the real registration
// callbacks, and the public queries' answers as text, so that a failed
// expectation shows every field at once.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_TEST_UNIT_FAKEMODULE_H
#define PCMAP_TEST_UNIT_FAKEMODULE_H

#include "pcmap/Format.h"
#include "pcmap/pcmap.h"
#include "pcmap_testing.h"

#include "gtest/gtest.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <string>
#include <sys/mman.h>
#include <vector>

namespace pcmap_test {

using namespace pcmap::format;

/// Section versions: 4-byte relative PCs, and pointer-sized ones.
constexpr uint32_t kV1 = kVersionBase;
constexpr uint32_t kV1Wide = kVersionBase | kVersionPtrSizeRel;

/// A descriptor (docs/FORMAT.md, "Descriptor").
constexpr uint64_t desc(AtomicKind Kind, uint32_t SizeLog2, AtomicOrder Order) {
  AtomicDescriptor D;
  D.Kind = Kind;
  D.SizeLog2 = SizeLog2;
  D.Order = Order;
  return encodeDescriptor(D);
}
constexpr uint64_t rmwDesc(RMWOp Op, uint32_t SizeLog2, AtomicOrder Order) {
  return desc(AK_RMW, SizeLog2, Order) | uint64_t(Op) << kRMWOpShift;
}
constexpr uint64_t cmpxchgDesc(uint32_t SizeLog2, AtomicOrder Success,
                               AtomicOrder Failure, bool Weak) {
  return desc(AK_CmpXchg, SizeLog2, Success) |
         uint64_t(Failure) << kFailureOrderShift | uint64_t(Weak) << kWeakShift;
}
constexpr uint64_t kVolatileBit = uint64_t(1) << kVolatileShift;
constexpr uint64_t kFromAsmBit = uint64_t(1) << kFromAsmShift;
/// Bits 17..20: reserved in version 1, ignored by readers.
constexpr uint64_t kReservedDescriptorBits =
    kMaxDescriptor & ~((uint64_t(1) << (kRMWOpShift + kRMWOpBits)) - 1);
/// A 4-byte acquire load: any valid descriptor.
constexpr uint64_t kLoad = desc(AK_Load, 2, AO_Acquire);

/// A section's bytes, in place, and how to register them.
struct SectionBytes {
  MetadataKind Kind = MK_None;
  uint32_t Version = 0;
  const char *Begin = nullptr, *End = nullptr;
};

/// Calls the registration callback of S's kind (add or del).
inline void callback(const SectionBytes &S, bool Add) {
  auto *Fn = Add ? __pcmap_atomics_add : __pcmap_atomics_del;
  if (S.Kind == MK_Functions)
    Fn = Add ? __pcmap_functions_add : __pcmap_functions_del;
  else if (S.Kind == MK_UpstreamAtomics)
    Fn = Add ? __sanitizer_metadata_atomics_add
             : __sanitizer_metadata_atomics_del;
  else if (S.Kind == MK_UpstreamCovered)
    Fn = Add ? __sanitizer_metadata_covered_add
             : __sanitizer_metadata_covered_del;
  Fn(S.Version, S.Begin, S.End);
}

class FakeModule;

/// Writes a section at its final address (relative PCs depend on it), from
/// At up to Limit: in a fake module's room for sections (FakeModule::section)
/// or anywhere else.
class SectionBuilder {
public:
  SectionBuilder(uint8_t *At, uint8_t *Limit, MetadataKind Kind,
                 uint32_t Version, FakeModule *Owner = nullptr)
      : Begin(At), Pos(At), Limit(Limit), Kind(Kind), Version(Version),
        Owner(Owner) {}

  unsigned width() const { return relativePCSize(Version, sizeof(void *)); }
  /// A relative PC: PC minus the address of the field. Values that do not
  /// fit in the field are cut to it (a test of garbage PCs may want that).
  SectionBuilder &pcField(uintptr_t PC) {
    int64_t Rel = int64_t(PC - reinterpret_cast<uintptr_t>(Pos));
    writeRelativePC(reserve(width()), Rel, width());
    return *this;
  }
  SectionBuilder &zeroWord() {
    std::memset(reserve(width()), 0, width());
    return *this;
  }
  SectionBuilder &uleb(uint64_t V) {
    writeULEB128(reserve(sizeOfULEB128(V)), V);
    return *this;
  }
  SectionBuilder &u32(uint32_t V) {
    writeU32(reserve(4), V);
    return *this;
  }
  SectionBuilder &bytes(std::initializer_list<uint8_t> B) {
    for (uint8_t X : B)
      *reserve(1) = X;
    return *this;
  }
  /// A pcmap atomic record: its PCs, the zero word, the descriptor.
  SectionBuilder &record(std::initializer_list<uintptr_t> PCs, uint64_t Desc) {
    for (uintptr_t PC : PCs)
      pcField(PC);
    return zeroWord().uleb(Desc);
  }
  /// A pcmap function entry, or a sanmd_covered entry of version 2 (whose
  /// stack-arguments size, if any, follows with uleb()).
  SectionBuilder &function(uintptr_t PC, uint64_t Size, uint64_t Features) {
    return pcField(PC).uleb(Size).uleb(Features);
  }

  /// Ends the section: its bytes are placed (the owner's room after them
  /// is free for the next section), not registered.
  inline SectionBytes place();
  /// Placed, and registered with the owner.
  inline SectionBytes add();

private:
  /// N more bytes at Pos; the test stops if the room is exhausted.
  uint8_t *reserve(size_t N) {
    if (size_t(Limit - Pos) < N) {
      std::fprintf(stderr, "FakeModule.h: no room for the section\n");
      std::abort();
    }
    Pos += N;
    return Pos - N;
  }

  uint8_t *Begin, *Pos, *Limit;
  MetadataKind Kind;
  uint32_t Version;
  FakeModule *Owner;
};

/// A fake module: TextSize bytes of reserved address space for PCs, and
/// room for sections in front of it (in one reservation, so that 4-byte
/// relative PCs reach). Sections registered through it are unregistered,
/// and the module forgotten, when it goes.
class FakeModule {
public:
  explicit FakeModule(uint64_t TextSize = 1 << 20,
                      const char *Name = "fake-module")
      : TextSize(TextSize), Name(Name) {
    void *P = mmap(nullptr, kSectionBytes + TextSize, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (P == MAP_FAILED) {
      std::perror("FakeModule: mmap");
      std::abort();
    }
    EXPECT_EQ(mprotect(P, kSectionBytes, PROT_READ | PROT_WRITE), 0);
    Sections = static_cast<uint8_t *>(P);
    Text = reinterpret_cast<uintptr_t>(P) + kSectionBytes;
    EXPECT_TRUE(__pcmap_testing_add_fake_module(
        Sections, Sections + kSectionBytes, Text, Text + TextSize, Name));
  }
  ~FakeModule() {
    for (const SectionBytes &S : Registered)
      callback(S, /*Add=*/false);
    __pcmap_testing_remove_fake_module(Sections);
    munmap(Sections, kSectionBytes + TextSize);
  }
  FakeModule(const FakeModule &) = delete;
  FakeModule &operator=(const FakeModule &) = delete;

  uintptr_t pc(uint64_t Offset) const { return Text + Offset; }
  uintptr_t textEnd() const { return Text + TextSize; }
  const char *name() const { return Name; }

  /// A section in the module's free room; place() or add() ends it.
  /// Version: pcmap's version 1, or sanmd's version 2.
  SectionBuilder section(MetadataKind Kind, uint32_t Version = 0) {
    if (!Version)
      Version = isUpstreamKind(Kind) ? kUpstreamVersionV2 : kV1;
    return SectionBuilder(Sections + Used, Sections + kSectionBytes, Kind,
                          Version, this);
  }
  /// The room up to End is taken.
  void placed(const char *End) {
    Used = size_t(reinterpret_cast<const uint8_t *>(End) - Sections);
  }

  /// Registers S, to be unregistered with the module.
  SectionBytes add(const SectionBytes &S) {
    callback(S, true);
    Registered.push_back(S);
    return S;
  }
  /// Unregisters S now.
  void del(const SectionBytes &S) {
    callback(S, false);
    for (size_t I = 0; I < Registered.size(); ++I)
      if (Registered[I].Begin == S.Begin && Registered[I].End == S.End &&
          Registered[I].Version == S.Version) {
        Registered.erase(Registered.begin() + I);
        break;
      }
  }

private:
  static constexpr uint64_t kSectionBytes = 1 << 16;
  uint64_t TextSize;
  const char *Name;
  uintptr_t Text;
  uint8_t *Sections;
  size_t Used = 0;
  std::vector<SectionBytes> Registered;
};

SectionBytes SectionBuilder::place() {
  SectionBytes S = {Kind, Version, reinterpret_cast<const char *>(Begin),
                    reinterpret_cast<const char *>(Pos)};
  if (Owner)
    Owner->placed(S.End);
  return S;
}

SectionBytes SectionBuilder::add() { return Owner->add(place()); }

/// The sections of a typical module: three functions, listed out of address
/// order, f1 [0x100, 0x140) and f2 [0x200, 0x220) complete for atomics, f3
/// [0x300, 0x310) not; and eight atomics:
///   0x110, 0x118  one record: a 4-byte acquire load (one atomic's two
///                 instructions, or two atomics alike)
///   0x120         a weak 4-byte cmpxchg, acq_rel, failure acquire
///   0x130         a seq_cst fence, its PC twice in its record (kept once)
///   0x208         an 8-byte seq_cst add
///   0x20c         a volatile 2-byte relaxed store from inline asm, with the
///                 reserved descriptor bits set (ignored)
///   0x304         a 1-byte release store, in the incomplete function
///   0x500         an 8-byte relaxed load outside every function
struct SampleModule {
  static constexpr uint64_t F1 = 0x100, F2 = 0x200, F3 = 0x300;
  static constexpr size_t NumFunctions = 3, NumAtomics = 8;
  SectionBytes Functions, Atomics;

  /// Places them in M (registers nothing).
  SampleModule(FakeModule &M, uint32_t Version = kV1) {
    Functions = M.section(MK_Functions, Version)
                    .function(M.pc(F3), 0x10, 0)
                    .function(M.pc(F1), 0x40, kFeatureAtomics)
                    .function(M.pc(F2), 0x20, kFeatureAtomics)
                    .place();
    Atomics =
        M.section(MK_Atomics, Version)
            .record({M.pc(0x110), M.pc(0x118)}, kLoad)
            .record({M.pc(0x208)}, rmwDesc(RMW_Add, 3, AO_SeqCst))
            .record({M.pc(0x120)}, cmpxchgDesc(2, AO_AcqRel, AO_Acquire, true))
            .record({M.pc(0x304)}, desc(AK_Store, 0, AO_Release))
            .record({M.pc(0x130), M.pc(0x130)}, desc(AK_Fence, 0, AO_SeqCst))
            .record({M.pc(0x500)}, desc(AK_Load, 3, AO_Relaxed))
            .record({M.pc(0x20c)}, desc(AK_Store, 1, AO_Relaxed) |
                                       kVolatileBit | kFromAsmBit |
                                       kReservedDescriptorBits)
            .place();
  }
};

inline pcmap_stats stats() {
  pcmap_stats S;
  pcmap_get_stats(&S);
  return S;
}

/// The tables grew from Before by this many modules, functions, atomics and
/// accepted sections.
inline ::testing::AssertionResult grewBy(const pcmap_stats &Before,
                                         size_t Modules, size_t Functions,
                                         size_t Atomics, size_t Sections) {
  pcmap_stats S = stats();
  if (S.modules == Before.modules + Modules &&
      S.functions == Before.functions + Functions &&
      S.atomics == Before.atomics + Atomics &&
      S.sections == Before.sections + Sections)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "modules " << Before.modules << " -> " << S.modules
         << ", functions " << Before.functions << " -> " << S.functions
         << ", atomics " << Before.atomics << " -> " << S.atomics
         << ", sections " << Before.sections << " -> " << S.sections;
}

/// Modules, functions, atomics and accepted sections as they were in Before.
inline ::testing::AssertionResult sameTables(const pcmap_stats &Before) {
  return grewBy(Before, 0, 0, 0, 0);
}

/// The nearest atomic before PC (pcmap_lookup_atomic_before), or 0.
inline uintptr_t atomicBefore(uintptr_t PC, unsigned MaxBytes) {
  pcmap_atomic A;
  return pcmap_lookup_atomic_before(PC, MaxBytes, &A) ? A.pc : 0;
}

inline std::string hex(uint64_t V) {
  char Buf[24];
  std::snprintf(Buf, sizeof Buf, "0x%llx", (unsigned long long)V);
  return Buf;
}

/// Nothing is known about PC: not an atomic, in no function, no atomic
/// just before it.
inline ::testing::AssertionResult knowsNothingAbout(uintptr_t PC) {
  pcmap_atomic A;
  pcmap_function F;
  int Answer = pcmap_is_atomic_pc(PC);
  bool Atomic = pcmap_lookup_atomic(PC, &A);
  bool Function = pcmap_lookup_function(PC, &F);
  uintptr_t Before = atomicBefore(PC + 1, 64);
  if (Answer == PCMAP_UNKNOWN && !Atomic && !Function && !Before)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << hex(PC) << ": is_atomic " << Answer << (Atomic ? ", an atomic" : "")
         << (Function ? ", a function" : "")
         << (Before ? ", an atomic before it" : "");
}

/// How many registered modules are called Name; the last in *Out.
inline int modulesNamed(const char *Name, pcmap_module *Out) {
  pcmap_module M;
  int N = 0;
  for (size_t I = 0; pcmap_module_at(I, &M); ++I)
    if (M.path && !std::strcmp(M.path, Name)) {
      *Out = M;
      ++N;
    }
  return N;
}

/// The atomic at M.pc(Offset) as pcmap_lookup_atomic describes it:
///   <kind> <size> <order> [failure=<order>] [<rmw op>] [volatile] [weak]
///   [upstream] [asm] in +<function start>|in no function
/// with Format.h's names, offsets from the start of M's text, and a note
/// where pcmap_is_atomic_pc does not say yes. "none" if there is none.
inline std::string atomicAt(const FakeModule &M, uint64_t Offset) {
  uintptr_t PC = M.pc(Offset);
  int Answer = pcmap_is_atomic_pc(PC);
  pcmap_atomic A;
  std::memset(&A, 0xa5, sizeof A);
  if (!pcmap_lookup_atomic(PC, &A))
    return Answer == PCMAP_YES ? "none, yet is_atomic says yes" : "none";
  auto Name = [](const char *N) { return std::string(N ? N : "INVALID"); };
  std::string S =
      Name(A.kind == PCMAP_KIND_UNKNOWN ? "unknown" : atomicKindName(A.kind));
  S += " " + std::to_string(A.size) + " " + Name(atomicOrderName(A.order));
  if (A.kind == PCMAP_KIND_CMPXCHG)
    S += " failure=" + Name(atomicOrderName(A.failure_order));
  if (A.kind == PCMAP_KIND_RMW)
    S += " " + Name(rmwOperationName(A.rmw_op));
  const struct {
    uint32_t Bit;
    const char *Name;
  } Flags[] = {{PCMAP_ATOMIC_VOLATILE, "volatile"},
               {PCMAP_ATOMIC_WEAK, "weak"},
               {PCMAP_ATOMIC_UPSTREAM, "upstream"},
               {PCMAP_ATOMIC_INLINE_ASM, "asm"}};
  uint32_t Unknown = A.flags;
  for (const auto &F : Flags)
    if (A.flags & F.Bit) {
      S += std::string(" ") + F.Name;
      Unknown &= ~F.Bit;
    }
  if (Unknown)
    S += " flags=" + hex(Unknown);
  S += A.has_function ? " in +" + hex(A.function.start - M.pc(0))
                      : std::string(" in no function");
  if (A.pc != PC)
    S += " at " + hex(A.pc);
  if (Answer != PCMAP_YES)
    S += " (is_atomic " + std::to_string(Answer) + ")";
  return S;
}

/// The function holding M.pc(Offset) as pcmap_lookup_function describes it:
///   +<start> size <size> features <features> atomics <n> <source> <module>
/// and, for a sanmd_covered entry, "upstream_features <f> stack_args <n>".
/// "none" if there is none.
inline std::string functionAt(const FakeModule &M, uint64_t Offset) {
  pcmap_function F;
  std::memset(&F, 0xa5, sizeof F);
  if (!pcmap_lookup_function(M.pc(Offset), &F))
    return "none";
  std::string S = "+" + hex(F.start - M.pc(0)) + " size " + hex(F.size) +
                  " features " + hex(F.features) + " atomics " +
                  std::to_string(F.num_atomics);
  const char *Sources[] = {"none", "pcmap", "upstream", "pcmap+upstream"};
  S += std::string(" ") + (F.source < 4 ? Sources[F.source] : "INVALID");
  S += std::string(" ") + (F.module_path ? F.module_path : "(null)");
  if (F.source & PCMAP_SOURCE_UPSTREAM)
    S += " upstream_features " + hex(F.upstream_features) + " stack_args " +
         std::to_string(F.upstream_stack_args);
  return S;
}

/// Runtime tests: the runtime is quiet (rejections are expected), and each
/// test leaves its tables as it found them (its fake modules are gone).
class RuntimeTest : public ::testing::Test {
protected:
  void SetUp() override {
    __pcmap_testing_set_verbosity(0);
    AtStart = stats();
  }
  void TearDown() override {
    EXPECT_TRUE(sameTables(AtStart)) << "left behind by the test";
    pcmap_module M;
    EXPECT_FALSE(pcmap_module_at(AtStart.modules, &M))
        << "a module left behind: " << M.path;
  }
  pcmap_stats AtStart;
};

} // namespace pcmap_test

#endif // PCMAP_TEST_UNIT_FAKEMODULE_H
