//===- AccessCompare.cpp - The runtime's access decoders against MC -------===//

#include "AccessCompare.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCDisassembler/MCDisassembler.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>

using namespace llvm;
using namespace pcmap::rt;
using pcmap::test::AccessComparer;
using MC = AccessComparer::MC;

struct AccessComparer::MC {
  std::unique_ptr<MCRegisterInfo> MRI;
  std::unique_ptr<MCAsmInfo> MAI;
  std::unique_ptr<MCSubtargetInfo> STI;
  std::unique_ptr<MCInstrInfo> MII;
  std::unique_ptr<MCContext> Ctx;
  std::unique_ptr<MCDisassembler> Disassembler;
  std::unique_ptr<MCInstPrinter> Intel;

  bool init(const Triple &T) {
    std::string Error;
    const Target *TheTarget = TargetRegistry::lookupTarget(T.str(), Error);
    if (!TheTarget)
      return false;
    MRI.reset(TheTarget->createMCRegInfo(T.str()));
    MCTargetOptions Options;
    MAI.reset(TheTarget->createMCAsmInfo(*MRI, T.str(), Options));
    // Every AArch64 extension, as binaries may use any behind a CPU check.
    STI.reset(TheTarget->createMCSubtargetInfo(T.str(), "",
                                               T.isAArch64() ? "+all" : ""));
    MII.reset(TheTarget->createMCInstrInfo());
    Ctx = std::make_unique<MCContext>(T, MAI.get(), MRI.get(), STI.get());
    Disassembler.reset(TheTarget->createMCDisassembler(*STI, *Ctx));
    // Intel syntax on x86-64 (it prints the operand's size); AArch64's
    // generic one.
    Intel.reset(TheTarget->createMCInstPrinter(T, T.isAArch64() ? 0 : 1, *MAI,
                                               *MII, *MRI));
    return Disassembler && Intel;
  }
};

namespace {

/// The decoder's number of an x86-64 register MC names; kNoRegister for
/// none; 0xfe for one no address uses. Bytes: 4 for a 32-bit register.
uint8_t registerNumber(StringRef Name, unsigned &Bytes) {
  static const char *const Names64[] = {"RAX", "RCX", "RDX", "RBX",
                                        "RSP", "RBP", "RSI", "RDI"};
  static const char *const Names32[] = {"EAX", "ECX", "EDX", "EBX",
                                        "ESP", "EBP", "ESI", "EDI"};
  // RIZ and EIZ: a SIB byte's "no index".
  if (Name == "EIZ")
    Bytes = 4;
  if (Name.empty() || Name == "NoRegister" || Name == "RIZ" || Name == "EIZ")
    return kNoRegister;
  if (Name == "RIP" || Name == "EIP") {
    Bytes = Name == "EIP" ? 4 : 8;
    return kX86RegRIP;
  }
  for (unsigned I = 0; I < 8; ++I) {
    if (Name == Names64[I])
      return uint8_t(I);
    if (Name == Names32[I]) {
      Bytes = 4;
      return uint8_t(I);
    }
  }
  unsigned N;
  if (Name.consume_front("R") && !Name.consumeInteger(10, N) && N < 16) {
    if (Name == "D")
      Bytes = 4;
    return uint8_t(N);
  }
  return 0xfe;
}

/// The size Intel syntax prints ("dword ptr"), 0 if none.
unsigned intelSize(StringRef Text) {
  static const std::pair<const char *, unsigned> Sizes[] = {
      {"byte ptr", 1},     {"xmmword ptr", 16}, {"ymmword ptr", 32},
      {"zmmword ptr", 64}, {"qword ptr", 8},    {"dword ptr", 4},
      {"tbyte ptr", 10},   {"fword ptr", 6},    {"word ptr", 2}};
  for (const auto &[Word, Size] : Sizes)
    if (Text.contains(Word))
      return Size;
  return 0;
}

/// The first of the five operands of MC's explicit memory operand, or -1.
int memoryOperand(const MCInstrDesc &Desc, const MCInst &Inst) {
  ArrayRef<MCOperandInfo> Info = Desc.operands();
  for (unsigned I = 0; I + 5 <= Info.size() && I + 5 <= Inst.getNumOperands();
       ++I) {
    bool Five = true;
    for (unsigned K = 0; K < 5; ++K)
      Five &= Info[I + K].OperandType == MCOI::OPERAND_MEMORY;
    if (Five)
      return int(I);
    if (Info[I].OperandType == MCOI::OPERAND_MEMORY)
      return -2; // a string instruction's operand: not a ModRM address
  }
  return -1;
}

bool isPrefixWord(StringRef Word);

/// The mnemonic of Intel syntax's text, after its prefixes.
StringRef mnemonic(StringRef Intel) {
  StringRef Text = Intel.trim(), Word;
  do {
    std::tie(Word, Text) = Text.split('\t');
    Text = Text.ltrim();
  } while (isPrefixWord(Word) && !Text.empty());
  return Word.trim();
}

/// The address of MOVABS's operand as Intel syntax prints it ("[N]").
uint64_t absoluteAddress(StringRef Intel) {
  StringRef Inside = Intel.split('[').second.split(']').first;
  int64_t Value = 0;
  if (Inside.getAsInteger(10, Value))
    return ~uint64_t(0);
  return uint64_t(Value);
}

bool onlyAddress(StringRef Mnemonic) {
  return Mnemonic.starts_with("lea") || Mnemonic.starts_with("nop") ||
         Mnemonic.starts_with("prefetch") || Mnemonic.starts_with("clflush") ||
         Mnemonic.starts_with("clwb") || Mnemonic.starts_with("cldemote");
}

/// Why the decoded Form disagrees with MC, or "".
std::string compare(const MC &M, const MCInst &Inst, const MCInstrDesc &Desc,
                    StringRef Intel, AccessDecode Result,
                    const AccessForm &Form, uint64_t Size) {
  if (Form.Length != Size)
    return "length " + std::to_string(Form.Length) + ", MC " +
           std::to_string(Size);
  int Mem = memoryOperand(Desc, Inst);
  StringRef Mnemonic = mnemonic(Intel);
  bool Loads = Desc.mayLoad(), Stores = Desc.mayStore();
  if (Result == AD_NoMemory) {
    if (Mem >= 0 && (Loads || Stores) && !onlyAddress(Mnemonic))
      return "no access, but MC reads or writes its memory operand";
    return "";
  }
  // MC does not model the implicit operands of stack and string
  // instructions as loads and stores.
  if (Mem < 0 && !Form.WritesAddressRegister && Form.Base == kNoRegister &&
      Form.Index == kNoRegister)
    return absoluteAddress(Intel) == uint64_t(Form.Displacement)
               ? ""
               : "absolute address " + std::to_string(Form.Displacement);
  if (Mem < 0)
    return Mem == -2 || Form.WritesAddressRegister
               ? ""
               : "an access where MC shows no memory operand";
  if (onlyAddress(Mnemonic))
    return "an access where the operand is only an address";
  // PUSH, POP and CALL with a memory operand also access the stack, which
  // MC's flags include; MC calls LDMXCSR a store too (it has side effects).
  unsigned MCKind = (Loads ? AK_Read : 0) + (Stores ? AK_Write : 0);
  bool Stack = Mnemonic.ends_with("push") || Mnemonic.ends_with("pop") ||
               Mnemonic.ends_with("call") || Mnemonic == "ldmxcsr";
  if (Stack ? (Form.Kind & ~MCKind) != 0 : Form.Kind != MCKind)
    return "kind " + std::to_string(Form.Kind) + ", MC mayLoad " +
           std::to_string(Loads) + " mayStore " + std::to_string(Stores);
  unsigned Bytes = 8;
  const MCOperand &Base = Inst.getOperand(Mem), &Scale = Inst.getOperand(Mem + 1),
                  &Index = Inst.getOperand(Mem + 2),
                  &Disp = Inst.getOperand(Mem + 3),
                  &Segment = Inst.getOperand(Mem + 4);
  uint8_t B = registerNumber(M.MRI->getName(Base.getReg()), Bytes);
  uint8_t X = registerNumber(M.MRI->getName(Index.getReg()), Bytes);
  if (B != Form.Base || X != Form.Index)
    return "base/index " + std::to_string(Form.Base) + "/" +
           std::to_string(Form.Index) + ", MC " + std::to_string(B) + "/" +
           std::to_string(X);
  if (X != kNoRegister && Scale.getImm() != Form.Scale)
    return "scale " + std::to_string(Form.Scale);
  if (Disp.isImm() && Disp.getImm() != Form.Displacement)
    return "displacement " + std::to_string(Form.Displacement) + ", MC " +
           std::to_string(Disp.getImm());
  StringRef Seg = M.MRI->getName(Segment.getReg());
  uint8_t S = Seg == "FS" ? AS_FS : Seg == "GS" ? AS_GS : AS_None;
  if (S != Form.Segment)
    return "segment " + std::to_string(Form.Segment);
  // Without a register, MC's text says the address's size ("addr32").
  if (B == kNoRegister && X == kNoRegister && Intel.contains("addr32"))
    Bytes = 4;
  if (Bytes != Form.AddressBytes)
    return "address size " + std::to_string(Form.AddressBytes);
  unsigned Printed = intelSize(Intel);
  if (Form.Size && Printed && Printed != Form.Size)
    return "size " + std::to_string(Form.Size) + ", MC " +
           std::to_string(Printed);
  return "";
}

std::string printed(const MC &M, const MCInst &Inst, uint64_t Address) {
  std::string Text;
  raw_string_ostream OS(Text);
  M.Intel->printInst(&Inst, Address, "", *M.STI, OS);
  return StringRef(Text).trim().str();
}

bool isPrefixWord(StringRef Word) {
  static const char *const Prefixes[] = {
      "lock", "rep",    "repne",    "data16",   "cs",  "ds",
      "es",   "ss",     "fs",       "gs",       "rex64", "notrack",
      "addr32", "data32", "xacquire", "xrelease", "bnd"};
  for (const char *P : Prefixes)
    if (Word == P)
      return true;
  return false;
}

/// Whether MC's text is prefixes alone ("lock", "rep xrelease").
bool isPrefixOnly(StringRef Intel) {
  SmallVector<StringRef, 4> Words;
  Intel.split(Words, '\t', -1, false);
  if (Words.empty())
    return false;
  for (StringRef Word : Words)
    if (!isPrefixWord(Word.trim()))
      return false;
  return true;
}



/// An AArch64 register's number in an address (SP 31), kNoRegister for
/// XZR/WZR, 0xfe if not a general register.
uint8_t aarch64Register(StringRef Name) {
  Name = Name.trim();
  if (Name == "sp" || Name == "wsp")
    return kAArch64RegSP;
  if (Name == "xzr" || Name == "wzr")
    return kNoRegister;
  unsigned N;
  if ((Name.consume_front("x") || Name.consume_front("w")) &&
      !Name.getAsInteger(10, N) && N < 31)
    return uint8_t(N);
  return 0xfe;
}

/// The bytes a register of this name holds (w 4, x 8, b h s d q).
unsigned registerBytes(StringRef Name) {
  switch (Name.trim().empty() ? 0 : Name.trim()[0]) {
  case 'b':
    return 1;
  case 'h':
    return 2;
  case 'w':
  case 's':
    return 4;
  case 'x':
  case 'd':
    return 8;
  case 'q':
    return 16;
  default:
    return 0;
  }
}

/// The size an AArch64 load or store accesses, from its mnemonic and its
/// data register: 0 if not told here (SIMD structures).
unsigned aarch64Size(StringRef Mnemonic, StringRef Operands) {
  SmallVector<StringRef, 6> Regs;
  Operands.split('[').first.split(Regs, ',', -1, false);
  bool Status = Mnemonic.starts_with("stxr") || Mnemonic.starts_with("stlxr") ||
                Mnemonic.starts_with("stxp") || Mnemonic.starts_with("stlxp");
  if (Regs.size() <= size_t(Status) || Mnemonic.starts_with("ld1") ||
      Mnemonic.starts_with("st1") || Mnemonic.size() == 3)
    return 0; // LD1..LD4, ST1..ST4 and their forms are not sized here
  bool Pair = Mnemonic.contains("xp") || Mnemonic == "ldp" ||
              Mnemonic == "stp" || Mnemonic == "ldnp" || Mnemonic == "stnp" ||
              Mnemonic == "ldpsw" || Mnemonic.starts_with("casp");
  unsigned Element = registerBytes(Regs[Status ? 1 : 0]);
  if (Mnemonic.ends_with("sw"))
    Element = 4;
  else if (Mnemonic.ends_with("b"))
    Element = 1;
  else if (Mnemonic.ends_with("h"))
    Element = 2;
  return Pair ? 2 * Element : Element;
}

/// The address an AArch64 instruction's text shows: base, index and its
/// extend and scale, displacement, write-back.
struct TextAddress {
  uint8_t Base = kNoRegister, Index = kNoRegister, Extend = AE_None;
  unsigned Scale = 1;
  int64_t Displacement = 0;
  bool Writeback = false, Valid = false;
};

TextAddress aarch64Address(StringRef Operands) {
  TextAddress A;
  // The last bracket: "{ v0.s }[1], [x8]" names a lane first.
  size_t Open = Operands.rfind('['), Close = Operands.find(']', Open);
  if (Open == StringRef::npos || Close == StringRef::npos) {
    // A literal: "#offset" from the instruction.
    StringRef Imm = Operands.rsplit(',').second.trim();
    A.Valid = Imm.consume_front("#") && !Imm.getAsInteger(0, A.Displacement);
    A.Base = kAArch64RegPC;
    return A;
  }
  SmallVector<StringRef, 4> Parts;
  Operands.slice(Open + 1, Close).split(Parts, ',');
  StringRef After = Operands.substr(Close + 1).trim();
  A.Base = aarch64Register(Parts[0]);
  A.Writeback = !After.empty(); // "!" (pre-index) or ", #8" (post-index)
  A.Valid = true;
  for (size_t I = 1; I < Parts.size(); ++I) {
    StringRef Part = Parts[I].trim();
    if (Part.consume_front("#")) {
      A.Valid &= !Part.getAsInteger(0, A.Displacement);
      continue;
    }
    StringRef Kind = Part.split(' ').first, Amount = Part.split('#').second;
    if (aarch64Register(Part) != 0xfe) {
      A.Index = aarch64Register(Part);
      continue;
    }
    A.Extend = Kind == "uxtw" ? AE_UXTW : Kind == "sxtw" ? AE_SXTW : AE_None;
    unsigned Shift = 0;
    if (!Amount.empty())
      A.Valid &= !Amount.getAsInteger(10, Shift);
    A.Scale = 1u << Shift;
  }
  if (A.Writeback && !After.starts_with("!"))
    A.Displacement = 0; // post-index: the access is at the base
  return A;
}

/// What an AArch64 load or store does, by its mnemonic: CAS, SWP and the
/// LSE operations read and write; other LD* read, ST* write.
unsigned mnemonicKind(StringRef Mnemonic) {
  if (Mnemonic.starts_with("cas") || Mnemonic.starts_with("swp"))
    return AK_ReadWrite;
  for (StringRef Op : {"add", "clr", "eor", "set", "smax", "smin", "umax",
                       "umin"})
    if (Mnemonic.substr(2).starts_with(Op))
      return AK_ReadWrite;
  return Mnemonic.starts_with("ld")   ? AK_Read
         : Mnemonic.starts_with("st") ? AK_Write
                                      : 0;
}

std::string compareAArch64(const MCInstrDesc &Desc, StringRef Text,
                           AccessDecode Result, const AccessForm &Form) {
  StringRef Mnemonic = Text.split('\t').first.trim();
  // Without MC's comment ("// acquire semantics dropped ...").
  StringRef Operands = Text.split('\t').second.split("//").first.trim();
  bool Loads = Desc.mayLoad(), Stores = Desc.mayStore();
  bool Prefetch = Mnemonic.starts_with("prfm") || Mnemonic.starts_with("prfum");
  if (Result == AD_NoMemory)
    return Operands.contains('[') && (Loads || Stores) && !Prefetch
               ? "no access, but MC loads or stores"
               : "";
  // MC models the exclusives (LDXR, STXR, ...) as loads and stores both,
  // and some loads (LDAPURSW) as neither: the mnemonic tells then.
  unsigned MCKind = (Loads ? AK_Read : 0) + (Stores ? AK_Write : 0);
  if (!MCKind)
    MCKind = mnemonicKind(Mnemonic);
  bool Exclusive = Mnemonic.contains("xr") || Mnemonic.contains("xp");
  if (Exclusive ? (Form.Kind & ~MCKind) != 0 : Form.Kind != MCKind)
    return "kind " + std::to_string(Form.Kind) + ", MC mayLoad " +
           std::to_string(Loads) + " mayStore " + std::to_string(Stores);
  TextAddress A = aarch64Address(Operands);
  if (!A.Valid)
    return "an address the checker cannot read";
  if (A.Base != Form.Base || A.Index != Form.Index)
    return "base/index " + std::to_string(Form.Base) + "/" +
           std::to_string(Form.Index) + ", text " + std::to_string(A.Base) +
           "/" + std::to_string(A.Index);
  if (A.Displacement != Form.Displacement)
    return "displacement " + std::to_string(Form.Displacement) + ", text " +
           std::to_string(A.Displacement);
  if (A.Index != kNoRegister &&
      (A.Scale != Form.Scale || A.Extend != Form.IndexExtend))
    return "index scale/extend " + std::to_string(Form.Scale) + "/" +
           std::to_string(Form.IndexExtend);
  if (A.Writeback && !Form.WritesAddressRegister)
    return "write-back not said";
  unsigned Size = aarch64Size(Mnemonic, Operands);
  if (Form.Size && Size && Size != Form.Size)
    return "size " + std::to_string(Form.Size) + ", text " +
           std::to_string(Size);
  return "";
}


/// MC's instruction at Bytes, a prefix MC keeps apart (LOCK, REP, ...)
/// taken with the instruction after it.
bool disassemble(const MC &M, ArrayRef<uint8_t> Bytes, uint64_t Address,
                 MCInst &Inst, pcmap::test::AccessCheck &C) {
  if (M.Disassembler->getInstruction(Inst, C.Size, Bytes, Address, nulls()) !=
      MCDisassembler::Success)
    return false;
  C.Text = printed(M, Inst, Address);
  uint64_t PrefixBytes = 0;
  while (isPrefixOnly(C.Text) && PrefixBytes + C.Size < Bytes.size()) {
    PrefixBytes += C.Size;
    uint64_t Next = 0;
    if (M.Disassembler->getInstruction(Inst, Next, Bytes.slice(PrefixBytes),
                                       Address + PrefixBytes,
                                       nulls()) != MCDisassembler::Success)
      return false;
    C.Size = Next;
    C.Text = printed(M, Inst, Address + PrefixBytes);
  }
  C.Size += PrefixBytes;
  return true;
}

} // namespace

namespace pcmap {
namespace test {

AccessComparer::AccessComparer() = default;
AccessComparer::~AccessComparer() = default;

bool AccessComparer::init() {
  InitializeAllTargetInfos();
  InitializeAllTargetMCs();
  InitializeAllDisassemblers();
  X86 = std::make_unique<MC>();
  A64 = std::make_unique<MC>();
  return X86->init(Triple("x86_64-linux-gnu")) &&
         A64->init(Triple("aarch64-linux-gnu"));
}

AccessCheck AccessComparer::check(ArrayRef<uint8_t> Bytes, uint64_t Address,
                                  bool AArch64) const {
  const MC &M = AArch64 ? *A64 : *X86;
  AccessCheck C;
  MCInst Inst;
  if (!disassemble(M, Bytes, Address, Inst, C)) {
    C.Size = C.Size ? C.Size : 1;
    return C;
  }
  C.Decoded = true;
  C.Mnemonic = AArch64 ? StringRef(C.Text).split('\t').first.trim().str()
                       : mnemonic(C.Text).str();
  C.Result = AArch64 ? decodeAArch64Access(Bytes.data(), Bytes.size(), C.Form)
                     : decodeX86_64Access(Bytes.data(), Bytes.size(), C.Form);
  if (C.Result == AD_Unknown)
    return C;
  const MCInstrDesc &Desc = M.MII->get(Inst.getOpcode());
  C.Why = AArch64 ? compareAArch64(Desc, C.Text, C.Result, C.Form)
                  : compare(M, Inst, Desc, C.Text, C.Result, C.Form, C.Size);
  return C;
}

std::string hexBytes(ArrayRef<uint8_t> Bytes) {
  std::string Text;
  for (uint8_t B : Bytes)
    Text += (Text.empty() ? "" : " ") + utohexstr(B | 0x100, true).substr(1);
  return Text;
}

} // namespace test
} // namespace pcmap
