//===- pcmap/Format.h - The pcmap binary format, version 1 ------*- C++ -*-===//
//
// The one definition of the pcmap binary format, shared by the LLVM pass
// plugin (producer), the runtime and pcmap-report (consumers). It depends on
// nothing but <stdint.h> and <stddef.h> so that the runtime can include it
// without libc++. docs/FORMAT.md is the prose version of this file; keep the
// two in step.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_FORMAT_H
#define PCMAP_FORMAT_H

#include <stddef.h>
#include <stdint.h>

namespace pcmap {
namespace format {

//===----------------------------------------------------------------------===//
// Sections, versions and callbacks
//===----------------------------------------------------------------------===//

/// Format version of this header. It occupies the low 16 bits of a section
/// version; the high bits are flags.
constexpr uint32_t kVersionBase = 1;
/// Set in a section version when relative PCs are pointer-sized (medium and
/// large code model); otherwise they are 32-bit. Same bit as upstream's
/// SanitizerBinaryMetadata (LLVM PR #97848).
constexpr uint32_t kVersionPtrSizeRel = 1u << 16;
constexpr uint32_t kVersionBaseMask = 0xffff;

constexpr uint32_t versionBase(uint32_t Version) {
  return Version & kVersionBaseMask;
}
constexpr bool hasPtrSizedPCs(uint32_t Version) {
  return (Version & kVersionPtrSizeRel) != 0;
}
/// Width in bytes of one relative PC for a section version.
constexpr unsigned relativePCSize(uint32_t Version, unsigned PointerSize) {
  return hasPtrSizedPCs(Version) ? PointerSize : 4;
}

/// Section base names; the ELF section is the base name followed by the
/// decimal section version, e.g. "pcmap_atomics1" or "pcmap_atomics65537".
constexpr const char kAtomicsSectionBase[] = "pcmap_atomics";
constexpr const char kFunctionsSectionBase[] = "pcmap_functions";

/// Registration callbacks of a module's (executable's or DSO's) sections of
/// one version, with the signature
///   void (uint32_t version, const char *atomics_start,
///         const char *atomics_stop, const char *functions_start,
///         const char *functions_stop);
/// called from the module's constructor and destructor with the
/// __start_/__stop_ bounds of its sections (null for a section the module
/// does not have). One call for both lets the runtime build the module's
/// table once.
constexpr const char kSectionsAddCallback[] = "__pcmap_sections_add";
constexpr const char kSectionsDelCallback[] = "__pcmap_sections_del";
/// One-section callbacks, for other producers, with the signature
///   void (uint32_t version, const char *start, const char *stop);
constexpr const char kAtomicsAddCallback[] = "__pcmap_atomics_add";
constexpr const char kAtomicsDelCallback[] = "__pcmap_atomics_del";
constexpr const char kFunctionsAddCallback[] = "__pcmap_functions_add";
constexpr const char kFunctionsDelCallback[] = "__pcmap_functions_del";

/// Constructor priority of the registration constructors (same as upstream
/// sanmd, so that both kinds of metadata arrive at the same point).
constexpr int kCtorPriority = 2;

//===----------------------------------------------------------------------===//
// Atomic records
//
//   record := pc+ zero-word descriptor
//   pc     := relative PC (4 or pointer-size bytes, little endian, signed):
//             absolute PC = address of the field + value; never 0
//   zero-word := as many zero bytes as one relative PC
//   descriptor := ULEB128, see below
//
// The backend emits every PC that carries the same !pcsections node before the
// node's constants, so one record lists all instructions of a function that
// share a descriptor (including every instruction an atomic was lowered to).
// A relative PC of 0 would point at the field itself, which is data, never
// code; it therefore ends the run of PCs unambiguously.
//===----------------------------------------------------------------------===//

enum AtomicKind : uint32_t {
  AK_Load = 0,
  AK_Store = 1,
  AK_RMW = 2,
  AK_CmpXchg = 3,
  AK_Fence = 4,
  AK_LastKind = AK_Fence,
};

/// Memory orders; the values are LLVM's AtomicOrdering values. Version-1
/// producers never emit 0 or 3; readers show them as unknown.
enum AtomicOrder : uint32_t {
  AO_Unknown = 0,
  AO_Unordered = 1,
  AO_Relaxed = 2, // LLVM "monotonic"
  AO_Reserved3 = 3,
  AO_Acquire = 4,
  AO_Release = 5,
  AO_AcqRel = 6,
  AO_SeqCst = 7,
};

/// Read-modify-write operations. The numbering is pcmap's own and stable; it
/// is not LLVM's AtomicRMWInst::BinOp, which changes between releases.
enum RMWOp : uint32_t {
  RMW_Xchg = 0,
  RMW_Add = 1,
  RMW_Sub = 2,
  RMW_And = 3,
  RMW_Nand = 4,
  RMW_Or = 5,
  RMW_Xor = 6,
  RMW_Max = 7,
  RMW_Min = 8,
  RMW_UMax = 9,
  RMW_UMin = 10,
  RMW_FAdd = 11,
  RMW_FSub = 12,
  RMW_FMax = 13,
  RMW_FMin = 14,
  RMW_UIncWrap = 15,
  RMW_UDecWrap = 16,
  RMW_USubCond = 17,
  RMW_USubSat = 18,
  RMW_FMaximum = 19,
  RMW_FMinimum = 20,
  RMW_LastKnown = RMW_FMinimum,
  /// An operation this format version does not name (a newer LLVM).
  RMW_Other = 63,
};

/// Descriptor bit layout (ULEB128-encoded):
///   [2:0]   kind (AtomicKind)
///   [5:3]   log2 of the access size in bytes (0..6 = 1..64 bytes);
///           7 = larger; 0 for fences
///   [8:6]   memory order (AtomicOrder); for cmpxchg the success order
///   [9]     volatile
///   [10]    from inline asm: the atomic is an instruction written in an asm
///           statement, recognised by the plugin (added compatibly in
///           version 1; older readers ignore it)
///   rmw:     [16:11] operation (RMWOp)
///   cmpxchg: [13:11] failure order, [14] weak
///   [20:17] reserved
/// Reserved bits are zero in version 1; readers ignore bits they do not know,
/// so that optional information can be added compatibly.
/// Loads, stores and fences stay below 2^11 (2 ULEB bytes); every atomic
/// stays below 2^21 (3 ULEB bytes).
constexpr unsigned kKindShift = 0, kKindBits = 3;
constexpr unsigned kSizeShift = 3, kSizeBits = 3;
constexpr unsigned kOrderShift = 6, kOrderBits = 3;
constexpr unsigned kVolatileShift = 9;
constexpr unsigned kFromAsmShift = 10;
constexpr unsigned kRMWOpShift = 11, kRMWOpBits = 6;
constexpr unsigned kFailureOrderShift = 11, kFailureOrderBits = 3;
constexpr unsigned kWeakShift = 14;
constexpr unsigned kSizeLog2Other = 7;
constexpr unsigned kMaxSizeLog2 = 6;
/// Descriptors of version 1 never exceed this (3 ULEB128 bytes).
constexpr uint64_t kMaxDescriptor = (1u << 21) - 1;

struct AtomicDescriptor {
  AtomicKind Kind = AK_Load;
  /// log2 of the access size, or kSizeLog2Other.
  uint32_t SizeLog2 = 0;
  AtomicOrder Order = AO_Unknown;
  AtomicOrder FailureOrder = AO_Unknown; // cmpxchg only
  RMWOp Op = RMW_Xchg;                   // rmw only
  bool Volatile = false;
  bool Weak = false; // cmpxchg only
  bool FromAsm = false;

  /// Access size in bytes, or 0 when larger than 64.
  constexpr uint32_t sizeInBytes() const {
    return SizeLog2 <= kMaxSizeLog2 ? (1u << SizeLog2) : 0;
  }
};

constexpr uint64_t field(uint64_t Value, unsigned Shift, unsigned Bits) {
  return (Value >> Shift) & ((uint64_t(1) << Bits) - 1);
}

constexpr uint64_t encodeDescriptor(const AtomicDescriptor &D) {
  uint64_t V = uint64_t(D.Kind) << kKindShift;
  V |= uint64_t(D.Kind == AK_Fence ? 0 : D.SizeLog2) << kSizeShift;
  V |= uint64_t(D.Order) << kOrderShift;
  V |= uint64_t(D.Volatile) << kVolatileShift;
  V |= uint64_t(D.FromAsm) << kFromAsmShift;
  if (D.Kind == AK_RMW)
    V |= uint64_t(D.Op) << kRMWOpShift;
  if (D.Kind == AK_CmpXchg) {
    V |= uint64_t(D.FailureOrder) << kFailureOrderShift;
    V |= uint64_t(D.Weak) << kWeakShift;
  }
  return V;
}

/// Decodes a descriptor. Returns false for a value no version-1 producer
/// emits (unknown kind or a value above kMaxDescriptor); unknown reserved bits
/// below that are ignored.
constexpr bool decodeDescriptor(uint64_t V, AtomicDescriptor &D) {
  if (V > kMaxDescriptor)
    return false;
  uint32_t Kind = uint32_t(field(V, kKindShift, kKindBits));
  if (Kind > AK_LastKind)
    return false;
  D = AtomicDescriptor();
  D.Kind = AtomicKind(Kind);
  D.SizeLog2 = uint32_t(field(V, kSizeShift, kSizeBits));
  D.Order = AtomicOrder(field(V, kOrderShift, kOrderBits));
  D.Volatile = field(V, kVolatileShift, 1);
  D.FromAsm = field(V, kFromAsmShift, 1);
  if (D.Kind == AK_RMW)
    D.Op = RMWOp(field(V, kRMWOpShift, kRMWOpBits));
  if (D.Kind == AK_CmpXchg) {
    D.FailureOrder =
        AtomicOrder(field(V, kFailureOrderShift, kFailureOrderBits));
    D.Weak = field(V, kWeakShift, 1);
  }
  return true;
}

/// The bits a version-1 descriptor of kind Kind (<= AK_LastKind) defines:
/// encodeDescriptor(D) for the D that decodeDescriptor(V) makes is
/// V & definedDescriptorBits(kind of V). A reader that keeps only what it
/// understands masks with it, without decoding each field.
constexpr uint64_t definedDescriptorBits(uint32_t Kind) {
  AtomicDescriptor D;
  decodeDescriptor(
      (kMaxDescriptor & ~(((uint64_t(1) << kKindBits) - 1) << kKindShift)) |
          (uint64_t(Kind) << kKindShift),
      D);
  return encodeDescriptor(D);
}

/// Names of descriptor fields, as docs/FORMAT.md spells them and as reports
/// print them. Null for a value the format does not define.
constexpr const char *atomicKindName(uint32_t Kind) {
  switch (Kind) {
  case AK_Load:
    return "load";
  case AK_Store:
    return "store";
  case AK_RMW:
    return "rmw";
  case AK_CmpXchg:
    return "cmpxchg";
  case AK_Fence:
    return "fence";
  }
  return nullptr;
}

/// Orders 0 and 3 are never emitted; they read as "unknown".
constexpr const char *atomicOrderName(uint32_t Order) {
  switch (Order) {
  case AO_Unordered:
    return "unordered";
  case AO_Relaxed:
    return "relaxed";
  case AO_Acquire:
    return "acquire";
  case AO_Release:
    return "release";
  case AO_AcqRel:
    return "acq_rel";
  case AO_SeqCst:
    return "seq_cst";
  }
  return Order < 8 ? "unknown" : nullptr;
}

constexpr const char *rmwOperationName(uint32_t Op) {
  constexpr const char *Names[] = {
      "xchg",     "add",      "sub",     "and",       "nand",      "or",
      "xor",      "max",      "min",     "umax",      "umin",      "fadd",
      "fsub",     "fmax",     "fmin",    "uinc_wrap", "udec_wrap", "usub_cond",
      "usub_sat", "fmaximum", "fminimum"};
  static_assert(sizeof(Names) / sizeof(Names[0]) == RMW_LastKnown + 1,
                "one name per RMWOp");
  if (Op <= RMW_LastKnown)
    return Names[Op];
  return Op == RMW_Other ? "other" : nullptr;
}

//===----------------------------------------------------------------------===//
// Function entries
//
//   entry := pc size features
//   pc       := relative PC of the function's first byte
//   size     := ULEB128, bytes from the first byte to the end of the function
//   features := ULEB128 bit set, kinds of metadata complete for the function
//===----------------------------------------------------------------------===//

/// Every atomic of the function is in the atomics table: a PC of this
/// function that is not there is not an atomic.
constexpr uint64_t kFeatureAtomics = 1u << 0;
/// The function has at least one atomic. A reader that finds none of them
/// in the atomics table (the section is not registered yet, or was rejected)
/// must not treat the function as complete.
constexpr uint64_t kFeatureHasAtomics = 1u << 1;
/// The function holds inline asm that pcmap could not analyse
/// (docs/design/Instrumentation.md): some of its atomics may be missing from
/// the table, so kFeatureAtomics is absent. Readers say why where they say
/// that a function's atomics are not recorded. Added compatibly in version 1.
constexpr uint64_t kFeatureOpaqueAsm = 1u << 2;
/// The code generator may have split the function into fragments
/// (-fbasic-block-sections=all|list=, -fsplit-machine-functions): the entry
/// covers its first fragment only, and the others are local symbols
/// "<function>.__part.<N>", "<function>.cold" and "<function>.eh" of the
/// object's symbol table, which readers join to the function
/// (docs/FORMAT.md, "Fragments"). Added compatibly in version 1: a reader
/// that does not know it sees the first fragment as the whole function.
constexpr uint64_t kFeatureFragmented = 1u << 3;
constexpr uint64_t kKnownFeatures = kFeatureAtomics | kFeatureHasAtomics |
                                    kFeatureOpaqueAsm | kFeatureFragmented;
/// The suffixes of the symbols of a function's fragments after the first
/// (LLVM's MachineBasicBlock::getSymbol): "<function><suffix>", where
/// kFragmentPartSuffix is followed by a decimal number.
constexpr const char kFragmentPartSuffix[] = ".__part.";
constexpr const char kFragmentColdSuffix[] = ".cold";
constexpr const char kFragmentEHSuffix[] = ".eh";

/// The length of the function name in Symbol if Symbol names a fragment of
/// a function (see kFeatureFragmented), else 0.
constexpr size_t fragmentBaseLength(const char *Symbol, size_t Length) {
  auto EndsWith = [](const char *S, size_t N, const char *Suffix) {
    size_t K = 0;
    while (Suffix[K])
      ++K;
    if (N <= K)
      return false;
    for (size_t I = 0; I < K; ++I)
      if (S[N - K + I] != Suffix[I])
        return false;
    return true;
  };
  if (EndsWith(Symbol, Length, kFragmentColdSuffix))
    return Length - (sizeof(kFragmentColdSuffix) - 1);
  if (EndsWith(Symbol, Length, kFragmentEHSuffix))
    return Length - (sizeof(kFragmentEHSuffix) - 1);
  size_t Digits = 0;
  while (Digits < Length && Symbol[Length - 1 - Digits] >= '0' &&
         Symbol[Length - 1 - Digits] <= '9')
    ++Digits;
  if (!Digits || !EndsWith(Symbol, Length - Digits, kFragmentPartSuffix))
    return 0;
  return Length - Digits - (sizeof(kFragmentPartSuffix) - 1);
}

//===----------------------------------------------------------------------===//
// Upstream SanitizerBinaryMetadata sections (clang
// -fexperimental-sanitize-metadata), which the runtime and pcmap-report also
// read. Layouts (relative PCs as above):
//
//   sanmd_atomics<V>:  pc                              (one per atomic)
//   sanmd_covered<V>, base version 1 (LLVM 16):
//       pc u32-size u32-features [u32-stack-args if features & UAR]
//   sanmd_covered<V>, base version 2 (LLVM 17+):
//       pc uleb-size uleb-features [uleb-stack-args if features & UARHasSize]
//
// LLVM 19 and later suffix the names with the decimal version like pcmap
// (sanmd_covered2, sanmd_atomics65538); LLVM 16 to 18 emit them unsuffixed,
// and the version is only known to the registration constructor.
//===----------------------------------------------------------------------===//

constexpr const char kUpstreamAtomicsSectionBase[] = "sanmd_atomics";
constexpr const char kUpstreamCoveredSectionBase[] = "sanmd_covered";
constexpr uint32_t kUpstreamVersionV1 = 1;
constexpr uint32_t kUpstreamVersionV2 = 2;

/// Bits of a sanmd_covered entry's features.
constexpr uint64_t kUpstreamFeatureAtomics = 1u << 0;
constexpr uint64_t kUpstreamFeatureUAR = 1u << 1;
/// Version 2 only: the entry carries the stack-arguments size.
constexpr uint64_t kUpstreamFeatureUARHasSize = 1u << 2;

/// True if a sanmd_covered entry of this base version and these features
/// ends with a stack-arguments size.
constexpr bool upstreamHasStackArgs(uint32_t Base, uint64_t Features) {
  return Base == kUpstreamVersionV1
             ? (Features & kUpstreamFeatureUAR) != 0
             : (Features & kUpstreamFeatureUARHasSize) != 0;
}

//===----------------------------------------------------------------------===//
// Section names
//===----------------------------------------------------------------------===//

enum MetadataKind : uint32_t {
  MK_None = 0,
  MK_Atomics,         // pcmap_atomics<V>
  MK_Functions,       // pcmap_functions<V>
  MK_UpstreamAtomics, // sanmd_atomics[<V>]
  MK_UpstreamCovered, // sanmd_covered[<V>]
};

struct MetadataSectionName {
  MetadataKind Kind = MK_None;
  /// False for an unsuffixed name (sanmd of LLVM 16 to 18; invalid for pcmap).
  bool HasVersion = false;
  uint32_t Version = 0;
};

/// The base name of a kind's sections ("pcmap_atomics", "sanmd_covered", ...).
constexpr const char *metadataSectionBase(MetadataKind Kind) {
  switch (Kind) {
  case MK_Atomics:
    return kAtomicsSectionBase;
  case MK_Functions:
    return kFunctionsSectionBase;
  case MK_UpstreamAtomics:
    return kUpstreamAtomicsSectionBase;
  case MK_UpstreamCovered:
    return kUpstreamCoveredSectionBase;
  case MK_None:
    break;
  }
  return "?";
}

constexpr bool isUpstreamKind(MetadataKind Kind) {
  return Kind == MK_UpstreamAtomics || Kind == MK_UpstreamCovered;
}

/// What a reader makes of a section's version: the rule every reader (the
/// runtime, pcmap-report) follows.
enum VersionCheck : uint32_t {
  VC_Supported,
  VC_UnknownFlags, // a flag other than kVersionPtrSizeRel
  VC_UnknownBase,  // a base version this reader does not know
};
constexpr VersionCheck checkSectionVersion(MetadataKind Kind,
                                           uint32_t Version) {
  if (Version & ~(kVersionBaseMask | kVersionPtrSizeRel))
    return VC_UnknownFlags;
  uint32_t Base = Version & kVersionBaseMask;
  bool Known = isUpstreamKind(Kind)
                   ? (Base == kUpstreamVersionV1 || Base == kUpstreamVersionV2)
                   : Base == kVersionBase;
  return Known ? VC_Supported : VC_UnknownBase;
}

/// Recognises a metadata section by its name (Len bytes, not necessarily
/// NUL-terminated): a base name followed by an optional decimal version that
/// fits in 32 bits. Returns false for any other name.
constexpr bool parseMetadataSectionName(const char *Name, size_t Len,
                                        MetadataSectionName &Out) {
  struct Base {
    const char *Text;
    MetadataKind Kind;
  };
  constexpr Base Bases[] = {{kAtomicsSectionBase, MK_Atomics},
                            {kFunctionsSectionBase, MK_Functions},
                            {kUpstreamAtomicsSectionBase, MK_UpstreamAtomics},
                            {kUpstreamCoveredSectionBase, MK_UpstreamCovered}};
  for (const Base &B : Bases) {
    size_t N = 0;
    while (B.Text[N] && N < Len && Name[N] == B.Text[N])
      ++N;
    if (B.Text[N])
      continue;
    MetadataSectionName Result;
    Result.Kind = B.Kind;
    uint64_t Version = 0;
    for (size_t I = N; I < Len; ++I) {
      if (Name[I] < '0' || Name[I] > '9')
        return false;
      Version = Version * 10 + uint64_t(Name[I] - '0');
      if (Version > 0xffffffffu)
        return false;
      Result.HasVersion = true;
    }
    Result.Version = uint32_t(Version);
    Out = Result;
    return true;
  }
  return false;
}

//===----------------------------------------------------------------------===//
// ULEB128 and relative PCs, bounds-checked
//===----------------------------------------------------------------------===//

/// Longest ULEB128 encoding of a 64-bit value.
constexpr unsigned kMaxULEB128Bytes = 10;

/// Reads a ULEB128 value at P without reading at or past End. Returns the
/// number of bytes consumed, or 0 if the value is truncated or does not fit in
/// 64 bits.
inline unsigned readULEB128(const uint8_t *P, const uint8_t *End,
                            uint64_t &Value) {
  uint64_t Result = 0;
  unsigned Shift = 0;
  for (unsigned N = 0; N < kMaxULEB128Bytes && P + N < End; ++N) {
    uint64_t Byte = P[N];
    uint64_t Slice = Byte & 0x7f;
    if (Shift == 63 && Slice > 1)
      return 0;
    Result |= Slice << Shift;
    if (!(Byte & 0x80)) {
      Value = Result;
      return N + 1;
    }
    Shift += 7;
  }
  return 0;
}

/// Number of bytes ULEB128 needs for Value.
constexpr unsigned sizeOfULEB128(uint64_t Value) {
  unsigned N = 1;
  while (Value >>= 7)
    ++N;
  return N;
}

/// Reads a little-endian signed relative PC of Width (4 or 8) bytes.
inline int64_t readRelativePC(const uint8_t *P, unsigned Width) {
  uint64_t V = 0;
  for (unsigned I = 0; I < Width; ++I)
    V |= uint64_t(P[I]) << (8 * I);
  if (Width == 4)
    return int64_t(int32_t(uint32_t(V)));
  return int64_t(V);
}

/// Writes Value as ULEB128 (the shortest encoding, sizeOfULEB128(Value)
/// bytes) at P. Returns the number of bytes written.
inline unsigned writeULEB128(uint8_t *P, uint64_t Value) {
  unsigned N = 0;
  do {
    uint8_t Byte = Value & 0x7f;
    Value >>= 7;
    P[N++] = Value ? uint8_t(Byte | 0x80) : Byte;
  } while (Value);
  return N;
}

/// True if a relative PC of Width (4 or 8) bytes can hold Value.
constexpr bool fitsRelativePC(int64_t Value, unsigned Width) {
  return Width == 8 || (Value >= INT32_MIN && Value <= INT32_MAX);
}

/// Writes Value as a little-endian relative PC of Width (4 or 8) bytes;
/// the inverse of readRelativePC when fitsRelativePC(Value, Width).
inline void writeRelativePC(uint8_t *P, int64_t Value, unsigned Width) {
  uint64_t V = uint64_t(Value);
  for (unsigned I = 0; I < Width; ++I)
    P[I] = uint8_t(V >> (8 * I));
}

/// Writes a 32-bit little-endian value (sanmd_covered version 1 fields).
inline void writeU32(uint8_t *P, uint32_t Value) {
  for (unsigned I = 0; I < 4; ++I)
    P[I] = uint8_t(Value >> (8 * I));
}

//===----------------------------------------------------------------------===//
// AArch64 outline atomics
//
// On aarch64-linux, LLVM and GCC turn atomic read-modify-writes and
// compare-exchanges into calls of helpers that choose LSE or LL/SC at run
// time: __aarch64_<op><size>_<order>, from libgcc or compiler-rt, hidden and
// linked into each module that calls them. The call site is in the atomics
// table; the access happens inside the helper. A module's constructor passes
// the runtime the helpers' addresses in the order below (helper I is
// operation I / 25, size (I / 5) % 5, order I % 5; null for a helper the
// module does not link), to
//   void (const void *const *helpers, uint32_t count);
// the runtime then answers for PCs inside them.
//===----------------------------------------------------------------------===//

constexpr const char kOutlineAtomicsAddCallback[] =
    "__pcmap_outline_atomics_add";
constexpr const char kOutlineAtomicsDelCallback[] =
    "__pcmap_outline_atomics_del";
constexpr const char kOutlineHelperPrefix[] = "__aarch64_";
constexpr const char *const kOutlineOps[] = {"cas",   "swp",   "ldadd",
                                             "ldclr", "ldeor", "ldset"};
constexpr const char *const kOutlineSizes[] = {"1", "2", "4", "8", "16"};
constexpr const char *const kOutlineOrders[] = {"relax", "acq", "rel",
                                                "acq_rel", "sync"};
constexpr unsigned kNumOutlineHelpers = 6 * 5 * 5;

constexpr unsigned outlineOp(unsigned I) { return I / 25; }
constexpr unsigned outlineSizeLog2(unsigned I) { return (I / 5) % 5; }
constexpr unsigned outlineOrder(unsigned I) { return I % 5; }
/// Only compare-exchange has a 16-byte helper.
constexpr bool outlineHelperExists(unsigned I) {
  return I < kNumOutlineHelpers &&
         (outlineOp(I) == 0 || outlineSizeLog2(I) < 4);
}

/// What helper I does. ldclr is how LLVM and GCC implement "and" (with the
/// operand inverted); "sync" helpers serve __sync builtins, a full barrier.
constexpr AtomicDescriptor outlineHelperDescriptor(unsigned I) {
  constexpr RMWOp Ops[] = {RMW_Xchg, RMW_Xchg, RMW_Add,
                           RMW_And,  RMW_Xor,  RMW_Or};
  constexpr AtomicOrder Orders[] = {AO_Relaxed, AO_Acquire, AO_Release,
                                    AO_AcqRel, AO_SeqCst};
  // A compare-exchange that fails only loads: it keeps the acquire part.
  constexpr AtomicOrder Failure[] = {AO_Relaxed, AO_Acquire, AO_Relaxed,
                                     AO_Acquire, AO_SeqCst};
  AtomicDescriptor D;
  D.Kind = outlineOp(I) == 0 ? AK_CmpXchg : AK_RMW;
  D.SizeLog2 = outlineSizeLog2(I);
  D.Order = Orders[outlineOrder(I)];
  if (D.Kind == AK_CmpXchg)
    D.FailureOrder = Failure[outlineOrder(I)];
  else
    D.Op = Ops[outlineOp(I)];
  return D;
}

} // namespace format
} // namespace pcmap

#endif // PCMAP_FORMAT_H
