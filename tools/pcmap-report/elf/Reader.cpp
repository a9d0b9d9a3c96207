//===- Reader.cpp - From an ELF file to a BinaryReport --------------------===//
//
// The reader's steps, in order; each concern is in a file of its own
// (Reader.h lists them).
//
//===----------------------------------------------------------------------===//

#include "Reader.h"

#include "llvm/BinaryFormat/Magic.h"
#include "llvm/Object/Archive.h"

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
  if (Report.FromSymbolTable)
    functionsFromSymbols();
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

void readReports(StringRef Path, const ReaderOptions &Options,
                 function_ref<void(Expected<BinaryReport>)> Each) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> File =
      MemoryBuffer::getFile(Path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!File || identify_magic((*File)->getBuffer()) != file_magic::archive) {
    Each(readBinary(Path, Options)); // says what is wrong, if anything
    return;
  }
  Expected<std::unique_ptr<object::Archive>> A =
      object::Archive::create((*File)->getMemBufferRef());
  if (!A) {
    Each(makeError(ExitCode::UnsupportedFile,
                   "'" + Path +
                       "': invalid archive: " + toString(A.takeError())));
    return;
  }
  Error Err = Error::success();
  for (const object::Archive::Child &C : (*A)->children(Err)) {
    Expected<StringRef> Name = C.getName();
    Expected<MemoryBufferRef> Contents = C.getMemoryBufferRef();
    if (!Name || !Contents) {
      Error E = Name ? Contents.takeError() : Name.takeError();
      if (Name)
        consumeError(Name.takeError());
      else if (!Contents)
        consumeError(Contents.takeError());
      Each(makeError(ExitCode::UnsupportedFile,
                     "'" + Path + "': a member: " + toString(std::move(E))));
      continue;
    }
    Reader R((Path + "(" + *Name + ")").str(),
             MemoryBuffer::getMemBuffer(*Contents,
                                        /*RequiresNullTerminator=*/false),
             Options);
    Each(R.run());
  }
  if (Err)
    Each(makeError(ExitCode::UnsupportedFile,
                   "'" + Path + "': " + toString(std::move(Err))));
}

} // namespace report
} // namespace pcmap
