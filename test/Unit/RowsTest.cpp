//===- RowsTest.cpp - One row model for the runtime's reports -------------===//
//
// One table written in each format: text alignment and headings, CSV
// quoting and a header shared by two tables, JSON escaping, keys and
// lists.
//
//===----------------------------------------------------------------------===//

#include "optional/rows.h"

#include "gtest/gtest.h"

#include <string>

using namespace pcmap::rt;

namespace {

enum : unsigned { ColName, ColSize, ColAt, ColShare, ColTags, ColNote };
const Column Columns[] = {
    {"name", ColumnKind::String, InAll, 0, 6, false, nullptr},
    {"size", ColumnKind::Number, InAll, 1, 5, true, nullptr},
    {"at", ColumnKind::Hex, InAll, 2, 6, false, "where"},
    {"share", ColumnKind::Share, InAll, 1, 6, true, nullptr},
    {"tags", ColumnKind::List, InCSV | InJSON, 0, 0, false, nullptr},
    {"note", ColumnKind::String, InText, 1, 0, false, nullptr},
};
const Table Things = {Columns, 6, nullptr, 0};

/// Rows written into a buffer.
struct Output {
  char Buffer[512];
  Text T{Buffer, sizeof(Buffer)};
  RowSink Sink;
  explicit Output(ReportFormat Format, const char *JSONFirst = "",
                  const char *JSONNext = ", ")
      : Sink(T, Format, JSONFirst, JSONNext) {}
  const char *data() const { return T.data(); }
};

/// Things' rows: "a,b" (with a list of two), then "q\"" (none).
void writeThings(RowSink &Sink) {
  Sink.header(Things);
  const char *Tags[] = {"x,y", "z"};
  Row A(Things);
  A.set(ColName, "a,b").number(ColSize, 12).number(ColAt, 0x1f);
  A.share(ColShare, 0.125).list(ColTags, Tags, 2).set(ColNote, "n");
  Sink.row(A);
  Row B(Things);
  B.set(ColName, "q\"\n").number(ColSize, 3456).list(ColTags, Tags, 0);
  Sink.row(B);
}

std::string things(ReportFormat Format) {
  Output Out(Format, "[");
  writeThings(Out.Sink);
  return Out.data();
}

TEST(RowsTest, TextAlignsValuesUnderHeadings) {
  EXPECT_EQ(things(ReportFormat::Text), "name    size  where   share note\n"
                                        "a,b       12  0x1f    12.5% n\n"
                                        "q\"\n     3456                \n");
}

TEST(RowsTest, TextFollowsTheTextOrder) {
  const uint8_t Order[] = {ColSize, ColName};
  const Table Reordered = {Columns, 6, Order, 2};
  Output Out(ReportFormat::Text);
  Out.Sink.header(Reordered);
  Row R(Reordered);
  R.set(ColName, "f").number(ColSize, 7);
  Out.Sink.row(R);
  // A column's gap is its own: name's is none.
  EXPECT_STREQ(Out.data(), "  sizename  \n"
                           "     7f     \n");
}

TEST(RowsTest, CSVQuotesCommasQuotesAndNewlines) {
  EXPECT_EQ(things(ReportFormat::CSV), "name,size,at,share,tags\n"
                                       "\"a,b\",12,0x1f,0.1250,\"x,y,z\"\n"
                                       "\"q\"\"\n\",3456,,,\n");
}

TEST(RowsTest, CSVRowsOfAnotherTableGoUnderTheFirstHeaderByName) {
  const Column Others[] = {
      {"tags", ColumnKind::List, InCSV, 0, 0, false, nullptr},
      {"size", ColumnKind::Number, InCSV, 0, 0, false, nullptr},
      {"extra", ColumnKind::Number, InCSV, 0, 0, false, nullptr},
  };
  const Table Other = {Others, 3, nullptr, 0};
  Output Out(ReportFormat::CSV);
  Out.Sink.header(Things);
  Out.Sink.header(Other); // one header per file
  const char *Tags[] = {"t"};
  Row R(Other);
  R.list(0, Tags, 1).number(1, 5).number(2, 9);
  Out.Sink.row(R);
  EXPECT_STREQ(Out.data(), "name,size,at,share,tags\n"
                           ",5,,,t\n");
}

TEST(RowsTest, JSONEscapesAndLeavesOutUnsetCells) {
  EXPECT_EQ(things(ReportFormat::JSON),
            "[{\"name\": \"a,b\", \"size\": 12, \"at\": \"0x1f\", "
            "\"share\": 0.1250, \"tags\": [\"x,y\", \"z\"]}, "
            "{\"name\": \"q\\\"\\n\", \"size\": 3456, \"tags\": []}");
}

TEST(RowsTest, JSONArraysStartOverAfterAHeader) {
  Output Out(ReportFormat::JSON, "<", "|");
  Row R(Things);
  R.number(ColSize, 1);
  Out.Sink.row(R);
  Out.Sink.row(R);
  Out.Sink.header(Things);
  Out.Sink.row(R);
  EXPECT_STREQ(Out.data(), "<{\"size\": 1}|{\"size\": 1}<{\"size\": 1}");
}

} // namespace
