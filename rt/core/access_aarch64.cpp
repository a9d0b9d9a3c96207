//===- access_aarch64.cpp - The memory an AArch64 instruction accesses ---===//
//
// A64's loads and stores by the classes of the Arm ARM's "Loads and Stores"
// encoding index, each a mask and a value and a small function: exclusives,
// load-acquire/store-release and CAS; literals; pairs; the register forms
// (unsigned and unscaled offsets, pre- and post-index, unprivileged,
// register offset, LSE atomics); RCpc's unscaled forms; and SIMD structure
// loads and stores (address and direction, their size unknown). SVE, SME,
// MTE, MOPS, pointer-authenticated loads and the system instructions that
// touch memory (DC ZVA) are unknown. Every other instruction accesses no
// data memory.
//
//===----------------------------------------------------------------------===//

#include "core/access.h"

namespace pcmap {
namespace rt {

namespace {

uint32_t bits(uint32_t I, unsigned Hi, unsigned Lo) {
  return (I >> Lo) & ((1u << (Hi - Lo + 1)) - 1);
}

int64_t signExtend(uint32_t Value, unsigned Bits) {
  return int64_t(uint64_t(Value) << (64 - Bits)) >> (64 - Bits);
}

/// An instruction and its registers: Rt and Rt2 those it loads into (Rt2
/// is Rt's where there is no second; kNoRegister: SIMD registers), Rn the
/// base (31: SP), Rs the status or comparand register.
struct Fields {
  uint32_t I;
  uint8_t Rt, Rn, Rt2, Rs;
};

/// Whether a load into Rt overwrites the base Rn (register 31 is XZR as a
/// destination: nothing is written).
bool loadsInto(uint8_t Rt, uint8_t Rn) { return Rt == Rn && Rt != 31; }

/// The form of an access at [Rn + Displacement]: Writeback for pre- and
/// post-index (Displacement 0 for post-index: the address is Rn's).
AccessDecode baseAccess(const Fields &F, uint8_t Kind, uint8_t Size,
                        int64_t Displacement, bool Writeback,
                        AccessForm &Form) {
  Form.Base = F.Rn; // 31 is SP here
  Form.Displacement = Displacement;
  Form.Kind = Kind;
  Form.Size = Size;
  Form.WritesAddressRegister =
      Writeback ||
      ((Kind & AK_Read) && (loadsInto(F.Rt, F.Rn) || loadsInto(F.Rt2, F.Rn)));
  return AD_Memory;
}

/// Load/store exclusive, load-acquire/store-release, CAS and CASP.
AccessDecode exclusive(const Fields &F, AccessForm &Form) {
  uint32_t Size = bits(F.I, 31, 30), O2 = bits(F.I, 23, 23),
           L = bits(F.I, 22, 22), O1 = bits(F.I, 21, 21);
  uint8_t Bytes = uint8_t(1u << Size);
  Fields G = F;
  if (O2 && O1) { // CAS: compares Rs, loads into it
    G.Rt2 = F.Rs;
    return baseAccess(G, AK_ReadWrite, Bytes, 0, false, Form);
  }
  if (O2) // LDAR, LDLAR; STLR, STLLR
    return baseAccess(F, L ? AK_Read : AK_Write, Bytes, 0, false, Form);
  if (O1 && Size < 2) { // CASP: a pair of 4 or 8 bytes
    G.Rt2 = F.Rs;
    return baseAccess(G, AK_ReadWrite, uint8_t(8u << Size), 0, false, Form);
  }
  if (O1) // LDXP, LDAXP
    G.Rt2 = uint8_t(bits(F.I, 14, 10));
  AccessDecode D =
      baseAccess(G, L ? AK_Read : AK_Write, O1 ? 2 * Bytes : Bytes, 0, false,
                 Form);
  // A store-exclusive writes its status to Rs.
  Form.WritesAddressRegister |= !L && loadsInto(F.Rs, F.Rn);
  return D;
}

/// LDR (literal) and PRFM (literal): PC-relative.
AccessDecode literal(const Fields &F, AccessForm &Form) {
  uint32_t Opc = bits(F.I, 31, 30), V = bits(F.I, 26, 26);
  static const uint8_t kSizes[2][4] = {{4, 8, 4, 0}, {4, 8, 16, 0}};
  if (!V && Opc == 3)
    return AD_NoMemory; // PRFM
  if (!kSizes[V][Opc])
    return AD_Unknown;
  Form.Base = kAArch64RegPC;
  Form.Displacement = signExtend(bits(F.I, 23, 5), 19) * 4;
  Form.Kind = AK_Read;
  Form.Size = kSizes[V][Opc];
  Form.WritesAddressRegister = false;
  return AD_Memory;
}

/// LDP, STP, LDNP, STNP, LDPSW and their SIMD forms.
AccessDecode pair(const Fields &F, AccessForm &Form) {
  uint32_t Opc = bits(F.I, 31, 30), V = bits(F.I, 26, 26),
           Type = bits(F.I, 25, 23), L = bits(F.I, 22, 22);
  if (Type > 3 || Opc == 3 || (!V && Opc == 1 && (!L || Type == 0)))
    return AD_Unknown; // STGP, LDNP of words sign-extended, newer forms
  uint8_t Element = V ? uint8_t(4u << Opc) : Opc == 2 ? 8 : 4;
  int64_t Offset = signExtend(bits(F.I, 21, 15), 7) * Element;
  bool Post = Type == 1, Writeback = Type == 1 || Type == 3;
  Fields G = F;
  G.Rt2 = uint8_t(bits(F.I, 14, 10));
  if (V) // SIMD registers are not the address's
    G.Rt = G.Rt2 = kNoRegister;
  return baseAccess(G, L ? AK_Read : AK_Write, 2 * Element, Post ? 0 : Offset,
                    Writeback, Form);
}

/// The kind and size of a register load or store by size, V and opc; false
/// if unallocated, Prefetch for PRFM.
bool registerAccess(uint32_t I, uint8_t &Kind, uint8_t &Size,
                    bool &Prefetch) {
  uint32_t SizeBits = bits(I, 31, 30), V = bits(I, 26, 26),
           Opc = bits(I, 23, 22);
  Prefetch = false;
  Size = uint8_t(1u << SizeBits);
  if (V) {
    if (Opc >= 2) {
      if (SizeBits)
        return false;
      Size = 16; // Q
    }
    Kind = (Opc & 1) ? AK_Read : AK_Write;
    return true;
  }
  if (Opc == 0 || Opc == 1) {
    Kind = Opc ? AK_Read : AK_Write;
    return true;
  }
  if (Opc == 2 && SizeBits == 3) {
    Prefetch = true;
    return true;
  }
  Kind = AK_Read; // LDRS*: to 64 bits (opc 10), to 32 (opc 11)
  return Opc == 2 ? SizeBits < 3 : SizeBits < 2;
}

/// Register offset: [Rn, Rm{, extend {#amount}}].
AccessDecode registerOffset(const Fields &F, uint8_t Kind, uint8_t Size,
                            AccessForm &Form) {
  uint32_t Option = bits(F.I, 15, 13), Shift = bits(F.I, 12, 12);
  uint8_t Rm = uint8_t(bits(F.I, 20, 16));
  if (!(Option & 2))
    return AD_Unknown;
  baseAccess(F, Kind, Size, 0, false, Form);
  if (Rm != 31) { // XZR adds nothing
    Form.Index = Rm;
    Form.Scale = Shift ? Size : 1;
    Form.IndexExtend = Option == 2 ? AE_UXTW : Option == 6 ? AE_SXTW : AE_None;
    Form.WritesAddressRegister |= (Kind & AK_Read) && loadsInto(F.Rt, Rm);
  }
  return AD_Memory;
}

/// LSE atomics: LDADD ... LDUMIN, SWP, and LDAPR.
AccessDecode atomic(const Fields &F, AccessForm &Form) {
  if (bits(F.I, 26, 26))
    return AD_Unknown;
  uint32_t O3 = bits(F.I, 15, 15), Opc = bits(F.I, 14, 12);
  uint8_t Size = uint8_t(1u << bits(F.I, 31, 30));
  if (O3 && Opc == 4) // LDAPR
    return baseAccess(F, AK_Read, Size, 0, false, Form);
  if (O3 && Opc != 0)
    return AD_Unknown; // LD64B, ST64B, ...
  return baseAccess(F, AK_ReadWrite, Size, 0, false, Form);
}

/// The loads and stores of a register with an immediate, register offset
/// or atomic operation (bits 29:27 = 111).
AccessDecode registerForms(const Fields &F, AccessForm &Form) {
  uint8_t Kind = 0, Size = 0;
  bool Prefetch = false;
  bool Unsigned = bits(F.I, 25, 24) == 1;
  if (!Unsigned && bits(F.I, 25, 24) != 0)
    return AD_Unknown;
  if (!Unsigned && bits(F.I, 21, 21) && bits(F.I, 11, 10) == 0)
    return atomic(F, Form);
  if (!registerAccess(F.I, Kind, Size, Prefetch))
    return AD_Unknown;
  Fields G = F;
  if (bits(F.I, 26, 26))
    G.Rt = G.Rt2 = kNoRegister; // a SIMD register
  uint32_t Op4 = bits(F.I, 11, 10);
  if (!Unsigned && bits(F.I, 21, 21)) {
    if (Op4 != 2)
      return AD_Unknown; // LDRAA, LDRAB
    return Prefetch ? AD_NoMemory : registerOffset(G, Kind, Size, Form);
  }
  if (Prefetch)
    return Unsigned || Op4 == 0 ? AD_NoMemory : AD_Unknown;
  if (Unsigned)
    return baseAccess(G, Kind, Size, int64_t(bits(F.I, 21, 10)) * Size, false,
                      Form);
  if (Op4 == 2 && bits(F.I, 26, 26))
    return AD_Unknown; // no unprivileged SIMD form
  int64_t Imm = signExtend(bits(F.I, 20, 12), 9);
  // 00 unscaled, 01 post-index, 10 unprivileged, 11 pre-index.
  return baseAccess(G, Kind, Size, Op4 == 1 ? 0 : Imm, Op4 == 1 || Op4 == 3,
                    Form);
}

/// LDAPUR, LDAPURS, STLUR (RCpc with an unscaled offset).
AccessDecode rcpcUnscaled(const Fields &F, AccessForm &Form) {
  uint32_t Size = bits(F.I, 31, 30), Opc = bits(F.I, 23, 22);
  if ((Opc == 2 && Size == 3) || (Opc == 3 && Size >= 2))
    return AD_Unknown;
  return baseAccess(F, Opc ? AK_Read : AK_Write, uint8_t(1u << Size),
                    signExtend(bits(F.I, 20, 12), 9), false, Form);
}

/// LD1-LD4, ST1-ST4 and their replicating forms: direction and address;
/// the size is the registers' and is not decoded.
AccessDecode structure(const Fields &F, AccessForm &Form) {
  Fields G = F;
  G.Rt = G.Rt2 = kNoRegister;
  bool Post = bits(F.I, 23, 23);
  return baseAccess(G, bits(F.I, 22, 22) ? AK_Read : AK_Write, 0, 0, Post,
                    Form);
}

/// An instruction outside the loads and stores: none accesses data memory
/// but the system instructions (DC ZVA and other SYS, SYSL), SVE, SME and
/// the unallocated spaces, which are unknown.
AccessDecode otherClass(uint32_t I) {
  uint32_t Op0 = bits(I, 28, 25);
  if (Op0 <= 3)
    return AD_Unknown; // SME, SVE, unallocated
  if ((I & 0xffc00000u) == 0xd5000000u) {
    uint32_t Op = bits(I, 21, 19);
    return Op == 1 || Op == 5 ? AD_Unknown : AD_NoMemory; // SYS, SYSL
  }
  return AD_NoMemory;
}

} // namespace

AccessDecode decodeAArch64Access(const uint8_t *Bytes, size_t Avail,
                                 AccessForm &Form) {
  Form = AccessForm();
  if (Avail < 4)
    return AD_Unknown;
  uint32_t I = uint32_t(Bytes[0]) | uint32_t(Bytes[1]) << 8 |
               uint32_t(Bytes[2]) << 16 | uint32_t(Bytes[3]) << 24;
  Form.Length = 4;
  uint8_t Rt = uint8_t(bits(I, 4, 0));
  Fields F = {I, Rt, uint8_t(bits(I, 9, 5)), Rt, uint8_t(bits(I, 20, 16))};
  AccessDecode Result = AD_Unknown;
  if ((bits(I, 28, 25) & 5) != 4)
    Result = otherClass(I);
  else if ((I & 0x3f000000u) == 0x08000000u)
    Result = exclusive(F, Form);
  else if ((I & 0x3b000000u) == 0x18000000u)
    Result = literal(F, Form);
  else if ((I & 0x3f200c00u) == 0x19000000u)
    Result = rcpcUnscaled(F, Form);
  else if ((I & 0x38000000u) == 0x28000000u)
    Result = pair(F, Form);
  else if ((I & 0x38000000u) == 0x38000000u)
    Result = registerForms(F, Form);
  else if ((I & 0xbf000000u) == 0x0c000000u ||
           (I & 0xbf000000u) == 0x0d000000u)
    Result = structure(F, Form);
  if (Result != AD_Memory)
    Form = AccessForm{Form.Length};
  return Result;
}

uintptr_t evaluateAArch64Access(const AccessForm &Form, const uintptr_t *Dwarf,
                                uintptr_t PC) {
  uintptr_t Address = uintptr_t(Form.Displacement);
  if (Form.Base == kAArch64RegPC)
    Address += PC;
  else if (Form.Base <= kAArch64RegSP)
    Address += Dwarf[Form.Base];
  if (Form.Index <= 30) {
    uintptr_t Index = Dwarf[Form.Index];
    if (Form.IndexExtend == AE_UXTW)
      Index = uint32_t(Index);
    else if (Form.IndexExtend == AE_SXTW)
      Index = uintptr_t(int64_t(int32_t(uint32_t(Index))));
    Address += Index * Form.Scale;
  }
  return Address;
}

ControlFlow aarch64ControlFlow(const uint8_t *Bytes, uintptr_t PC,
                               uintptr_t &Target) {
  uint32_t I = uint32_t(Bytes[0]) | uint32_t(Bytes[1]) << 8 |
               uint32_t(Bytes[2]) << 16 | uint32_t(Bytes[3]) << 24;
  auto Offset = [I](unsigned Hi, unsigned Lo) {
    unsigned Width = Hi - Lo + 1;
    uint64_t V = (I >> Lo) & ((uint64_t(1) << Width) - 1);
    // Sign-extended, in instructions.
    int64_t S = int64_t(V << (64 - Width)) >> (64 - Width);
    return uintptr_t(S * 4);
  };
  if ((I & 0xfc000000u) == 0x14000000u) { // B
    Target = PC + Offset(25, 0);
    return CF_Jump;
  }
  if ((I & 0xfc000000u) == 0x94000000u) // BL
    return CF_Call;
  if ((I & 0xff000000u) == 0x54000000u || // B.cond, BC.cond
      (I & 0x7e000000u) == 0x34000000u) { // CBZ, CBNZ
    Target = PC + Offset(23, 5);
    return CF_Jump;
  }
  if ((I & 0x7e000000u) == 0x36000000u) { // TBZ, TBNZ
    Target = PC + Offset(18, 5);
    return CF_Jump;
  }
  if ((I & 0xfe000000u) == 0xd6000000u) { // branches to a register
    unsigned Opc = (I >> 21) & 0xf;
    if (Opc == 1 || Opc == 9) // BLR, BLRAA...
      return CF_Call;
    if (Opc == 0 || Opc == 8) // BR, BRAA...
      return CF_IndirectJump;
    return CF_Return; // RET, ERET, DRPS and their authenticated forms
  }
  if ((I & 0xff000000u) == 0xd4000000u) // SVC, HVC, SMC, BRK, HLT...
    return CF_Return;
  return CF_None;
}

} // namespace rt
} // namespace pcmap
