//===- describe.cpp - Words for what the tables say -----------------------===//

#include "optional/describe.h"

#include "core/outline.h"
#include "platform/platform.h"

#include "pcmap/Format.h"

#include <string.h>

namespace pcmap {
namespace rt {

// The public enums of pcmap.h carry the format's values (Format.h), whose
// names reports use everywhere: one spelling for each.
static_assert(uint32_t(PCMAP_KIND_LOAD) == format::AK_Load &&
                  uint32_t(PCMAP_KIND_FENCE) == format::AK_Fence &&
                  uint32_t(PCMAP_ORDER_RELAXED) == format::AO_Relaxed &&
                  uint32_t(PCMAP_ORDER_SEQ_CST) == format::AO_SeqCst &&
                  uint32_t(PCMAP_RMW_XCHG) == format::RMW_Xchg &&
                  uint32_t(PCMAP_RMW_FMINIMUM) == format::RMW_FMinimum &&
                  uint32_t(PCMAP_RMW_OTHER) == format::RMW_Other,
              "pcmap.h and Format.h number atomics alike");

const char *kindName(uint32_t Kind) {
  const char *Name = format::atomicKindName(Kind);
  return Name ? Name : "unknown";
}

const char *orderName(uint32_t Order) {
  const char *Name = format::atomicOrderName(Order);
  return Name ? Name : "unknown";
}

const char *rmwOpName(uint32_t Op) {
  const char *Name = format::rmwOperationName(Op);
  return Name ? Name : "other";
}

void describeAtomic(const pcmap_atomic &A, Text &Out, bool WithOrigin) {
  if (A.flags & PCMAP_ATOMIC_UPSTREAM) {
    Out << "kind unknown (upstream metadata)";
    return;
  }
  if (WithOrigin && (A.flags & PCMAP_ATOMIC_INLINE_ASM))
    Out << "(inline asm) ";
  Out << kindName(A.kind);
  if (A.kind == PCMAP_KIND_RMW)
    Out << " " << rmwOpName(A.rmw_op);
  if (A.kind != PCMAP_KIND_FENCE)
    Out << ", " << uint64_t(A.size) << (A.size == 1 ? " byte" : " bytes");
  Out << ", " << orderName(A.order);
  if (A.kind == PCMAP_KIND_CMPXCHG)
    Out << " (failure " << orderName(A.failure_order) << ")";
  if (A.flags & PCMAP_ATOMIC_WEAK)
    Out << ", weak";
  if (A.flags & PCMAP_ATOMIC_VOLATILE)
    Out << ", volatile";
  char Helper[48];
  if (outlineHelperName(A, Helper, sizeof(Helper)))
    Out << " (in outline helper " << Helper << ")";
}

bool moduleOf(uintptr_t PC, char *Path, size_t PathSize, uintptr_t &Bias) {
  pcmap_function F;
  if (pcmap_lookup_function(PC, &F) && F.module_path && *F.module_path) {
    Text T(Path, PathSize);
    T << F.module_path;
    Bias = F.module_bias;
    return true;
  }
  return findMapping(PC, Path, PathSize, Bias);
}

/// The longest x86-64 instruction; an atomic that ends at a PC starts at
/// most this many bytes before it.
constexpr unsigned kMaxInstructionBytes = 15;

int describePC(uintptr_t PC, bool After, Text &Out) {
  char Path[512];
  uintptr_t Bias = 0;
  if (moduleOf(PC, Path, sizeof(Path), Bias))
    Out << Path << "+";
  else
    Out << "<unknown module>+";
  Out.hex(PC - Bias);

  pcmap_function F;
  // After a trap, the instruction of interest ends at PC: look at PC - 1.
  uintptr_t Inside = After && PC ? PC - 1 : PC;
  bool HasFunction = pcmap_lookup_function(Inside, &F);
  if (HasFunction) {
    Out << ", function ";
    Out.hex(F.start) << "+";
    Out.hex(Inside - F.start + (After ? 1 : 0));
    Out << " (" << uint64_t(F.size) << " bytes, " << uint64_t(F.num_atomics)
        << (F.num_atomics == 1 ? " atomic)" : " atomics)");
  }
  Out << ": ";

  pcmap_atomic A;
  bool Found = After ? pcmap_lookup_atomic_before(PC, kMaxInstructionBytes, &A)
                     : pcmap_lookup_atomic(PC, &A);
  if (Found) {
    Out << "atomic ";
    if (After) {
      Out << "at ";
      Out.hex(A.pc) << " ";
    }
    describeAtomic(A, Out);
    return PCMAP_YES;
  }
  int Answer = pcmap_is_atomic_pc(Inside);
  if (After && Answer == PCMAP_YES)
    Answer = PCMAP_NO; // an atomic holds PC - 1 but does not end at PC
  if (Answer != PCMAP_UNKNOWN) {
    Out << "not atomic (covered)";
    return PCMAP_NO;
  }
  if (HasFunction && (F.features & PCMAP_FEATURE_OPAQUE_ASM))
    Out << "unknown: its function holds inline asm pcmap cannot analyse";
  else
    Out << (HasFunction ? "no pcmap metadata for its atomics"
                        : "no pcmap metadata");
  return PCMAP_UNKNOWN;
}

const char *baseName(const char *Path) {
  const char *Slash = strrchr(Path, '/');
  return Slash ? Slash + 1 : Path;
}

} // namespace rt
} // namespace pcmap
