//===- tracer.h - The atomic tracer -----------------------------*- C++ -*-===//
//
// With trace_atomics, every thread's PC is sampled trace_hz times per second
// of the thread's CPU time (a CPU-time timer per thread, delivering SIGPROF
// to that thread). A sample is attributed to the atomic at its PC or, for
// sampling skid, to the nearest atomic that starts at most trace_skid bytes
// before it in the same function; and to the function holding it.
//
// Threads are found without intercepting thread creation: a process-wide
// CPU-time timer, at a tenth of the rate, interrupts whichever thread is
// running; a thread it finds without a timer gets one. The recording in the
// signal handler is lock-free (open-addressing tables, atomic counters) in
// fixed memory; a full table counts the sample as dropped.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_RT_TRACER_H
#define PCMAP_RT_TRACER_H

namespace pcmap {
namespace rt {

/// Starts sampling if trace_atomics is set. Called once at start-up.
void initTracer();

/// Stops the timers and writes the report (report_format, report_path).
/// Sampling resumes afterwards unless Final.
void writeTraceReport(bool Final = true);

} // namespace rt
} // namespace pcmap

#endif // PCMAP_RT_TRACER_H
