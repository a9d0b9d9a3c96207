//===- OutputText.cpp - Aligned text columns and CSV ----------------------===//
//
// Text is for a terminal: a heading per file, aligned columns, a totals row.
// CSV (RFC 4180: CRLF line ends, fields with a comma, quote or line break in
// double quotes, quotes doubled) has one header row and data rows only, with
// the same columns for every file, so that the rows of several files or runs
// concatenate.
//
//===----------------------------------------------------------------------===//

#include "Output.h"
#include "Views.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>

using namespace llvm;

namespace pcmap {
namespace report {

Table::Table(std::vector<Column> Columns) : Columns(std::move(Columns)) {
  for (const Column &C : this->Columns)
    Widths.push_back(C.Header.size());
}

void Table::addRow(ArrayRef<std::string> Cells) {
  for (size_t C = 0; C < Columns.size(); ++C) {
    StringRef Cell = C < Cells.size() ? StringRef(Cells[C]) : StringRef();
    Data += Cell;
    Ends.push_back(Data.size());
    Widths[C] = std::max(Widths[C], Cell.size());
  }
}

void Table::writeText(raw_ostream &OS) const {
  std::string Out;
  auto Line = [&](auto Cell) {
    Out.clear();
    for (size_t C = 0; C < Columns.size(); ++C) {
      StringRef Text = Cell(C);
      bool Last = C + 1 == Columns.size();
      if (C)
        Out += "  ";
      size_t Pad = Widths[C] - Text.size();
      if (Columns[C].Right)
        Out.append(Pad, ' ');
      Out += Text;
      if (!Columns[C].Right && !Last)
        Out.append(Pad, ' ');
    }
    OS << StringRef(Out).rtrim() << "\n";
  };
  Line([&](size_t C) { return StringRef(Columns[C].Header); });
  size_t N = Columns.size();
  for (size_t Row = 0; Row * N < Ends.size(); ++Row)
    Line([&](size_t C) {
      size_t I = Row * N + C;
      size_t Begin = I ? Ends[I - 1] : 0;
      return StringRef(Data).slice(Begin, Ends[I]);
    });
}

void Table::writeCSVRow(raw_ostream &OS, ArrayRef<std::string> Cells) {
  for (size_t C = 0; C < Cells.size(); ++C) {
    if (C)
      OS << ',';
    StringRef Cell = Cells[C];
    if (Cell.find_first_of(",\"\r\n") == StringRef::npos) {
      OS << Cell;
      continue;
    }
    OS << '"';
    for (size_t I = 0; I < Cell.size(); ++I) {
      char Ch = Cell[I];
      if (Ch == '"')
        OS << '"';
      // A line break in a field is CRLF too, as RFC 4180 writes it.
      if (Ch == '\n' && (I == 0 || Cell[I - 1] != '\r'))
        OS << '\r';
      OS << Ch;
    }
    OS << '"';
  }
  OS << "\r\n";
}

namespace {

std::string num(uint64_t V) { return std::to_string(V); }

std::string describeFile(const BinaryReport &R) {
  std::string Out = R.Path + " (" + R.FileFormat + " " + R.FileType;
  if (R.FromSymbolTable)
    Out += "; no pcmap metadata: functions from the symbol table, atomics "
           "unknown";
  return Out + ")";
}

//===----------------------------------------------------------------------===//
// functions
//===----------------------------------------------------------------------===//

/// The fragments of the split functions among Order, each function's first
/// fragment (its entry) first; nothing when there are none.
void fragmentsText(raw_ostream &OS, const BinaryReport &R,
                   ArrayRef<uint32_t> Order, const OutputOptions &O) {
  bool Sections = R.isRelocatable();
  std::vector<Table::Column> Cols = {{"ADDRESS", true}};
  if (Sections)
    Cols.push_back({"SECTION", false});
  Cols.insert(Cols.end(), {{"SIZE", true},
                           {"ATOMICS", true},
                           {"FRAGMENT", false},
                           {"FUNCTION", false}});
  Table T(Cols);
  bool Any = false;
  for (uint32_t I : Order) {
    const FunctionInfo &F = R.Functions[I];
    if (F.Fragments.empty())
      continue;
    Any = true;
    std::string Name = tableName(displayName(F, O.Demangle), O);
    uint32_t InOthers = 0;
    for (const FunctionFragment &Frag : F.Fragments)
      InOthers += Frag.NumAtomics;
    auto Row = [&](uint64_t Address, uint64_t Section, uint64_t Size,
                   uint32_t Atomics, const std::string &Fragment) {
      std::vector<std::string> Cells = {hexAddress(Address)};
      if (Sections)
        Cells.push_back(R.sectionName(Section).str());
      Cells.insert(Cells.end(), {num(Size), num(Atomics), Fragment, Name});
      T.addRow(Cells);
    };
    Row(F.Address, F.Section, F.EntrySize, F.NumAtomics - InOthers, "(entry)");
    for (const FunctionFragment &Frag : F.Fragments)
      Row(Frag.Address, Frag.Section, Frag.Size, Frag.NumAtomics, Frag.Name);
  }
  if (!Any)
    return;
  OS << "\nfragments of split functions (their sizes and atomics are in "
        "the functions' rows)\n";
  T.writeText(OS);
}

void functionsText(raw_ostream &OS, const BinaryReport &R,
                   const OutputOptions &O) {
  bool Sections = R.isRelocatable();
  bool Source = R.HasDebugInfo;
  std::vector<Table::Column> Cols = {{"ADDRESS", true}};
  if (Sections)
    Cols.push_back({"SECTION", false});
  Cols.insert(Cols.end(), {{"SIZE", true}, {"ATOMICS", true}});
  for (unsigned K = 0; K < KC_Count; ++K)
    Cols.push_back({StringRef(kindColumnName(K)).upper(), true});
  Cols.insert(Cols.end(), {{"FEATURES", false}, {"FUNCTION", false}});
  if (Source)
    Cols.push_back({"SOURCE", false});
  Table T(Cols);

  // A file without metadata: its atomics are unknown, not none.
  auto Count = [&](uint64_t N) {
    return R.FromSymbolTable ? std::string("?") : num(N);
  };
  std::vector<uint32_t> Order = selectFunctions(R, O);
  for (uint32_t I : Order) {
    const FunctionInfo &F = R.Functions[I];
    std::vector<std::string> Row = {hexAddress(F.Address)};
    if (Sections)
      Row.push_back(R.sectionName(F.Section).str());
    Row.push_back(num(F.Size));
    Row.push_back(Count(F.NumAtomics));
    for (unsigned K = 0; K < KC_Count; ++K)
      Row.push_back(Count(F.AtomicsByKind[K]));
    Row.push_back(featureText(F));
    Row.push_back(tableName(displayName(F, O.Demangle), O));
    if (Source)
      Row.push_back(sourceText(F.Source, /*BaseName=*/true));
    T.addRow(Row);
  }
  FunctionTotals Tot = totalsOf(R);
  std::vector<std::string> Row = {"TOTAL"};
  if (Sections)
    Row.push_back("");
  Row.push_back(num(Tot.Size));
  Row.push_back(Count(Tot.Atomics));
  for (unsigned K = 0; K < KC_Count; ++K)
    Row.push_back(Count(Tot.AtomicsByKind[K]));
  Row.push_back("");
  Row.push_back(num(Tot.Functions) + " functions");
  T.addRow(Row);

  OS << "functions of " << describeFile(R);
  if (Order.size() < R.Functions.size())
    OS << ", largest " << Order.size() << " of " << R.Functions.size();
  OS << "\n";
  T.writeText(OS);
  if (Tot.AtomicsOutsideFunctions)
    OS << "note: " << Tot.AtomicsOutsideFunctions
       << " atomic sites lie outside the function entries\n";
  fragmentsText(OS, R, Order, O);
}

void functionsCSV(raw_ostream &OS, ArrayRef<BinaryReport> Reports,
                  const OutputOptions &O) {
  std::vector<std::string> Header = {
      "file", "name", "mangled_name", "address", "section", "size", "atomics"};
  for (unsigned K = 0; K < KC_Count; ++K)
    Header.push_back(kindColumnName(K));
  Header.insert(Header.end(), {"features", "sources", "upstream_features",
                               "stack_args", "source_file", "source_line"});
  Table::writeCSVRow(OS, Header);
  for (const BinaryReport &R : Reports) {
    for (uint32_t I : selectFunctions(R, O)) {
      const FunctionInfo &F = R.Functions[I];
      // Unknown atomics (a file without metadata) are empty cells.
      auto Count = [&](uint64_t N) {
        return R.FromSymbolTable ? std::string() : num(N);
      };
      std::vector<std::string> Row = {R.Path,
                                      displayName(F, O.Demangle),
                                      F.Name,
                                      hexAddress(F.Address),
                                      R.sectionName(F.Section).str(),
                                      num(F.Size),
                                      Count(F.NumAtomics)};
      for (unsigned K = 0; K < KC_Count; ++K)
        Row.push_back(Count(F.AtomicsByKind[K]));
      Row.push_back(join(featureNames(F.Features), ","));
      Row.push_back(join(sourceNames(F.Sources), ","));
      Row.push_back(join(
          upstreamFeatureNames(F.UpstreamFeatures, F.UpstreamVersion), ","));
      Row.push_back(F.HasStackArgs ? num(F.StackArgs) : "");
      Row.push_back(F.Source.File);
      Row.push_back(F.Source.Line ? num(F.Source.Line) : "");
      Table::writeCSVRow(OS, Row);
    }
  }
}

//===----------------------------------------------------------------------===//
// atomics
//===----------------------------------------------------------------------===//

struct AtomicFields {
  std::string Kind, Size, Order, Failure, Op;
};

AtomicFields atomicFields(const AtomicSite &A) {
  using namespace pcmap::format;
  AtomicFields F;
  if (!A.HasDescriptor) {
    F.Kind = "unknown";
    return F;
  }
  const AtomicDescriptor &D = A.Descriptor;
  F.Kind = atomicKindName(D.Kind);
  if (D.Kind != AK_Fence)
    F.Size = D.sizeInBytes() ? num(D.sizeInBytes()) : "large";
  F.Order = atomicOrderName(D.Order);
  if (D.Kind == AK_CmpXchg)
    F.Failure = atomicOrderName(D.FailureOrder);
  if (D.Kind == AK_RMW) {
    const char *Op = rmwOperationName(D.Op);
    F.Op = Op ? Op : "op" + num(D.Op);
  }
  return F;
}

std::string whereText(const AtomicSite &A, const OutputOptions &O) {
  if (A.Symbol.empty())
    return "?";
  return tableName(displaySymbol(A.Symbol, O.Demangle), O) + "+" +
         hexAddress(A.SymbolOffset);
}

void atomicsText(raw_ostream &OS, const BinaryReport &R,
                 const OutputOptions &O) {
  bool Sections = R.isRelocatable();
  bool Source = R.HasDebugInfo;
  std::vector<Table::Column> Cols = {{"ADDRESS", true}};
  if (Sections)
    Cols.push_back({"SECTION", false});
  Cols.insert(Cols.end(), {{"KIND", false},
                           {"SIZE", true},
                           {"ORDER", false},
                           {"FAILURE", false},
                           {"OP", false},
                           {"FLAGS", false},
                           {"FUNCTION", false}});
  // The innermost frame's line, and what it was inlined into, when any
  // site of the file was inlined.
  bool Inlined = any_of(
      R.Atomics, [](const AtomicSite &A) { return A.Frames.size() > 1; });
  if (Source)
    Cols.push_back({"SOURCE", false});
  if (Inlined)
    Cols.push_back({"INLINED INTO", false});
  Table T(Cols);
  auto Dash = [](const std::string &S) { return S.empty() ? "-" : S; };
  size_t Shown = 0;
  for (const AtomicSite &A : R.Atomics) {
    if (O.Top && Shown == O.Top)
      break;
    ++Shown;
    AtomicFields F = atomicFields(A);
    std::vector<std::string> Row = {hexAddress(A.Address)};
    if (Sections)
      Row.push_back(R.sectionName(A.Section).str());
    Row.insert(Row.end(), {F.Kind, Dash(F.Size), Dash(F.Order), Dash(F.Failure),
                           Dash(F.Op), Dash(join(atomicFlagNames(A), ",")),
                           whereText(A, O)});
    if (Source)
      Row.push_back(sourceText(A.Source, /*BaseName=*/true));
    if (Inlined)
      Row.push_back(inlinedIntoText(A, O));
    T.addRow(Row);
  }
  OS << "atomics of " << describeFile(R) << "\n";
  T.writeText(OS);
  uint64_t ByKind[KC_Count] = {};
  for (const AtomicSite &A : R.Atomics)
    ++ByKind[A.HasDescriptor ? unsigned(A.Descriptor.Kind)
                             : unsigned(KC_Unknown)];
  OS << "TOTAL " << R.Atomics.size() << " atomic sites:";
  for (unsigned K = 0; K < KC_Count; ++K)
    OS << " " << ByKind[K] << " " << kindColumnName(K);
  OS << "\n";
}

void atomicsCSV(raw_ostream &OS, ArrayRef<BinaryReport> Reports,
                const OutputOptions &O) {
  Table::writeCSVRow(OS, {"file", "address", "section", "function",
                          "mangled_function", "offset", "kind", "size", "order",
                          "failure_order", "rmw_op", "flags", "source_file",
                          "source_line", "inlined"});
  for (const BinaryReport &R : Reports) {
    size_t Shown = 0;
    for (const AtomicSite &A : R.Atomics) {
      if (O.Top && Shown++ == O.Top)
        break;
      AtomicFields F = atomicFields(A);
      Table::writeCSVRow(
          OS, {R.Path, hexAddress(A.Address), R.sectionName(A.Section).str(),
               A.Symbol.empty() ? "" : displaySymbol(A.Symbol, O.Demangle),
               A.Symbol, A.Symbol.empty() ? "" : num(A.SymbolOffset), F.Kind,
               F.Size, F.Order, F.Failure, F.Op, join(atomicFlagNames(A), ","),
               A.Source.File, A.Source.Line ? num(A.Source.Line) : "",
               symbolizerFrames(A, O.Demangle)});
    }
  }
}

} // namespace

void writeFunctionsText(raw_ostream &OS, ArrayRef<BinaryReport> Reports,
                        const OutputOptions &O) {
  if (O.Format == OutputFormat::CSV)
    return functionsCSV(OS, Reports, O);
  for (size_t I = 0; I < Reports.size(); ++I) {
    if (I)
      OS << "\n";
    functionsText(OS, Reports[I], O);
  }
}

void writeAtomicsText(raw_ostream &OS, ArrayRef<BinaryReport> Reports,
                      const OutputOptions &O) {
  if (O.Format == OutputFormat::CSV)
    return atomicsCSV(OS, Reports, O);
  for (size_t I = 0; I < Reports.size(); ++I) {
    if (I)
      OS << "\n";
    atomicsText(OS, Reports[I], O);
  }
}

void writeDiffText(raw_ostream &OS, const BinaryReport &Old,
                   const BinaryReport &New, const DiffResult &D,
                   const OutputOptions &O) {
  std::vector<const DiffRow *> Rows = D.select(O);
  if (O.Format == OutputFormat::CSV) {
    Table::writeCSVRow(OS, {"name", "mangled_name", "status", "old_size",
                            "new_size", "delta", "old_atomics", "new_atomics",
                            "atomics_delta"});
    for (const DiffRow *R : Rows) {
      const FunctionInfo *F = R->New ? R->New : R->Old;
      Table::writeCSVRow(OS, {displayName(*F, O.Demangle), F->Name,
                              diffStatusName(R->Status), num(R->OldSize),
                              num(R->NewSize), std::to_string(R->delta()),
                              num(R->OldAtomics), num(R->NewAtomics),
                              std::to_string(R->atomicsDelta())});
    }
    return;
  }
  Table T({{"STATUS", false},
           {"OLD SIZE", true},
           {"NEW SIZE", true},
           {"DELTA", true},
           {"OLD ATOMICS", true},
           {"NEW ATOMICS", true},
           {"DELTA", true},
           {"FUNCTION", false}});
  for (const DiffRow *R : Rows) {
    const FunctionInfo *F = R->New ? R->New : R->Old;
    T.addRow({diffStatusName(R->Status), num(R->OldSize), num(R->NewSize),
              signedText(R->delta()), num(R->OldAtomics), num(R->NewAtomics),
              signedText(R->atomicsDelta()),
              tableName(displayName(*F, O.Demangle), O)});
  }
  T.addRow({"TOTAL", num(D.OldSize), num(D.NewSize),
            signedText(int64_t(D.NewSize) - int64_t(D.OldSize)),
            num(D.OldAtomics), num(D.NewAtomics),
            signedText(int64_t(D.NewAtomics) - int64_t(D.OldAtomics)),
            num(D.Rows.size()) + " functions"});
  OS << "diff of " << describeFile(Old) << " -> " << describeFile(New) << "\n";
  T.writeText(OS);
  OS << "summary: " << D.summary() << "\n";
}

} // namespace report
} // namespace pcmap
