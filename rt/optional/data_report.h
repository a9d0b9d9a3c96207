//===- data_report.h - The tracer's data: lines, names, sharing -*- C++ -*-===//
//
// The reports of the accesses the tracer's samples touched (data.h): where
// each address lies (a module's static data or TLS, a thread's stack, a
// shared mapping, the heap), written row by row into the JSON dump for
// pcmap-report trace, and, in the text report at exit, the hottest cache
// lines with their objects, members and sharing. Runs where the tracer's
// report runs (at exit, in a dump, after a fatal signal): system calls and
// the runtime's own memory only.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_RT_DATA_REPORT_H
#define PCMAP_RT_DATA_REPORT_H

#include "core/writer.h"
#include "optional/data.h"
#include "optional/module_list.h"
#include "optional/stacks.h"
#include "optional/symbolizer.h"

namespace pcmap {
namespace rt {

/// The sharing a line's accesses show (a set of these bits).
enum : unsigned {
  /// Two threads on non-overlapping bytes, at least one of them writing.
  kFalseSharing = 1,
  /// Two threads on overlapping bytes, at least one of them writing.
  kTrueSharing = 2,
};

/// One access of a line, for the verdict: its bytes [Offset, Offset +
/// Size) (a size not known counts as one byte), its thread, whether it
/// writes, and whether the bytes are on the thread's own stack (two
/// threads each on its own stack share nothing: a stack the C library
/// gave a thread that ended is given to the next).
struct LineAccess {
  uint32_t Offset, Size, Tid;
  bool Writes, OwnStack;
};
/// The sharing of a line's N accesses.
unsigned lineSharing(const LineAccess *Accesses, unsigned N);

/// Looks, at most once per second of the process's CPU time, at the
/// addresses of the rows recorded since the last look, while the program
/// still has them mapped, and notes what they are (DataTable::setHint): a
/// report at exit then names the heap pages the program has unmapped by
/// then. Run by the tracer's service thread; reads /proc/self/maps.
void noteDataRegions(DataTable &Table);
/// Forgets which rows were looked at (a forked child's table is new).
void resetDataRegions();

/// Maps the memory the data reports take; false if there is none (they
/// then write no data).
bool prepareDataReport();

/// Lists in Modules the modules the accesses' instructions and static data
/// lie in: before the dump's "modules" are written.
void collectDataModules(const DataTable &Table, ModuleList &Modules);

/// The dump's data keys (pcmap/TraceDump.h, version 4), each after a comma:
/// "line_size", "data_samples", "data_samples_dropped" and "accesses",
/// whose "stack" is the index of the stack of slot S of Stacks in the
/// dump's "stacks", where only slots that hold a stack are written.
void writeJSONAccesses(Writer &W, const DataTable &Table, ModuleList &Modules,
                       const StackTable &Stacks);

/// [module, "0xoffset"], as a dump writes a stack frame (module -1 and the
/// address itself outside every module).
void writeModuleAddress(Writer &W, ModuleList &Modules, uintptr_t Address);

/// The "region" of Address and its fields, each after a comma, as an
/// access's are written (a lock word's, for the wait rows); after
/// prepareDataReport.
void writeJSONAddressPlace(Writer &W, ModuleList &Modules, uintptr_t Address);
/// What the object at Address is called, as the text data table names a
/// member's object: `big_lock`, `heap`, `stack of thread N`, ...; after
/// prepareDataReport.
void writeAddressName(Writer &W, Symbolizer &Sym, ModuleList &Modules,
                      uintptr_t Address);

/// The text report's data table: the Top hottest cache lines, each with its
/// object, sharing and members (of Total samples).
void writeTextData(Writer &W, Symbolizer &Sym, const DataTable &Table,
                   uint64_t Total, unsigned Top);

} // namespace rt
} // namespace pcmap

#endif // PCMAP_RT_DATA_REPORT_H
