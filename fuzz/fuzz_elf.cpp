//===- fuzz_elf.cpp - Fuzzing pcmap-report's whole ELF reader -------------===//
//
// readBinary (tools/pcmap-report/Report.h) on any bytes, as a file: ELF
// parsing with LLVM's Object library, section discovery, relocations of
// relocatable objects, symbols, and the section decoder. Properties: it
// never crashes; an error is handled and names the file; an accepted file's
// functions and atomics are sorted by (section, address) with no two at the
// same place, each atomic's function index is valid, and every function
// counts no more atomics than the file has.
//
//===----------------------------------------------------------------------===//

#include "FuzzCheck.h"
#include "Report.h"

#include "llvm/Support/Error.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <sys/mman.h>
#include <unistd.h>

using namespace pcmap::report;

namespace {

/// The input as a file, created at initialisation.
pcmap::fuzz::InputFile *Input;

template <class T> bool before(const T &A, const T &B) {
  return A.Section != B.Section ? A.Section < B.Section : A.Address < B.Address;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  Input = new pcmap::fuzz::InputFile("pcmap-fuzz-elf");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  Input->set(Data, Size);
  const std::string &InputPath = Input->path();
  ReaderOptions Options;
  Options.SourceLines = false; // DWARF is LLVM's business, and slow
  Options.AtomicDetails = true;
  llvm::Expected<BinaryReport> R = readBinary(InputPath, Options);
  if (!R) {
    std::string Message = llvm::toString(R.takeError());
    FUZZ_CHECK(Message.find(InputPath) != std::string::npos,
               "error [%s] does not name the file", Message.c_str());
    return 0;
  }
  for (size_t I = 1; I < R->Functions.size(); ++I)
    FUZZ_CHECK(before(R->Functions[I - 1], R->Functions[I]),
               "functions not sorted and unique at %zu", I);
  for (size_t I = 0; I < R->Atomics.size(); ++I) {
    const AtomicSite &A = R->Atomics[I];
    FUZZ_CHECK(I == 0 || before(R->Atomics[I - 1], A),
               "atomics not sorted and unique at %zu", I);
    FUZZ_CHECK(A.Function == kNoFunction || A.Function < R->Functions.size(),
               "atomic %zu names function %u of %zu", I, A.Function,
               R->Functions.size());
  }
  for (const FunctionInfo &F : R->Functions)
    FUZZ_CHECK(F.NumAtomics <= R->Atomics.size(),
               "a function counts %u atomics of %zu", F.NumAtomics,
               R->Atomics.size());
  return 0;
}
