//===- BinaryReport.cpp - Errors and column names of the report model -----===//

#include "BinaryReport.h"

#include "llvm/ADT/StringExtras.h"

using namespace llvm;
using namespace pcmap::format;

namespace pcmap {
namespace report {

char ReportError::ID;

void ReportError::log(raw_ostream &OS) const { OS << Message; }

std::error_code ReportError::convertToErrorCode() const {
  return inconvertibleErrorCode();
}

Error makeError(ExitCode Code, const Twine &Message) {
  // One line, whatever names a broken file holds.
  std::string Line;
  for (char C : Message.str()) {
    if (uint8_t(C) < 0x20 || C == 0x7f)
      Line += "\\x" + utohexstr(uint8_t(C), /*LowerCase=*/true, 2);
    else
      Line += C;
  }
  return make_error<ReportError>(Code, std::move(Line));
}

const char *kindColumnName(unsigned Column) {
  if (Column < KC_Unknown)
    return atomicKindName(Column);
  return "unknown";
}

} // namespace report
} // namespace pcmap
