//===- AssemblySources.h - Tables for the assembly sources a command has --===//
//
// An assembly source (.s, or -x assembler) compiled with
// -fsanitize-metadata gets pcmap's tables from pcmap-asm (instrument/asm),
// which writes the source again with labels at its atomics and the tables
// after it. The drivers give clang that text in place of the source, in a
// temporary directory, with a -fdebug-prefix-map that names the source as
// the command line did, so that the object is the one clang makes of the
// source, its tables added. Where pcmap-asm cannot read a source, the source
// is assembled as it is (its functions UNKNOWN to the runtime).
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_INSTRUMENT_DRIVER_ASSEMBLYSOURCES_H
#define PCMAP_INSTRUMENT_DRIVER_ASSEMBLYSOURCES_H

#include <string>
#include <vector>

namespace pcmap::driver {

class AssemblySources {
public:
  /// Tool: pcmap-asm; Clang: the clang the driver runs.
  AssemblySources(std::string Tool, std::string Clang)
      : Tool(std::move(Tool)), Clang(std::move(Clang)) {}
  ~AssemblySources();

  /// Rewrites the assembly sources of Args (the command for clang, Args[0]
  /// being clang) at the indexes Sources, and adds the debug prefix maps:
  /// the command then assembles the rewritten sources. Sources it cannot
  /// rewrite stay as they are.
  void rewrite(std::vector<std::string> &Args,
               const std::vector<size_t> &Sources);

  /// The same for a command that compiles (-c) one preprocessed assembly
  /// source (.S, -x assembler-with-cpp), at index Source of Args: the
  /// drivers preprocess it first, as clang would (its dependency file
  /// included), and the command then assembles the rewritten preprocessed
  /// text. False if the command was left as it is.
  bool rewritePreprocessed(std::vector<std::string> &Args, size_t Source);

private:
  /// Runs pcmap-asm on Input with the reading Options, writing the result
  /// to <a root in the temporary directory><Path>; the file written, or ""
  /// (and Roots has the root).
  std::string runTool(const std::vector<std::string> &Options,
                      const std::string &Input, const std::string &Path);
  /// The -fdebug-prefix-map of each root used, appended to Args.
  void mapRoots(std::vector<std::string> &Args) const;

  /// The assembler's arguments (-cc1as) of each source of Args, from clang's
  /// -### of the command: triple, CPU, features, include directories.
  bool assemblerArguments(const std::vector<std::string> &Args,
                          const std::vector<size_t> &Sources,
                          std::vector<std::vector<std::string>> &Result);

  std::string Tool, Clang;
  std::string Directory; // the temporary directory, removed at the end
  std::vector<std::string> Roots;
};

} // namespace pcmap::driver

#endif // PCMAP_INSTRUMENT_DRIVER_ASSEMBLYSOURCES_H
