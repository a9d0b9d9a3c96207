//===- Reader.cpp - From an ELF file to a BinaryReport --------------------===//
//
// The reader's steps, in order; each concern is in a file of its own
// (Reader.h lists them).
//
//===----------------------------------------------------------------------===//

#include "Reader.h"

using namespace llvm;

namespace pcmap {
namespace report {

Expected<BinaryReport> Reader::run() {
  if (Error E = open())
    return std::move(E);
  if (Error E = validateTables())
    return std::move(E);
  if (Error E = scanSections())
    return std::move(E);
  if (Error E = collectSymbols())
    return std::move(E);
  for (const auto &[Section, Name] : MetadataSections)
    if (Error E = decodeSection(Section, Name))
      return std::move(E);
  buildModel();
  nameFunctions();
  joinFragments();
  addSourceLines();
  if (Options.StackMaps)
    if (Error E = decodeStackMaps())
      return std::move(E);
  if (Relocatable)
    collectSectionNames();
  return std::move(Report);
}

Expected<BinaryReport> readBinary(StringRef Path,
                                  const ReaderOptions &Options) {
  Reader R(Path, Options);
  return R.run();
}

} // namespace report
} // namespace pcmap
