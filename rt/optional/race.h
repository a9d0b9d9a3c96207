//===- race.h - Data races by value change, without debug registers -*- C++ -*-===//
//
// With detect_races, some of the tracer's samples become race checks
// (DataCollider's and KCSAN's method, with pcmap's tables deciding what is
// atomic): the instruction the sampled thread is about to run is decoded
// (core/access.h); if it is a plain load or store of at most 8 bytes in a
// covered function (the tables answer NO at its PC: never an atomic, never
// code without tables), the location is read (a failed read ends the
// check, never the process), the thread waits race_delay_us in its handler,
// and the location is read again. A change is a data race: another thread
// wrote the location while this one was about to access it, and nothing
// can order that write before the access, since the stopped thread can
// synchronize with no one while it waits. Meanwhile the location is
// published in a small watch table (soft watchpoints): another thread's
// check of an overlapping location, one of the two a write, reports both
// sides. Each race is kept once per pair of sites, counted, and reported
// at exit in the sanitizers' form.
//
// docs/Races.md is the user's view; docs/design/Runtime.md, "Races", the
// limits.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_RT_RACE_H
#define PCMAP_RT_RACE_H

#include "core/writer.h"
#include "optional/symbolizer.h"

#include <stdint.h>

namespace pcmap {
namespace rt {

/// Checks the access the thread of signal Context is about to make at PC,
/// whose call stack (innermost first, PC first) is Frames[0..Depth); its
/// own stack is [StackLo, StackHi) (never checked: no other thread writes
/// it). Async-signal-safe, bounded in time (race_delay_us) and stack.
void checkForRace(const void *Context, uintptr_t PC, const uintptr_t *Frames,
                  unsigned Depth, uintptr_t StackLo, uintptr_t StackHi);

/// Maps the race tables (before any check); false if there is no memory.
bool prepareRaceDetector();
/// Forgets the parent's races (in a forked child).
void resetRaceDetector();

/// The races found so far, in the sanitizers' form, and a summary line.
void writeTextRaces(Writer &W, Symbolizer &Sym);
/// The number of distinct races found so far.
uint64_t racesFound();

} // namespace rt
} // namespace pcmap

#endif // PCMAP_RT_RACE_H
