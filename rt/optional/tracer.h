//===- tracer.h - The atomic tracer -----------------------------*- C++ -*-===//
//
// With trace_atomics, every thread's PC is sampled trace_hz times per second
// of the thread's CPU time (a timer per thread on that thread's own CPU
// clock, delivering a real-time signal of the tracer's to that thread
// alone; the program never sees the signal: platform's reserveSignal). A
// sample is attributed to the atomic at its PC or, for sampling skid, to
// the nearest atomic that starts at most trace_skid bytes before it in the
// same function; and to the function holding it.
//
// Threads started with pthread_create get their timer as they start; a
// service thread finds the others by a scan of the process's threads. The
// recording in the signal handler is lock-free (open-addressing tables,
// atomic counters) in fixed memory; a full table counts the sample as
// dropped.
//
// A forked child starts afresh: new timers, empty tables, a run id of its
// own (the JSON names its parent's), so that its reports hold its own work.
// Dumps (trace_dump_signal, trace_dump_interval) are written by a service
// thread that blocks every signal and is never sampled; the dump signal's
// handler only wakes it. docs/design/Runtime.md, "The atomic tracer", has
// the rest.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_RT_TRACER_H
#define PCMAP_RT_TRACER_H

#include <stdint.h>

namespace pcmap {
namespace rt {

/// Starts sampling if trace_atomics is set. Called once at start-up.
void initTracer();

/// Why a report is written: at exit, on pcmap_trace_dump(), on the dump
/// signal, at the dump interval, or when a fatal signal ends the process.
enum class DumpReason { Exit, Api, Signal, Interval, Fatal };

/// Writes the report (report_format, report_path): the samples since the
/// process started, or since the fork that made it. Sampling stops for
/// good after an Exit or Fatal report.
void writeTraceReport(DumpReason Reason);

class Writer;
class Symbolizer;

/// Whether Tid is one of the tracer's service threads (never sampled).
bool isServiceThreadOfTracer(int Tid);

/// Writes a stack as the text report's caller chains do: "f a.c:1:2 < g
/// b.c:3:4 < libc.so.6+0x1234", innermost first.
void writeStackText(Writer &W, Symbolizer &Sym, const uintptr_t *Frames,
                    unsigned Depth);

/// The kind of wait (pcmap/TraceDump.h's kWaitKinds) a stack's functions
/// say, inlined frames included; null if none.
const char *stackWaitKind(Symbolizer &Sym, const uintptr_t *Frames,
                          unsigned Depth);

} // namespace rt
} // namespace pcmap

#endif // PCMAP_RT_TRACER_H
