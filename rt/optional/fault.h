//===- fault.h - The fault reporter -----------------------------*- C++ -*-===//
//
// With handle_segv, handle_sigbus, handle_sigill or handle_sigtrap, the
// runtime reports those signals: signal, faulting address, PC, module and
// function, what the tables say about the PC (which atomic, or not atomic,
// or no metadata), then a stack trace, symbolized when a symbolizer is at
// hand. Then the signal takes the action it would have had without pcmap:
// the handler installed before pcmap's, or the default action, so that exit
// status and core dumps are unchanged.
//
// The first part of the report (up to the stack trace) uses async-signal-
// safe code only. The stack trace uses the unwinder and, to symbolize, the
// sanitizer runtime's symbolizer or an llvm-symbolizer process.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_RT_FAULT_H
#define PCMAP_RT_FAULT_H

#include <signal.h>

namespace pcmap {
namespace rt {

// It starts when the runtime does (Event::Initialize, platform/hooks.h),
// installing the handlers the options ask for.

/// Writes a stack trace of the calling context to the log, starting at the
/// frame whose PC is StartPC (0: the caller), at most Depth frames,
/// symbolized when possible. Not async-signal-safe in general (see above).
void printStackTrace(unsigned long StartPC, int Depth);

/// Hands the SIGTRAPs of the tracer's clock events that sample kernel mode
/// (isClockEventTrap) to Handler, the tracer's sampling handler; any other
/// SIGTRAP goes where it would without them (the fault report with
/// handle_sigtrap, the program's action otherwise). Installs the
/// runtime's SIGTRAP handler if the fault reporter has not, its action
/// hidden from the program as the faults' are. Not async-signal-safe.
void routeClockEventTraps(void (*Handler)(int, siginfo_t *, void *));

} // namespace rt
} // namespace pcmap

#endif // PCMAP_RT_FAULT_H
