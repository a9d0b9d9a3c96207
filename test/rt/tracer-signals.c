// The tracer samples with a real-time signal of its own, which the program
// never sees: programs that use SIGPROF themselves, or block every signal
// and take them with sigwaitinfo, sigtimedwait, sigwait or a signalfd,
// receive exactly the signals they would without the tracer, and are
// sampled meanwhile. A program that installs a handler for the tracer's
// signal gets it: the tracer moves to another signal and says so in one
// line. A program's masks (a SIGPROF handler that restores the mask it
// saved, a mask that names the tracer's signal) and dispositions (every
// signal reset to SIG_DFL) never stop it.
// Regression test: the tracer sampled with SIGPROF; a program with its own
// SIGPROF profiler received several times its signals, and was killed by
// the tracer's next one once it reset SIGPROF to the default action; a
// program that blocked every signal took the tracer's from its waits.
// Not under TSan (it delivers signals only when a thread enters its
// runtime) or qemu-user (whose CPU clocks include the emulator's work).
// UNSUPPORTED: sanitize-thread, emulator

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -O1 -pthread -fsanitize-metadata=all %S/Inputs/signal_users.c -o %t/prog

// RUN: env PCMAP_OPTIONS=trace_atomics=1 %run %t/prog prof-late 2>&1 | FileCheck %s --check-prefix=PROF
// RUN: env SIGNAL_USERS_EARLY=1 PCMAP_OPTIONS=trace_atomics=1 %run %t/prog prof-early 2>&1 | FileCheck %s --check-prefix=PROF
// PROF:      SIGPROFs as expected from CPU time: yes
// PROF-NEXT: done
// PROF-NEXT: pcmap: atomic tracer: [[#]] samples at 1000 Hz
// PROF-NEXT: pcmap: top [[#]] of [[#]] atomic sites by samples:
// PROF-NEXT: samples
// PROF-NEXT: {{ +[0-9]+ +[0-9.]+% +}}rmw add, 8 bytes, relaxed {{.*}} work_on_atomic+

// Every signal blocked. The sanitizers' interceptors of these calls win
// over pcmap's, which leave the tracer's signal out of the program's sets
// (docs/Tracer.md, "Limitations"): not there.
// RUN: %if !sanitizer %{ env PCMAP_OPTIONS=trace_atomics=1 %run %t/prog sigwaitinfo 2>&1 | FileCheck %s --check-prefix=WAIT %}
// RUN: %if !sanitizer %{ env PCMAP_OPTIONS=trace_atomics=1 %run %t/prog sigtimedwait 2>&1 | FileCheck %s --check-prefix=WAIT %}
// RUN: %if !sanitizer %{ env PCMAP_OPTIONS=trace_atomics=1 %run %t/prog sigwait 2>&1 | FileCheck %s --check-prefix=WAIT %}
// RUN: %if !sanitizer %{ env PCMAP_OPTIONS=trace_atomics=1 %run %t/prog signalfd 2>&1 | FileCheck %s --check-prefix=WAIT %}
// The shared runtime interposes them too.
// RUN: %clang -O1 -pthread %S/Inputs/signal_users.c -o %t/prog-shared %rt-shared-lib -Wl,-rpath,%rt-shared-dir
// RUN: %if !sanitizer %{ env PCMAP_OPTIONS=trace_atomics=1 %run %t/prog-shared sigwaitinfo 2>&1 | FileCheck %s --check-prefix=WAIT-SHARED %}
// WAIT-NOT:  unexpected signal
// WAIT:      unexpected signals: 0
// WAIT-NEXT: pcmap: atomic tracer: [[#]] samples at 1000 Hz
// WAIT-NEXT: pcmap: top [[#]] of [[#]] atomic sites by samples:
// WAIT-NEXT: samples
// WAIT-NEXT: {{ +[0-9]+ +[0-9.]+% +}}rmw add, 8 bytes, relaxed {{.*}} work_on_atomic+
// WAIT-SHARED-NOT: unexpected signal
// WAIT-SHARED:     unexpected signals: 0
// WAIT-SHARED:     pcmap: atomic tracer:

// The program takes the tracer's signal: one line, no timer signal reaches
// the program's handler, and the tracer samples on with another signal
// (400 ms of CPU time: more than the 200 before the move).
// RUN: %if !sanitizer %{ env PCMAP_OPTIONS=trace_atomics=1:trace_signal=50 %run %t/prog take 2>&1 | FileCheck %s --check-prefix=TAKE %}
// TAKE:      pcmap: the program installs a handler for signal 50, the atomic tracer's; the tracer samples with signal [[#]] from now on (trace_signal chooses one)
// TAKE-NEXT: own: 1, from a timer: 0
// TAKE-NEXT: pcmap: atomic tracer: {{[3-9][0-9][0-9]}} samples
// TAKE-NOT:  warning

// Regression test: a SIGPROF handler that restores its mask inside the
// tracer's handler (gperftools' profiler) named the tracer's signal, and
// the tracer stopped after a few samples. Masks and SIG_DFL leave the
// tracer sampling (500 ms: more than 300 samples), and the program sees
// the actions it set.
// RUN: %if !sanitizer %{ env PCMAP_OPTIONS=trace_atomics=1:trace_signal=50 %run %t/prog mask-restore 2>&1 | FileCheck %s --check-prefix=MASK %}
// MASK-NOT:  pcmap: {{.*}}signal 50
// MASK:      SIGPROFs: some
// MASK-NEXT: pcmap: atomic tracer: {{[3-9][0-9][0-9]}} samples
// RUN: %if !sanitizer %{ env PCMAP_OPTIONS=trace_atomics=1:trace_signal=50 %run %t/prog reset-all 2>&1 | FileCheck %s --check-prefix=RESET %}
// RESET-NOT:  pcmap: {{.*}}signal 50
// RESET:      real-time signals with an action: 0; 50 ignored: yes
// RESET-NEXT: pcmap: atomic tracer: {{[2-9][0-9][0-9]}} samples

// trace_signal must be a real-time signal the program leaves alone.
// RUN: env PCMAP_OPTIONS=trace_atomics=1:trace_signal=10 %run %t/prog prof-late 2>&1 | FileCheck %s --check-prefix=BAD
// BAD:     pcmap: warning: trace_signal=10 is not a real-time signal the program leaves alone (SIGRTMIN [[#]] to SIGRTMAX [[#]]); the atomic tracer is off
// BAD:     SIGPROFs as expected from CPU time: yes
// BAD-NOT: atomic tracer:
