//===- fuzz_report.cpp - pcmap-report's section decoder, and agreement ----===//
//
// tools/pcmap-report/Decoder.h on any section of the four kinds, both PC
// widths, sanmd versions 1 and 2, against a fake module laid out as for the
// runtime's harnesses (FuzzSupport.h). Properties:
// - every llvm::Error is handled (a rejected section's message is not
//   empty and names an offset or the version);
// - every accepted entry lies inside the module's code;
// - the runtime's decoder and pcmap-report's agree on the same bytes: both
//   accept or both reject, and accept the same entries (after the
//   runtime's normalisation: sorted by PC, one entry per PC).
// Selector bits: 0-1 kind (pcmap atomics, pcmap functions, sanmd atomics,
// sanmd covered), 2 pointer-sized PCs, 3 sanmd version 1 (else 2).
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include "Decoder.h"

using namespace pcmap;
using namespace pcmap::fuzz;
using namespace pcmap::report;

namespace {

/// As pcmap-report resolves relative PCs in a linked file: the field's
/// address plus its value. Addresses are the section's real ones here.
class FakeLinkedPCs : public PCResolver {
public:
  FakeLinkedPCs(const uint8_t *Section, const rt::CodeRanges &Code)
      : Section(Section), Code(Code) {}
  llvm::Error resolve(uint64_t Offset, unsigned Width, CodeAddress &PC,
                      bool &IsZero) override {
    int64_t Value = format::readRelativePC(Section + Offset, Width);
    IsZero = Value == 0;
    PC.Address = uint64_t(uintptr_t(Section)) + Offset + uint64_t(Value);
    PC.Section = ~uint64_t(0);
    return llvm::Error::success();
  }
  bool inCode(const CodeAddress &PC, uint64_t Size) const override {
    return PC.Address == uintptr_t(PC.Address) &&
           Code.contains(uintptr_t(PC.Address), Size);
  }

private:
  const uint8_t *Section;
  const rt::CodeRanges &Code;
};

Decoded reportDecode(format::MetadataKind Kind, uint32_t Version,
                     const SectionBuffer &Section, const rt::CodeRanges &Code) {
  FakeLinkedPCs PCs(Section.begin(), Code);
  llvm::ArrayRef<uint8_t> Bytes(Section.begin(), Section.size());
  Decoded Result;
  llvm::Error E = llvm::Error::success();
  std::vector<DecodedAtomic> Atomics;
  std::vector<DecodedFunction> Functions;
  if (isAtomicsKind(Kind))
    E = decodeAtomics(Kind, Version, Bytes, PCs, Atomics);
  else
    E = decodeFunctions(Kind, Version, Bytes, PCs, Functions);
  if (E) {
    std::string Message = llvm::toString(std::move(E));
    FUZZ_CHECK(!Message.empty(), "an error without a message");
    FUZZ_CHECK(Message.rfind("offset 0x", 0) == 0 ||
                   Message.find("version") != std::string::npos,
               "error message [%s] names no offset", Message.c_str());
    return Result;
  }
  Result.Accepted = true;
  for (const DecodedAtomic &A : Atomics) {
    FUZZ_CHECK(PCs.inCode(A.PC, 0), "atomic 0x%llx outside the module",
               (unsigned long long)A.PC.Address);
    FUZZ_CHECK(A.HasDescriptor == (Kind == format::MK_Atomics),
               "descriptor presence wrong for the kind");
    Result.Atomics.push_back(
        {uint32_t(A.PC.Address - Code.TextLo),
         A.HasDescriptor ? uint32_t(format::encodeDescriptor(A.Descriptor))
                         : rt::kUpstreamDescriptor});
  }
  for (const DecodedFunction &F : Functions) {
    FUZZ_CHECK(PCs.inCode(F.PC, F.Size),
               "function [0x%llx, +%llu) outside the module",
               (unsigned long long)F.PC.Address, (unsigned long long)F.Size);
    Function G{};
    G.Offset = uint32_t(F.PC.Address - Code.TextLo);
    G.Size = uint32_t(F.Size);
    G.Features = uint32_t(F.Features);
    G.HasStackArgs = F.HasStackArgs;
    G.StackArgs = F.StackArgs;
    Result.Functions.push_back(G);
  }
  sortUnique(Result.Atomics);
  sortUnique(Result.Functions);
  return Result;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  InputReader In(Data, Size);
  uint8_t Selector = In.u8();
  const format::MetadataKind Kinds[] = {
      format::MK_Atomics, format::MK_Functions, format::MK_UpstreamAtomics,
      format::MK_UpstreamCovered};
  format::MetadataKind Kind = Kinds[Selector & 3];
  uint32_t Version = readVersion(In, Selector, [Kind](uint8_t S) {
    uint32_t Base = Kind == format::MK_Atomics || Kind == format::MK_Functions
                        ? format::kVersionBase
                    : (S & 8) ? format::kUpstreamVersionV1
                              : format::kUpstreamVersionV2;
    return Base | ((S & 4) ? format::kVersionPtrSizeRel : 0);
  });
  FakeModule Module;
  if (!Module.read(In))
    return -1;
  SectionBuffer Section(In.rest(), In.left());
  rt::CodeRanges Code = Module.at(Section.begin());
  Decoded Report = reportDecode(Kind, Version, Section, Code);
  Decoded Runtime =
      runtimeDecode(Kind, Version, Section.begin(), Section.end(), Code);
  FUZZ_CHECK(Report.Accepted == Runtime.Accepted,
             "pcmap-report %s the section, the runtime %s it (%s)",
             Report.Accepted ? "accepts" : "rejects",
             Runtime.Accepted ? "accepts" : "rejects",
             Runtime.Error ? Runtime.Error : "no error");
  FUZZ_CHECK(Report.Atomics == Runtime.Atomics,
             "the decoders disagree on the atomics (%zu vs %zu)",
             Report.Atomics.size(), Runtime.Atomics.size());
  FUZZ_CHECK(Report.Functions == Runtime.Functions,
             "the decoders disagree on the functions (%zu vs %zu)",
             Report.Functions.size(), Runtime.Functions.size());
  return 0;
}
