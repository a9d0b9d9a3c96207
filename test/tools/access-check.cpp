//===- access-check.cpp - The runtime's access decoders against LLVM's MC -===//
//
// Disassembles every executable section of each file with LLVM's MC and
// holds the runtime's memory-access decoder of the file's architecture
// (x86-64 or AArch64) to it, instruction by instruction, by the rules of
// AccessCompare.h. Prints a summary line per file, the first disagreements
// in full, and exits 1 if there is any.
//
// usage: access-check [--skip-missing] [--show=N] FILE...
//
//===----------------------------------------------------------------------===//

#include "AccessCompare.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

using namespace llvm;
using namespace pcmap::rt;
using pcmap::test::AccessCheck;
using pcmap::test::AccessComparer;

namespace {

cl::list<std::string> Files(cl::Positional, cl::OneOrMore,
                            cl::desc("<ELF files>"));
cl::opt<bool> SkipMissing("skip-missing",
                          cl::desc("Skip the files that do not exist"));
cl::opt<unsigned> ShowLimit("show", cl::init(20),
                            cl::desc("Disagreements printed in full"));

struct Counts {
  uint64_t Instructions = 0, Undecoded = 0, Unknown = 0, Memory = 0,
           NoMemory = 0, Disagreements = 0;
  std::map<std::string, uint64_t> UnknownByMnemonic;
};

void checkSection(const AccessComparer &Comparer, ArrayRef<uint8_t> Bytes,
                  uint64_t Address, StringRef File, bool AArch64, Counts &C) {
  for (uint64_t Offset = 0; Offset < Bytes.size();) {
    ArrayRef<uint8_t> Rest = Bytes.slice(Offset);
    AccessCheck A = Comparer.check(Rest, Address + Offset, AArch64);
    Offset += A.Size;
    if (!A.Decoded) {
      ++C.Undecoded;
      continue;
    }
    ++C.Instructions;
    if (A.Result == AD_Unknown) {
      ++C.Unknown;
      ++C.UnknownByMnemonic[A.Mnemonic];
      continue;
    }
    ++(A.Result == AD_Memory ? C.Memory : C.NoMemory);
    if (!A.Why.empty() && C.Disagreements++ < ShowLimit)
      outs() << File << "+0x" << utohexstr(Address + Offset - A.Size) << ": "
             << pcmap::test::hexBytes(Rest.take_front(A.Size)) << " (" << A.Text
             << "): " << A.Why << "\n";
  }
}

bool checkFile(const AccessComparer &Comparer, StringRef Path, Counts &C) {
  Expected<object::OwningBinary<object::ObjectFile>> Binary =
      object::ObjectFile::createObjectFile(Path);
  if (!Binary) {
    errs() << "access-check: " << Path << ": "
           << toString(Binary.takeError()) << "\n";
    return false;
  }
  bool AArch64 = Binary->getBinary()->getArch() == Triple::aarch64;
  if (!AArch64 && Binary->getBinary()->getArch() != Triple::x86_64) {
    errs() << "access-check: " << Path << ": neither x86-64 nor AArch64\n";
    return false;
  }
  for (const object::SectionRef &Section : Binary->getBinary()->sections()) {
    if (!Section.isText())
      continue;
    Expected<StringRef> Contents = Section.getContents();
    if (!Contents) {
      consumeError(Contents.takeError());
      continue;
    }
    checkSection(Comparer, arrayRefFromStringRef(*Contents),
                 Section.getAddress(), Path, AArch64, C);
  }
  return true;
}

} // namespace

int main(int Argc, char **Argv) {
  InitLLVM X(Argc, Argv);
  cl::ParseCommandLineOptions(Argc, Argv, "the runtime's access decoder, "
                                          "held against LLVM's MC\n");
  AccessComparer Comparer;
  if (!Comparer.init()) {
    errs() << "access-check: no x86-64 or AArch64 disassembler in this LLVM\n";
    return 2;
  }
  bool AllAgree = true;
  for (const std::string &Path : Files) {
    if (SkipMissing && !sys::fs::exists(Path)) {
      outs() << Path << ": not on this machine\n";
      continue;
    }
    Counts C;
    if (!checkFile(Comparer, Path, C))
      return 2;
    outs() << Path << ": " << C.Instructions << " instructions, " << C.Memory
           << " accesses and " << C.NoMemory << " without decoded, "
           << C.Unknown << " unknown, " << C.Undecoded
           << " bytes MC does not decode; disagreements: " << C.Disagreements
           << "\n";
    std::vector<std::pair<uint64_t, std::string>> Top;
    for (const auto &[Mnemonic, N] : C.UnknownByMnemonic)
      Top.push_back({N, Mnemonic});
    llvm::sort(Top, std::greater<>());
    outs() << "  unknown most often:";
    for (size_t I = 0; I < Top.size() && I < 12; ++I)
      outs() << " " << Top[I].second << " " << Top[I].first;
    outs() << "\n";
    AllAgree &= C.Disagreements == 0;
  }
  return AllAgree ? 0 : 1;
}
