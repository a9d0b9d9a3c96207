//===- Text.cpp - Text that every part of pcmap-report writes -------------===//

#include "Text.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"

using namespace llvm;

namespace pcmap {
namespace report {

std::string hexAddress(uint64_t Address) {
  return "0x" + utohexstr(Address, /*LowerCase=*/true);
}

std::string utf8(StringRef S) {
  return json::isUTF8(S) ? S.str() : json::fixUTF8(S);
}

std::string join(ArrayRef<std::string> Items, StringRef Sep) {
  std::string Out;
  for (const std::string &I : Items) {
    if (!Out.empty())
      Out += Sep;
    Out += I;
  }
  return Out;
}

// The build defines it from the project's version (model/CMakeLists.txt).
StringRef toolVersion() { return PCMAP_VERSION_STRING; }

} // namespace report
} // namespace pcmap
