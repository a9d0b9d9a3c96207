//===- report.h - Reports written at exit -----------------------*- C++ -*-===//
//
// The function report (report_functions) and the output both it and the
// tracer's report use: report_path, report_format, and writers for text,
// CSV (RFC 4180) and JSON. docs/Tracer.md and docs/FunctionReport.md
// document the formats.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_RT_REPORT_H
#define PCMAP_RT_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "core/writer.h"

namespace pcmap {
namespace rt {

enum class ReportFormat { Text, CSV, JSON };

/// report_format, checked at start-up (a bad value warns and means text).
ReportFormat reportFormat();

namespace detail {
struct ReportBuffer {
  char Storage[8192];
};
} // namespace detail

/// Buffered output to the report destination (report_path, or the log),
/// written out when full and at the end of its scope. A text report's
/// lines are cut at report_width columns.
class ReportWriter : private detail::ReportBuffer, public Writer {
public:
  ReportWriter();
  ~ReportWriter();

private:
  /// report_path's file, stdout or stderr; the log otherwise.
  void openDestination();
  bool Close = false;
};

/// Checks the report options and registers the reports that run at exit.
void initReports();

/// Writes the function report now.
void writeFunctionReport();

} // namespace rt
} // namespace pcmap

#endif // PCMAP_RT_REPORT_H
