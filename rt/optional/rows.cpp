//===- rows.cpp - One row model for the runtime's reports -----------------===//

#include "optional/rows.h"

#include <string.h>

namespace pcmap {
namespace rt {

Row &Row::set(unsigned C, const char *S) {
  Cells[C].Set = true;
  Cells[C].S = S ? S : "";
  return *this;
}

Row &Row::number(unsigned C, uint64_t N) {
  Cells[C].Set = true;
  Cells[C].N = N;
  return *this;
}

Row &Row::share(unsigned C, double Fraction) {
  Cells[C].Set = true;
  Cells[C].Share = Fraction;
  return *this;
}

Row &Row::list(unsigned C, const char *const *Items, unsigned NumItems) {
  Cells[C].Set = true;
  Cells[C].Items = Items;
  Cells[C].NumItems = NumItems;
  return *this;
}

namespace {

/// A value other than a string as text and CSV show it, in Buf (which
/// needs room for a list joined); a string as it is.
const char *cellText(const Column &C, const Cell &V, ReportFormat Format,
                     char *Buf, size_t Size) {
  if (!V.Set)
    return "";
  Text T(Buf, Size);
  switch (C.Kind) {
  case ColumnKind::String:
    return V.S;
  case ColumnKind::Number:
    T << V.N;
    break;
  case ColumnKind::Hex:
    T.hex(V.N);
    break;
  case ColumnKind::Share:
    if (Format == ReportFormat::Text)
      T.fixed(100 * V.Share, 1) << "%";
    else
      T.fixed(V.Share, 4);
    break;
  case ColumnKind::List:
    for (unsigned I = 0; I < V.NumItems; ++I)
      T << (I ? "," : "") << V.Items[I];
    break;
  }
  return Buf;
}

/// Where in T the CSV column named Name is; T.Count if nowhere.
unsigned csvColumn(const Table &T, const char *Name) {
  unsigned I = 0;
  while (I < T.Count &&
         (!(T.Columns[I].Formats & InCSV) || strcmp(T.Columns[I].Name, Name)))
    ++I;
  return I;
}

} // namespace

void RowSink::header(const Table &T) {
  Rows = 0;
  if (Format == ReportFormat::Text) {
    textRow(T, nullptr);
  } else if (Format == ReportFormat::CSV && !CSVHeader) {
    CSVHeader = &T;
    bool First = true;
    for (unsigned I = 0; I < T.Count; ++I) {
      if (!(T.Columns[I].Formats & InCSV))
        continue;
      W << (First ? "" : ",") << T.Columns[I].Name;
      First = false;
    }
    W << "\n";
  }
}

void RowSink::row(const Row &R) {
  switch (Format) {
  case ReportFormat::Text:
    textRow(R.table(), &R);
    break;
  case ReportFormat::CSV:
    csvRow(R);
    break;
  case ReportFormat::JSON:
    jsonRow(R);
    break;
  }
  ++Rows;
}

/// The headings for a null R.
void RowSink::textRow(const Table &T, const Row *R) {
  unsigned N = T.TextOrder ? T.TextCount : T.Count;
  for (unsigned K = 0; K < N; ++K) {
    unsigned I = T.TextOrder ? T.TextOrder[K] : K;
    const Column &C = T.Columns[I];
    if (!(C.Formats & InText))
      continue;
    char Buf[256];
    const char *S = !R ? (C.Heading ? C.Heading : C.Name)
                       : cellText(C, (*R)[I], Format, Buf, sizeof(Buf));
    W.pad("", C.Gap).pad(S, C.Width, C.Right);
  }
  W << "\n";
}

void RowSink::csvRow(const Row &R) {
  const Table &H = CSVHeader ? *CSVHeader : R.table();
  bool First = true;
  for (unsigned I = 0; I < H.Count; ++I) {
    const Column &C = H.Columns[I];
    if (!(C.Formats & InCSV))
      continue;
    W << (First ? "" : ",");
    First = false;
    unsigned J = &H == &R.table() ? I : csvColumn(R.table(), C.Name);
    if (J < R.table().Count)
      csvCell(R.table().Columns[J], R[J]);
  }
  W << "\n";
}

void RowSink::csvCell(const Column &C, const Cell &V) {
  char Buf[256];
  const char *S = cellText(C, V, Format, Buf, sizeof(Buf));
  if (C.Kind == ColumnKind::String || C.Kind == ColumnKind::List)
    W.csv(S);
  else
    W << S;
}

void RowSink::jsonRow(const Row &R) {
  const Table &T = R.table();
  W << (Rows ? JSONNext : JSONFirst) << "{";
  bool First = true;
  for (unsigned I = 0; I < T.Count; ++I) {
    const Column &C = T.Columns[I];
    if (!(C.Formats & InJSON) || !R[I].Set)
      continue;
    W << (First ? "\"" : ", \"") << C.Name << "\": ";
    First = false;
    jsonCell(C, R[I]);
  }
  W << "}";
}

void RowSink::jsonCell(const Column &C, const Cell &V) {
  switch (C.Kind) {
  case ColumnKind::String:
    W.json(V.S);
    return;
  case ColumnKind::Number:
    W << V.N;
    return;
  case ColumnKind::Hex:
    W << "\"";
    W.hex(V.N) << "\"";
    return;
  case ColumnKind::Share:
    W.fixed(V.Share, 4);
    return;
  case ColumnKind::List:
    W << "[";
    for (unsigned I = 0; I < V.NumItems; ++I) {
      W << (I ? ", " : "");
      W.json(V.Items[I]);
    }
    W << "]";
    return;
  }
}

} // namespace rt
} // namespace pcmap
