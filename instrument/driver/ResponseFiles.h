//===- ResponseFiles.h - @file arguments, as clang expands them -*- C++ -*-===//
//
// pcmap's options may come in a response file, so the drivers expand them
// before they read the command line, the way clang does on POSIX (LLVM's
// cl::ExpansionContext with the GNU tokenizer): recursively, a relative name
// from the working directory, a missing file left as "@file" for clang to
// report, a file that includes itself an error.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_INSTRUMENT_DRIVER_RESPONSEFILES_H
#define PCMAP_INSTRUMENT_DRIVER_RESPONSEFILES_H

#include <string>
#include <string_view>
#include <vector>

namespace pcmap::driver {

/// Splits Text into arguments as a GNU shell would, without expansions:
/// white space separates them, quotes (' or ") group, a backslash escapes
/// the next character, inside quotes too. An empty argument is dropped.
std::vector<std::string> tokenizeGNUCommandLine(std::string_view Text);

/// Replaces every "@file" of Args from Args[First] on by the arguments the
/// file holds. Returns false with the reason in Error if a file cannot be
/// read or includes itself.
bool expandResponseFiles(std::vector<std::string> &Args, size_t First,
                         std::string &Error);

} // namespace pcmap::driver

#endif // PCMAP_INSTRUMENT_DRIVER_RESPONSEFILES_H
