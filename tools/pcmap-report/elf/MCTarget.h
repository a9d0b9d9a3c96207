//===- MCTarget.h - LLVM's MC objects that disassemble a target ---*- C++
//-*-===//
//
// The register, instruction and subtarget information, the context, the
// disassembler and the instruction analysis of one target, set up once
// (every target LLVM was built with is registered at the first use). The
// call-site sizes of stack maps (CallSites.cpp) and the wait words' names
// (trace/TracePointerNames.cpp) disassemble with them.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_REPORT_MCTARGET_H
#define PCMAP_REPORT_MCTARGET_H

#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCDisassembler/MCDisassembler.h"
#include "llvm/MC/MCInstrAnalysis.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/TargetParser/Triple.h"

#include <memory>
#include <string>

namespace pcmap {
namespace report {

struct MCTarget {
  std::unique_ptr<const llvm::MCRegisterInfo> MRI;
  std::unique_ptr<const llvm::MCAsmInfo> MAI;
  std::unique_ptr<const llvm::MCSubtargetInfo> STI;
  std::unique_ptr<const llvm::MCInstrInfo> MII;
  std::unique_ptr<llvm::MCContext> Ctx;
  std::unique_ptr<const llvm::MCDisassembler> Disassembler;
  /// May be null: not every target has one.
  std::unique_ptr<const llvm::MCInstrAnalysis> MIA;

  /// T's objects; null, with Why set, if LLVM cannot disassemble T.
  static std::unique_ptr<MCTarget> create(const llvm::Triple &T,
                                          std::string &Why);
};

} // namespace report
} // namespace pcmap

#endif // PCMAP_REPORT_MCTARGET_H
