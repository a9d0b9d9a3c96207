//===- ReaderMetadata.cpp - pcmap and sanmd sections into the model -------===//
//
// Decodes every pcmap_* and sanmd_* section (Decoder.cpp does the bytes),
// then merges the entries into the report's functions and atomic sites: one
// per place, pcmap's entry winning over upstream's.
//
//===----------------------------------------------------------------------===//

#include "Reader.h"

#include "llvm/ADT/STLExtras.h"

#include <iterator>

using namespace llvm;
using namespace llvm::object;
using namespace pcmap::format;

namespace pcmap {
namespace report {

/// An unsuffixed sanmd_covered section is version 1 (LLVM 16) or 2 (LLVM 17
/// and 18); only its constructor knows. Unless the user said, decode it both
/// ways and keep the reading whose functions start at function symbols.
Error Reader::decodeUnsuffixedCovered(const SectionRef &Section,
                                      ArrayRef<uint8_t> Bytes, PCResolver &PCs,
                                      uint32_t &Version) {
  auto Try = [&](uint32_t V, std::vector<DecodedFunction> &Out) {
    return decodeFunctions(MK_UpstreamCovered, V, Bytes, PCs, Out);
  };
  if (Options.UnsuffixedUpstream != UpstreamVersionChoice::Auto) {
    Version = Options.UnsuffixedUpstream == UpstreamVersionChoice::V1
                  ? kUpstreamVersionV1
                  : kUpstreamVersionV2;
    std::vector<DecodedFunction> Out;
    if (Error E = Try(Version, Out))
      return malformed(Section, "as version " + Twine(Version) + ": " +
                                    toString(std::move(E)));
    for (const DecodedFunction &F : Out)
      PendingFunctions.push_back({F, true, Version});
    return Error::success();
  }
  // Both readings consume relocations; count them once.
  std::vector<DecodedFunction> V2, V1;
  Error E2 = Try(kUpstreamVersionV2, V2);
  std::unique_ptr<PCResolver> Fresh;
  if (Error E = preparePCs(Section, Bytes, Fresh))
    return E;
  Error E1 = decodeFunctions(MK_UpstreamCovered, kUpstreamVersionV1, Bytes,
                             *Fresh, V1);
  auto AtSymbols = [&](const std::vector<DecodedFunction> &Fs) {
    size_t N = 0;
    for (const DecodedFunction &F : Fs)
      N += symbolAt(F.PC.Section, F.PC.Address, F.Size) != nullptr;
    return N;
  };
  std::vector<DecodedFunction> *Chosen;
  if (E2 && E1) {
    consumeError(std::move(E1));
    return malformed(Section, toString(std::move(E2)));
  }
  if (E2) {
    consumeError(std::move(E2));
    Chosen = &V1;
    Version = kUpstreamVersionV1;
  } else if (E1) {
    consumeError(std::move(E1));
    Chosen = &V2;
    Version = kUpstreamVersionV2;
  } else if (AtSymbols(V1) > AtSymbols(V2)) {
    Chosen = &V1;
    Version = kUpstreamVersionV1;
  } else {
    Chosen = &V2;
    Version = kUpstreamVersionV2;
  }
  if (Version == kUpstreamVersionV1) {
    if (Error E = checkRelocationsUsed(Section, *Fresh))
      return E;
  } else if (Error E = checkRelocationsUsed(Section, PCs)) {
    return E;
  }
  for (const DecodedFunction &F : *Chosen)
    PendingFunctions.push_back({F, true, Version});
  return Error::success();
}

Error Reader::decodeSection(const SectionRef &Section,
                            const MetadataSectionName &Name) {
  ArrayRef<uint8_t> Bytes;
  if (Error E = sectionBytes(Section, Bytes))
    return E;
  bool Upstream =
      Name.Kind == MK_UpstreamAtomics || Name.Kind == MK_UpstreamCovered;
  MetadataSection Info;
  Info.Name = Section.getName() ? *Section.getName() : "";
  Info.Kind = Name.Kind;
  Info.Size = Bytes.size();
  Info.VersionFromName = Name.HasVersion;
  uint32_t Version = Name.Version;
  if (!Name.HasVersion) {
    if (!Upstream)
      return malformed(Section, "pcmap sections carry their version in "
                                "their name; this one has none");
    Version = Options.UnsuffixedUpstream == UpstreamVersionChoice::V1
                  ? kUpstreamVersionV1
                  : kUpstreamVersionV2;
  }
  if (Error E = checkVersion(Name.Kind, Version))
    return malformed(Section, toString(std::move(E)));

  std::unique_ptr<PCResolver> PCs;
  if (Error E = preparePCs(Section, Bytes, PCs))
    return E;
  size_t FunctionsBefore = PendingFunctions.size();
  size_t AtomicsBefore = PendingAtomics.size();
  if (Name.Kind == MK_Functions || Name.Kind == MK_UpstreamCovered) {
    if (Upstream && !Name.HasVersion) {
      if (Error E = decodeUnsuffixedCovered(Section, Bytes, *PCs, Version))
        return E;
    } else {
      std::vector<DecodedFunction> Out;
      if (Error E = decodeFunctions(Name.Kind, Version, Bytes, *PCs, Out))
        return malformed(Section, toString(std::move(E)));
      if (Error E = checkRelocationsUsed(Section, *PCs))
        return E;
      for (const DecodedFunction &F : Out)
        PendingFunctions.push_back({F, Upstream, versionBase(Version)});
    }
  } else {
    std::vector<DecodedAtomic> Out;
    if (Error E = decodeAtomics(Name.Kind, Version, Bytes, *PCs, Out))
      return malformed(Section, toString(std::move(E)));
    if (Error E = checkRelocationsUsed(Section, *PCs))
      return E;
    for (const DecodedAtomic &A : Out)
      PendingAtomics.push_back({A, Upstream});
  }
  Info.Version = Version;
  Info.Entries = (PendingFunctions.size() - FunctionsBefore) +
                 (PendingAtomics.size() - AtomicsBefore);
  Report.Sections.push_back(std::move(Info));
  return Error::success();
}

void Reader::buildModel() {
  mergeFunctions();
  mergeAtomics();
  countAtomicsPerFunction();
}

/// Functions: one per place; pcmap and upstream entries for the same
/// function merge.
void Reader::mergeFunctions() {
  // pcmap entries before upstream ones of the same function.
  llvm::sort(PendingFunctions,
             [](const PendingFunction &A, const PendingFunction &B) {
               if (A.F.PC < B.F.PC || B.F.PC < A.F.PC)
                 return A.F.PC < B.F.PC;
               return A.Upstream < B.Upstream;
             });
  std::vector<FunctionInfo> &Fs = Report.Functions;
  Fs.reserve(PendingFunctions.size());
  for (const PendingFunction &P : PendingFunctions) {
    if (Fs.empty() || Fs.back().Section != P.F.PC.Section ||
        Fs.back().Address != P.F.PC.Address) {
      Fs.emplace_back();
      Fs.back().Address = P.F.PC.Address;
      Fs.back().Section = P.F.PC.Section;
      Fs.back().Size = P.F.Size;
    }
    FunctionInfo &F = Fs.back();
    if (P.Upstream) {
      F.Sources |= FromUpstream;
      F.UpstreamFeatures |= P.F.Features;
      F.UpstreamVersion = P.UpstreamBase;
      if (P.F.HasStackArgs) {
        F.HasStackArgs = true;
        F.StackArgs = P.F.StackArgs;
      }
    } else {
      if (!(F.Sources & FromPCMap))
        F.Size = P.F.Size; // pcmap's size wins over upstream's
      F.Sources |= FromPCMap;
      F.Features |= P.F.Features;
    }
  }
  PendingFunctions.clear();
  PendingFunctions.shrink_to_fit();
}

/// Atomics: one per distinct PC; a pcmap descriptor wins over an upstream
/// entry for the same PC.
void Reader::mergeAtomics() {
  llvm::sort(PendingAtomics, [](const auto &A, const auto &B) {
    if (A.first.PC < B.first.PC || B.first.PC < A.first.PC)
      return A.first.PC < B.first.PC;
    return A.first.HasDescriptor > B.first.HasDescriptor;
  });
  std::vector<AtomicSite> &As = Report.Atomics;
  As.reserve(PendingAtomics.size());
  for (const auto &[A, Upstream] : PendingAtomics) {
    if (As.empty() || As.back().Section != A.PC.Section ||
        As.back().Address != A.PC.Address) {
      As.emplace_back();
      As.back().Address = A.PC.Address;
      As.back().Section = A.PC.Section;
      As.back().HasDescriptor = A.HasDescriptor;
      As.back().Descriptor = A.Descriptor;
    }
    As.back().Sources |= Upstream ? FromUpstream : FromPCMap;
  }
  PendingAtomics.clear();
  PendingAtomics.shrink_to_fit();
}

/// Each atomic site to the function entry holding it, counted by kind.
void Reader::countAtomicsPerFunction() {
  std::vector<FunctionInfo> &Fs = Report.Functions;
  for (AtomicSite &A : Report.Atomics) {
    CodeAddress PC{A.Address, A.Section};
    auto It = llvm::upper_bound(
        Fs, PC, [](const CodeAddress &K, const FunctionInfo &F) {
          return K < CodeAddress{F.Address, F.Section};
        });
    if (It == Fs.begin())
      continue;
    FunctionInfo &F = *std::prev(It);
    if (F.Section != A.Section || A.Address - F.Address >= F.Size)
      continue;
    A.Function = uint32_t(&F - Fs.data());
    ++F.NumAtomics;
    ++F.AtomicsByKind[A.HasDescriptor ? unsigned(A.Descriptor.Kind)
                                      : unsigned(KC_Unknown)];
  }
}

} // namespace report
} // namespace pcmap
