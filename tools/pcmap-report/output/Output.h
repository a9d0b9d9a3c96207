//===- Output.h - The writers of the reports --------------------*- C++ -*-===//
//
// The writers of the ELF subcommands' reports (functions, atomics, diff,
// stackmaps), one per format, and what every writer shares, the trace's
// (trace/) too: the text table (aligned columns, or CSV rows), the HTML
// page's frame and escaping, and the JSON document's header.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_REPORT_OUTPUT_H
#define PCMAP_REPORT_OUTPUT_H

#include "Views.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace llvm {
namespace json {
class OStream;
} // namespace json
} // namespace llvm

namespace pcmap {
namespace report {

//===----------------------------------------------------------------------===//
// The ELF subcommands' writers
//===----------------------------------------------------------------------===//

void writeFunctionsText(llvm::raw_ostream &OS,
                        llvm::ArrayRef<BinaryReport> Reports,
                        const OutputOptions &O);
void writeAtomicsText(llvm::raw_ostream &OS,
                      llvm::ArrayRef<BinaryReport> Reports,
                      const OutputOptions &O);
void writeDiffText(llvm::raw_ostream &OS, const BinaryReport &Old,
                   const BinaryReport &New, const DiffResult &D,
                   const OutputOptions &O);

void writeFunctionsJSON(llvm::raw_ostream &OS,
                        llvm::ArrayRef<BinaryReport> Reports,
                        const OutputOptions &O);
void writeAtomicsJSON(llvm::raw_ostream &OS,
                      llvm::ArrayRef<BinaryReport> Reports,
                      const OutputOptions &O);
void writeDiffJSON(llvm::raw_ostream &OS, const BinaryReport &Old,
                   const BinaryReport &New, const DiffResult &D,
                   const OutputOptions &O);

void writeFunctionsHTML(llvm::raw_ostream &OS,
                        llvm::ArrayRef<BinaryReport> Reports,
                        const OutputOptions &O);
void writeAtomicsHTML(llvm::raw_ostream &OS,
                      llvm::ArrayRef<BinaryReport> Reports,
                      const OutputOptions &O);
void writeDiffHTML(llvm::raw_ostream &OS, const BinaryReport &Old,
                   const BinaryReport &New, const DiffResult &D,
                   const OutputOptions &O);

/// The stackmaps subcommand (OutputStackMaps.cpp).
void writeStackMapsText(llvm::raw_ostream &OS,
                        const std::vector<BinaryReport> &Reports,
                        const OutputOptions &Options);
void writeStackMapsJSON(llvm::raw_ostream &OS,
                        const std::vector<BinaryReport> &Reports,
                        const OutputOptions &Options);

//===----------------------------------------------------------------------===//
// What every writer shares
//===----------------------------------------------------------------------===//

/// Rows of cells, rendered as aligned text or as CSV. The cells of a text
/// table are kept back to back in one buffer: a report of 100k functions
/// would otherwise hold a million small strings.
class Table {
public:
  struct Column {
    std::string Header;
    bool Right; // right-aligned (numbers)
  };
  explicit Table(std::vector<Column> Columns);

  void addRow(llvm::ArrayRef<std::string> Cells);
  void writeText(llvm::raw_ostream &OS) const;
  /// One RFC 4180 row: fields with a comma, quote or line break quoted,
  /// line breaks in them and at the end CRLF.
  static void writeCSVRow(llvm::raw_ostream &OS,
                          llvm::ArrayRef<std::string> Cells);

private:
  std::vector<Column> Columns;
  std::vector<size_t> Widths;
  std::string Data;
  std::vector<size_t> Ends; // end of each cell in Data, row by row
};

/// HTML text: &, <, >, quotes escaped, invalid UTF-8 replaced.
std::string htmlEscape(llvm::StringRef S);
/// The page up to <body> (inline style), and from the end of the body
/// (the inline script that sorts tables of class "sortable").
void htmlPageStart(llvm::raw_ostream &OS, llvm::StringRef Title);
void htmlPageEnd(llvm::raw_ostream &OS);

/// Version of the JSON documents (docs/report-json.md).
constexpr unsigned kJSONSchemaVersion = 1;
/// The attributes every JSON document starts with: schema_version, tool,
/// tool_version, command.
void jsonHeader(llvm::json::OStream &J, llvm::StringRef Command);

} // namespace report
} // namespace pcmap

#endif // PCMAP_REPORT_OUTPUT_H
