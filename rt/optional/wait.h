//===- wait.h - Wait time: where threads block, and on what -----*- C++ -*-===//
//
// With trace_wait, a service thread of the tracer's observes, trace_wait_hz
// times per second of wall time, every thread of the process that is
// blocked in a system call, without touching it: no signal, no ptrace.
// /proc/self/task/TID/syscall gives the call, its arguments, the stack
// pointer and the PC of a thread that sleeps (the kernel reads them only
// while the thread is off its CPU); the thread's stack is walked from them
// with the call frame information, its memory copied with process_vm_readv
// (a stack unmapped meanwhile ends the walk, never the process), and the
// walk is kept only if /proc/self/task/TID/schedstat shows that the thread
// was not scheduled in meanwhile. A futex's first argument is the lock
// word: a glibc mutex's owner field names the thread that holds it, whose
// own stack (blocked, or its last tracer sample while it runs) is the
// critical section charged for the wait.
//
// Each observation stands for the wall time since the thread's previous
// one; at most kReadsPerPeriod threads are read in a period (round robin),
// so that a process with hundreds of blocked threads pays a bounded cost.
// docs/Tracer.md, "Wait time", is the user's view; docs/design/Runtime.md
// what is read and the limits.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_RT_WAIT_H
#define PCMAP_RT_WAIT_H

#include "core/writer.h"
#include "optional/module_list.h"
#include "optional/symbolizer.h"

#include <stdint.h>

namespace pcmap {
namespace rt {

/// Starts the wait sampler's thread if trace_wait is set (after the tracer
/// has started); a forked child calls it again after resetWaitSampler.
void startWaitSampler();
/// Forgets the parent's threads, rows and stacks (in a forked child, whose
/// only thread is the one that forked).
void resetWaitSampler();
/// Stops the sampler for good (the final report is being written).
void stopWaitSampler();
/// Whether Tid is the wait sampler's own thread (the tracer samples it not).
bool isWaitSamplerThread(int Tid);

/// The tracer's handler notes where thread Tid's last sample's stack went
/// (its slot in Stacks), so that a lock held by a running thread is
/// charged to what it ran. Async-signal-safe, lock-free.
void noteSampledStack(int Tid, int Slot);
/// The stack table of the tracer's samples, for those notes.
class StackTable;
void setSampledStacks(const StackTable *Stacks);

/// Lists in Modules the modules of the wait stacks and lock words: before
/// the dump's "modules" are written.
void collectWaitModules(ModuleList &Modules);
/// The dump's wait keys (pcmap/TraceDump.h, version 5), each after a comma.
void writeJSONWaits(Writer &W, ModuleList &Modules);
/// The text report's wait table: the Top objects by wait time, each with
/// its kind, waiters and holders. Nothing if trace_wait is off.
void writeTextWaits(Writer &W, Symbolizer &Sym, unsigned Top);

} // namespace rt
} // namespace pcmap

#endif // PCMAP_RT_WAIT_H
