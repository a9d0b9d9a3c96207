//===- fuzz_format.cpp - Fuzzing the runtime's pcmap section decoder ------===//
//
// pcmap_atomics and pcmap_functions sections, 32-bit and pointer-sized
// relative PCs, decoded by the runtime against a fake module (see
// FuzzSupport.h for the input layout). Selector bits: 0 functions (else
// atomics), 1 pointer-sized PCs.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

using namespace pcmap;
using namespace pcmap::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  InputReader In(Data, Size);
  uint8_t Selector = In.u8();
  format::MetadataKind Kind =
      (Selector & 1) ? format::MK_Functions : format::MK_Atomics;
  uint32_t Version = readVersion(In, Selector, [](uint8_t S) {
    return format::kVersionBase | ((S & 2) ? format::kVersionPtrSizeRel : 0);
  });
  FakeModule Module;
  if (!Module.read(In))
    return -1; // not a module the runtime would take; keep out of the corpus
  SectionBuffer Section(In.rest(), In.left());
  Decoded D = runtimeDecode(Kind, Version, Section.begin(), Section.end(),
                            Module.at(Section.begin()));
  checkReencoding(Kind, Version, Module, D);
  return 0;
}
