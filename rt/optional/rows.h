//===- rows.h - One row model for the runtime's reports ---------*- C++ -*-===//
//
// A report lists its columns once (a Table) and fills a Row per line; a
// RowSink writes the rows in report_format: text aligned under a line of
// headings, CSV under a line of the column names, JSON objects keyed by the
// same names. So the three formats cannot drift apart column by column.
// Like the Writer below it, nothing here allocates: a fatal dump writes its
// report from a signal handler.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_RT_ROWS_H
#define PCMAP_RT_ROWS_H

#include <stddef.h>
#include <stdint.h>

#include "core/writer.h"
#include "optional/report.h"

namespace pcmap {
namespace rt {

enum class ColumnKind : uint8_t {
  String, // CSV-quoted where it must be; a JSON string
  Number, // decimal
  Hex,    // 0x...; a JSON string, as JSON has no hex numbers
  Share,  // a fraction: "12.5%" in text, 0.1250 in CSV and JSON
  List,   // strings: joined by commas in text and CSV; a JSON array
};

/// The formats a column is part of (Column::Formats).
enum : uint8_t { InText = 1, InCSV = 2, InJSON = 4, InAll = 7 };

struct Column {
  const char *Name; // the CSV header's and the JSON key
  ColumnKind Kind;
  uint8_t Formats;
  /// Text: Gap spaces after the column before, then the value padded to
  /// Width (the last column's 0: it takes what it needs), under Heading
  /// (Name if null) aligned the same way.
  uint8_t Gap, Width;
  bool Right;
  const char *Heading;
};

/// A column of CSV and JSON (or of Formats) that the text leaves out.
constexpr Column dataColumn(const char *Name, ColumnKind Kind,
                            uint8_t Formats = InCSV | InJSON) {
  return {Name, Kind, Formats, 0, 0, false, nullptr};
}

struct Table {
  const Column *Columns;
  unsigned Count;
  /// The text's columns in their order, where it is not the list's.
  const uint8_t *TextOrder;
  unsigned TextCount;
};

/// One value; a cell never set is empty in text and CSV and leaves its key
/// out of the JSON object.
struct Cell {
  bool Set = false;
  const char *S = "";
  const char *const *Items = nullptr;
  unsigned NumItems = 0;
  uint64_t N = 0;
  double Share = 0;
};

/// The values of one line of a Table, indexed like its columns. It points
/// at the strings it is given: they must outlive the row's writing.
class Row {
public:
  static constexpr unsigned kMaxColumns = 24;
  explicit Row(const Table &T) : T(T) {}

  Row &set(unsigned C, const char *S);
  Row &number(unsigned C, uint64_t N); // Number and Hex columns
  Row &share(unsigned C, double Fraction);
  Row &list(unsigned C, const char *const *Items, unsigned NumItems);

  const Table &table() const { return T; }
  const Cell &operator[](unsigned C) const { return Cells[C]; }

private:
  const Table &T;
  Cell Cells[kMaxColumns];
};

/// Writes rows in one format.
class RowSink {
public:
  /// JSON rows come after JSONFirst (the first) or JSONNext (the others).
  RowSink(Writer &W, ReportFormat Format, const char *JSONFirst = "",
          const char *JSONNext = ", ")
      : W(W), Format(Format), JSONFirst(JSONFirst), JSONNext(JSONNext) {}

  /// Before T's rows: text, a line of headings; CSV, a line of names, only
  /// for the first table (a CSV file has one header: rows of other tables
  /// go under its columns by name); JSON, nothing, but the rows after it
  /// start a new array.
  void header(const Table &T);
  /// R as a line (text, CSV) or an object (JSON).
  void row(const Row &R);

private:
  void textRow(const Table &T, const Row *R);
  void csvRow(const Row &R);
  void jsonRow(const Row &R);
  void csvCell(const Column &C, const Cell &V);
  void jsonCell(const Column &C, const Cell &V);

  Writer &W;
  ReportFormat Format;
  const char *JSONFirst, *JSONNext;
  const Table *CSVHeader = nullptr;
  unsigned Rows = 0;
};

} // namespace rt
} // namespace pcmap

#endif // PCMAP_RT_ROWS_H
