//===- fuzz_access.cpp - The runtime's access decoders against LLVM's MC --===//
//
// decodeX86_64Access and decodeAArch64Access (rt/core/access.h) on any
// bytes, held to LLVM's disassembler (test/tools/AccessCompare.h): the
// first byte of the input picks the architecture (odd: AArch64), the rest
// is the instruction. Properties:
// - a decoder never reads past the bytes it is given (they are in a heap
//   block of exactly their size);
// - a decoded form is well formed: its length within the bytes (x86-64: at
//   most 15; AArch64: 4), a kind, a scale of 1, 2, 4, 8 or the size;
// - where MC decodes the instruction, the decoder agrees with it or says
//   "unknown".
//
//===----------------------------------------------------------------------===//

#include "FuzzCheck.h"

#include "AccessCompare.h"

#include <cstdlib>
#include <vector>

using namespace pcmap::rt;

namespace {

const pcmap::test::AccessComparer &comparer() {
  static pcmap::test::AccessComparer *C = [] {
    auto *New = new pcmap::test::AccessComparer;
    if (!New->init())
      std::abort();
    return New;
  }();
  return *C;
}

void checkForm(AccessDecode Result, const AccessForm &Form, size_t Avail,
               bool AArch64) {
  if (Result == AD_Unknown)
    return;
  FUZZ_CHECK(Form.Length <= Avail && Form.Length <= (AArch64 ? 4 : 15) &&
                 Form.Length > 0,
             "length %u of %zu bytes", unsigned(Form.Length), Avail);
  if (Result != AD_Memory)
    return;
  FUZZ_CHECK(Form.Kind >= AK_Read && Form.Kind <= AK_ReadWrite, "kind %u",
             unsigned(Form.Kind));
  FUZZ_CHECK(Form.Scale && (Form.Scale & (Form.Scale - 1)) == 0 &&
                 Form.Scale <= 16,
             "scale %u", unsigned(Form.Scale));
  uintptr_t Regs[33] = {};
  uintptr_t Address;
  if (AArch64)
    evaluateAArch64Access(Form, Regs, 0x400000);
  else
    evaluateX86_64Access(Form, {Regs, 0x400000, 0x7000, 0}, Address);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size < 2)
    return 0;
  bool AArch64 = Data[0] & 1;
  std::vector<uint8_t> Bytes(Data + 1, Data + Size);
  AccessForm Form;
  AccessDecode Result =
      AArch64 ? decodeAArch64Access(Bytes.data(), Bytes.size(), Form)
              : decodeX86_64Access(Bytes.data(), Bytes.size(), Form);
  checkForm(Result, Form, Bytes.size(), AArch64);
  pcmap::test::AccessCheck A = comparer().check(Bytes, 0x400000, AArch64);
  FUZZ_CHECK(A.Why.empty(), "%s (%s): %s",
             pcmap::test::hexBytes(llvm::ArrayRef<uint8_t>(Bytes).take_front(
                                       A.Size))
                 .c_str(),
             A.Text.c_str(), A.Why.c_str());
  return 0;
}
