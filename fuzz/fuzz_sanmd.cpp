//===- fuzz_sanmd.cpp - Fuzzing the runtime's upstream sanmd decoder ------===//
//
// Upstream SanitizerBinaryMetadata sections (sanmd_atomics, sanmd_covered
// of versions 1 and 2, with and without the UAR stack-arguments size),
// 32-bit and pointer-sized relative PCs, decoded by the runtime against a
// fake module (see FuzzSupport.h for the input layout). Selector bits:
// 0 covered (else atomics), 1 pointer-sized PCs, 2 version 1 (else 2).
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

using namespace pcmap;
using namespace pcmap::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  InputReader In(Data, Size);
  uint8_t Selector = In.u8();
  format::MetadataKind Kind =
      (Selector & 1) ? format::MK_UpstreamCovered : format::MK_UpstreamAtomics;
  uint32_t Version = readVersion(In, Selector, [](uint8_t S) {
    return ((S & 4) ? format::kUpstreamVersionV1 : format::kUpstreamVersionV2) |
           ((S & 2) ? format::kVersionPtrSizeRel : 0);
  });
  FakeModule Module;
  if (!Module.read(In))
    return -1;
  SectionBuffer Section(In.rest(), In.left());
  Decoded D = runtimeDecode(Kind, Version, Section.begin(), Section.end(),
                            Module.at(Section.begin()));
  checkReencoding(Kind, Version, Module, D);
  return 0;
}
