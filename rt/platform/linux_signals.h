//===- platform/linux_signals.h - The C library's signal calls -*- C++ -*-===//
//
// Private to platform/: the runtime's own calls of the signal functions that
// linux_signals.cpp intercepts. They go to the definition the program's
// calls would reach (a sanitizer's interceptor, or the C library's), never
// through pcmap's interceptors, which would take the runtime's own masks and
// handlers for the program's.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_RT_PLATFORM_LINUX_SIGNALS_H
#define PCMAP_RT_PLATFORM_LINUX_SIGNALS_H

#include <signal.h>
#include <time.h>

namespace pcmap {
namespace rt {

int callSigaction(int Signal, const struct sigaction *Action,
                  struct sigaction *Old);
int callPthreadSigmask(int How, const sigset_t *Set, sigset_t *Old);
int callSigwaitinfo(const sigset_t *Set, siginfo_t *Info);
int callSigtimedwait(const sigset_t *Set, siginfo_t *Info,
                     const struct timespec *Timeout);

} // namespace rt
} // namespace pcmap

#endif // PCMAP_RT_PLATFORM_LINUX_SIGNALS_H
