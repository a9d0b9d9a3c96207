//===- CallSites.h - Call-site sizes of stack map records -------*- C++ -*-===//
//
// What the code at a stack map record looks like, decoded with LLVM's
// MCDisassembler: the call that ends at the record's PC (statepoints, stack
// maps placed after a call) or the patchable bytes that start there
// (patchpoints). docs/Report.md states the rules and their limits.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_REPORT_CALLSITES_H
#define PCMAP_REPORT_CALLSITES_H

#include "pcmap/StackMap.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/TargetParser/Triple.h"

#include <memory>
#include <string>

namespace pcmap {
namespace report {

class CallSiteAnalyzer {
public:
  virtual ~CallSiteAnalyzer();
  /// An analyzer for x86-64 or AArch64 code; null (with Why set) when LLVM
  /// has no disassembler for the triple.
  static std::unique_ptr<CallSiteAnalyzer> create(const llvm::Triple &T,
                                                  std::string &Why);
  /// Code holds the function's bytes from its start (its size when known,
  /// otherwise up to the end of its section); Offset is the record's
  /// instruction offset.
  virtual void analyze(llvm::ArrayRef<uint8_t> Code, uint64_t Address,
                       uint32_t Offset, stackmap::CallSiteKind &Kind,
                       uint32_t &Size) const = 0;
};

} // namespace report
} // namespace pcmap

#endif // PCMAP_REPORT_CALLSITES_H
