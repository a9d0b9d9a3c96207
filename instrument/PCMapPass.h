//===- PCMapPass.h - Attach pcmap !pcsections metadata ----------*- C++ -*-===//
//
// A module pass that marks every atomic and every function with !pcsections
// metadata in the pcmap format (include/pcmap/Format.h), and emits the
// constructors that register the resulting sections with the runtime.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_INSTRUMENT_PCMAPPASS_H
#define PCMAP_INSTRUMENT_PCMAPPASS_H

#include "llvm/IR/PassManager.h"

#include <string>
#include <vector>

namespace pcmap {

/// What to record.
struct PCMapOptions {
  bool Atomics = true;
  /// Function entries. Atomics imply them for the functions they cover: an
  /// atomics table without coverage cannot tell "not atomic" from "unknown".
  bool Functions = true;
  /// SpecialCaseList files (fun:, src:).
  std::vector<std::string> IgnorelistFiles;
};

/// Where in the compilation the pass runs.
enum class PCMapPhase {
  /// The last IR pass before code generation of this module: instrument.
  Final,
  /// Before an (Thin)LTO link: only record which functions to instrument, as
  /// the "pcmap-features" function attribute; the link instruments them after
  /// the link-time optimisations, which could otherwise drop metadata.
  LTOPreLink,
};

class PCMapPass : public llvm::PassInfoMixin<PCMapPass> {
public:
  PCMapPass(PCMapOptions Options, PCMapPhase Phase)
      : Options(std::move(Options)), Phase(Phase) {}

  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  /// Run at -O0 and on optnone functions too.
  static bool isRequired() { return true; }
  void printPipeline(llvm::raw_ostream &OS,
                     llvm::function_ref<llvm::StringRef(llvm::StringRef)>);

private:
  PCMapOptions Options;
  PCMapPhase Phase;
};

/// Instruments M (the work of PCMapPass). Returns true if M changed.
bool instrumentModule(llvm::Module &M, const PCMapOptions &Options,
                      PCMapPhase Phase);

/// Options given on the command line (-pcmap-*), for pass instances created
/// by the pipeline extension points.
PCMapOptions commandLineOptions();
/// True if -pcmap-lto-prelink was given (LLVM releases whose extension
/// points do not tell the LTO phase).
bool commandLineSaysLTOPreLink();

} // namespace pcmap

#endif // PCMAP_INSTRUMENT_PCMAPPASS_H
