//===- MCTarget.cpp - LLVM's MC objects that disassemble a target ---------===//

#include "MCTarget.h"

#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"

using namespace llvm;

namespace pcmap {
namespace report {

std::unique_ptr<MCTarget> MCTarget::create(const Triple &T, std::string &Why) {
  static bool Initialized = [] {
    InitializeAllTargetInfos();
    InitializeAllTargetMCs();
    InitializeAllDisassemblers();
    return true;
  }();
  (void)Initialized;
  std::string Error;
  const Target *TheTarget = TargetRegistry::lookupTarget(T.str(), Error);
  if (!TheTarget) {
    Why = Error;
    return nullptr;
  }
  auto M = std::make_unique<MCTarget>();
  M->MRI.reset(TheTarget->createMCRegInfo(T.str()));
  MCTargetOptions Options;
  if (M->MRI)
    M->MAI.reset(TheTarget->createMCAsmInfo(*M->MRI, T.str(), Options));
  M->STI.reset(TheTarget->createMCSubtargetInfo(T.str(), "", ""));
  M->MII.reset(TheTarget->createMCInstrInfo());
  if (!M->MRI || !M->MAI || !M->STI || !M->MII) {
    Why = "cannot set up the " + T.getArchName().str() + " target";
    return nullptr;
  }
  M->Ctx = std::make_unique<MCContext>(T, M->MAI.get(), M->MRI.get(),
                                       M->STI.get());
  M->Disassembler.reset(TheTarget->createMCDisassembler(*M->STI, *M->Ctx));
  if (!M->Disassembler) {
    Why = "no disassembler for " + T.getArchName().str();
    return nullptr;
  }
  M->MIA.reset(TheTarget->createMCInstrAnalysis(M->MII.get()));
  return M;
}

} // namespace report
} // namespace pcmap
