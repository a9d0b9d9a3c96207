//===- TracePointerNames.cpp - Objects named by the code's pointers -------===//
//
// A futex word in a process's memory (the heap, a stack) has no symbol; the
// code that locked it knows it as a member of something a pointer points
// to: S->mu. The blocked thread's stack has the return address of that
// call; the caller's DWARF, when the compiler described its calls
// (DW_TAG_call_site, clang and GCC from -O1), says what the first argument
// was as a register's value plus a constant (DW_AT_call_value). A pointer
// variable in scope there whose location is that register (or, in the
// same straight-line code, a register the argument was computed from by
// copies and constant additions, read from the machine code) then names
// it: its pointee's member at that offset. Nothing is guessed: without
// such a variable there is no name (docs/Report.md, "Wait time").
//
// The data a sampled memory access touches is named the same way, from
// the instruction's memory operand (a base register plus a constant) and
// the pointer variable in that register: perf's data-type profiling, at
// the exact instruction (docs/Report.md, "Data").
//
//===----------------------------------------------------------------------===//

#include "Trace.h"
#include "TraceDwarf.h"

#include "MCTarget.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/DebugInfo/DWARF/DWARFCompileUnit.h"
#include "llvm/DebugInfo/DWARF/DWARFContext.h"
#if __has_include("llvm/DebugInfo/DWARF/LowLevel/DWARFExpression.h")
#include "llvm/DebugInfo/DWARF/LowLevel/DWARFExpression.h" // LLVM 21 and later
#else
#include "llvm/DebugInfo/DWARF/DWARFExpression.h"
#endif
#include "llvm/DebugInfo/DWARF/DWARFUnit.h"
#include "llvm/MC/MCInst.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/DataExtractor.h"

#include <functional>
#include <map>
#include <set>

using namespace llvm;

namespace pcmap {
namespace report {

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

std::optional<RegisterValue> registerValue(ArrayRef<uint8_t> Expr,
                                           bool Location, uint8_t AddressSize) {
  DataExtractor Data(toStringRef(Expr), true, AddressSize);
  DWARFExpression E(Data, AddressSize);
  RegisterValue V;
  bool Base = false, Register = false, StackValue = false;
  std::optional<uint64_t> Constant; // pushed, for a DW_OP_plus or minus
  // DW_OP_entry_value's operand is the size of the block after it, whose
  // operations the iteration visits next: one register, alone.
  std::optional<uint64_t> EntryEnd;
  uint64_t End = 0;
  for (const DWARFExpression::Operation &Op : E) {
    if (Op.isError() || StackValue)
      return std::nullopt;
    // Each operand takes a byte at least (a truncated one reads as 0).
    for (uint64_t I = 0, At = End + 1; I < Op.getNumOperands(); ++I) {
      if (Op.getOperandEndOffset(I) <= At)
        return std::nullopt;
      At = Op.getOperandEndOffset(I);
    }
    uint8_t Code = Op.getCode();
    End = Op.getEndOffset();
    if (!Base) {
      Base = true;
      if (Code >= dwarf::DW_OP_reg0 && Code <= dwarf::DW_OP_reg31) {
        V.Reg = Code - dwarf::DW_OP_reg0;
        Register = true;
      } else if (Code == dwarf::DW_OP_regx) {
        V.Reg = unsigned(Op.getRawOperand(0));
        Register = true;
      } else if (Code >= dwarf::DW_OP_breg0 && Code <= dwarf::DW_OP_breg31 &&
                 !EntryEnd) {
        V.Reg = Code - dwarf::DW_OP_breg0;
        V.Offset = int64_t(Op.getRawOperand(0));
      } else if (Code == dwarf::DW_OP_bregx && !EntryEnd) {
        V.Reg = unsigned(Op.getRawOperand(0));
        V.Offset = int64_t(Op.getRawOperand(1));
      } else if ((Code == dwarf::DW_OP_entry_value ||
                  Code == dwarf::DW_OP_GNU_entry_value) &&
                 !EntryEnd) {
        EntryEnd = End + Op.getRawOperand(0);
        V.Entry = true;
        Base = false;
      } else {
        return std::nullopt;
      }
      if (EntryEnd && Base) {
        // The entry value's register, a value like a base register's.
        if (!Register || End != *EntryEnd)
          return std::nullopt;
        Register = false;
      }
      continue;
    }
    if (Register) // a register location has nothing after it
      return std::nullopt;
    if (Code == dwarf::DW_OP_stack_value) {
      StackValue = true;
    } else if (Code == dwarf::DW_OP_plus_uconst && !Constant) {
      V.Offset += int64_t(Op.getRawOperand(0));
    } else if (Code >= dwarf::DW_OP_lit0 && Code <= dwarf::DW_OP_lit31 &&
               !Constant) {
      Constant = Code - dwarf::DW_OP_lit0;
    } else if ((Code == dwarf::DW_OP_constu || Code == dwarf::DW_OP_consts ||
                Code == dwarf::DW_OP_const1u || Code == dwarf::DW_OP_const2u ||
                Code == dwarf::DW_OP_const4u) &&
               !Constant) {
      Constant = Op.getRawOperand(0);
    } else if ((Code == dwarf::DW_OP_plus || Code == dwarf::DW_OP_minus) &&
               Constant) {
      V.Offset +=
          Code == dwarf::DW_OP_plus ? int64_t(*Constant) : -int64_t(*Constant);
      Constant.reset();
    } else {
      return std::nullopt;
    }
  }
  if (End != Expr.size()) // truncated
    return std::nullopt;
  if (!Base || Constant)
    return std::nullopt;
  if (Location && !Register && !StackValue)
    return std::nullopt; // a memory location, not a value
  return V;
}

namespace {

//===----------------------------------------------------------------------===//
// The DWARF of a function at a PC
//===----------------------------------------------------------------------===//

/// The registers that carry the first integer argument and that a call
/// keeps (DWARF numbers), of each machine with a rule.
struct MachineRules {
  unsigned FirstArgument, SecondArgument;
  std::vector<unsigned> CalleeSaved;
};

std::optional<MachineRules> rulesOf(uint16_t Machine) {
  if (Machine == ELF::EM_X86_64) // rdi, rsi; rbx, rbp, r12-r15
    return MachineRules{5, 4, {3, 6, 12, 13, 14, 15}};
  if (Machine == ELF::EM_AARCH64) // x0, x1; x19-x29
    return MachineRules{0, 1, {19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29}};
  return std::nullopt;
}

/// A function's name as the wait kinds match it: demangled.
std::string functionName(DWARFDie D) {
  if (const char *Linkage = D.getLinkageName())
    return displaySymbol(Linkage, /*Demangle=*/true);
  const char *Short = D.getShortName();
  return Short ? Short : "";
}

bool isWaitFunction(DWARFDie D) {
  std::string Name = functionName(D);
  return !Name.empty() && trace::waitKindOfFunction(Name.c_str());
}

/// A function whose first argument holds the word it waits on: a lock,
/// condition variable, semaphore..., not a thread's join (the word is the
/// thread's, the argument its handle).
/// Which argument of a call into Callee is the word a thread blocked in it
/// waits on: 1 for a lock or wait function, 0 for none (a join: a thread's
/// id). A condition variable's wait blocks on the variable (its first) or,
/// woken, on taking back its mutex (not OnCondition): pthread_cond_wait's
/// second; std::condition_variable::wait's is a lock object, none.
unsigned waitArgumentOf(DWARFDie Callee, bool OnCondition) {
  std::string Name = functionName(Callee);
  const char *Kind =
      Name.empty() ? nullptr : trace::waitKindOfFunction(Name.c_str());
  if (!Kind || StringRef(Kind) == "thread join")
    return 0;
  if (OnCondition || !trace::isConditionWaitKind(Kind))
    return 1;
  return StringRef(Kind) == "condition variable" ? 2 : 0;
}

/// The scopes that hold PC, the function's own first, then each nested
/// lexical block and inlined subroutine; innermost last.
std::vector<DWARFDie> scopesAt(DWARFDie Function, uint64_t PC) {
  std::vector<DWARFDie> Chain{Function};
  for (bool Deeper = true; Deeper && Chain.size() < 64;) {
    Deeper = false;
    for (DWARFDie Child : Chain.back().children()) {
      dwarf::Tag Tag = Child.getTag();
      if ((Tag == dwarf::DW_TAG_lexical_block ||
           Tag == dwarf::DW_TAG_inlined_subroutine) &&
          Child.addressRangeContainsAddress(PC)) {
        Chain.push_back(Child);
        Deeper = true;
        break;
      }
    }
  }
  return Chain;
}

/// What variable V's location at PC says of a register, if anything.
std::optional<RegisterValue> locationAt(DWARFDie V, uint64_t PC) {
  Expected<DWARFLocationExpressionsVector> Locations =
      V.getLocations(dwarf::DW_AT_location);
  if (!Locations) {
    consumeError(Locations.takeError());
    return std::nullopt;
  }
  uint8_t AddressSize = V.getDwarfUnit()->getAddressByteSize();
  for (const DWARFLocationExpression &L : *Locations)
    if (!L.Range || (L.Range->LowPC <= PC && PC < L.Range->HighPC))
      return registerValue(L.Expr, /*Location=*/true, AddressSize);
  return std::nullopt;
}

/// "ns::Shard": a type's name with its enclosing namespaces and classes.
std::string qualifiedName(DWARFDie T) {
  const char *Name = T.getShortName();
  if (!Name)
    return "";
  std::string Out = Name;
  for (DWARFDie P = T.getParent(); P; P = P.getParent()) {
    dwarf::Tag Tag = P.getTag();
    if (Tag != dwarf::DW_TAG_namespace && Tag != dwarf::DW_TAG_structure_type &&
        Tag != dwarf::DW_TAG_class_type && Tag != dwarf::DW_TAG_union_type)
      break;
    const char *Outer = P.getShortName();
    Out = std::string(Outer ? Outer : "(anonymous namespace)") + "::" + Out;
  }
  return Out;
}

/// The name of the bytes at Offset from pointer (or reference) variable
/// V's target, if they are a member or element of it (not the whole
/// object: that names its type only), the library's own members left out:
/// by the variable ("q->ready", "Shard::mu" for this), or ByType by the
/// record's type whatever the variable ("Shard::mu"; none for an array).
std::optional<std::string> pointeeName(DWARFDie V, int64_t Offset,
                                       bool ByType) {
  const char *Name = V.getShortName();
  DWARFDie T = dataUnqualifiedType(dataVariableType(V));
  if (!Name || !T || Offset < 0)
    return std::nullopt;
  dwarf::Tag Tag = T.getTag();
  bool Reference = Tag == dwarf::DW_TAG_reference_type ||
                   Tag == dwarf::DW_TAG_rvalue_reference_type;
  if (Tag != dwarf::DW_TAG_pointer_type && !Reference)
    return std::nullopt;
  DWARFDie Pointee = dataUnqualifiedType(
      T.getAttributeValueAsReferencedDie(dwarf::DW_AT_type));
  if (!Pointee)
    return std::nullopt;
  dwarf::Tag PTag = Pointee.getTag();
  bool Array = PTag == dwarf::DW_TAG_array_type;
  if (!Array && PTag != dwarf::DW_TAG_structure_type &&
      PTag != dwarf::DW_TAG_class_type && PTag != dwarf::DW_TAG_union_type)
    return std::nullopt;
  std::string Path =
      withoutLibraryMembers(dataMemberPath(Pointee, uint64_t(Offset), 1));

  if (Path.empty())
    return std::nullopt;
  StringRef Member = StringRef(Path).drop_front(Path[0] == '.' ? 1 : 0);
  if (ByType && Array)
    return std::nullopt;
  if ((ByType || StringRef(Name) == "this") && !Array) {
    std::string Class = qualifiedName(Pointee);
    if (Class.empty())
      return std::nullopt;
    return Class + "::" + Member.str();
  }
  if (Reference)
    return Name + Path;
  if (Array)
    return "(*" + std::string(Name) + ")" + Path;
  return std::string(Name) + "->" + Member.str();
}

/// One machine instruction of a function.
struct Instruction {
  uint64_t Address = 0, Size = 0;
  MCInst Inst;
};

class DwarfPointerNamer : public PointerNamer {
public:
  DwarfPointerNamer(const object::ObjectFile &Obj, DWARFContext &Dwarf,
                    MachineRules Rules,
                    std::function<DWARFDie(uint64_t)> GlobalAt)
      : Obj(Obj), Dwarf(Dwarf), Rules(std::move(Rules)),
        GlobalAt(std::move(GlobalAt)) {}

  bool hasFunction(uint64_t PC) override { return bool(functionAt(PC)); }
  bool inWaitFunction(uint64_t PC) override {
    DWARFDie F = functionAt(PC);
    return F && isWaitFunction(F);
  }
  std::optional<std::string> argumentName(uint64_t PC,
                                          bool OnCondition) override;
  std::optional<std::string> accessName(uint64_t PC) override;

private:
  /// The instruction at PC, if it disassembles.
  std::optional<Instruction> instructionAt(uint64_t PC);
  /// Instruction I's memory operand as a register (DWARF number) plus a
  /// constant, if it is one.
  std::optional<RegisterValue> memoryBase(const MCInst &I) const;
  /// The pointer argument of a call to one of libgcc's outline atomics
  /// (AArch64's -moutline-atomics: __aarch64_ldadd8_relax(value, pointer),
  /// __aarch64_cas4_acq(expected, desired, pointer), ...) at I, as the
  /// register (DWARF number) that carries it.
  std::optional<RegisterValue> outlineAtomicBase(const Instruction &I);
  struct Flow;
  /// The address of the global pointer that instruction K of F loads into
  /// register Reg (LLVM's number), if it is such a load: x86-64, a 64-bit
  /// move from a PC-relative address; AArch64, a 64-bit load from a
  /// register that an ADRP just before set to a page.
  std::optional<uint64_t> globalLoad(const Flow &F, size_t K,
                                     unsigned Reg) const;
  struct Origin;
  using Visited = std::set<std::tuple<size_t, unsigned, int64_t>>;
  /// Where register Reg (LLVM's number) plus Offset, as instruction K of
  /// F is about to run, came from on every path into it: a global
  /// pointer's load (its address and the offset from its pointee).
  Origin into(const Flow &F, size_t K, unsigned Reg, int64_t Offset,
              Visited &Seen, unsigned &Budget);
  /// The same after instruction K ran.
  Origin through(const Flow &F, size_t K, unsigned Reg, int64_t Offset,
                 Visited &Seen, unsigned &Budget);
  /// The name of what register value V at PC points into: through a
  /// pointer variable in scope there or in a register V was copied from in
  /// the straight-line code before, else through the global pointer it was
  /// loaded from on every path.
  std::optional<std::string> valueName(DWARFDie Function, RegisterValue V,
                                       uint64_t PC, bool ByType);
  /// The member that the global pointer register V (plus its offset) at
  /// PC was loaded from points to: "G->mu", or ByType "Shard::mu".
  std::optional<std::string> globalPointeeName(DWARFDie Function,
                                               RegisterValue V, uint64_t PC,
                                               bool ByType);
  DWARFDie functionAt(uint64_t PC);
  DWARFDie callSiteAt(DWARFDie Function, uint64_t ReturnPC);
  std::optional<std::string> nameAt(DWARFDie Function, RegisterValue V,
                                    uint64_t PC, bool ByType);
  /// The registers (and constants) the value V of the call at PC was
  /// computed from by copies and additions, with the PC of each step.
  std::vector<std::pair<RegisterValue, uint64_t>>
  sources(DWARFDie Function, RegisterValue V, uint64_t PC);
  /// Every instruction of Function, a vector per address range, and the
  /// targets of its direct branches; false if some cannot be known (bytes
  /// that do not disassemble, a jump table).
  bool disassemble(DWARFDie Function,
                   std::vector<std::vector<Instruction>> &Parts,
                   std::set<uint64_t> &Targets);
  bool initMC();
  std::optional<std::pair<unsigned, int64_t>> copyStep(const MCInst &I,
                                                       unsigned Dest) const;

  const object::ObjectFile &Obj;
  DWARFContext &Dwarf;
  MachineRules Rules;
  std::function<DWARFDie(uint64_t)> GlobalAt;
  /// The object's function symbols by address (outlineAtomicBase), read
  /// once.
  std::optional<std::map<uint64_t, std::string>> Functions;
  std::optional<bool> MCReady;
  std::unique_ptr<MCTarget> M;
};

DWARFDie DwarfPointerNamer::functionAt(uint64_t PC) {
  DWARFCompileUnit *CU = Dwarf.getCompileUnitForCodeAddress(PC);
  if (!CU)
    return DWARFDie();
  SmallVector<DWARFDie, 4> Chain;
  CU->getInlinedChainForAddress(PC, Chain);
  return Chain.empty() ? DWARFDie() : Chain.back();
}

DWARFDie DwarfPointerNamer::callSiteAt(DWARFDie Function, uint64_t ReturnPC) {
  // Clang puts a call site in its function, GCC in the innermost scope of
  // the call: the whole tree.
  std::vector<DWARFDie> Work{Function};
  while (!Work.empty()) {
    DWARFDie D = Work.back();
    Work.pop_back();
    for (DWARFDie Child : D.children()) {
      dwarf::Tag Tag = Child.getTag();
      std::optional<DWARFFormValue> At;
      if (Tag == dwarf::DW_TAG_call_site)
        At = Child.find(dwarf::DW_AT_call_return_pc);
      else if (Tag == dwarf::DW_TAG_GNU_call_site)
        At = Child.find(dwarf::DW_AT_low_pc);
      else if (Child.hasChildren())
        Work.push_back(Child);
      if (At && At->getAsAddress() == ReturnPC)
        return Child;
    }
  }
  return DWARFDie();
}

std::optional<std::string> DwarfPointerNamer::nameAt(DWARFDie Function,
                                                     RegisterValue V,
                                                     uint64_t PC, bool ByType) {
  // The innermost scope's variables first: an inlined function's
  // parameters before its caller's.
  std::vector<DWARFDie> Scopes = scopesAt(Function, PC);
  for (auto It = Scopes.rbegin(); It != Scopes.rend(); ++It)
    for (DWARFDie D : It->children()) {
      if (D.getTag() != dwarf::DW_TAG_variable &&
          D.getTag() != dwarf::DW_TAG_formal_parameter)
        continue;
      std::optional<RegisterValue> L = locationAt(D, PC);
      if (!L || L->Reg != V.Reg || L->Entry != V.Entry)
        continue;
      if (std::optional<std::string> Name =
              pointeeName(D, V.Offset - L->Offset, ByType))
        return Name;
    }
  if (!V.Entry)
    return std::nullopt;
  // A register's value at entry: the function's parameter that came in it.
  std::optional<uint64_t> Entry;
  uint64_t Low = 0, High = 0, Index = 0;
  if (Function.getLowAndHighPC(Low, High, Index))
    Entry = Low;
  else if (Expected<DWARFAddressRangesVector> Ranges =
               Function.getAddressRanges();
           Ranges && !Ranges->empty())
    Entry = Ranges->front().LowPC;
  else if (!Ranges)
    consumeError(Ranges.takeError());
  if (!Entry)
    return std::nullopt;
  for (DWARFDie D : Function.children()) {
    if (D.getTag() != dwarf::DW_TAG_formal_parameter)
      continue;
    std::optional<RegisterValue> L = locationAt(D, *Entry);
    if (L && !L->Entry && L->Reg == V.Reg)
      return pointeeName(D, V.Offset - L->Offset, ByType);
  }
  return std::nullopt;
}

bool DwarfPointerNamer::initMC() {
  if (!MCReady) {
    std::string Why;
    M = MCTarget::create(Obj.makeTriple(), Why);
    MCReady = M && M->MIA;
  }
  return *MCReady;
}

/// Where instruction I sets register Dest to another register plus a
/// constant: the other register and the constant.
std::optional<std::pair<unsigned, int64_t>>
DwarfPointerNamer::copyStep(const MCInst &I, unsigned Dest) const {
  StringRef Name = M->MII->getName(I.getOpcode());
  auto Reg = [&](unsigned N) -> unsigned {
    return N < I.getNumOperands() && I.getOperand(N).isReg()
               ? unsigned(I.getOperand(N).getReg())
               : 0;
  };
  auto Imm = [&](unsigned N) -> std::optional<int64_t> {
    if (N < I.getNumOperands() && I.getOperand(N).isImm())
      return I.getOperand(N).getImm();
    return std::nullopt;
  };
  // Dest is as the DWARF numbers it: on AArch64, W1 and X1 are one number.
  // Each copy below writes the whole 64-bit register.
  if (!Reg(0) || !M->MRI->regsOverlap(MCRegister(Reg(0)), MCRegister(Dest)))
    return std::nullopt;
  // x86-64: lea disp(%base), %dest; mov %src, %dest; add/sub $imm, %dest.
  if (Name == "LEA64r" && Reg(1) && !Reg(3) && !Reg(5) && Imm(4) &&
      StringRef(M->MRI->getName(Reg(1))) != "RIP")
    return std::make_pair(unsigned(Reg(1)), *Imm(4));
  if (Name == "MOV64rr" && Reg(1))
    return std::make_pair(unsigned(Reg(1)), int64_t(0));
  if ((Name == "ADD64ri32" || Name == "ADD64ri8") && Imm(2))
    return std::make_pair(unsigned(Reg(1)), *Imm(2));
  if ((Name == "SUB64ri32" || Name == "SUB64ri8") && Imm(2))
    return std::make_pair(unsigned(Reg(1)), -*Imm(2));
  // AArch64: add/sub dest, src, #imm{, lsl #12}; mov dest, src (orr with
  // xzr).
  if ((Name == "ADDXri" || Name == "SUBXri") && Reg(1) && Imm(2) && Imm(3)) {
    int64_t K = *Imm(2) << *Imm(3);
    if (StringRef(M->MRI->getName(Reg(1))) == "SP")
      return std::nullopt;
    return std::make_pair(unsigned(Reg(1)), Name == "ADDXri" ? K : -K);
  }
  if (Name == "ORRXrs" && StringRef(M->MRI->getName(Reg(1))) == "XZR" &&
      Reg(2) && Imm(3) == 0)
    return std::make_pair(unsigned(Reg(2)), int64_t(0));
  return std::nullopt;
}

bool DwarfPointerNamer::disassemble(
    DWARFDie Function, std::vector<std::vector<Instruction>> &Parts,
    std::set<uint64_t> &Targets) {
  Expected<DWARFAddressRangesVector> Ranges = Function.getAddressRanges();
  if (!Ranges) {
    consumeError(Ranges.takeError());
    return false;
  }
  for (const DWARFAddressRange &Range : *Ranges) {
    std::optional<ArrayRef<uint8_t>> Bytes;
    for (const object::SectionRef &S : Obj.sections()) {
      if (!S.isText() || Range.LowPC < S.getAddress() ||
          Range.HighPC > S.getAddress() + S.getSize())
        continue;
      Expected<StringRef> Contents = S.getContents();
      if (!Contents) {
        consumeError(Contents.takeError());
        return false;
      }
      Bytes = arrayRefFromStringRef(*Contents).slice(
          Range.LowPC - S.getAddress(), Range.HighPC - Range.LowPC);
    }
    if (!Bytes)
      return false;
    Parts.emplace_back();
    for (uint64_t At = 0; At < Bytes->size();) {
      Instruction I;
      I.Address = Range.LowPC + At;
      if (M->Disassembler->getInstruction(I.Inst, I.Size, Bytes->slice(At),
                                          I.Address,
                                          nulls()) != MCDisassembler::Success ||
          !I.Size)
        return false;
      const MCInstrDesc &D = M->MII->get(I.Inst.getOpcode());
      uint64_t Target = 0;
      if (D.isBranch() && !D.isCall()) {
        if (D.isIndirectBranch() ||
            !M->MIA->evaluateBranch(I.Inst, I.Address, I.Size, Target))
          return false; // a jump table's targets are not known
        Targets.insert(Target);
      }
      At += I.Size;
      Parts.back().push_back(std::move(I));
    }
  }
  return true;
}

std::vector<std::pair<RegisterValue, uint64_t>>
DwarfPointerNamer::sources(DWARFDie Function, RegisterValue V, uint64_t PC) {
  std::vector<std::pair<RegisterValue, uint64_t>> Out;
  // Every instruction of the function, and where its branches go: a
  // register is followed back only through code that nothing jumps into.
  std::vector<std::vector<Instruction>> Parts;
  std::set<uint64_t> Targets;
  if (V.Entry || !initMC() || !disassemble(Function, Parts, Targets))
    return Out;
  for (const std::vector<Instruction> &Code : Parts) {
    auto Call = find_if(Code, [&](const Instruction &I) {
      return I.Address <= PC && PC < I.Address + I.Size;
    });
    if (Call == Code.end())
      continue;
    int Reg = M->MRI->getLLVMRegNum(V.Reg, false).value_or(-1);
    if (Reg < 0)
      return Out;
    RegisterValue Cur = V;
    for (auto It = Call; It != Code.begin() && Out.size() < 8;) {
      if (Targets.count(It->Address))
        break;
      --It;
      const MCInstrDesc &D = M->MII->get(It->Inst.getOpcode());
      if (D.isCall()) {
        if (!is_contained(Rules.CalleeSaved, Cur.Reg))
          break;
        continue;
      }
      bool Defines = false;
      for (unsigned Op = 0; Op < D.getNumDefs(); ++Op)
        Defines |= It->Inst.getOperand(Op).isReg() &&
                   M->MRI->regsOverlap(It->Inst.getOperand(Op).getReg(),
                                       MCRegister(Reg));
      for (MCPhysReg Implicit : D.implicit_defs())
        Defines |= M->MRI->regsOverlap(Implicit, MCRegister(Reg));
      if (!Defines)
        continue;
      std::optional<std::pair<unsigned, int64_t>> Step =
          copyStep(It->Inst, unsigned(Reg));
      int Source = Step ? M->MRI->getDwarfRegNum(Step->first, false) : -1;
      if (Source < 0)
        break;
      Reg = int(Step->first);
      Cur.Reg = unsigned(Source);
      Cur.Offset += Step->second;
      Out.push_back({Cur, It->Address});
    }
    break;
  }
  return Out;
}

std::optional<std::string> DwarfPointerNamer::argumentName(uint64_t PC,
                                                           bool OnCondition) {
  DWARFDie Function = functionAt(PC);
  if (!Function || isWaitFunction(Function))
    return std::nullopt;
  DWARFDie Call = callSiteAt(Function, PC + 1);
  if (!Call)
    return std::nullopt;
  DWARFDie Callee =
      Call.getAttributeValueAsReferencedDie(dwarf::DW_AT_call_origin);
  if (!Callee)
    Callee =
        Call.getAttributeValueAsReferencedDie(dwarf::DW_AT_abstract_origin);
  unsigned Argument = Callee ? waitArgumentOf(Callee, OnCondition) : 0;
  if (!Argument)
    return std::nullopt;
  unsigned Register =
      Argument == 1 ? Rules.FirstArgument : Rules.SecondArgument;
  uint8_t AddressSize = Call.getDwarfUnit()->getAddressByteSize();
  for (DWARFDie P : Call.children()) {
    if (P.getTag() != dwarf::DW_TAG_call_site_parameter &&
        P.getTag() != dwarf::DW_TAG_GNU_call_site_parameter)
      continue;
    std::optional<RegisterValue> In = locationAt(P, PC);
    if (!In || In->Entry || In->Offset || In->Reg != Register)
      continue;
    std::optional<DWARFFormValue> Value =
        P.find({dwarf::DW_AT_call_value, dwarf::DW_AT_GNU_call_site_value});
    std::optional<ArrayRef<uint8_t>> Expr =
        Value ? Value->getAsBlock() : std::nullopt;
    std::optional<RegisterValue> V =
        Expr ? registerValue(*Expr, /*Location=*/false, AddressSize)
             : std::nullopt;
    if (V)
      return valueName(Function, *V, PC, /*ByType=*/false);
    break;
  }
  // The call site does not say (clang describes no value loaded from
  // memory): the argument is the register's value at the call.
  return valueName(Function, RegisterValue{Register, 0, false}, PC,
                   /*ByType=*/false);
}

std::optional<std::string> DwarfPointerNamer::valueName(DWARFDie Function,
                                                        RegisterValue V,
                                                        uint64_t PC,
                                                        bool ByType) {
  if (std::optional<std::string> Name = nameAt(Function, V, PC, ByType))
    return Name;
  for (const auto &[From, At] : sources(Function, V, PC))
    if (std::optional<std::string> Name = nameAt(Function, From, At, ByType))
      return Name;
  if (V.Entry)
    return std::nullopt;
  return globalPointeeName(Function, V, PC, ByType);
}

std::optional<Instruction> DwarfPointerNamer::instructionAt(uint64_t PC) {
  for (const object::SectionRef &S : Obj.sections()) {
    if (!S.isText() || PC < S.getAddress() ||
        PC >= S.getAddress() + S.getSize())
      continue;
    Expected<StringRef> Contents = S.getContents();
    if (!Contents) {
      consumeError(Contents.takeError());
      return std::nullopt;
    }
    ArrayRef<uint8_t> Bytes =
        arrayRefFromStringRef(*Contents).drop_front(PC - S.getAddress());
    Instruction I;
    I.Address = PC;
    // x86's disassembler gives a lock or rep prefix as an instruction of
    // its own: the instruction is the one after it.
    for (uint64_t At = 0; At < 15; At += I.Size) {
      if (M->Disassembler->getInstruction(I.Inst, I.Size, Bytes.drop_front(At),
                                          PC + At,
                                          nulls()) != MCDisassembler::Success ||
          !I.Size)
        return std::nullopt;
      if (!M->MII->getName(I.Inst.getOpcode()).ends_with("_PREFIX"))
        return I;
    }
    return std::nullopt;
  }
  return std::nullopt;
}

/// The bytes an AArch64 load or store with a scaled immediate moves per
/// register, from the width in its opcode's name ("LDRXui": X), or 0.
unsigned aarch64Scale(StringRef Width) {
  static const std::pair<const char *, unsigned> Widths[] = {
      {"X", 8},   {"W", 4},   {"BB", 1},  {"HH", 2}, {"SBW", 1},
      {"SBX", 1}, {"SHW", 2}, {"SHX", 2}, {"SW", 4}, {"B", 1},
      {"H", 2},   {"S", 4},   {"D", 8},   {"Q", 16}};
  for (const auto &[Name, Bytes] : Widths)
    if (Width == Name)
      return Bytes;
  return 0;
}

std::optional<RegisterValue>
DwarfPointerNamer::memoryBase(const MCInst &I) const {
  const MCInstrDesc &D = M->MII->get(I.getOpcode());
  if (!D.mayLoad() && !D.mayStore())
    return std::nullopt; // LEA and prefetches: an address, no access
  auto Base = [&](unsigned N, int64_t Offset) -> std::optional<RegisterValue> {
    if (N >= I.getNumOperands() || !I.getOperand(N).isReg())
      return std::nullopt;
    MCRegister Reg = I.getOperand(N).getReg();
    StringRef Name = M->MRI->getName(Reg);
    // 64-bit general registers only: RAX..R15 (not RIP), X0..X30 and SP.
    bool X86 = Obj.getArch() == Triple::x86_64;
    if (X86 ? !Name.starts_with("R") || Name == "RIP"
            : !Name.starts_with("X") && Name != "SP")
      return std::nullopt;
    int Dwarf = M->MRI->getDwarfRegNum(Reg, false);
    if (Dwarf < 0)
      return std::nullopt;
    return RegisterValue{unsigned(Dwarf), Offset, false};
  };
  auto Imm = [&](unsigned N) -> std::optional<int64_t> {
    if (N < I.getNumOperands() && I.getOperand(N).isImm())
      return I.getOperand(N).getImm();
    return std::nullopt;
  };
  if (Obj.getArch() == Triple::x86_64) {
    // MC's explicit memory operand is five: base, scale, index,
    // displacement, segment (string instructions have none).
    ArrayRef<MCOperandInfo> Info = D.operands();
    for (unsigned K = 0; K + 5 <= Info.size() && K + 5 <= I.getNumOperands();
         ++K) {
      if (Info[K].OperandType != MCOI::OPERAND_MEMORY)
        continue;
      for (unsigned J = 1; J < 5; ++J)
        if (Info[K + J].OperandType != MCOI::OPERAND_MEMORY)
          return std::nullopt;
      const MCOperand &Index = I.getOperand(K + 2),
                      &Segment = I.getOperand(K + 4);
      if (!Index.isReg() || Index.getReg() || !Segment.isReg() ||
          Segment.getReg() || !Imm(K + 3))
        return std::nullopt;
      return Base(K, *Imm(K + 3));
    }
    return std::nullopt;
  }
  if (Obj.getArch() != Triple::aarch64)
    return std::nullopt;
  StringRef Name = M->MII->getName(I.getOpcode());
  // [Xn, #imm], scaled: LDRXui Xt, Xn, imm; LDPXi Xt, Xt2, Xn, imm.
  for (StringRef Op : {"LDR", "STR"})
    if (Name.starts_with(Op) && Name.ends_with("ui"))
      if (unsigned Scale = aarch64Scale(Name.drop_front(3).drop_back(2)))
        if (std::optional<int64_t> K = Imm(2))
          return Base(1, *K * Scale);
  for (StringRef Op : {"LDNP", "STNP", "LDP", "STP"})
    if (Name.starts_with(Op) && Name.ends_with("i"))
      if (unsigned Scale =
              aarch64Scale(Name.drop_front(Op.size()).drop_back(1)))
        if (std::optional<int64_t> K = Imm(3))
          return Base(2, *K * Scale);
  // [Xn, #simm], unscaled: LDURXi Xt, Xn, simm.
  for (StringRef Op : {"LDUR", "STUR"})
    if (Name.starts_with(Op) && Name.ends_with("i"))
      if (std::optional<int64_t> K = Imm(2))
        return Base(1, *K);
  // [Xn]: exclusives, acquire/release, LSE; the base is the last operand.
  static const char *const BaseOnly[] = {
      "LDAR",  "LDAPR",  "STLR",   "LDXR",   "LDAXR",  "STXR",  "STLXR",
      "LDXP",  "LDAXP",  "STXP",   "STLXP",  "LDADD",  "LDCLR", "LDEOR",
      "LDSET", "LDSMAX", "LDSMIN", "LDUMAX", "LDUMIN", "SWP",   "CAS"};
  for (const char *Op : BaseOnly)
    if (Name.starts_with(Op)) {
      for (unsigned N = 0; N < I.getNumOperands(); ++N)
        if (!I.getOperand(N).isReg())
          return std::nullopt;
      return I.getNumOperands() ? Base(I.getNumOperands() - 1, 0)
                                : std::nullopt;
    }
  return std::nullopt;
}

std::optional<std::string> DwarfPointerNamer::accessName(uint64_t PC) {
  DWARFDie Function = functionAt(PC);
  if (!Function || !initMC())
    return std::nullopt;
  std::optional<Instruction> I = instructionAt(PC);
  std::optional<RegisterValue> V = I ? memoryBase(I->Inst) : std::nullopt;
  if (!V && I)
    V = outlineAtomicBase(*I);
  if (!V)
    return std::nullopt;
  return valueName(Function, *V, PC, /*ByType=*/true);
}

std::optional<RegisterValue>
DwarfPointerNamer::outlineAtomicBase(const Instruction &I) {
  uint64_t Target = 0;
  if (Obj.getArch() != Triple::aarch64 ||
      M->MII->getName(I.Inst.getOpcode()) != "BL" ||
      !M->MIA->evaluateBranch(I.Inst, I.Address, I.Size, Target))
    return std::nullopt;
  if (!Functions) {
    Functions.emplace();
    for (const object::SymbolRef &Sym : Obj.symbols()) {
      Expected<object::SymbolRef::Type> Type = Sym.getType();
      Expected<uint64_t> Address = Sym.getAddress();
      Expected<StringRef> Name = Sym.getName();
      if (Type && Address && Name && *Type == object::SymbolRef::ST_Function)
        Functions->emplace(*Address, Name->str());
      if (!Type)
        consumeError(Type.takeError());
      if (!Address)
        consumeError(Address.takeError());
      if (!Name)
        consumeError(Name.takeError());
    }
  }
  auto It = Functions->find(Target);
  if (It == Functions->end())
    return std::nullopt;
  // __aarch64_<operation><bytes>_<order>; CASP's pointer is the fifth
  // argument and its operands pairs: not named.
  StringRef Name = It->second;
  if (!Name.consume_front("__aarch64_"))
    return std::nullopt;
  unsigned Pointer = 1;
  if (Name.consume_front("cas"))
    Pointer = 2;
  else if (!Name.consume_front("swp") && !Name.consume_front("ldadd") &&
           !Name.consume_front("ldclr") && !Name.consume_front("ldeor") &&
           !Name.consume_front("ldset"))
    return std::nullopt;
  StringRef Bytes, Order;
  std::tie(Bytes, Order) = Name.split('_');
  if (!is_contained({"1", "2", "4", "8", "16"}, Bytes) ||
      !is_contained({"relax", "acq", "rel", "acq_rel", "sync"}, Order))
    return std::nullopt;
  return RegisterValue{Pointer, 0, false}; // x1 or x2
}

/// A function's code: its instructions by address, and the branches into
/// each target.
struct DwarfPointerNamer::Flow {
  std::vector<Instruction> Code;
  std::multimap<uint64_t, size_t> Into; // target -> index of the branch
};

/// What a walk back found: a global pointer's load on every path (Found),
/// a path that says otherwise or cannot be followed (Failed), or only
/// paths around a loop back to a state already on the walk (Cycle: no
/// constraint).
struct DwarfPointerNamer::Origin {
  enum { Failed, Cycle, Found } Kind = Failed;
  uint64_t Global = 0;
  int64_t Offset = 0;
};

std::optional<uint64_t> DwarfPointerNamer::globalLoad(const Flow &F, size_t K,
                                                      unsigned Reg) const {
  const Instruction &I = F.Code[K];
  const MCInst &X = I.Inst;
  StringRef Name = M->MII->getName(X.getOpcode());
  if (!X.getNumOperands() || !X.getOperand(0).isReg() ||
      !M->MRI->regsOverlap(X.getOperand(0).getReg(), MCRegister(Reg)))
    return std::nullopt;
  if (Obj.getArch() == Triple::x86_64) {
    if (Name != "MOV64rm" || X.getNumOperands() < 6)
      return std::nullopt;
    const MCOperand &Base = X.getOperand(1), &Index = X.getOperand(3),
                    &Disp = X.getOperand(4), &Segment = X.getOperand(5);
    if (!Base.isReg() || StringRef(M->MRI->getName(Base.getReg())) != "RIP" ||
        !Index.isReg() || Index.getReg() || !Disp.isImm() || !Segment.isReg() ||
        Segment.getReg())
      return std::nullopt;
    return I.Address + I.Size + uint64_t(Disp.getImm());
  }
  // AArch64: adrp xN, page; ... ldr xD, [xN, #lo12], with nothing between
  // that writes xN or enters the code.
  if (Name != "LDRXui" || X.getNumOperands() < 3 || !X.getOperand(1).isReg() ||
      !X.getOperand(2).isImm())
    return std::nullopt;
  MCRegister Base = X.getOperand(1).getReg();
  for (size_t P = K; P > 0 && K - P < 16;) {
    if (F.Into.count(F.Code[P].Address))
      return std::nullopt;
    const Instruction &Before = F.Code[--P];
    const MCInstrDesc &D = M->MII->get(Before.Inst.getOpcode());
    if (D.isBranch() || D.isCall())
      return std::nullopt;
    bool Defines = false;
    for (unsigned Op = 0; Op < D.getNumDefs(); ++Op)
      Defines |= Before.Inst.getOperand(Op).isReg() &&
                 M->MRI->regsOverlap(Before.Inst.getOperand(Op).getReg(), Base);
    if (!Defines)
      continue;
    uint64_t Page = 0;
    if (M->MII->getName(Before.Inst.getOpcode()) != "ADRP" ||
        !M->MIA->evaluateBranch(Before.Inst, Before.Address, Before.Size, Page))
      return std::nullopt;
    return Page + uint64_t(X.getOperand(2).getImm()) * 8;
  }
  return std::nullopt;
}

DwarfPointerNamer::Origin DwarfPointerNamer::into(const Flow &F, size_t K,
                                                  unsigned Reg, int64_t Offset,
                                                  Visited &Seen,
                                                  unsigned &Budget) {
  std::vector<size_t> Preds;
  auto [Begin, End] = F.Into.equal_range(F.Code[K].Address);
  for (auto It = Begin; It != End; ++It)
    Preds.push_back(It->second);
  if (K > 0 && !M->MII->get(F.Code[K - 1].Inst.getOpcode()).isBarrier())
    Preds.push_back(K - 1);
  if (Preds.empty())
    return Origin(); // the function's entry: a parameter
  Origin Out;
  Out.Kind = Origin::Cycle;
  for (size_t P : Preds) {
    Origin O = through(F, P, Reg, Offset, Seen, Budget);
    if (O.Kind == Origin::Failed)
      return O;
    if (O.Kind == Origin::Cycle)
      continue;
    if (Out.Kind == Origin::Found &&
        (O.Global != Out.Global || O.Offset != Out.Offset))
      return Origin();
    Out = O;
  }
  return Out;
}

DwarfPointerNamer::Origin
DwarfPointerNamer::through(const Flow &F, size_t K, unsigned Reg,
                           int64_t Offset, Visited &Seen, unsigned &Budget) {
  if (!Seen.insert({K, Reg, Offset}).second) {
    Origin O;
    O.Kind = Origin::Cycle;
    return O;
  }
  if (Budget == 0)
    return Origin();
  --Budget;
  const Instruction &I = F.Code[K];
  const MCInstrDesc &D = M->MII->get(I.Inst.getOpcode());
  if (D.isCall()) {
    int Dwarf = M->MRI->getDwarfRegNum(Reg, false);
    if (Dwarf < 0 || !is_contained(Rules.CalleeSaved, unsigned(Dwarf)))
      return Origin();
    return into(F, K, Reg, Offset, Seen, Budget);
  }
  bool Defines = false;
  for (unsigned Op = 0; Op < D.getNumDefs(); ++Op)
    Defines |=
        I.Inst.getOperand(Op).isReg() &&
        M->MRI->regsOverlap(I.Inst.getOperand(Op).getReg(), MCRegister(Reg));
  for (MCPhysReg Implicit : D.implicit_defs())
    Defines |= M->MRI->regsOverlap(Implicit, MCRegister(Reg));
  if (!Defines)
    return into(F, K, Reg, Offset, Seen, Budget);
  if (std::optional<uint64_t> Global = globalLoad(F, K, Reg)) {
    Origin O;
    O.Kind = Origin::Found;
    O.Global = *Global;
    O.Offset = Offset;
    return O;
  }
  std::optional<std::pair<unsigned, int64_t>> Step = copyStep(I.Inst, Reg);
  if (!Step)
    return Origin();
  return into(F, K, Step->first, Offset + Step->second, Seen, Budget);
}

std::optional<std::string>
DwarfPointerNamer::globalPointeeName(DWARFDie Function, RegisterValue V,
                                     uint64_t PC, bool ByType) {
  std::vector<std::vector<Instruction>> Parts;
  std::set<uint64_t> Targets;
  int Reg = M->MRI->getLLVMRegNum(V.Reg, false).value_or(-1);
  if (!GlobalAt || Reg < 0 || !disassemble(Function, Parts, Targets))
    return std::nullopt;
  Flow F;
  for (std::vector<Instruction> &Part : Parts)
    for (Instruction &I : Part)
      F.Code.push_back(std::move(I));
  sort(F.Code, [](const Instruction &A, const Instruction &B) {
    return A.Address < B.Address;
  });
  std::optional<size_t> At;
  for (size_t K = 0; K < F.Code.size(); ++K) {
    const Instruction &I = F.Code[K];
    const MCInstrDesc &D = M->MII->get(I.Inst.getOpcode());
    uint64_t Target = 0;
    if (D.isBranch() && !D.isCall() &&
        M->MIA->evaluateBranch(I.Inst, I.Address, I.Size, Target))
      F.Into.insert({Target, K});
    if (I.Address <= PC && PC < I.Address + I.Size)
      At = K;
  }
  Visited Seen;
  unsigned Budget = 512;
  Origin O =
      At ? into(F, *At, unsigned(Reg), V.Offset, Seen, Budget) : Origin();
  DWARFDie Global = O.Kind == Origin::Found ? GlobalAt(O.Global) : DWARFDie();
  return Global ? pointeeName(Global, O.Offset, ByType) : std::nullopt;
}

} // namespace

PointerNamer::~PointerNamer() = default;

std::unique_ptr<PointerNamer>
PointerNamer::create(const object::ObjectFile &Obj, DWARFContext &Dwarf,
                     std::function<DWARFDie(uint64_t)> GlobalAt) {
  auto *Elf = dyn_cast<object::ELFObjectFileBase>(&Obj);
  std::optional<MachineRules> Rules =
      Elf ? rulesOf(Elf->getEMachine()) : std::nullopt;
  if (!Rules)
    return nullptr;
  return std::make_unique<DwarfPointerNamer>(Obj, Dwarf, std::move(*Rules),
                                             std::move(GlobalAt));
}

} // namespace report
} // namespace pcmap
