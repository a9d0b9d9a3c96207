//===- report.cpp - Reports written at exit -------------------------------===//

#include "optional/report.h"

#include "core/algorithm.h"
#include "core/arena.h"
#include "core/log.h"
#include "core/options.h"
#include "core/registry.h"
#include "optional/describe.h"
#include "optional/rows.h"
#include "optional/symbolizer.h"
#include "platform/hooks.h"
#include "platform/platform.h"

#include "pcmap/pcmap.h"

#include <stdlib.h>
#include <string.h>

namespace pcmap {
namespace rt {

namespace {
PCMAP_STARTUP_STATE ReportFormat Format = ReportFormat::Text;
} // namespace

ReportFormat reportFormat() { return Format; }

//===----------------------------------------------------------------------===//
// ReportWriter
//===----------------------------------------------------------------------===//

ReportWriter::ReportWriter() : Writer(Storage, sizeof(Storage), logFd()) {
  openDestination();
  if (Format != ReportFormat::Text)
    return;
  unsigned Columns = terminalColumns(descriptor());
  int Width = Flags.report_width;
  setLineWidth(Width < 0 ? (Columns ? Columns : 160) : size_t(Width));
  // At a terminal, the report starts on a line of its own: the program's
  // last line may not have ended (a "\r" progress line).
  if (Columns)
    *this << "\n";
}

void ReportWriter::openDestination() {
  const char *Path = Flags.report_path;
  if (!Path || !*Path)
    return;
  if (!strcmp(Path, "stdout")) {
    setDescriptor(1);
    return;
  }
  if (!strcmp(Path, "stderr")) {
    setDescriptor(2);
    return;
  }
  char Name[600];
  Text T(Name, sizeof(Name));
  T << Path << "." << uint64_t(currentProcessId());
  int F = openOutputFile(Name);
  if (F < 0) {
    Message M;
    M << "warning: cannot open report_path '" << Name
      << "'; writing the report to the log";
    M.emit();
    return;
  }
  setDescriptor(F);
  Close = true;
}

ReportWriter::~ReportWriter() {
  flush();
  if (Close)
    closeFd(descriptor());
}

//===----------------------------------------------------------------------===//
// The function report
//===----------------------------------------------------------------------===//

namespace {

struct FunctionRow {
  pcmap_function F;
  uint32_t Module;
  uint32_t ByKind[6]; // load, store, rmw, cmpxchg, fence, unknown
  uint32_t FromAsm;   // of them, instructions of inline asm
};

int bySizeDescending(const void *A, const void *B) {
  const auto &X = *static_cast<const FunctionRow *>(A);
  const auto &Y = *static_cast<const FunctionRow *>(B);
  if (X.F.size != Y.F.size)
    return X.F.size > Y.F.size ? -1 : 1;
  return X.F.start < Y.F.start ? -1 : X.F.start > Y.F.start;
}

/// The names of F's features ("atomics", "opaque-asm", "fragmented") and
/// sources ("pcmap", "upstream"), in that order; returns how many.
unsigned featureNames(const pcmap_function &F, const char *(&Names)[5]) {
  unsigned N = 0;
  if (F.features & PCMAP_FEATURE_ATOMICS)
    Names[N++] = "atomics";
  if (F.features & PCMAP_FEATURE_OPAQUE_ASM)
    Names[N++] = "opaque-asm";
  if (F.features & PCMAP_FEATURE_FRAGMENTED)
    Names[N++] = "fragmented";
  if (F.source & PCMAP_SOURCE_PCMAP)
    Names[N++] = "pcmap";
  if (F.source & PCMAP_SOURCE_UPSTREAM)
    Names[N++] = "upstream";
  return N;
}

/// Adds the rows of fragments (PCMAP_SOURCE_FRAGMENT) to those of their
/// functions, which start at the fragments' entries: a split function is
/// one row, its size and atomics those of all its fragments. Rows are in
/// module order, and by start within a module. Returns the rows left.
size_t foldFragments(FunctionRow *Rows, size_t N) {
  size_t Kept = 0;
  for (size_t Begin = 0, End; Begin < N; Begin = End) {
    for (End = Begin; End < N && Rows[End].Module == Rows[Begin].Module;)
      ++End;
    for (size_t I = Begin; I < End; ++I) {
      FunctionRow &R = Rows[I];
      if (!(R.F.source & PCMAP_SOURCE_FRAGMENT))
        continue;
      size_t Lo = lowerBound(Begin, End, R.F.entry,
                             [Rows](size_t I) { return Rows[I].F.start; });
      if (Lo == End || Rows[Lo].F.start != R.F.entry)
        continue; // no row for its function: the fragment stays a row
      FunctionRow &To = Rows[Lo];
      To.F.size += R.F.size;
      To.F.num_atomics += R.F.num_atomics;
      for (unsigned K = 0; K < 6; ++K)
        To.ByKind[K] += R.ByKind[K];
      To.FromAsm += R.FromAsm;
      R.F.size = 0; // folded (a fragment has bytes)
    }
    for (size_t I = Begin; I < End; ++I)
      if (!(Rows[I].F.source & PCMAP_SOURCE_FRAGMENT) || Rows[I].F.size)
        Rows[Kept++] = Rows[I];
  }
  return Kept;
}

/// Fills Rows (room for Capacity) with the functions of every module and
/// their atomics by kind; returns how many.
size_t collectRows(FunctionRow *Rows, size_t Capacity, size_t NumModules) {
  size_t N = 0;
  pcmap_module M;
  for (size_t Mod = 0; Mod < NumModules && pcmap_module_at(Mod, &M); ++Mod) {
    for (size_t I = 0; N < Capacity && I < M.num_functions; ++I) {
      FunctionRow &R = Rows[N];
      memset(&R, 0, sizeof(R));
      if (!pcmap_function_at(M.text_start, I, &R.F))
        break;
      R.Module = uint32_t(Mod);
      for (uint32_t A = 0; A < R.F.num_atomics; ++A) {
        pcmap_atomic At;
        if (pcmap_atomic_at(M.text_start, R.F.first_atomic + A, &At)) {
          ++R.ByKind[At.kind <= PCMAP_KIND_FENCE ? At.kind : 5];
          R.FromAsm += (At.flags & PCMAP_ATOMIC_INLINE_ASM) != 0;
        }
      }
      ++N;
    }
  }
  return foldFragments(Rows, N);
}

struct Totals {
  size_t Functions, Modules;
  uint64_t Size, Atomics;
};

/// The columns, in CSV's and JSON's order; the text's puts the numbers
/// first and the place last, as one column.
enum : unsigned {
  ColModule,
  ColFunction,
  ColStart,
  ColSize,
  ColAtomics,
  ColKinds, // load, store, rmw, cmpxchg, fence, unknown
  ColAsm = ColKinds + 6,
  ColFeatures,
  ColPlace,
  NumColumns
};
const Column Columns[NumColumns] = {
    dataColumn("module", ColumnKind::String),
    dataColumn("function", ColumnKind::String),
    {"start", ColumnKind::Hex, InAll, 1, 19, false, nullptr},
    {"size", ColumnKind::Number, InAll, 0, 8, true, nullptr},
    {"atomics", ColumnKind::Number, InAll, 0, 8, true, nullptr},
    {"load", ColumnKind::Number, InAll, 0, 6, true, nullptr},
    {"store", ColumnKind::Number, InAll, 0, 6, true, nullptr},
    {"rmw", ColumnKind::Number, InAll, 0, 6, true, nullptr},
    {"cmpxchg", ColumnKind::Number, InAll, 0, 8, true, nullptr},
    {"fence", ColumnKind::Number, InAll, 0, 6, true, nullptr},
    {"unknown", ColumnKind::Number, InAll, 0, 8, true, nullptr},
    {"asm", ColumnKind::Number, InAll, 0, 6, true, nullptr},
    {"features", ColumnKind::List, InAll, 1, 14, false, nullptr},
    {"place", ColumnKind::String, InText, 1, 0, false, "module: function"},
};
const uint8_t TextOrder[] = {ColSize,      ColAtomics,   ColKinds,
                             ColKinds + 1, ColKinds + 2, ColKinds + 3,
                             ColKinds + 4, ColKinds + 5, ColAsm,
                             ColFeatures,  ColStart,     ColPlace};
const Table Functions = {Columns, NumColumns, TextOrder, sizeof(TextOrder)};
static_assert(NumColumns <= Row::kMaxColumns, "a row has no room for them");

void writeHeader(ReportWriter &W, RowSink &Sink, ReportFormat Fmt,
                 const Totals &T) {
  if (Fmt == ReportFormat::Text)
    W << "pcmap: function report: " << uint64_t(T.Functions)
      << (T.Functions == 1 ? " function in " : " functions in ")
      << uint64_t(T.Modules) << (T.Modules == 1 ? " module, " : " modules, ")
      << T.Size << (T.Size == 1 ? " byte, " : " bytes, ") << T.Atomics
      << (T.Atomics == 1 ? " atomic\n" : " atomics\n");
  else if (Fmt == ReportFormat::JSON)
    W << "{\"report\": \"pcmap-functions\", \"version\": 1, \"pid\": "
      << uint64_t(currentProcessId()) << ", \"functions\": [";
  Sink.header(Functions);
}

/// A row, symbolized.
void writeRow(RowSink &Sink, Symbolizer &Sym, const FunctionRow &R) {
  pcmap_module Mod;
  const char *Path = pcmap_module_at(R.Module, &Mod) ? Mod.path : "";
  SymbolizedPC S;
  Sym.symbolize(R.F.start, Path, R.F.start - R.F.module_bias, S);
  char Unnamed[32];
  if (!S.Function[0]) {
    Text T(Unnamed, sizeof(Unnamed));
    T << "fn_";
    T.hex(R.F.start);
  }
  const char *Name = S.Function[0] ? S.Function : Unnamed;
  char Place[sizeof(S.Function) + 260];
  Text(Place, sizeof(Place)) << baseName(Path) << ": " << Name;
  const char *Features[5];
  Row Out(Functions);
  Out.set(ColModule, Path).set(ColFunction, Name).set(ColPlace, Place);
  Out.number(ColStart, R.F.start).number(ColSize, R.F.size);
  Out.number(ColAtomics, R.F.num_atomics).number(ColAsm, R.FromAsm);
  for (unsigned K = 0; K < 6; ++K)
    Out.number(ColKinds + K, R.ByKind[K]);
  Out.list(ColFeatures, Features, featureNames(R.F, Features));
  Sink.row(Out);
}

PCMAP_STARTUP_CODE void reportFunctionsAtExit() {
  if (Flags.report_functions)
    writeFunctionReport();
}

} // namespace

PCMAP_STARTUP_CODE void initReports() {
  const char *F = Flags.report_format;
  if (!F || !strcmp(F, "text")) {
    Format = ReportFormat::Text;
  } else if (!strcmp(F, "csv")) {
    Format = ReportFormat::CSV;
  } else if (!strcmp(F, "json")) {
    Format = ReportFormat::JSON;
  } else {
    Message M;
    M << "warning: bad value '" << F
      << "' for option 'report_format' (text, csv or json); using text";
    M.emit();
    Format = ReportFormat::Text;
  }
}

namespace {
// The format is known before the tracer starts; the function report comes
// after the tracer's at exit.
PCMAP_SUBSCRIBE(ReportFormatHooks, 25, {{Event::Initialize, initReports}});
PCMAP_SUBSCRIBE(FunctionReportHooks, 40,
                {{Event::Exit, reportFunctionsAtExit}});
} // namespace

void writeFunctionReport() {
  // The tables that wait for a first query are built first: the queries
  // below run under the lock, and would not build them.
  buildDeferredTables();
  lockWriters(); // no module comes or goes meanwhile: paths stay valid
  Totals T = {0, 0, 0, 0};
  size_t Capacity = 0;
  pcmap_module M;
  for (; pcmap_module_at(T.Modules, &M); ++T.Modules)
    Capacity += M.num_functions;
  uint64_t Bytes = (Capacity ? Capacity : 1) * sizeof(FunctionRow);
  ArenaOffset Storage = arenaAllocate(Bytes);
  if (!Storage) {
    unlockWriters();
    Message Msg;
    Msg << "function report: out of memory for " << uint64_t(Capacity)
        << " functions";
    Msg.emit();
    return;
  }
  auto *Rows = static_cast<FunctionRow *>(arenaWritable(Storage));
  T.Functions = collectRows(Rows, Capacity, T.Modules);
  qsort(Rows, T.Functions, sizeof(FunctionRow), bySizeDescending);
  for (size_t I = 0; I < T.Functions; ++I) {
    T.Size += Rows[I].F.size;
    T.Atomics += Rows[I].F.num_atomics;
  }

  ReportWriter W;
  ReportFormat Fmt = reportFormat();
  RowSink Sink(W, Fmt, "\n  ", ",\n  ");
  writeHeader(W, Sink, Fmt, T);
  Symbolizer Sym;
  for (size_t I = 0; I < T.Functions; ++I)
    writeRow(Sink, Sym, Rows[I]);
  if (Fmt == ReportFormat::JSON)
    W << "\n], \"totals\": {\"functions\": " << uint64_t(T.Functions)
      << ", \"modules\": " << uint64_t(T.Modules) << ", \"size\": " << T.Size
      << ", \"atomics\": " << T.Atomics << "}}\n";
  W.flush();
  arenaFree(Storage, Bytes);
  unlockWriters();
}

} // namespace rt
} // namespace pcmap
