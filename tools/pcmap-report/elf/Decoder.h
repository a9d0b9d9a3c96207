//===- Decoder.h - Decoding the bytes of one metadata section ---*- C++ -*-===//
//
// Decodes a pcmap_* or sanmd_* section by the rules of docs/FORMAT.md, with
// the helpers of pcmap/Format.h. Where a relative PC points is the business of
// a PCResolver: in a linked file it is the field's address plus its value, in
// a relocatable object the relocation that applies to the field.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_REPORT_DECODER_H
#define PCMAP_REPORT_DECODER_H

#include "pcmap/Format.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace pcmap {
namespace report {

/// A place in the code: a virtual address (Section is kNoSection), or an
/// offset in section Section of a relocatable object.
struct CodeAddress {
  uint64_t Address = 0;
  uint64_t Section = 0;
};

inline bool operator<(const CodeAddress &A, const CodeAddress &B) {
  return A.Section != B.Section ? A.Section < B.Section : A.Address < B.Address;
}

class PCResolver {
public:
  virtual ~PCResolver();
  /// The target of the relative PC field of Width bytes at Offset of the
  /// section. Sets IsZero (and leaves PC alone) for a field that holds 0 and
  /// is not relocated: the terminator of a pcmap atomic record.
  virtual llvm::Error resolve(uint64_t Offset, unsigned Width, CodeAddress &PC,
                              bool &IsZero) = 0;
  /// True if [PC, PC + Size) lies in one executable section (Size 0: PC).
  virtual bool inCode(const CodeAddress &PC, uint64_t Size) const = 0;
};

struct DecodedFunction {
  CodeAddress PC;
  uint64_t Size = 0;
  uint64_t Features = 0;
  bool HasStackArgs = false;
  uint64_t StackArgs = 0;
};

struct DecodedAtomic {
  CodeAddress PC;
  bool HasDescriptor = false; // false for sanmd atomics
  format::AtomicDescriptor Descriptor;
};

/// Decodes a pcmap_functions or sanmd_covered section of Version. Errors are
/// plain StringErrors saying what is wrong and at which section offset.
llvm::Error decodeFunctions(format::MetadataKind Kind, uint32_t Version,
                            llvm::ArrayRef<uint8_t> Bytes, PCResolver &PCs,
                            std::vector<DecodedFunction> &Out);

/// Decodes a pcmap_atomics or sanmd_atomics section of Version.
llvm::Error decodeAtomics(format::MetadataKind Kind, uint32_t Version,
                          llvm::ArrayRef<uint8_t> Bytes, PCResolver &PCs,
                          std::vector<DecodedAtomic> &Out);

/// Checks the version of a section of Kind: a base version this reader
/// knows and no flag but kVersionPtrSizeRel.
llvm::Error checkVersion(format::MetadataKind Kind, uint32_t Version);

} // namespace report
} // namespace pcmap

#endif // PCMAP_REPORT_DECODER_H
