//===- OutputJSON.cpp - The JSON documents of docs/report-json.md ---------===//
//
// Streams with llvm::json::OStream, so a file of a million functions never
// holds its document in memory. Addresses are strings ("0x1240"): a JSON
// number loses precision above 2^53 in many readers.
//
//===----------------------------------------------------------------------===//

#include "Output.h"
#include "Views.h"

#include "llvm/Support/JSON.h"

using namespace llvm;
using namespace pcmap::format;

namespace pcmap {
namespace report {

void jsonHeader(json::OStream &J, StringRef Command) {
  J.attribute("schema_version", int64_t(kJSONSchemaVersion));
  J.attribute("tool", "pcmap-report");
  J.attribute("tool_version", toolVersion());
  J.attribute("command", Command);
}

namespace {

void stringArray(json::OStream &J, StringRef Name,
                 const std::vector<std::string> &Items) {
  J.attributeArray(Name, [&] {
    for (const std::string &S : Items)
      J.value(S);
  });
}

void sectionOrNull(json::OStream &J, const BinaryReport &R, uint64_t Index) {
  if (R.isRelocatable())
    J.attribute("section", utf8(R.sectionName(Index)));
  else
    J.attribute("section", nullptr);
}

void source(json::OStream &J, const SourceLine &S) {
  if (!S.Line) {
    J.attribute("source", nullptr);
    return;
  }
  J.attributeObject("source", [&] {
    J.attribute("file", utf8(S.File));
    J.attribute("line", int64_t(S.Line));
  });
}

void byKind(json::OStream &J, StringRef Name, const uint64_t *Counts) {
  J.attributeObject(Name, [&] {
    for (unsigned K = 0; K < KC_Count; ++K)
      J.attribute(kindColumnName(K), int64_t(Counts[K]));
  });
}

/// Path, format and sections: what every subcommand says about a file.
void fileAttributes(json::OStream &J, const BinaryReport &R) {
  J.attribute("path", utf8(R.Path));
  J.attribute("format", R.FileFormat);
  J.attribute("arch", R.Arch);
  J.attribute("type", R.FileType);
  J.attribute("debug_info", R.HasDebugInfo);
  J.attribute("functions_from",
              R.FromSymbolTable ? "symbol-table" : "metadata");
  J.attributeArray("sections", [&] {
    for (const MetadataSection &S : R.Sections)
      J.object([&] {
        J.attribute("name", utf8(S.Name));
        J.attribute("kind", metadataSectionBase(S.Kind));
        J.attribute("version", int64_t(S.Version));
        J.attribute("version_in_name", S.VersionFromName);
        J.attribute("size", int64_t(S.Size));
        J.attribute("entries", int64_t(S.Entries));
      });
  });
}

void function(json::OStream &J, const BinaryReport &R, const FunctionInfo &F,
              const OutputOptions &O) {
  J.object([&] {
    J.attribute("name", utf8(displayName(F, O.Demangle)));
    J.attribute("mangled_name", utf8(F.Name));
    J.attribute("address", hexAddress(F.Address));
    sectionOrNull(J, R, F.Section);
    J.attribute("size", int64_t(F.Size));
    if (R.FromSymbolTable) { // unknown
      J.attribute("atomics", nullptr);
      J.attribute("atomics_by_kind", nullptr);
    } else {
      J.attribute("atomics", int64_t(F.NumAtomics));
      uint64_t Counts[KC_Count];
      for (unsigned K = 0; K < KC_Count; ++K)
        Counts[K] = F.AtomicsByKind[K];
      byKind(J, "atomics_by_kind", Counts);
    }
    stringArray(J, "sources", sourceNames(F.Sources));
    stringArray(J, "features", featureNames(F.Features));
    if (F.Sources & FromUpstream)
      J.attributeObject("upstream", [&] {
        J.attribute("version", int64_t(F.UpstreamVersion));
        stringArray(
            J, "features",
            upstreamFeatureNames(F.UpstreamFeatures, F.UpstreamVersion));
        if (F.HasStackArgs)
          J.attribute("stack_args", int64_t(F.StackArgs));
        else
          J.attribute("stack_args", nullptr);
      });
    else
      J.attribute("upstream", nullptr);
    source(J, F.Source);
    // Only for split functions: documents without fragments stay as they
    // were.
    if (!F.Fragments.empty())
      J.attributeArray("fragments", [&] {
        for (const FunctionFragment &Frag : F.Fragments)
          J.object([&] {
            J.attribute("name", utf8(Frag.Name));
            J.attribute("address", hexAddress(Frag.Address));
            sectionOrNull(J, R, Frag.Section);
            J.attribute("size", int64_t(Frag.Size));
            J.attribute("atomics", int64_t(Frag.NumAtomics));
          });
      });
  });
}

void atomic(json::OStream &J, const BinaryReport &R, const AtomicSite &A,
            const OutputOptions &O) {
  J.object([&] {
    J.attribute("address", hexAddress(A.Address));
    sectionOrNull(J, R, A.Section);
    if (A.Symbol.empty()) {
      J.attribute("function", nullptr);
      J.attribute("mangled_function", nullptr);
      J.attribute("offset", nullptr);
    } else {
      J.attribute("function", utf8(displaySymbol(A.Symbol, O.Demangle)));
      J.attribute("mangled_function", utf8(A.Symbol));
      J.attribute("offset", int64_t(A.SymbolOffset));
    }
    if (!A.HasDescriptor) {
      J.attribute("kind", "unknown");
      J.attribute("size", nullptr);
      J.attribute("order", nullptr);
      J.attribute("failure_order", nullptr);
      J.attribute("rmw_op", nullptr);
    } else {
      const AtomicDescriptor &D = A.Descriptor;
      J.attribute("kind", atomicKindName(D.Kind));
      if (D.Kind == AK_Fence || !D.sizeInBytes())
        J.attribute("size", nullptr);
      else
        J.attribute("size", int64_t(D.sizeInBytes()));
      J.attribute("order", atomicOrderName(D.Order));
      if (D.Kind == AK_CmpXchg)
        J.attribute("failure_order", atomicOrderName(D.FailureOrder));
      else
        J.attribute("failure_order", nullptr);
      if (D.Kind == AK_RMW) {
        const char *Op = rmwOperationName(D.Op);
        J.attribute("rmw_op",
                    Op ? std::string(Op) : "op" + std::to_string(D.Op));
      } else {
        J.attribute("rmw_op", nullptr);
      }
    }
    stringArray(J, "flags", atomicFlagNames(A));
    source(J, A.Source);
    J.attributeArray("inlined", [&] {
      for (const SourceFrame &F : A.Frames)
        J.object([&] {
          if (F.Function.empty()) {
            J.attribute("function", nullptr);
            J.attribute("mangled_function", nullptr);
          } else {
            J.attribute("function",
                        utf8(displaySymbol(F.Function, O.Demangle)));
            J.attribute("mangled_function", utf8(F.Function));
          }
          source(J, F.Source);
        });
    });
  });
}

void briefFile(json::OStream &J, StringRef Name, const BinaryReport &R) {
  J.attributeObject(Name, [&] {
    J.attribute("path", utf8(R.Path));
    J.attribute("format", R.FileFormat);
    J.attribute("arch", R.Arch);
    J.attribute("type", R.FileType);
  });
}

} // namespace

void writeFunctionsJSON(raw_ostream &OS, ArrayRef<BinaryReport> Reports,
                        const OutputOptions &O) {
  json::OStream J(OS, 1);
  J.object([&] {
    jsonHeader(J, "functions");
    J.attribute("sort", O.Sort == SortKey::Size      ? "size"
                        : O.Sort == SortKey::Atomics ? "atomics"
                        : O.Sort == SortKey::Name    ? "name"
                                                     : "address");
    J.attributeArray("files", [&] {
      for (const BinaryReport &R : Reports)
        J.object([&] {
          fileAttributes(J, R);
          std::vector<uint32_t> Order = selectFunctions(R, O);
          J.attributeArray("functions", [&] {
            for (uint32_t I : Order)
              function(J, R, R.Functions[I], O);
          });
          FunctionTotals T = totalsOf(R);
          J.attributeObject("totals", [&] {
            J.attribute("functions", int64_t(T.Functions));
            J.attribute("shown", int64_t(Order.size()));
            J.attribute("size", int64_t(T.Size));
            J.attribute("atomics", int64_t(T.Atomics));
            byKind(J, "atomics_by_kind", T.AtomicsByKind);
            J.attribute("atomics_outside_functions",
                        int64_t(T.AtomicsOutsideFunctions));
          });
        });
    });
  });
  OS << "\n";
}

void writeAtomicsJSON(raw_ostream &OS, ArrayRef<BinaryReport> Reports,
                      const OutputOptions &O) {
  json::OStream J(OS, 1);
  J.object([&] {
    jsonHeader(J, "atomics");
    J.attributeArray("files", [&] {
      for (const BinaryReport &R : Reports)
        J.object([&] {
          fileAttributes(J, R);
          size_t Shown = 0;
          J.attributeArray("atomics", [&] {
            for (const AtomicSite &A : R.Atomics) {
              if (O.Top && Shown == O.Top)
                break;
              ++Shown;
              atomic(J, R, A, O);
            }
          });
          uint64_t ByKind[KC_Count] = {};
          for (const AtomicSite &A : R.Atomics)
            ++ByKind[A.HasDescriptor ? unsigned(A.Descriptor.Kind)
                                     : unsigned(KC_Unknown)];
          J.attributeObject("totals", [&] {
            J.attribute("atomics", int64_t(R.Atomics.size()));
            J.attribute("shown", int64_t(Shown));
            byKind(J, "by_kind", ByKind);
          });
        });
    });
  });
  OS << "\n";
}

void writeDiffJSON(raw_ostream &OS, const BinaryReport &Old,
                   const BinaryReport &New, const DiffResult &D,
                   const OutputOptions &O) {
  json::OStream J(OS, 1);
  J.object([&] {
    jsonHeader(J, "diff");
    briefFile(J, "old", Old);
    briefFile(J, "new", New);
    J.attributeArray("functions", [&] {
      for (const DiffRow *R : D.select(O))
        J.object([&] {
          const FunctionInfo *F = R->New ? R->New : R->Old;
          J.attribute("name", utf8(displayName(*F, O.Demangle)));
          J.attribute("mangled_name", utf8(F->Name));
          J.attribute("status", diffStatusName(R->Status));
          J.attribute("old_size", int64_t(R->OldSize));
          J.attribute("new_size", int64_t(R->NewSize));
          J.attribute("delta", R->delta());
          J.attribute("old_atomics", int64_t(R->OldAtomics));
          J.attribute("new_atomics", int64_t(R->NewAtomics));
          J.attribute("atomics_delta", R->atomicsDelta());
        });
    });
    J.attributeObject("summary", [&] {
      J.attribute("added", int64_t(D.Added));
      J.attribute("removed", int64_t(D.Removed));
      J.attribute("changed", int64_t(D.Changed));
      J.attribute("unchanged", int64_t(D.Unchanged));
      J.attribute("old_size", int64_t(D.OldSize));
      J.attribute("new_size", int64_t(D.NewSize));
      J.attribute("delta", int64_t(D.NewSize) - int64_t(D.OldSize));
      J.attribute("old_atomics", int64_t(D.OldAtomics));
      J.attribute("new_atomics", int64_t(D.NewAtomics));
      J.attribute("atomics_delta",
                  int64_t(D.NewAtomics) - int64_t(D.OldAtomics));
      J.attribute("text", D.summary());
    });
  });
  OS << "\n";
}

} // namespace report
} // namespace pcmap
