//===- options.h - The runtime's options -----------------------*- C++ -*-===//
//
// Parsed once, at the runtime's first use, from __pcmap_default_options()
// and PCMAP_OPTIONS (see options.inc). The syntax is the sanitizers':
// key=value pairs separated by ':', ',' or white space; a value may be
// quoted with ' or ". Booleans are 0/1, false/true or no/yes. An unknown
// key or a bad value is reported and ignored.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_RT_OPTIONS_H
#define PCMAP_RT_OPTIONS_H

namespace pcmap {
namespace rt {

struct Options {
#define PCMAP_OPTION_bool bool
#define PCMAP_OPTION_int int
#define PCMAP_OPTION_string const char *
#define PCMAP_OPTION(Type, Name, Default, Description)                         \
  PCMAP_OPTION_##Type Name = Default;
#include "core/options.inc"
#undef PCMAP_OPTION
#undef PCMAP_OPTION_bool
#undef PCMAP_OPTION_int
#undef PCMAP_OPTION_string
};

/// The options in force.
extern Options Flags;

/// The process is secure (AT_SECURE; see docs/Options.md, "Secure processes"):
/// PCMAP_OPTIONS and PCMAP_SYMBOLIZER_PATH were ignored, the options that
/// name a path or a program were reset, and the symbolizer runs only from
/// the root-owned path fixed when pcmap was built. Set by initOptions().
extern bool SecureMode;

/// Parses Text into Into; Source names where Text came from in warnings.
/// Returns the number of problems reported. String values are copied into
/// runtime-owned storage. Not async-signal-safe.
unsigned parseOptions(Options &Into, const char *Text, const char *Source);

/// Tests and fuzzers only: forgets the string values kept so far, so that
/// many option strings can be parsed in one process. Options parsed before
/// must not be used afterwards.
void resetOptionStrings();

/// Sets Flags from the defaults, __pcmap_default_options() and
/// PCMAP_OPTIONS (not in a secure process), opens the log, and prints the
/// options if help=1.
/// Idempotent; called by the registry under the writer lock.
void initOptions();

/// Prints every option with its type, value and description.
void printOptions(const Options &O);

} // namespace rt
} // namespace pcmap

#endif // PCMAP_RT_OPTIONS_H
