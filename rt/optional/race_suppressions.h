//===- race_suppressions.h - The suppressions file --------------*- C++ -*-===//
//
// Option suppressions: ThreadSanitizer's format and matching rules, defined
// once in pcmap/Suppressions.h (which pcmap-report reads too). The file is
// read at start-up into mapped memory (no malloc), and a file that cannot
// be read, is too large or has a malformed line ends the process there,
// as ThreadSanitizer's does.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_RT_RACE_SUPPRESSIONS_H
#define PCMAP_RT_RACE_SUPPRESSIONS_H

namespace pcmap {
namespace rt {

/// Reads the file the option names, if any (an empty option: none). On a
/// failure, says why and ends the process with exitcode (1 if it is 0).
void loadRaceSuppressions();
/// Whether a race: pattern of the file matches Name (a function, a source
/// file, a module's path or a location's name).
bool raceNameSuppressed(const char *Name);
/// Whether the file has race: patterns.
bool haveRaceSuppressions();

} // namespace rt
} // namespace pcmap

#endif // PCMAP_RT_RACE_SUPPRESSIONS_H
