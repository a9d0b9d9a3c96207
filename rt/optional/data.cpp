//===- data.cpp - The data the tracer's samples touch ---------------------===//

#include "optional/data.h"

#include "core/access.h"
#include "core/pc_cache.h"
#include "platform/hooks.h"
#include "platform/platform.h"

#include "pcmap/pcmap.h"

#include <string.h>

namespace pcmap {
namespace rt {

namespace {

constexpr unsigned kMaxProbes = 64;

uint64_t hashAccess(const DataAccess &A) {
  uint64_t H = A.Address * 0x9e3779b97f4a7c15ull;
  H ^= (A.Site + 0x632be59bd9b4e019ull) * 0xbf58476d1ce4e5b9ull;
  H ^= ((uint64_t(A.Tid) << 32) | (uint32_t(A.Stack) ^ uint32_t(A.Size) << 24 ^
                                   uint32_t(A.Kind) << 16 ^ A.Flags)) *
       0x94d049bb133111ebull;
  H ^= H >> 29;
  return H | 2; // 0 and 1 mark free and claimed slots
}

bool sameAccess(const DataAccess &X, const DataAccess &Y) {
  return X.Address == Y.Address && X.Site == Y.Site && X.Stack == Y.Stack &&
         X.Tid == Y.Tid && X.Size == Y.Size && X.Kind == Y.Kind &&
         X.Flags == Y.Flags;
}

/// An AArch64 outline atomic (a call of an __aarch64_* helper, which the
/// tables record as the atomic) that returned at the PC: the helpers touch
/// no register but x0 and x15 to x17 (libgcc's and compiler-rt's alike), so
/// the pointer argument is still where the call passed it (x1; x2 for a
/// compare-and-swap, x4 for a 16-byte one). Its access, from the table's
/// size and kind.
bool outlineAtomicAccess(const void *Context, uintptr_t Site, AccessForm &Form,
                         uintptr_t &Address) {
#if defined(__aarch64__)
  uint32_t Call;
  pcmap_atomic A;
  if (Site + 4 != signalContextPC(Context) ||
      copyMemorySafely(Site, &Call, 4) != 4 ||
      (Call & 0xfc000000u) != 0x94000000u || // BL
      !pcmap_lookup_atomic(Site, &A) ||
      (A.kind != PCMAP_KIND_RMW && A.kind != PCMAP_KIND_CMPXCHG) || !A.size)
    return false;
  uintptr_t Regs[kDwarfRegisters];
  signalContextRegisters(Context, Regs);
  unsigned Pointer = A.kind == PCMAP_KIND_RMW ? 1 : A.size == 16 ? 4 : 2;
  Address = Regs[Pointer];
  Form = AccessForm();
  Form.Length = 4;
  Form.Size = uint8_t(A.size);
  Form.Kind = AK_ReadWrite;
  return true;
#else
  (void)Context, (void)Site, (void)Form, (void)Address;
  return false;
#endif
}

/// Whether the plain load Form at At is followed, in the straight-line code
/// of its function, by a store to the same location (the same base, index
/// and displacement, none of their registers written in between): `++x`
/// on a plain variable, whose sample landed at its load. The line is then
/// written by this thread, which false sharing needs to know. Under
/// qemu-user every such sample lands at the load (signals come only
/// between blocks of translated code, which start there). AArch64 only,
/// where a decoded instruction's register writes are plain to see (the
/// field each writes; an over-approximation stops the scan); x86-64's
/// samples land at the store too (the store's own skid). At most four
/// instructions are decoded. Async-signal-safe.
bool storedAfter(uintptr_t At, const AccessForm &Form) {
#if defined(__aarch64__)
  constexpr unsigned kMaxScan = 4;
  pcmap_function F;
  if (Form.Kind != AK_Read || Form.Base == kNoRegister ||
      Form.Base == kAArch64RegPC || Form.WritesAddressRegister ||
      !pcmap_lookup_function(At, &F) ||
      (F.features & (PCMAP_FEATURE_FRAGMENTED | PCMAP_FEATURE_OPAQUE_ASM)))
    return false;
  auto Writes = [&](uint32_t Field) {
    return Field == Form.Base || Field == Form.Index;
  };
  uintptr_t End = F.start + F.size;
  for (uintptr_t PC = At + 4, N = 0; N < kMaxScan && PC + 4 <= End;
       PC += 4, ++N) {
    uint32_t Insn;
    if (copyMemorySafely(PC, &Insn, 4) != 4)
      return false;
    AccessForm Next;
    switch (decodeAArch64Access(reinterpret_cast<const uint8_t *>(&Insn), 4,
                                Next)) {
    case AD_Memory:
      if ((Next.Kind & AK_Write) && Next.Base == Form.Base &&
          Next.Index == Form.Index && Next.Scale == Form.Scale &&
          Next.IndexExtend == Form.IndexExtend &&
          Next.Displacement == Form.Displacement && Next.Size == Form.Size)
        return true;
      // Any register field of the instruction (destination, pair, status)
      // may be written.
      if (Next.WritesAddressRegister || Writes(Insn & 31) ||
          Writes((Insn >> 10) & 31) || Writes((Insn >> 16) & 31))
        return false;
      break;
    case AD_NoMemory: {
      uintptr_t Target;
      if (aarch64ControlFlow(reinterpret_cast<const uint8_t *>(&Insn), PC,
                             Target) != CF_None ||
          Writes(Insn & 31))
        return false;
      break;
    }
    default:
      return false;
    }
  }
#else
  (void)At, (void)Form;
#endif
  return false;
}

/// instructionEndingAt's answers (the length of the instruction that ends
/// at a PC; 0: none known), by PC: it decodes the function from its start,
/// up to kMaxCodeScan bytes, which cost about 3 us a sample, more than the
/// rest of the handler.
PCCache Retired;

void noteObjectsChanged() { Retired.newGeneration(); }

PCMAP_SUBSCRIBE(DataHooks, 34, {{Event::ObjectsChanged, noteObjectsChanged}});

/// The instruction that ends at PC in function F (instructionEndingAt),
/// remembered.
uintptr_t retiredInstruction(uintptr_t PC, const pcmap_function &F) {
  unsigned Length;
  if (Retired.find(PC, Length))
    return Length ? PC - Length : 0;
  uint64_t Generation = Retired.generation();
  uintptr_t Before = instructionEndingAt(PC, F.start, F.start + F.size);
  Retired.remember(PC, Before ? unsigned(PC - Before) : 0, Generation);
  return Before;
}

} // namespace

uintptr_t retiredAccess(const void *Context, uintptr_t PC, AccessForm &Form,
                        uintptr_t &Address) {
  // Decoded forward only where the bytes are instructions throughout: not
  // in a function that holds inline asm or assembly pcmap could not read
  // (data among its instructions would put the decoder out of step).
  pcmap_function F;
  if (!pcmap_lookup_function(PC, &F) ||
      (F.features & (PCMAP_FEATURE_FRAGMENTED | PCMAP_FEATURE_OPAQUE_ASM)) ||
      F.start != F.entry)
    return 0;
  uintptr_t Before = retiredInstruction(PC, F);
  if (!Before ||
      accessEndingAtSignalContext(Context, Before, Form, Address) != AD_Memory)
    return 0;
  return Before;
}

bool sampledAccess(const void *Context, uintptr_t Site, DataAccess &Out) {
  uintptr_t PC = signalContextPC(Context);
  AccessForm Form;
  uintptr_t Address = 0, At = Site;
  AccessDecode Decoded = AD_Unknown;
  // An atomic that ran to its end at the PC. (A call of an outline helper,
  // which the sample is charged to, accesses nothing itself: the access is
  // the helper's instruction at the PC, found below.)
  if (Site && Site != PC) {
    Decoded = accessEndingAtSignalContext(Context, Site, Form, Address);
    if (Decoded != AD_Memory && outlineAtomicAccess(Context, Site, Form, Address))
      Decoded = AD_Memory;
  }
  if (Decoded != AD_Memory && (followsSystemCall(PC) || atSystemCall(PC))) {
    // The kernel's time in a system call is the call's, not the next
    // instruction's: no data, unless the call was a futex wait, whose time
    // is its word's (a contended lock's, in the C library's lock code).
    Address = futexWaitWordAtSignalContext(Context, At);
    if (!Address)
      return false;
    Form.Size = 4;
    Form.Kind = AK_Read;
    Decoded = AD_Memory;
  }
  if (Decoded != AD_Memory) {
    At = retiredAccess(Context, PC, Form, Address);
    if (At) {
      Decoded = AD_Memory;
    } else {
      Decoded = accessAtSignalContext(Context, Form, Address);
      At = PC;
    }
  }
  if (Decoded != AD_Memory)
    return false;
  if (storedAfter(At, Form))
    Form.Kind = AK_ReadWrite;
  Out.Address = Address;
  Out.Site = At;
  Out.TpOffset = intptr_t(Address - threadPointer());
  Out.Stack = -1;
  Out.Tid = 0;
  Out.Size = Form.Size;
  Out.Kind = Form.Kind;
  pcmap_atomic Atomic;
  pcmap_function F;
  bool InHelper = At != Site && pcmap_lookup_function(At, &F) &&
                  (F.source & PCMAP_SOURCE_OUTLINE_HELPER);
  Out.Flags = InHelper || pcmap_lookup_atomic(At, &Atomic) ? DF_Atomic : 0;
  return true;
}

bool DataTable::init() {
  if (Rows)
    return true;
  void *Memory = reserveAddressSpace(kSlots * (sizeof(Row) + sizeof(uint32_t)));
  if (!Memory)
    return false;
  Used = reinterpret_cast<uint32_t *>(static_cast<Row *>(Memory) + kSlots);
  __atomic_store_n(&Rows, static_cast<Row *>(Memory), __ATOMIC_RELEASE);
  return true;
}

unsigned DataTable::size() const {
  unsigned N = __atomic_load_n(&NumUsed, __ATOMIC_ACQUIRE);
  return N < kSlots ? N : kSlots;
}

void DataTable::record(const DataAccess &A, uint64_t Weight) {
  if (!Rows)
    return;
  __atomic_fetch_add(&Samples, Weight, __ATOMIC_RELAXED);
  uint64_t Hash = hashAccess(A);
  unsigned I = unsigned(Hash >> 20) & (kSlots - 1);
  for (unsigned Probe = 0; Probe < kMaxProbes; ++Probe) {
    unsigned Index = (I + Probe) & (kSlots - 1);
    Row &R = Rows[Index];
    uint64_t Seen = __atomic_load_n(&R.Hash, __ATOMIC_ACQUIRE);
    if (Seen == 0) {
      uint64_t Expected = 0;
      if (__atomic_compare_exchange_n(&R.Hash, &Expected, 1, false,
                                      __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
        R.Access = A;
        __atomic_store_n(&R.Hash, Hash, __ATOMIC_RELEASE);
        // Each slot is claimed once (until clear()): at most kSlots.
        __atomic_store_n(
            &Used[__atomic_fetch_add(&NumUsed, 1, __ATOMIC_ACQ_REL)], Index,
            __ATOMIC_RELAXED);
        Seen = Hash;
      } else {
        Seen = Expected;
      }
    }
    if (Seen == Hash && sameAccess(R.Access, A)) {
      __atomic_fetch_add(&R.Samples, Weight, __ATOMIC_RELAXED);
      return;
    }
  }
  __atomic_fetch_add(&Dropped, Weight, __ATOMIC_RELAXED);
}

void DataTable::copyFrom(const DataTable &From) {
  if (!Rows || !From.Rows)
    return;
  for (unsigned K = 0; K < NumUsed; ++K)
    Rows[Used[K]].Hash = 0;
  NumUsed = 0;
  for (unsigned K = 0, N = From.size(); K < N; ++K) {
    unsigned I = __atomic_load_n(&From.Used[K], __ATOMIC_RELAXED);
    if (I >= kSlots)
      continue;
    const Row &S = From.Rows[I];
    Row &D = Rows[I];
    uint64_t Hash = __atomic_load_n(&S.Hash, __ATOMIC_ACQUIRE);
    // Free, being written, or listed twice (read before its index was).
    if (Hash < 2 || D.Hash)
      continue;
    D.Access = S.Access;
    D.Samples = __atomic_load_n(&S.Samples, __ATOMIC_RELAXED);
    D.Hint = __atomic_load_n(&S.Hint, __ATOMIC_RELAXED);
    D.Hash = Hash;
    Used[NumUsed++] = I;
  }
  Samples = __atomic_load_n(&From.Samples, __ATOMIC_RELAXED);
  Dropped = __atomic_load_n(&From.Dropped, __ATOMIC_RELAXED);
}

void DataTable::clear() {
  if (Rows)
    releasePages(Rows, kSlots * (sizeof(Row) + sizeof(uint32_t)));
  NumUsed = 0;
  Samples = Dropped = 0;
}

DataTable::Entry DataTable::entry(unsigned K) const {
  unsigned I = Rows && K < size() ? __atomic_load_n(&Used[K], __ATOMIC_RELAXED)
                                  : kSlots;
  if (I >= kSlots || __atomic_load_n(&Rows[I].Hash, __ATOMIC_ACQUIRE) < 2)
    return {{}, 0, DH_None};
  return {Rows[I].Access, __atomic_load_n(&Rows[I].Samples, __ATOMIC_RELAXED),
          __atomic_load_n(&Rows[I].Hint, __ATOMIC_RELAXED)};
}

void DataTable::setHint(unsigned K, uint8_t Hint) {
  unsigned I =
      Rows && K < size() ? __atomic_load_n(&Used[K], __ATOMIC_RELAXED) : kSlots;
  if (I < kSlots)
    __atomic_store_n(&Rows[I].Hint, Hint, __ATOMIC_RELAXED);
}

} // namespace rt
} // namespace pcmap
