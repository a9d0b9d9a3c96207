//===- race_table.h - The races found, for detection and report -*- C++ -*-===//
//
// The detector (race.cpp, in signal handlers) fills the table; the report
// (race_report.cpp: the warnings soon after detection, at exit, in the
// JSON dump) reads it. Entries are claimed by a compare-exchange of State
// and published with a release store; a published entry changes only by
// its Count.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_RT_RACE_TABLE_H
#define PCMAP_RT_RACE_TABLE_H

#include <stdint.h>

namespace pcmap {
namespace rt {

/// Frames kept of each side's stack.
constexpr unsigned kRaceFrames = 16;
/// Distinct races kept (pairs of sites); more are counted as dropped.
constexpr unsigned kRaces = 128;

/// One side of a race: the access a thread was about to make.
struct RaceSide {
  uintptr_t PC;
  uint32_t Tid;
  uint8_t Kind, Size, Depth;
  uintptr_t Frames[kRaceFrames];
};

struct RaceEntry {
  uint32_t State; // 0: free, 1: being written, 2: published (release)
  uintptr_t Address;
  uint64_t Before, After;
  bool OtherKnown;
  RaceSide Access, Other;
  uint64_t Count;
};

/// Maps the table (false: no memory), and empties it (a forked child's).
bool mapRaceTable();
void clearRaceTable();
/// A new race was published: wakes the thread that reports it.
/// Async-signal-safe.
void noteNewRace();

/// The published entry at Slot (0 to kRaces - 1), or null.
const RaceEntry *publishedRace(unsigned Slot);

/// The detector's counts: checks made, races seen (counting repeats), and
/// races the table had no room for.
struct RaceCounts {
  uint64_t Checks, Detections, Dropped;
};
RaceCounts raceCounts();

} // namespace rt
} // namespace pcmap

#endif // PCMAP_RT_RACE_TABLE_H
