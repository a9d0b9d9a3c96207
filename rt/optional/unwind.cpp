//===- unwind.cpp - Unwinding with the call frame information -------------===//
//
// The format is the LSB's (.eh_frame, .eh_frame_hdr) on DWARF's CFI; the
// names follow DWARF 5, section 6.4. Every read of the index and of the
// entries stays inside the lengths they give, and every CFI program is run
// at most once over its bytes, so that a step is bounded by the size of one
// FDE and its CIE (at most kMaxEntryBytes each).
//
//===----------------------------------------------------------------------===//

#include "optional/unwind.h"

#include "core/mapped.h"
#include "platform/hooks.h"

namespace pcmap {
namespace rt {

namespace {

/// Entries longer than this are not followed (the largest in glibc,
/// libstdc++ and LLVM are a few hundred bytes).
constexpr size_t kMaxEntryBytes = 1 << 16;
/// DW_CFA_remember_state nesting followed (compilers nest one deep).
constexpr unsigned kMaxRememberedStates = 2; // on a fiber's stack: 2 x 160 B
/// An index claiming more FDEs than this is not read.
constexpr uint64_t kMaxIndexEntries = uint64_t(1) << 28;

// DW_EH_PE_*: how .eh_frame and .eh_frame_hdr encode a pointer.
enum : uint8_t {
  PeAbsPtr = 0x00,
  PeUleb128 = 0x01,
  PeUdata2 = 0x02,
  PeUdata4 = 0x03,
  PeUdata8 = 0x04,
  PeSleb128 = 0x09,
  PeSdata2 = 0x0a,
  PeSdata4 = 0x0b,
  PeSdata8 = 0x0c,
  PePcRel = 0x10,
  PeDataRel = 0x30,
  PeOmit = 0xff,
};

/// Reads [P, End): every read checks its length, and a failed one leaves
/// Ok false and returns 0.
struct Cursor {
  const uint8_t *P, *End;
  bool Ok = true;

  bool has(size_t N) {
    if (!Ok || size_t(End - P) < N)
      Ok = false;
    return Ok;
  }
  template <typename T> T fixed() {
    T V = 0;
    if (has(sizeof(T))) {
      __builtin_memcpy(&V, P, sizeof(T));
      P += sizeof(T);
    }
    return V;
  }
  uint8_t u8() { return fixed<uint8_t>(); }
  uint64_t uleb() {
    uint64_t V = 0;
    for (unsigned Shift = 0; has(1); Shift += 7) {
      uint8_t B = *P++;
      if (Shift < 64)
        V |= uint64_t(B & 0x7f) << Shift;
      if (!(B & 0x80))
        return V;
    }
    return 0;
  }
  int64_t sleb() {
    uint64_t V = 0;
    unsigned Shift = 0;
    for (; has(1); Shift += 7) {
      uint8_t B = *P++;
      if (Shift < 64)
        V |= uint64_t(B & 0x7f) << Shift;
      if (!(B & 0x80)) {
        if ((B & 0x40) && Shift + 7 < 64)
          V |= ~uint64_t(0) << (Shift + 7);
        return int64_t(V);
      }
    }
    return 0;
  }
  /// A pointer in encoding Enc; DataBase is what PeDataRel is relative to
  /// (the index's start; 0 where that encoding is not allowed).
  uintptr_t pointer(uint8_t Enc, uintptr_t DataBase) {
    if (Enc == PeOmit)
      return 0;
    uintptr_t Here = uintptr_t(P);
    uint64_t V;
    switch (Enc & 0x0f) {
    case PeAbsPtr:
      V = fixed<uintptr_t>();
      break;
    case PeUleb128:
      V = uleb();
      break;
    case PeUdata2:
      V = fixed<uint16_t>();
      break;
    case PeUdata4:
      V = fixed<uint32_t>();
      break;
    case PeUdata8:
      V = fixed<uint64_t>();
      break;
    case PeSleb128:
      V = uint64_t(sleb());
      break;
    case PeSdata2:
      V = uint64_t(int64_t(fixed<int16_t>()));
      break;
    case PeSdata4:
      V = uint64_t(int64_t(fixed<int32_t>()));
      break;
    case PeSdata8:
      V = fixed<uint64_t>();
      break;
    default:
      Ok = false;
      return 0;
    }
    switch (Enc & 0x70) {
    case 0:
      break;
    case PePcRel:
      V += Here;
      break;
    case PeDataRel:
      if (!DataBase)
        Ok = false;
      V += DataBase;
      break;
    default: // text-, function-relative, aligned: not in .eh_frame of ELF
      Ok = false;
    }
    // PeIndirect (0x80) appears only on the personality routine, which is
    // skipped, never followed.
    return uintptr_t(V);
  }
};

/// An entry of .eh_frame: its contents after the length, [Body, End).
/// false for the terminator, an overlong entry or a length past Limit.
bool entryAt(const uint8_t *At, const uint8_t *&Body, const uint8_t *&End,
             bool &Is64) {
  uint32_t Length;
  __builtin_memcpy(&Length, At, 4);
  At += 4;
  Is64 = Length == 0xffffffffu;
  uint64_t Size = Length;
  if (Is64) {
    __builtin_memcpy(&Size, At, 8);
    At += 8;
  }
  if (!Size || Size > kMaxEntryBytes)
    return false;
  Body = At;
  End = At + Size;
  return true;
}

/// What a CIE says that its FDEs use.
struct CommonInfo {
  uint64_t CodeAlign = 1;
  int64_t DataAlign = 1;
  unsigned ReturnColumn = 0;
  uint8_t FDEEncoding = PeAbsPtr;
  bool HasAugmentationData = false;
  bool SignalFrame = false; // 'S': the caller's PC is not a return address
  const uint8_t *Instructions = nullptr, *InstructionsEnd = nullptr;
};

bool parseCIE(const uint8_t *At, CommonInfo &C) {
  const uint8_t *Body, *End;
  bool Is64;
  if (!entryAt(At, Body, End, Is64))
    return false;
  Cursor R{Body, End};
  uint64_t Id = Is64 ? R.fixed<uint64_t>() : R.fixed<uint32_t>();
  uint8_t Version = R.u8();
  if (!R.Ok || Id != 0 || (Version != 1 && Version != 3 && Version != 4))
    return false;
  char Augmentation[8];
  unsigned Len = 0;
  for (;;) {
    uint8_t Ch = R.u8();
    if (!R.Ok || Len == sizeof(Augmentation))
      return false;
    Augmentation[Len++] = char(Ch);
    if (!Ch)
      break;
  }
  if (Version == 4) {
    uint8_t AddressSize = R.u8();
    R.u8(); // segment selector size
    if (AddressSize != sizeof(uintptr_t))
      return false;
  }
  C.CodeAlign = R.uleb();
  C.DataAlign = R.sleb();
  C.ReturnColumn = Version == 1 ? R.u8() : unsigned(R.uleb());
  if (Augmentation[0] == 'z') {
    C.HasAugmentationData = true;
    uint64_t AugLength = R.uleb();
    if (!R.has(AugLength))
      return false;
    const uint8_t *AugEnd = R.P + AugLength;
    for (unsigned I = 1; Augmentation[I] && R.Ok; ++I) {
      switch (Augmentation[I]) {
      case 'L': // the LSDA's encoding
        R.u8();
        break;
      case 'P': { // the personality routine: skipped
        uint8_t Enc = R.u8();
        R.pointer(Enc & 0x7f, 0);
        break;
      }
      case 'R':
        C.FDEEncoding = R.u8();
        break;
      case 'S':
        C.SignalFrame = true;
        break;
      case 'B': // AArch64 BTI, G: MTE-tagged stack frames; nothing to do
      case 'G':
        break;
      default: // unknown: the augmentation data's length still skips it
        I = sizeof(Augmentation) - 1;
        break;
      }
      if (R.P > AugEnd)
        return false;
    }
    R.P = AugEnd;
  } else if (Augmentation[0]) {
    return false; // "eh" and others of old compilers
  }
  C.Instructions = R.P;
  C.InstructionsEnd = End;
  return R.Ok && C.CodeAlign != 0;
}

/// An FDE: the code it describes, its CIE and its own CFI program.
struct FrameDescription {
  uintptr_t Start, End;
  CommonInfo CIE;
  const uint8_t *Instructions, *InstructionsEnd;
};

bool parseFDE(const uint8_t *At, FrameDescription &F) {
  const uint8_t *Body, *End;
  bool Is64;
  if (!entryAt(At, Body, End, Is64))
    return false;
  Cursor R{Body, End};
  // The CIE pointer: its distance back from this field.
  uint64_t Back = Is64 ? R.fixed<uint64_t>() : R.fixed<uint32_t>();
  if (!R.Ok || Back == 0 || Back > uintptr_t(Body))
    return false;
  if (!parseCIE(Body - Back, F.CIE))
    return false;
  F.Start = R.pointer(F.CIE.FDEEncoding, 0);
  uintptr_t Range = R.pointer(F.CIE.FDEEncoding & 0x0f, 0);
  F.End = F.Start + Range;
  if (F.CIE.HasAugmentationData) {
    uint64_t AugLength = R.uleb();
    if (R.has(AugLength))
      R.P += AugLength;
  }
  F.Instructions = R.P;
  F.InstructionsEnd = End;
  return R.Ok && F.End >= F.Start;
}

/// The FDE whose code holds PC, through the binary search table of
/// .eh_frame_hdr (version 1; the table datarel sdata4, as GNU ld, gold,
/// lld and mold write it).
bool findFDE(const uint8_t *Index, uintptr_t PC, FrameDescription &F) {
  if (!Index)
    return false;
  // The header's four bytes and two pointers of at most 8 bytes.
  Cursor R{Index, Index + 4 + 16};
  uint8_t Version = R.u8(), FrameEnc = R.u8(), CountEnc = R.u8(),
          TableEnc = R.u8();
  if (Version != 1 || CountEnc == PeOmit || TableEnc != (PeDataRel | PeSdata4))
    return false;
  uintptr_t Base = uintptr_t(Index);
  R.pointer(FrameEnc, Base); // .eh_frame's start: not needed with the table
  uint64_t Count = R.pointer(CountEnc, Base);
  if (!R.Ok || Count == 0 || Count > kMaxIndexEntries)
    return false;
  const uint8_t *Table = R.P;
  auto InitialLocation = [&](uint64_t I) {
    int32_t V;
    __builtin_memcpy(&V, Table + I * 8, 4);
    return Base + uintptr_t(intptr_t(V));
  };
  // The last entry whose function starts at or before PC.
  uint64_t Lo = 0, Hi = Count;
  while (Hi - Lo > 1) {
    uint64_t Mid = Lo + (Hi - Lo) / 2;
    if (InitialLocation(Mid) <= PC)
      Lo = Mid;
    else
      Hi = Mid;
  }
  if (InitialLocation(Lo) > PC)
    return false;
  int32_t FDEOffset;
  __builtin_memcpy(&FDEOffset, Table + Lo * 8 + 4, 4);
  if (!parseFDE(reinterpret_cast<const uint8_t *>(Base + intptr_t(FDEOffset)),
                F))
    return false;
  return PC >= F.Start && PC < F.End;
}

/// How to find a register's value in the caller's frame.
struct RegisterRule {
  enum Kind : uint8_t {
    SameValue, // also the rule of registers the CFI does not name
    Undefined,
    Offset,        // saved at CFA + Value
    ValOffset,     // is CFA + Value
    Register,      // is in register Value
    Expression,    // saved at the address a DWARF expression computes
    ValExpression, // is what a DWARF expression computes
    Unknown,       // an offset out of range
  };
  Kind K;
  /// The offset from the CFA, the register, or where the expression's
  /// block (its length, then its operations) is, from the FDE's program.
  int32_t Value;
};

/// The rules of a row. Trivial, so that the remembered states cost nothing
/// until a program remembers one; a zeroed one (FrameRules{}) is the
/// initial state: every register SameValue.
struct FrameRules {
  unsigned CFARegister;
  /// With CFAIsExpression, where its block is, as RegisterRule::Value.
  int64_t CFAOffset;
  bool CFAIsExpression;
  bool ReturnAddressSigned; // AArch64 pointer authentication
  RegisterRule Regs[kDwarfRegisters];
};
static_assert(RegisterRule::SameValue == 0, "a zeroed rule is SameValue");

/// A CFI program run on Rules until the location passes PC. Initial is the
/// state after the CIE's program (for DW_CFA_restore); null while running
/// the CIE's own.
class CFIProgram {
public:
  CFIProgram(const uint8_t *P, const uint8_t *End, const FrameDescription &F,
             uintptr_t PC, FrameRules &Rules, const FrameRules *Initial)
      : R{P, End}, F(F), C(F.CIE), PC(PC), Location(F.Start), Rules(Rules),
        Initial(Initial) {}

  bool run() {
    while (R.Ok && R.P < R.End) {
      uint8_t Op = R.u8();
      Step S = (Op & 0xc0) ? primary(Op) : extended(Op);
      if (S == Step::Failed)
        return false;
      if (S == Step::PastPC)
        return R.Ok;
    }
    return R.Ok;
  }

private:
  enum class Step { Next, PastPC, Failed };

  void setRule(uint64_t Reg, RegisterRule::Kind K, int64_t Value) {
    if (Reg >= kDwarfRegisters)
      return; // vector registers and the like: a stack walk needs none
    RegisterRule &Rule = Rules.Regs[Reg];
    Rule.K = K;
    Rule.Value = int32_t(Value);
    if (int64_t(Rule.Value) != Value)
      Rule.K = RegisterRule::Unknown;
  }
  Step advance(uint64_t Delta) {
    Location += uintptr_t(Delta * C.CodeAlign);
    return Location <= PC ? Step::Next : Step::PastPC;
  }
  Step restore(uint64_t Reg) {
    if (!Initial)
      return Step::Failed;
    if (Reg < kDwarfRegisters)
      Rules.Regs[Reg] = Initial->Regs[Reg];
    return Step::Next;
  }
  /// Where a DWARF expression's block starts, for the rule to find it.
  int64_t expressionHere() {
    int64_t At = R.P - F.Instructions;
    uint64_t Length = R.uleb();
    if (R.has(Length))
      R.P += Length;
    return At;
  }

  /// The operations with an operand in their low six bits.
  Step primary(uint8_t Op) {
    uint8_t Low = Op & 0x3f;
    switch (Op & 0xc0) {
    case 0x40: // DW_CFA_advance_loc
      return advance(Low);
    case 0x80: // DW_CFA_offset
      setRule(Low, RegisterRule::Offset, int64_t(R.uleb()) * C.DataAlign);
      return Step::Next;
    default: // DW_CFA_restore
      return restore(Low);
    }
  }

  Step extended(uint8_t Op) {
    switch (Op) {
    case 0x00: // DW_CFA_nop
      return Step::Next;
    case 0x01: // DW_CFA_set_loc
      Location = R.pointer(C.FDEEncoding, 0);
      return Location <= PC ? Step::Next : Step::PastPC;
    case 0x02: // DW_CFA_advance_loc1
      return advance(R.u8());
    case 0x03: // DW_CFA_advance_loc2
      return advance(R.fixed<uint16_t>());
    case 0x04: // DW_CFA_advance_loc4
      return advance(R.fixed<uint32_t>());
    case 0x0a: // DW_CFA_remember_state
      if (NumRemembered == kMaxRememberedStates)
        return Step::Failed;
      Remembered[NumRemembered++] = Rules;
      return Step::Next;
    case 0x0b: // DW_CFA_restore_state
      if (!NumRemembered)
        return Step::Failed;
      Rules = Remembered[--NumRemembered];
      return Step::Next;
    case 0x2d: // DW_CFA_AARCH64_negate_ra_state (SPARC's window_save)
      if (!kDwarfHasSignedReturnAddresses)
        return Step::Failed;
      Rules.ReturnAddressSigned = !Rules.ReturnAddressSigned;
      return Step::Next;
    case 0x2e: // DW_CFA_GNU_args_size
      R.uleb();
      return Step::Next;
    default:
      return frameAddressRule(Op) || registerRule(Op) ? Step::Next
                                                      : Step::Failed;
    }
  }

  /// The operations that define the CFA; false for any other.
  bool frameAddressRule(uint8_t Op) {
    switch (Op) {
    case 0x0c: // DW_CFA_def_cfa
      Rules.CFARegister = unsigned(R.uleb());
      Rules.CFAOffset = int64_t(R.uleb());
      break;
    case 0x0d: // DW_CFA_def_cfa_register
      Rules.CFARegister = unsigned(R.uleb());
      if (Rules.CFAIsExpression)
        Rules.CFAOffset = 0;
      break;
    case 0x0e: // DW_CFA_def_cfa_offset
      Rules.CFAOffset = int64_t(R.uleb());
      return true;
    case 0x0f: // DW_CFA_def_cfa_expression
      Rules.CFAOffset = expressionHere();
      Rules.CFAIsExpression = true;
      return true;
    case 0x12: // DW_CFA_def_cfa_sf
      Rules.CFARegister = unsigned(R.uleb());
      Rules.CFAOffset = R.sleb() * C.DataAlign;
      break;
    case 0x13: // DW_CFA_def_cfa_offset_sf
      Rules.CFAOffset = R.sleb() * C.DataAlign;
      return true;
    default:
      return false;
    }
    Rules.CFAIsExpression = false;
    return true;
  }

  /// The operations that set one register's rule; false for any other.
  bool registerRule(uint8_t Op) {
    uint64_t Reg = R.uleb();
    switch (Op) {
    case 0x05: // DW_CFA_offset_extended
      setRule(Reg, RegisterRule::Offset, int64_t(R.uleb()) * C.DataAlign);
      return true;
    case 0x06: // DW_CFA_restore_extended
      return restore(Reg) == Step::Next;
    case 0x07: // DW_CFA_undefined
      setRule(Reg, RegisterRule::Undefined, 0);
      return true;
    case 0x08: // DW_CFA_same_value
      setRule(Reg, RegisterRule::SameValue, 0);
      return true;
    case 0x09: { // DW_CFA_register
      uint64_t From = R.uleb();
      setRule(Reg,
              From < kDwarfRegisters ? RegisterRule::Register
                                     : RegisterRule::Unknown,
              int64_t(From));
      return true;
    }
    case 0x10: // DW_CFA_expression
      setRule(Reg, RegisterRule::Expression, expressionHere());
      return true;
    case 0x11: // DW_CFA_offset_extended_sf
      setRule(Reg, RegisterRule::Offset, R.sleb() * C.DataAlign);
      return true;
    case 0x14: // DW_CFA_val_offset
      setRule(Reg, RegisterRule::ValOffset, int64_t(R.uleb()) * C.DataAlign);
      return true;
    case 0x15: // DW_CFA_val_offset_sf
      setRule(Reg, RegisterRule::ValOffset, R.sleb() * C.DataAlign);
      return true;
    case 0x16: // DW_CFA_val_expression
      setRule(Reg, RegisterRule::ValExpression, expressionHere());
      return true;
    case 0x2f: // DW_CFA_GNU_negative_offset_extended
      setRule(Reg, RegisterRule::Offset, -int64_t(R.uleb()) * C.DataAlign);
      return true;
    default:
      return false;
    }
  }

  Cursor R;
  const FrameDescription &F;
  const CommonInfo &C;
  uintptr_t PC, Location;
  FrameRules &Rules;
  const FrameRules *Initial;
  FrameRules Remembered[kMaxRememberedStates];
  unsigned NumRemembered = 0;
};

bool runCFI(const uint8_t *P, const uint8_t *End, const FrameDescription &F,
            uintptr_t PC, FrameRules &Rules, const FrameRules *Initial) {
  return CFIProgram(P, End, F, PC, Rules, Initial).run();
}

/// The rules in force at PC in F: the CIE's program, then the FDE's.
/// Not inlined: its two rule sets and the remembered states stay off the
/// stack while the rest of the walk runs.
__attribute__((noinline)) bool rulesAt(const FrameDescription &F, uintptr_t PC,
                                       FrameRules &Rules) {
  Rules = FrameRules{};
  if (!runCFI(F.CIE.Instructions, F.CIE.InstructionsEnd, F, ~uintptr_t(0),
              Rules, nullptr))
    return false;
  FrameRules Initial = Rules;
  return runCFI(F.Instructions, F.InstructionsEnd, F, PC, Rules, &Initial);
}

/// A DWARF expression whose block (a ULEB128 length, then the operations)
/// is at Block, with Initial pushed first where the rule says so
/// (DW_CFA_expression: the CFA). The operations a compiler or an assembler
/// writes for call frames (registers, constants, arithmetic, comparisons,
/// memory reads, forward branches): each runs at most once, so that the
/// evaluation is bounded by the block's length.
class Expression {
public:
  Expression(const uint8_t *Block, const UnwindRegisters &Regs,
             const StackMemory &Stack)
      : R{Block, Block + 10}, Regs(Regs), Stack(Stack) {
    uint64_t Length = R.uleb();
    if (Length > kMaxEntryBytes)
      R.Ok = false;
    R.End = R.P + (R.Ok ? Length : 0);
  }

  bool evaluate(bool PushInitial, uintptr_t Initial, uintptr_t &Result) {
    if (PushInitial && !push(Initial))
      return false;
    while (R.Ok && R.P < R.End)
      if (!operation(R.u8()))
        return false;
    if (!R.Ok || N == 0)
      return false;
    Result = S[N - 1];
    return true;
  }

private:
  bool push(uintptr_t V) {
    if (N == kMaxDepth)
      return false;
    S[N++] = V;
    return true;
  }
  /// x86-64's return address column (16) is RIP in an expression: the
  /// frame's PC, which is what the column holds in every frame.
  bool pushRegister(uint64_t Reg, int64_t Offset) {
    if (Reg >= kDwarfRegisters || !Regs.known(unsigned(Reg)))
      return false;
    return push(Regs.Value[Reg] + uintptr_t(Offset));
  }
  bool branch(int16_t Offset) {
    if (Offset < 0 || size_t(R.End - R.P) < size_t(Offset))
      return false; // backwards: a loop, not followed
    R.P += Offset;
    return true;
  }

  bool operation(uint8_t Op) {
    if (Op >= 0x30 && Op <= 0x4f) // DW_OP_lit0..31
      return push(Op - 0x30);
    if (Op >= 0x70 && Op <= 0x8f) // DW_OP_breg0..31
      return pushRegister(Op - 0x70, R.sleb());
    if (Op >= 0x08 && Op <= 0x11)
      return push(constant(Op));
    if ((Op >= 0x1a && Op <= 0x27 && Op != 0x1f && Op != 0x20 && Op != 0x23) ||
        (Op >= 0x29 && Op <= 0x2e))
      return binary(Op);
    switch (Op) {
    case 0x92: { // DW_OP_bregx
      uint64_t Reg = R.uleb();
      return pushRegister(Reg, R.sleb());
    }
    case 0x06: { // DW_OP_deref
      uintptr_t V;
      if (N < 1 || !Stack.read(S[N - 1], V))
        return false;
      S[N - 1] = V;
      return true;
    }
    case 0x2f: // DW_OP_skip
      return branch(R.fixed<int16_t>());
    case 0x28: { // DW_OP_bra
      int16_t Offset = R.fixed<int16_t>();
      if (N < 1)
        return false;
      return S[--N] ? branch(Offset) : true;
    }
    case 0x96: // DW_OP_nop
      return true;
    default:
      return stackOperation(Op) || unary(Op);
    }
  }

  /// DW_OP_const1u .. DW_OP_consts.
  uintptr_t constant(uint8_t Op) {
    switch (Op) {
    case 0x08:
      return R.u8();
    case 0x09:
      return uintptr_t(intptr_t(R.fixed<int8_t>()));
    case 0x0a:
      return R.fixed<uint16_t>();
    case 0x0b:
      return uintptr_t(intptr_t(R.fixed<int16_t>()));
    case 0x0c:
      return R.fixed<uint32_t>();
    case 0x0d:
      return uintptr_t(intptr_t(R.fixed<int32_t>()));
    case 0x0e:
    case 0x0f:
      return uintptr_t(R.fixed<uint64_t>());
    case 0x10:
      return uintptr_t(R.uleb());
    default:
      return uintptr_t(R.sleb());
    }
  }

  /// dup, drop, over, pick, swap, rot.
  bool stackOperation(uint8_t Op) {
    switch (Op) {
    case 0x12: // DW_OP_dup
      return N >= 1 && push(S[N - 1]);
    case 0x13: // DW_OP_drop
      return N >= 1 && (--N, true);
    case 0x14: // DW_OP_over
      return N >= 2 && push(S[N - 2]);
    case 0x15: { // DW_OP_pick
      unsigned Back = R.u8();
      return Back < N && push(S[N - 1 - Back]);
    }
    case 0x16: // DW_OP_swap
      if (N < 2)
        return false;
      swap(S[N - 1], S[N - 2]);
      return true;
    case 0x17: // DW_OP_rot
      if (N < 3)
        return false;
      swap(S[N - 1], S[N - 2]);
      swap(S[N - 2], S[N - 3]);
      return true;
    default:
      return false;
    }
  }
  static void swap(uintptr_t &A, uintptr_t &B) {
    uintptr_t T = A;
    A = B;
    B = T;
  }

  /// abs, neg, not, plus_uconst: on the top entry.
  bool unary(uint8_t Op) {
    if (Op == 0x23) { // DW_OP_plus_uconst
      uint64_t V = R.uleb();
      return N >= 1 && (S[N - 1] += uintptr_t(V), true);
    }
    if (N < 1)
      return false;
    intptr_t V = intptr_t(S[N - 1]);
    switch (Op) {
    case 0x19: // DW_OP_abs
      S[N - 1] = uintptr_t(V < 0 ? -V : V);
      return true;
    case 0x1f: // DW_OP_neg
      S[N - 1] = uintptr_t(-V);
      return true;
    case 0x20: // DW_OP_not
      S[N - 1] = ~uintptr_t(V);
      return true;
    default:
      return false;
    }
  }

  /// The binary operations: the second entry OP the top one.
  bool binary(uint8_t Op) {
    if (N < 2)
      return false;
    uintptr_t B = S[--N], A = S[N - 1];
    intptr_t SA = intptr_t(A), SB = intptr_t(B);
    uintptr_t &V = S[N - 1];
    switch (Op) {
    case 0x1a:
      V = A & B;
      return true;
    case 0x1b: // DW_OP_div, signed
      if (SB == 0 || (SB == -1 && SA == INTPTR_MIN))
        return false;
      V = uintptr_t(SA / SB);
      return true;
    case 0x1c:
      V = A - B;
      return true;
    case 0x1d: // DW_OP_mod
      if (B == 0)
        return false;
      V = A % B;
      return true;
    case 0x1e:
      V = A * B;
      return true;
    case 0x21:
      V = A | B;
      return true;
    case 0x22:
      V = A + B;
      return true;
    case 0x24:
      V = B < 64 ? A << B : 0;
      return true;
    case 0x25:
      V = B < 64 ? A >> B : 0;
      return true;
    case 0x26:
      V = uintptr_t(SA >> (B < 63 ? B : 63));
      return true;
    case 0x27:
      V = A ^ B;
      return true;
    case 0x29:
      V = SA == SB;
      return true;
    case 0x2a:
      V = SA >= SB;
      return true;
    case 0x2b:
      V = SA > SB;
      return true;
    case 0x2c:
      V = SA <= SB;
      return true;
    case 0x2d:
      V = SA < SB;
      return true;
    case 0x2e:
      V = SA != SB;
      return true;
    default:
      return false;
    }
  }

  static constexpr unsigned kMaxDepth = 16;
  Cursor R;
  const UnwindRegisters &Regs;
  const StackMemory &Stack;
  uintptr_t S[kMaxDepth];
  unsigned N = 0;
};

bool evaluate(const uint8_t *Block, const UnwindRegisters &Regs,
              const StackMemory &Stack, bool PushInitial, uintptr_t Initial,
              uintptr_t &Result) {
  return Expression(Block, Regs, Stack).evaluate(PushInitial, Initial, Result);
}

/// What a step from one PC needs of the call frame information: the rules
/// of the row that holds it, where the FDE's function starts, the CIE's
/// return column and signal-frame mark, and where the FDE's program is
/// (the rules' DWARF expressions are offsets into it). Valid is false where
/// the FDE was found but its program could not be followed.
struct StepRules {
  uintptr_t FunctionStart;
  const uint8_t *Instructions;
  FrameRules Rules;
  uint8_t ReturnColumn;
  bool SignalFrame;
  bool Valid;
};

/// The rules of the FDE that holds PC in the object of Index; false where
/// there is none (the step has no information).
bool findStepRules(const uint8_t *Index, uintptr_t PC, StepRules &S) {
  FrameDescription F;
  if (!Index || !findFDE(Index, PC, F))
    return false;
  S.FunctionStart = F.Start;
  S.Instructions = F.Instructions;
  S.ReturnColumn = uint8_t(F.CIE.ReturnColumn);
  S.SignalFrame = F.CIE.SignalFrame;
  S.Valid = F.CIE.ReturnColumn < kDwarfRegisters && rulesAt(F, PC, S.Rules);
  return true;
}

/// The rules of the PCs the walks stepped from, remembered: the binary
/// search of the object's index, the parse of its FDE and CIE and the run
/// of their CFI programs took most of a step (a sample's stack is a few
/// dozen steps, most of them from the same return addresses at every
/// sample). Direct-mapped; each entry under a sequence count, odd while
/// it is written, which a reader checks before and after its copy (a
/// writer claims the entry with a compare-exchange or leaves it: signal
/// handlers of several threads, or nested on one, never wait). The
/// entries are those of one generation of the loaded objects: dlopen and
/// dlclose start a new one (the rules point into an object's .eh_frame,
/// and another object may be mapped where one was). Mapped when a walk
/// first remembers one (mapped.h).
class StepCache {
public:
  bool find(uintptr_t PC, StepRules &Out) const {
    Entry *Entries = Table.peek();
    if (!Entries)
      return false;
    const Entry &E = Entries[slot(PC)];
    uint64_t Before = __atomic_load_n(&E.Sequence, __ATOMIC_ACQUIRE);
    if (Before & 1 || __atomic_load_n(&E.PC, __ATOMIC_RELAXED) != PC ||
        __atomic_load_n(&E.Generation, __ATOMIC_RELAXED) != generation())
      return false;
    copyWords(&Out, &E.Rules);
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    return __atomic_load_n(&E.Sequence, __ATOMIC_RELAXED) == Before;
  }
  void remember(uintptr_t PC, const StepRules &Rules, uint64_t Generation) {
    Entry *Entries = Table.get();
    if (!Entries)
      return;
    Entry &E = Entries[slot(PC)];
    uint64_t Sequence = __atomic_load_n(&E.Sequence, __ATOMIC_RELAXED);
    if (Sequence & 1 ||
        !__atomic_compare_exchange_n(&E.Sequence, &Sequence, Sequence + 1,
                                     false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
      return;
    __atomic_store_n(&E.PC, PC, __ATOMIC_RELAXED);
    __atomic_store_n(&E.Generation, Generation, __ATOMIC_RELAXED);
    copyWords(&E.Rules, &Rules);
    __atomic_store_n(&E.Sequence, Sequence + 2, __ATOMIC_RELEASE);
  }
  uint64_t generation() const {
    return __atomic_load_n(&Generation, __ATOMIC_ACQUIRE);
  }
  void newGeneration() { __atomic_add_fetch(&Generation, 1, __ATOMIC_ACQ_REL); }

private:
  static constexpr unsigned kEntryBits = 10;
  static_assert(sizeof(StepRules) % sizeof(uint64_t) == 0 &&
                    alignof(StepRules) >= alignof(uint64_t),
                "the rules are copied in words");
  /// Copies the rules a word at a time, each word whole (relaxed atomics):
  /// a reader may copy while a writer writes, then sees the sequence moved.
  static void copyWords(StepRules *To, const StepRules *From) {
    auto *T = reinterpret_cast<uint64_t *>(To);
    auto *F = reinterpret_cast<const uint64_t *>(From);
    for (size_t I = 0; I < sizeof(StepRules) / sizeof(uint64_t); ++I)
      __atomic_store_n(&T[I], __atomic_load_n(&F[I], __ATOMIC_RELAXED),
                       __ATOMIC_RELAXED);
  }
  struct Entry {
    uint64_t Sequence;
    uintptr_t PC;
    uint64_t Generation;
    StepRules Rules;
  };
  static size_t slot(uintptr_t PC) {
    return size_t((uint64_t(PC) * 0x9e3779b97f4a7c15ull) >> (64 - kEntryBits));
  }
  mutable MappedArray<Entry, size_t(1) << kEntryBits> Table;
  uint64_t Generation;
};

StepCache Steps;

void noteObjectsChanged() { Steps.newGeneration(); }

PCMAP_SUBSCRIBE(UnwindHooks, 33, {{Event::ObjectsChanged, noteObjectsChanged}});

UnwindStep applyStepRules(const StepRules &S, UnwindRegisters &Regs,
                          const StackMemory &Stack, uintptr_t *FunctionStart);

} // namespace

bool findFunctionInIndex(const uint8_t *Index, uintptr_t PC, uintptr_t &Start,
                         uintptr_t &End) {
  FrameDescription F;
  if (!findFDE(Index, PC, F))
    return false;
  Start = F.Start;
  End = F.End;
  return true;
}

bool callFrameInfoCovers(uintptr_t PC, uintptr_t &Start, uintptr_t &End) {
  return findFunctionInIndex(unwindIndexFor(PC), PC, Start, End);
}

UnwindStep unwindStepWithIndex(const uint8_t *Index, UnwindRegisters &Regs,
                               const StackMemory &Stack,
                               uintptr_t *FunctionStart) {
  uintptr_t Lookup = Regs.PCIsReturnAddress ? Regs.PC - 1 : Regs.PC;
  StepRules S;
  if (!findStepRules(Index, Lookup, S))
    return UnwindStep::NoInfo;
  return applyStepRules(S, Regs, Stack, FunctionStart);
}

UnwindStep unwindStep(UnwindRegisters &Regs, const StackMemory &Stack,
                      uintptr_t *FunctionStart) {
  uintptr_t Lookup = Regs.PCIsReturnAddress ? Regs.PC - 1 : Regs.PC;
  StepRules S;
  if (!Steps.find(Lookup, S)) {
    // The generation before the index is looked up: rules from an object
    // unloaded meanwhile are never current.
    uint64_t Generation = Steps.generation();
    if (!findStepRules(unwindIndexFor(Lookup), Lookup, S))
      return UnwindStep::NoInfo;
    Steps.remember(Lookup, S, Generation);
  }
  return applyStepRules(S, Regs, Stack, FunctionStart);
}

namespace {

UnwindStep applyStepRules(const StepRules &S, UnwindRegisters &Regs,
                          const StackMemory &Stack, uintptr_t *FunctionStart) {
  if (FunctionStart)
    *FunctionStart = S.FunctionStart;
  if (!S.Valid)
    return UnwindStep::Failed;
  const FrameRules &Rules = S.Rules;
  const RegisterRule &RA = Rules.Regs[S.ReturnColumn];
  if (RA.K == RegisterRule::Undefined)
    return UnwindStep::Outermost;
  uintptr_t CFA;
  if (Rules.CFAIsExpression) {
    if (!evaluate(S.Instructions + Rules.CFAOffset, Regs, Stack, false, 0, CFA))
      return UnwindStep::Failed;
  } else {
    if (!Regs.known(Rules.CFARegister))
      return UnwindStep::Failed;
    CFA = Regs.Value[Rules.CFARegister] + uintptr_t(Rules.CFAOffset);
  }
  UnwindRegisters Caller;
  Caller.Known = 0;
  for (unsigned I = 0; I < kDwarfRegisters; ++I) {
    const RegisterRule &Rule = Rules.Regs[I];
    uintptr_t V;
    switch (Rule.K) {
    case RegisterRule::SameValue:
      if (Regs.known(I))
        Caller.set(I, Regs.Value[I]);
      break;
    case RegisterRule::Offset:
      // A slot the walk may not read is a register the caller does not
      // know (an epilogue that popped it: GCC's CFI does not say so); the
      // return address's is checked below.
      if (Stack.read(CFA + uintptr_t(intptr_t(Rule.Value)), V))
        Caller.set(I, V);
      break;
    case RegisterRule::ValOffset:
      Caller.set(I, CFA + uintptr_t(intptr_t(Rule.Value)));
      break;
    case RegisterRule::Register:
      if (Regs.known(unsigned(Rule.Value)))
        Caller.set(I, Regs.Value[Rule.Value]);
      break;
    case RegisterRule::Expression:
    case RegisterRule::ValExpression: {
      uintptr_t At;
      if (!evaluate(S.Instructions + Rule.Value, Regs, Stack, true, CFA, At))
        break; // unknown in the caller, as a register no rule restores
      if (Rule.K == RegisterRule::ValExpression)
        Caller.set(I, At);
      else if (Stack.read(At, V))
        Caller.set(I, V);
      break;
    }
    case RegisterRule::Undefined:
    case RegisterRule::Unknown:
      break;
    }
  }
  if (!Caller.known(S.ReturnColumn))
    return UnwindStep::Failed;
  Caller.PC = Caller.Value[S.ReturnColumn];
  if (Rules.ReturnAddressSigned)
    Caller.PC = stripPointerAuthentication(Caller.PC);
  // The caller's stack pointer is the CFA, by the definition of both ABIs,
  // unless the rules restore it (a signal frame's).
  if (!Caller.known(kDwarfSP) ||
      Rules.Regs[kDwarfSP].K == RegisterRule::SameValue)
    Caller.set(kDwarfSP, CFA);
  // Above a signal frame, the PC is where the signal interrupted the code.
  Caller.PCIsReturnAddress = !S.SignalFrame;
  Regs = Caller;
  return UnwindStep::Caller;
}

} // namespace

} // namespace rt
} // namespace pcmap
