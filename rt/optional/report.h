//===- report.h - Reports written at exit -----------------------*- C++ -*-===//
//
// The function report (report_functions) and the output both it and the
// tracer's report use: report_path, report_format, and writers for text,
// CSV (RFC 4180) and JSON. docs/Runtime.md documents the formats.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_RT_REPORT_H
#define PCMAP_RT_REPORT_H

#include <stddef.h>
#include <stdint.h>

namespace pcmap {
namespace rt {

enum class ReportFormat { Text, CSV, JSON };

/// report_format, checked at start-up (a bad value warns and means text).
ReportFormat reportFormat();

/// Buffered output to the report destination (report_path, or the log).
class ReportWriter {
public:
  ReportWriter();
  ~ReportWriter();
  ReportWriter &operator<<(const char *S);
  ReportWriter &operator<<(uint64_t V);
  ReportWriter &hex(uint64_t V);
  /// A fraction as a decimal with Digits digits after the point.
  ReportWriter &fixed(double V, int Digits);
  /// S padded with spaces to Width (left-aligned) or right-aligned.
  ReportWriter &pad(const char *S, size_t Width, bool Right = false);
  ReportWriter &padNumber(uint64_t V, size_t Width);
  /// A CSV field (quoted when it must be) and a JSON string (quoted).
  ReportWriter &csv(const char *S);
  ReportWriter &json(const char *S);
  void flush();

private:
  int Fd;
  bool Close;
  char Buffer[8192];
  size_t Length = 0;
};

/// Checks the report options and registers the reports that run at exit.
void initReports();

/// Writes the function report now.
void writeFunctionReport();

} // namespace rt
} // namespace pcmap

#endif // PCMAP_RT_REPORT_H
