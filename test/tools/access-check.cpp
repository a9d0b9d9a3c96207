//===- access-check.cpp - The runtime's access decoder against LLVM's MC --===//
//
// Disassembles every executable section of each file with LLVM's MC and
// holds the runtime's memory-access decoder (rt/core/access.h) to it,
// instruction by instruction. The decoder may say "unknown"; where it
// decodes, it must agree with MC:
//   - the instruction's length;
//   - an explicit memory operand MC shows and reads or writes: the same
//     base, index, scale, displacement and segment, the size of Intel
//     syntax's "ptr" where MC prints one, and read/write as MC's mayLoad
//     and mayStore say;
//   - no access where MC shows no memory operand but for the implicit
//     ones the decoder knows (stack, string instructions), which must read
//     or write as MC says; none where MC's operand only computes an address
//     (LEA, NOPs; prefetches and cache-line flushes, which MC calls loads).
// Prints a summary line per file, the first disagreements in full, and
// exits 1 if there is any.
//
// usage: access-check [--skip-missing] [--show=N] FILE...
//
//===----------------------------------------------------------------------===//

#include "core/access.h"

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
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <memory>

using namespace llvm;
using namespace pcmap::rt;

namespace {

cl::list<std::string> Files(cl::Positional, cl::OneOrMore,
                            cl::desc("<ELF files>"));
cl::opt<bool> SkipMissing("skip-missing",
                          cl::desc("Skip the files that do not exist"));
cl::opt<unsigned> ShowLimit("show", cl::init(20),
                            cl::desc("Disagreements printed in full"));

struct Counts {
  uint64_t Instructions = 0, Undecoded = 0, Unknown = 0, Memory = 0,
           NoMemory = 0, Disagreements = 0;
  std::map<std::string, uint64_t> UnknownByMnemonic;
};

struct MC {
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

/// The decoder's number of an x86-64 register MC names; kNoRegister for
/// none; 0xfe for one no address uses. Bytes: 4 for a 32-bit register.
uint8_t registerNumber(StringRef Name, unsigned &Bytes) {
  static const char *const Names64[] = {"RAX", "RCX", "RDX", "RBX",
                                        "RSP", "RBP", "RSI", "RDI"};
  static const char *const Names32[] = {"EAX", "ECX", "EDX", "EBX",
                                        "ESP", "EBP", "ESI", "EDI"};
  // RIZ and EIZ: a SIB byte's "no index".
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

bool isPrefixOnly(StringRef Intel);

/// The mnemonic of Intel syntax's text, after its prefixes.
StringRef mnemonic(StringRef Intel) {
  StringRef Text = Intel.trim(), Word;
  do {
    std::tie(Word, Text) = Text.split('\t');
    Text = Text.ltrim();
  } while (isPrefixOnly(Word) && !Text.empty());
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

bool isPrefixOnly(StringRef Intel) {
  return Intel == "lock" || Intel == "rep" || Intel == "repne" ||
         Intel == "data16" || Intel == "cs" || Intel == "ds" ||
         Intel == "es" || Intel == "ss" || Intel == "fs" || Intel == "gs" ||
         Intel == "rex64" || Intel == "notrack" || Intel == "addr32" ||
         Intel == "data32" || Intel == "xacquire" || Intel == "xrelease" ||
         Intel == "bnd";
}

std::string hexBytes(ArrayRef<uint8_t> Bytes) {
  std::string Text;
  for (uint8_t B : Bytes)
    Text += (Text.empty() ? "" : " ") + utohexstr(B | 0x100, true).substr(1);
  return Text;
}

std::string compareAArch64(const MCInstrDesc &Desc, StringRef Text,
                           AccessDecode Result, const AccessForm &Form);

void checkSection(const MC &M, ArrayRef<uint8_t> Bytes, uint64_t Address,
                  StringRef File, bool AArch64, Counts &C) {
  for (uint64_t Offset = 0; Offset < Bytes.size();) {
    MCInst Inst;
    uint64_t Size = 0;
    ArrayRef<uint8_t> Rest = Bytes.slice(Offset);
    if (M.Disassembler->getInstruction(Inst, Size, Rest, Address + Offset,
                                       nulls()) != MCDisassembler::Success) {
      ++C.Undecoded;
      Offset += Size ? Size : 1;
      continue;
    }
    // MC decodes a prefix it keeps apart (LOCK, REP, ...) as an
    // instruction of its own: the instruction is the prefix and the next.
    std::string Intel = printed(M, Inst, Address + Offset);
    uint64_t PrefixBytes = 0;
    while (isPrefixOnly(Intel) && PrefixBytes + Size < Rest.size()) {
      PrefixBytes += Size;
      uint64_t Next = 0;
      if (M.Disassembler->getInstruction(Inst, Next, Rest.slice(PrefixBytes),
                                         Address + Offset + PrefixBytes,
                                         nulls()) != MCDisassembler::Success)
        break;
      Size = Next;
      Intel = printed(M, Inst, Address + Offset + PrefixBytes);
    }
    Size += PrefixBytes;
    ++C.Instructions;
    AccessForm Form;
    AccessDecode Result =
        AArch64 ? decodeAArch64Access(Rest.data(), Rest.size(), Form)
                : decodeX86_64Access(Rest.data(), Rest.size(), Form);
    if (Result == AD_Unknown) {
      ++C.Unknown;
      ++C.UnknownByMnemonic[mnemonic(Intel).str()];
    } else {
      ++(Result == AD_Memory ? C.Memory : C.NoMemory);
      const MCInstrDesc &Desc = M.MII->get(Inst.getOpcode());
      std::string Why = AArch64
                            ? compareAArch64(Desc, Intel, Result, Form)
                            : compare(M, Inst, Desc, Intel, Result, Form, Size);
      if (!Why.empty() && C.Disagreements++ < ShowLimit)
        outs() << File << "+0x" << utohexstr(Address + Offset) << ": "
               << hexBytes(Rest.take_front(Size)) << " ("
               << StringRef(Intel).trim() << "): " << Why << "\n";
    }
    Offset += Size;
  }
}

bool checkFile(const MC &X86, const MC &A64, StringRef Path, Counts &C) {
  Expected<object::OwningBinary<object::ObjectFile>> Binary =
      object::ObjectFile::createObjectFile(Path);
  if (!Binary) {
    errs() << "access-check: " << Path << ": "
           << toString(Binary.takeError()) << "\n";
    return false;
  }
  bool AArch64 = Binary->getBinary()->getArch() == Triple::aarch64;
  if (!AArch64 && Binary->getBinary()->getArch() != Triple::x86_64) {
    errs() << "access-check: " << Path << ": neither x86-64 nor AArch64\n";
    return false;
  }
  const MC &M = AArch64 ? A64 : X86;
  for (const object::SectionRef &Section : Binary->getBinary()->sections()) {
    if (!Section.isText())
      continue;
    Expected<StringRef> Contents = Section.getContents();
    if (!Contents) {
      consumeError(Contents.takeError());
      continue;
    }
    checkSection(M, arrayRefFromStringRef(*Contents), Section.getAddress(),
                 Path, AArch64, C);
  }
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

std::string compareAArch64(const MCInstrDesc &Desc, StringRef Text,
                           AccessDecode Result, const AccessForm &Form) {
  StringRef Mnemonic = Text.split('\t').first.trim();
  StringRef Operands = Text.split('\t').second.trim();
  bool Loads = Desc.mayLoad(), Stores = Desc.mayStore();
  bool Prefetch = Mnemonic.starts_with("prfm") || Mnemonic.starts_with("prfum");
  if (Result == AD_NoMemory)
    return Operands.contains('[') && (Loads || Stores) && !Prefetch
               ? "no access, but MC loads or stores"
               : "";
  // MC models the exclusives (LDXR, STXR, ...) as loads and stores both.
  unsigned MCKind = (Loads ? AK_Read : 0) + (Stores ? AK_Write : 0);
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

} // namespace

int main(int Argc, char **Argv) {
  InitLLVM X(Argc, Argv);
  cl::ParseCommandLineOptions(Argc, Argv, "the runtime's access decoder, "
                                          "held against LLVM's MC\n");
  InitializeAllTargetInfos();
  InitializeAllTargetMCs();
  InitializeAllDisassemblers();
  MC X86, A64;
  if (!X86.init(Triple("x86_64-linux-gnu")) ||
      !A64.init(Triple("aarch64-linux-gnu"))) {
    errs() << "access-check: no x86-64 or AArch64 disassembler in this LLVM\n";
    return 2;
  }
  bool AllAgree = true;
  for (const std::string &Path : Files) {
    if (SkipMissing && !sys::fs::exists(Path)) {
      outs() << Path << ": not on this machine\n";
      continue;
    }
    Counts C;
    if (!checkFile(X86, A64, Path, C))
      return 2;
    outs() << Path << ": " << C.Instructions << " instructions, " << C.Memory
           << " accesses and " << C.NoMemory << " without decoded, "
           << C.Unknown << " unknown, " << C.Undecoded
           << " bytes MC does not decode; disagreements: " << C.Disagreements
           << "\n";
    std::vector<std::pair<uint64_t, std::string>> Top;
    for (const auto &[Mnemonic, N] : C.UnknownByMnemonic)
      Top.push_back({N, Mnemonic});
    llvm::sort(Top, std::greater<>());
    outs() << "  unknown most often:";
    for (size_t I = 0; I < Top.size() && I < 12; ++I)
      outs() << " " << Top[I].second << " " << Top[I].first;
    outs() << "\n";
    AllAgree &= C.Disagreements == 0;
  }
  return AllAgree ? 0 : 1;
}
