//===- race.h - Data races by value change, without debug registers -*- C++
//-*-===//
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
// sides. Each race is kept once per pair of sites and counted; a service
// thread reports each new one soon after, in the sanitizers' form
// (race_report.cpp), and the exit report the rest and a summary.
//
// docs/Races.md is the user's view; docs/design/Runtime.md, "Races", the
// limits.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_RT_RACE_H
#define PCMAP_RT_RACE_H

#include "core/writer.h"
#include "optional/module_list.h"
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

/// Maps the race tables (before any check) and reads the suppressions
/// file (a file that cannot be read ends the process, with a message);
/// false if there is no memory.
bool prepareRaceDetector();
/// Forgets the parent's races (in a forked child).
void resetRaceDetector();

/// The races not reported yet, in the sanitizers' form (those the
/// suppressions match counted, not written), and the summary of every race
/// so far: at exit and at the tracer's dumps, under the writer lock.
void writeTextRaces(Writer &W, Symbolizer &Sym);

/// Lists in Modules the modules of the races' frames: before the dump's
/// "modules" are written.
void collectRaceModules(ModuleList &Modules);
/// The dump's race keys (pcmap/TraceDump.h, version 6), each after a comma.
void writeJSONRaces(Writer &W, ModuleList &Modules);

/// Whether Tid is the thread that reports races as they are found.
bool isRaceReporterThread(int Tid);

} // namespace rt
} // namespace pcmap

#endif // PCMAP_RT_RACE_H
