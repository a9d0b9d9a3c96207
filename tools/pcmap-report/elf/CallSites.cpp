//===- CallSites.cpp - Call-site sizes of stack map records ---------------===//
//
// The rules, in order (docs/Report.md):
//  1. Patchpoint: at the record's PC starts the call sequence LLVM emits for
//     a patchpoint (x86-64: movabsq $target, %reg; callq *%reg; AArch64: up
//     to four movz/movk into a register, then blr of it). The size is the
//     sequence and the nops after it, up to the next record of the function
//     or its end: the bytes the patchpoint reserved.
//  2. Call: linear disassembly from the function's start reaches the
//     record's PC exactly and the instruction that ends there is a call. The
//     size is that instruction's.
//  3. Nops: nops start at the record's PC (a patchpoint with a null
//     target, or the part of a stack map's shadow that LLVM had to pad). The
//     size is the nops'.
//  4. None: otherwise (a stack map whose shadow holds ordinary code).
//
//===----------------------------------------------------------------------===//

#include "CallSites.h"
#include "MCTarget.h"

#include "llvm/MC/MCInst.h"

using namespace llvm;

namespace pcmap {
namespace report {

CallSiteAnalyzer::~CallSiteAnalyzer() = default;

namespace {

class MCCallSiteAnalyzer : public CallSiteAnalyzer {
public:
  bool init(const Triple &T, std::string &Why) {
    IsX86 = T.getArch() == Triple::x86_64;
    if (!IsX86 && T.getArch() != Triple::aarch64) {
      Why = "no call-site decoding for " + T.getArchName().str();
      return false;
    }
    M = MCTarget::create(T, Why);
    return M != nullptr;
  }

  void analyze(ArrayRef<uint8_t> Code, uint64_t Address, uint32_t Offset,
               stackmap::CallSiteKind &Kind, uint32_t &Size) const override {
    Kind = stackmap::CK_Unknown;
    Size = 0;
    if (Code.empty() || Offset > Code.size())
      return; // Unknown: no code for the function, or a PC outside it
    bool HasCallSequence = false;
    uint32_t Reserved = patchableBytes(Code, Address, Offset, HasCallSequence);
    if (HasCallSequence) {
      Kind = stackmap::CK_Patchpoint;
      Size = Reserved;
      return;
    }
    // Linear disassembly from the function's start to the record.
    uint64_t At = 0, LastSize = 0;
    MCInst Last;
    while (At < Offset) {
      MCInst Inst;
      uint64_t N = 0;
      if (M->Disassembler->getInstruction(Inst, N, Code.slice(At), Address + At,
                                          nulls()) != MCDisassembler::Success ||
          N == 0)
        return; // Unknown
      Last = Inst;
      LastSize = N;
      At += N;
    }
    if (At != Offset)
      return; // Unknown: the record is inside an instruction
    if (LastSize && M->MII->get(Last.getOpcode()).isCall()) {
      Kind = stackmap::CK_Call;
      Size = uint32_t(LastSize);
    } else if (Reserved) {
      Kind = stackmap::CK_Nops;
      Size = Reserved;
    } else {
      Kind = stackmap::CK_None;
    }
  }

private:
  StringRef name(const MCInst &I) const {
    return M->MII->getName(I.getOpcode());
  }

  bool isNop(const MCInst &I) const {
    StringRef N = name(I);
    if (IsX86)
      return N.starts_with("NOOP") || N == "XCHG16ar" /* 66 90 */;
    // AArch64: "nop" is hint #0 (LLVM 22 decodes it as its own NOP).
    if (N == "NOP")
      return true;
    return N == "HINT" && I.getNumOperands() == 1 && I.getOperand(0).isImm() &&
           I.getOperand(0).getImm() == 0;
  }

  /// Register a patchpoint call sequence moves the target into, or 0.
  unsigned targetRegister(const MCInst &I) const {
    StringRef N = name(I);
    bool Move = IsX86 ? N == "MOV64ri"
                      : N == "MOVZXi" || N == "MOVKXi" || N == "MOVNXi";
    if (!Move || I.getNumOperands() == 0 || !I.getOperand(0).isReg())
      return 0;
    return I.getOperand(0).getReg();
  }

  bool isIndirectCallThrough(const MCInst &I, unsigned Reg) const {
    StringRef N = name(I);
    if (!(IsX86 ? N == "CALL64r" : N == "BLR"))
      return false;
    return I.getNumOperands() >= 1 && I.getOperand(0).isReg() &&
           I.getOperand(0).getReg() == Reg;
  }

  /// Bytes of the patchable region starting at Offset: a call sequence
  /// (HasCallSequence) and nops, or nops only.
  uint32_t patchableBytes(ArrayRef<uint8_t> Code, uint64_t Address,
                          uint32_t Offset, bool &HasCallSequence) const {
    auto Decode = [&](uint64_t At, MCInst &Inst) -> uint64_t {
      uint64_t N = 0;
      if (At >= Code.size() ||
          M->Disassembler->getInstruction(Inst, N, Code.slice(At), Address + At,
                                          nulls()) != MCDisassembler::Success)
        return 0;
      return N;
    };
    uint64_t At = Offset;
    // The call sequence: moves of the target into one register, then an
    // indirect call through it.
    {
      uint64_t P = At;
      unsigned Reg = 0;
      unsigned Moves = 0;
      MCInst Inst;
      while (uint64_t N = Decode(P, Inst)) {
        unsigned R = targetRegister(Inst);
        if (!R || (Reg && R != Reg) || Moves == (IsX86 ? 1u : 4u))
          break;
        Reg = R;
        ++Moves;
        P += N;
      }
      if (Moves) {
        MCInst Call;
        if (uint64_t N = Decode(P, Call);
            N && isIndirectCallThrough(Call, Reg)) {
          At = P + N;
          HasCallSequence = true;
        }
      }
    }
    MCInst Inst;
    while (uint64_t N = Decode(At, Inst)) {
      if (!isNop(Inst))
        break;
      At += N;
    }
    return uint32_t(At - Offset);
  }

  bool IsX86 = false;
  std::unique_ptr<MCTarget> M;
};

} // namespace

std::unique_ptr<CallSiteAnalyzer> CallSiteAnalyzer::create(const Triple &T,
                                                           std::string &Why) {
  auto A = std::make_unique<MCCallSiteAnalyzer>();
  if (!A->init(T, Why))
    return nullptr;
  return A;
}

} // namespace report
} // namespace pcmap
