//===- Text.h - Text that every part of pcmap-report writes -----*- C++ -*-===//
//
// How an address, a name from a file and a list read, in the reader's
// messages and in every output format alike, and the version the tool
// reports. Each is defined once, in Text.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_REPORT_TEXT_H
#define PCMAP_REPORT_TEXT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace pcmap {
namespace report {

/// "0x1240": addresses and offsets in reports and messages.
std::string hexAddress(uint64_t Address);
/// Names and paths come from the file; JSON strings and HTML text must be
/// UTF-8: invalid sequences become U+FFFD.
std::string utf8(llvm::StringRef S);
std::string join(llvm::ArrayRef<std::string> Items, llvm::StringRef Sep);
/// pcmap's version ("0.1.0"): --version and the JSON documents' header.
llvm::StringRef toolVersion();

} // namespace report
} // namespace pcmap

#endif // PCMAP_REPORT_TEXT_H
