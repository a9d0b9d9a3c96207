//===- AccessCompare.h - The runtime's access decoders against MC -*- C++ -*-===//
//
// One instruction as LLVM's MC disassembler and the runtime's memory-access
// decoder (rt/core/access.h) see it, and whether they agree: the decoder
// may say "unknown"; where it decodes, it must agree with MC on
//   - the instruction's length;
//   - an explicit memory operand MC shows and reads or writes: the same
//     address registers, scale (and AArch64's extend), displacement,
//     segment and write-back; the size where MC's text tells it (x86-64:
//     Intel syntax's "ptr"; AArch64: the mnemonic and data register); read
//     or write as MC's mayLoad and mayStore say, where MC models them;
//   - no access where MC's operand only computes an address (LEA, NOPs;
//     prefetches and cache-line flushes, which MC calls loads).
// Used by access-check (whole binaries) and the differential fuzzer
// (fuzz/fuzz_access.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_TEST_TOOLS_ACCESSCOMPARE_H
#define PCMAP_TEST_TOOLS_ACCESSCOMPARE_H

#include "core/access.h"

#include "llvm/ADT/ArrayRef.h"

#include <memory>
#include <string>

namespace pcmap {
namespace test {

/// One instruction, as MC and the decoder see it.
struct AccessCheck {
  bool Decoded = false; // whether MC decoded an instruction
  uint64_t Size = 0;    // MC's length of it, prefixes included
  std::string Text;     // MC's text (Intel syntax on x86-64)
  std::string Mnemonic; // without prefixes
  rt::AccessDecode Result = rt::AD_Unknown;
  rt::AccessForm Form;
  std::string Why; // the disagreement; empty if they agree
};

class AccessComparer {
public:
  AccessComparer();
  ~AccessComparer();
  /// False if this LLVM lacks the x86-64 or the AArch64 disassembler.
  bool init();
  /// The instruction at the start of Bytes, at Address.
  AccessCheck check(llvm::ArrayRef<uint8_t> Bytes, uint64_t Address,
                    bool AArch64) const;

  struct MC;

private:
  std::unique_ptr<MC> X86, A64;
};

/// Bytes as "0f b1 08".
std::string hexBytes(llvm::ArrayRef<uint8_t> Bytes);

} // namespace test
} // namespace pcmap

#endif // PCMAP_TEST_TOOLS_ACCESSCOMPARE_H
