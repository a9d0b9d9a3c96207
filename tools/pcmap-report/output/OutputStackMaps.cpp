//===- OutputStackMaps.cpp - The stackmaps subcommand's output ------------===//
//
// Text: the layout of llvm-readobj --stackmap, field for field, with one more
// line per function (start, size, name) and per record (PC, call size).
// JSON: the flat view the StackMap v2 proposal asked for (docs/Report.md).
//
//===----------------------------------------------------------------------===//

#include "Output.h"
#include "Views.h"

#include "pcmap/StackMap.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"

using namespace llvm;

namespace pcmap {
namespace report {

namespace {

const char *sizeSourceName(SizeSource S) {
  switch (S) {
  case SizeSource::PCMap:
    return "pcmap";
  case SizeSource::Symbol:
    return "symbol";
  case SizeSource::None:
    break;
  }
  return "none";
}

/// ".text+0x10" in a relocatable object, "0x401010" in a linked file.
std::string placeText(const BinaryReport &R, uint64_t Section,
                      uint64_t Address) {
  if (Section == kNoSection)
    return hexAddress(Address);
  StringRef Name = R.sectionName(Section);
  return (Name.empty() ? "section" + std::to_string(Section) : Name.str()) +
         "+" + hexAddress(Address);
}

std::string functionName(const StackMapFunction &F, bool Demangle) {
  if (F.Name.empty())
    return "";
  return displaySymbol(F.Name, Demangle);
}

void writeLocation(raw_ostream &OS, const StackMapBlob &B,
                   const StackMapLocation &L) {
  switch (L.Kind) {
  case stackmap::LK_Register:
    OS << "Register R#" << L.DwarfReg;
    break;
  case stackmap::LK_Direct:
    OS << "Direct R#" << L.DwarfReg << " + " << L.Offset;
    break;
  case stackmap::LK_Indirect:
    OS << "Indirect [R#" << L.DwarfReg << " + " << L.Offset << "]";
    break;
  case stackmap::LK_Constant:
    // As llvm-readobj: the small constant as an unsigned 32-bit value.
    OS << "Constant " << uint32_t(L.Offset);
    break;
  case stackmap::LK_ConstantIndex:
    OS << "ConstantIndex #" << uint32_t(L.Offset) << " ("
       << B.Constants[uint32_t(L.Offset)] << ")";
    break;
  }
  OS << ", size: " << L.Size;
}

void writeBlobText(raw_ostream &OS, const BinaryReport &R,
                   const StackMapBlob &B, const OutputOptions &Options) {
  OS << "LLVM StackMap Version: " << B.Version << "\n";
  OS << "Num Functions: " << B.Functions.size() << "\n";
  for (const StackMapFunction &F : B.Functions) {
    OS << "  Function address: " << F.StoredAddress
       << ", stack size: " << F.StackSize << ", callsite record count: ";
    if (F.RecordCount == stackmap::kUnknownRecordCount)
      OS << "unknown";
    else
      OS << F.RecordCount;
    OS << "\n    Function start: ";
    if (!F.Resolved) {
      OS << "unresolved\n";
      continue;
    }
    OS << placeText(R, F.Section, F.Address) << ", size: ";
    if (F.SizeFrom == SizeSource::None)
      OS << "unknown";
    else
      OS << F.Size << " (" << sizeSourceName(F.SizeFrom) << ")";
    std::string Name = functionName(F, Options.Demangle);
    OS << ", name: " << (Name.empty() ? "<none>" : Name) << "\n";
  }
  OS << "Num Constants: " << B.Constants.size() << "\n";
  for (size_t I = 0; I < B.Constants.size(); ++I)
    OS << "  #" << I + 1 << ": " << B.Constants[I] << "\n";
  OS << "Num Records: " << B.Records.size() << "\n";
  for (const StackMapRecord &Rec : B.Records) {
    OS << "  Record ID: " << Rec.ID
       << ", instruction offset: " << Rec.InstructionOffset << "\n";
    OS << "    PC: ";
    if (Rec.Function == kNoFunction) {
      OS << "unknown (no function)";
    } else if (!B.Functions[Rec.Function].Resolved) {
      OS << "unresolved";
    } else {
      const StackMapFunction &F = B.Functions[Rec.Function];
      OS << placeText(R, Rec.Section, Rec.PC);
      std::string Name = functionName(F, Options.Demangle);
      if (!Name.empty())
        OS << " (" << Name << "+" << hexAddress(Rec.InstructionOffset) << ")";
    }
    OS << ", call size: ";
    if (Rec.CallKind == stackmap::CK_Unknown)
      OS << "unknown";
    else
      OS << Rec.CallSize << " (" << stackmap::callSiteKindName(Rec.CallKind)
         << ")";
    OS << "\n";
    OS << "    " << Rec.Locations.size() << " locations:\n";
    unsigned J = 1;
    for (const StackMapLocation &L : Rec.Locations) {
      OS << "      #" << J++ << ": ";
      writeLocation(OS, B, L);
      OS << "\n";
    }
    OS << "    " << Rec.LiveOuts.size() << " live-outs: [ ";
    for (const StackMapLiveOut &LO : Rec.LiveOuts)
      OS << "R#" << LO.DwarfReg << " (" << unsigned(LO.Size) << "-bytes) ";
    OS << "]\n";
  }
}

} // namespace

void writeStackMapsText(raw_ostream &OS,
                        const std::vector<BinaryReport> &Reports,
                        const OutputOptions &Options) {
  for (const BinaryReport &R : Reports) {
    OS << "File: " << R.Path << "\n";
    for (size_t I = 0; I < R.StackMaps.size(); ++I) {
      if (R.StackMaps.size() > 1)
        OS << "Stack map " << I + 1 << " of " << R.StackMaps.size()
           << ", at section offset " << hexAddress(R.StackMaps[I].SectionOffset)
           << ":\n";
      writeBlobText(OS, R, R.StackMaps[I], Options);
    }
  }
}

namespace {

/// An attribute whose value is null unless Known.
template <class T>
void attributeOrNull(json::OStream &J, StringRef Key, bool Known, T &&Value) {
  if (Known)
    J.attribute(Key, std::forward<T>(Value));
  else
    J.attribute(Key, nullptr);
}

void writeFrameJSON(json::OStream &J, const BinaryReport &R,
                    const StackMapFunction &F, size_t Index,
                    const OutputOptions &Options) {
  J.object([&] {
    J.attribute("index", int64_t(Index));
    attributeOrNull(J, "address", F.Resolved, hexAddress(F.Address));
    if (R.isRelocatable() && F.Resolved) // else F.Section names none
      J.attribute("section", utf8(R.sectionName(F.Section)));
    else
      J.attribute("section", nullptr);
    J.attribute("stored_address", hexAddress(F.StoredAddress));
    std::string Name = functionName(F, Options.Demangle);
    attributeOrNull(J, "name", !Name.empty(), utf8(Name));
    attributeOrNull(J, "size", F.SizeFrom != SizeSource::None, int64_t(F.Size));
    J.attribute("size_source", sizeSourceName(F.SizeFrom));
    attributeOrNull(J, "stack_size", F.StackSize != stackmap::kDynamicStackSize,
                    int64_t(F.StackSize));
    bool Counted = F.RecordCount != stackmap::kUnknownRecordCount;
    attributeOrNull(J, "first_record", Counted, int64_t(F.FirstRecord));
    attributeOrNull(J, "record_count", Counted, int64_t(F.RecordCount));
  });
}

void writeLocationJSON(json::OStream &J, const StackMapBlob &B,
                       const StackMapLocation &L) {
  J.object([&] {
    J.attribute("kind", stackmap::locationKindName(L.Kind));
    J.attribute("size", int64_t(L.Size));
    J.attribute("dwarf_reg", int64_t(L.DwarfReg));
    J.attribute("offset", int64_t(L.Offset));
    if (L.Kind == stackmap::LK_ConstantIndex)
      J.attribute("value", hexAddress(B.Constants[L.Offset]));
    else if (L.Kind == stackmap::LK_Constant)
      J.attribute("value", hexAddress(uint64_t(int64_t(L.Offset))));
    else
      J.attribute("value", nullptr);
  });
}

void writeRecordJSON(json::OStream &J, const StackMapBlob &B,
                     const StackMapRecord &Rec, size_t Index) {
  J.object([&] {
    J.attribute("index", int64_t(Index));
    J.attribute("id", std::to_string(Rec.ID));
    J.attribute("offset", int64_t(Rec.InstructionOffset));
    bool HasFunction = Rec.Function != kNoFunction;
    bool Known = HasFunction && B.Functions[Rec.Function].Resolved;
    attributeOrNull(J, "function", HasFunction, int64_t(Rec.Function));
    attributeOrNull(J, "pc", Known, hexAddress(Rec.PC));
    J.attribute("call_kind", stackmap::callSiteKindName(Rec.CallKind));
    attributeOrNull(J, "call_size", Rec.CallKind != stackmap::CK_Unknown,
                    int64_t(Rec.CallSize));
    J.attribute("flags", int64_t(Rec.Flags));
    J.attributeArray("locations", [&] {
      for (const StackMapLocation &L : Rec.Locations)
        writeLocationJSON(J, B, L);
    });
    J.attributeArray("live_outs", [&] {
      for (const StackMapLiveOut &LO : Rec.LiveOuts)
        J.object([&] {
          J.attribute("dwarf_reg", int64_t(LO.DwarfReg));
          J.attribute("size", int64_t(LO.Size));
        });
    });
  });
}

void writeBlobJSON(json::OStream &J, const BinaryReport &R,
                   const StackMapBlob &B, const OutputOptions &Options) {
  J.object([&] {
    J.attribute("section_offset", int64_t(B.SectionOffset));
    J.attribute("version", int64_t(B.Version));
    J.attributeArray("frames", [&] {
      for (size_t I = 0; I < B.Functions.size(); ++I)
        writeFrameJSON(J, R, B.Functions[I], I, Options);
    });
    J.attributeArray("constants", [&] {
      for (uint64_t C : B.Constants)
        J.value(hexAddress(C));
    });
    J.attributeArray("records", [&] {
      for (size_t I = 0; I < B.Records.size(); ++I)
        writeRecordJSON(J, B, B.Records[I], I);
    });
  });
}

} // namespace

void writeStackMapsJSON(raw_ostream &OS,
                        const std::vector<BinaryReport> &Reports,
                        const OutputOptions &Options) {
  json::OStream J(OS, 2);
  J.object([&] {
    jsonHeader(J, "stackmaps");
    J.attributeArray("files", [&] {
      for (const BinaryReport &R : Reports)
        J.object([&] {
          J.attribute("path", utf8(R.Path));
          J.attribute("format", R.FileFormat);
          J.attribute("arch", R.Arch);
          J.attribute("type", R.FileType);
          J.attributeArray("stackmaps", [&] {
            for (const StackMapBlob &B : R.StackMaps)
              writeBlobJSON(J, R, B, Options);
          });
        });
    });
  });
  OS << "\n";
}

} // namespace report
} // namespace pcmap
