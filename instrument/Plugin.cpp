//===- Plugin.cpp - pcmap pass plugin entry point -------------------------===//
//
// Registers the pcmap pass with the new pass manager:
//  * as "pcmap" (or "pcmap<atomics;functions;lto-prelink>") for
//    opt -passes=...;
//  * at OptimizerLastEP, after every IR optimisation of a compilation (and of
//    each ThinLTO back end, which runs that extension point again);
//  * at FullLinkTimeOptimizationLastEP, after the full LTO link's
//    optimisations.
//
//===----------------------------------------------------------------------===//

#include "PCMapPass.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Passes/PassBuilder.h"
#if LLVM_VERSION_MAJOR >= 22
#include "llvm/Plugins/PassPlugin.h"
#else
#include "llvm/Passes/PassPlugin.h"
#endif
#include "llvm/IR/Module.h"
#include "llvm/IR/PassInstrumentation.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>

#ifndef PCMAP_VERSION_STRING
#define PCMAP_VERSION_STRING "unknown"
#endif

using namespace llvm;
using namespace pcmap;

namespace {

Expected<std::pair<PCMapOptions, PCMapPhase>> parseParams(StringRef Params) {
  PCMapOptions Options = commandLineOptions();
  PCMapPhase Phase =
      commandLineSaysLTOPreLink() ? PCMapPhase::LTOPreLink : PCMapPhase::Final;
  if (Params.empty())
    return std::make_pair(Options, Phase);
  // Naming any feature selects exactly the features named; naming none keeps
  // the command line's selection.
  bool Atomics = false, Functions = false;
  while (!Params.empty()) {
    StringRef Param;
    std::tie(Param, Params) = Params.split(';');
    if (Param == "atomics")
      Atomics = true;
    else if (Param == "functions" || Param == "covered")
      Functions = true;
    else if (Param == "lto-prelink")
      Phase = PCMapPhase::LTOPreLink;
    else
      return make_error<StringError>(
          "invalid pcmap pass parameter '" + Param +
              "' (expected atomics, functions or lto-prelink)",
          inconvertibleErrorCode());
  }
  if (Atomics || Functions) {
    Options.Atomics = Atomics;
    Options.Functions = Functions;
  }
  return std::make_pair(Options, Phase);
}

void addPCMapPass(ModulePassManager &MPM, bool PreLink,
                  std::optional<PCMapOptions> &FinalOptions) {
  PCMapOptions Options = commandLineOptions();
  if (!PreLink)
    FinalOptions = Options;
  MPM.addPass(PCMapPass(std::move(Options),
                        PreLink ? PCMapPhase::LTOPreLink : PCMapPhase::Final));
}

/// Upstream's SanitizerBinaryMetadataPass (-fexperimental-sanitize-metadata)
/// runs at the same extension point, after pcmap (clang registers it after
/// the plugins), and replaces every !pcsections it writes. When it has run in
/// a pipeline where pcmap instrumented, pcmap's metadata is put back next to
/// upstream's; the pass keeps the other producer's sections.
void reinstrumentAfterUpstream(
    PassBuilder &PB,
    std::shared_ptr<std::optional<PCMapOptions>> FinalOptions) {
  PassInstrumentationCallbacks *PIC = PB.getPassInstrumentationCallbacks();
  if (!PIC)
    return;
  PIC->registerAfterPassCallback(
      [FinalOptions](StringRef PassID, Any IR, const PreservedAnalyses &) {
        if (PassID != "SanitizerBinaryMetadataPass" || !*FinalOptions)
          return;
        if (const auto *M = any_cast<const Module *>(&IR))
          // The pass manager is between passes and holds no reference into
          // the module; the callback only has a const view of it.
          instrumentModule(const_cast<Module &>(**M), **FinalOptions,
                           PCMapPhase::Final);
      });
}

void registerCallbacks(PassBuilder &PB) {
  // The options of the pcmap pass this PassBuilder's pipeline runs in its
  // final (instrumenting) phase, if any.
  auto FinalOptions = std::make_shared<std::optional<PCMapOptions>>();
  reinstrumentAfterUpstream(PB, FinalOptions);

  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (!PassBuilder::checkParametrizedPassName(Name, "pcmap"))
          return false;
        auto Parsed =
            PassBuilder::parsePassParameters(parseParams, Name, "pcmap");
        if (!Parsed) {
          errs() << toString(Parsed.takeError()) << '\n';
          return false;
        }
        MPM.addPass(PCMapPass(Parsed->first, Parsed->second));
        return true;
      });

#if LLVM_VERSION_MAJOR >= 20
  PB.registerOptimizerLastEPCallback(
      [FinalOptions](ModulePassManager &MPM, OptimizationLevel,
                     ThinOrFullLTOPhase LTOPhase) {
        bool PreLink = LTOPhase == ThinOrFullLTOPhase::ThinLTOPreLink ||
                       LTOPhase == ThinOrFullLTOPhase::FullLTOPreLink ||
                       commandLineSaysLTOPreLink();
        addPCMapPass(MPM, PreLink, *FinalOptions);
      });
#else
  // These releases do not tell the callback the LTO phase; pcmap-clang passes
  // -pcmap-lto-prelink when it compiles for LTO.
  PB.registerOptimizerLastEPCallback(
      [FinalOptions](ModulePassManager &MPM, OptimizationLevel) {
        addPCMapPass(MPM, commandLineSaysLTOPreLink(), *FinalOptions);
      });
#endif

  PB.registerFullLinkTimeOptimizationLastEPCallback(
      [FinalOptions](ModulePassManager &MPM, OptimizationLevel) {
        addPCMapPass(MPM, /*PreLink=*/false, *FinalOptions);
      });
}

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "pcmap", PCMAP_VERSION_STRING,
          registerCallbacks};
}
