//===- platform.h - The only place the runtime calls the OS ---*- C++ -*-===//
//
// Everything here is for writers (registration) except where noted. The
// definitions are in platform/: one file per OS (linux.cpp) and one per OS
// and architecture (linux_x86_64.cpp, linux_aarch64.cpp); no other runtime
// file makes a system call, reads a signal context or parses a kernel
// structure.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_RT_PLATFORM_H
#define PCMAP_RT_PLATFORM_H

#include <link.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>

/// The runtime's small mutable state that every process touches at
/// start-up (options, the registry's counts, the fault reporter's saved
/// actions): kept together in .data, on pages the loader has mostly touched
/// already, rather than in .bss between the large tables, where each of
/// them would cost a page fault of its own (some microseconds each, more in
/// a virtual machine: docs/design/Runtime.md, "Start-up"). Zero-initialised
/// variables only; what only a service that runs later touches stays in
/// .bss.
#define PCMAP_STARTUP_STATE __attribute__((section(".data.pcmap_startup")))

/// The runtime's functions that every process runs at start-up (options,
/// initialisation, registration before the first query) and at exit (the
/// exit hooks of services that are off), kept together in
/// the code, as GCC keeps constructors (.text.startup, which the GNU
/// linker places first), so that start-up maps a page or two of the
/// runtime's code rather than one in each of its files.
#define PCMAP_STARTUP_CODE __attribute__((section(".text.startup.pcmap")))

namespace pcmap {
namespace rt {

/// Reserves Size bytes of zero-filled, readable and writable address space
/// that is only backed by memory once written. Returns null on failure.
void *reserveAddressSpace(size_t Size);
/// Returns a region of reserveAddressSpace to the system. Async-signal-safe.
void releaseAddressSpace(void *Begin, size_t Size);
/// Reserves Size bytes of zero-filled address space that is readable but
/// not writable: it takes no memory and, even under strict overcommit
/// (vm.overcommit_memory=2), no commit charge. commitPages makes parts of it
/// writable as they are needed. Returns null on failure.
void *reserveReadOnly(size_t Size);
/// Makes [Begin, Begin + Size) of a reserveReadOnly region writable (and
/// charged, under strict overcommit). False if the system refuses.
bool commitPages(void *Begin, size_t Size);
/// The process's address-space limit (RLIMIT_AS) in bytes, 0 if none.
uint64_t addressSpaceLimit();
/// Gives the pages of [Begin, Begin + Size) back to the system; they read as
/// zero afterwards and stay mapped.
void releasePages(void *Begin, size_t Size);
/// Asks for transparent huge pages in [Begin, Begin + Size) (a hint).
void adviseHugePages(void *Begin, size_t Size);

/// Writes to a file descriptor, retrying on EINTR and short writes.
/// Async-signal-safe.
void writeAll(int Fd, const char *Data, size_t Size);
/// Which file a descriptor is, and whether a write could overwrite data in
/// it (a regular file not opened for appending). Async-signal-safe.
struct DescriptorIdentity {
  bool Open = false;
  bool OverwritesData = false;
  uint64_t Device = 0, Inode = 0;
};
DescriptorIdentity identifyDescriptor(int Fd);
inline void writeStderr(const char *Data, size_t Size) {
  writeAll(2, Data, Size);
}

/// Opens a file the runtime writes (log_path, report_path) for appending:
/// created with mode 0600 if it does not exist, never truncated, never
/// through a symbolic link in its last component, close-on-exec, and only if
/// it is a regular file (a FIFO or a device planted under that name is
/// refused without blocking). -1 on failure.
int openOutputFile(const char *Path);
int currentProcessId();

/// Value of an environment variable, or null. Not for signal handlers.
const char *getEnv(const char *Name);

/// True if the kernel marked the process secure (AT_SECURE in the auxiliary
/// vector: setuid, setgid, file capabilities, an LSM transition). Its
/// environment then belongs to a less privileged caller.
bool isSecureProcess();

/// True if Path is an absolute path to a regular executable file that only
/// root can change: the file and every directory on the way to it, before
/// and after resolving symbolic links, are owned by root and writable by
/// neither group nor others.
bool isRootOwnedExecutable(const char *Path);

/// Writer-side mutual exclusion (a pthread mutex, statically initialised so
/// that it works before any constructor has run; fork() takes it, so that a
/// child never inherits it held by another thread).
///
/// The fork handlers (pthread_atfork) that take it, and that announce
/// Event::ForkChild, are installed once, where they are first needed:
/// - by the first lockWriters while the process may have another thread
///   (a process that is still single-threaded cannot fork while another
///   thread holds the lock: there is none);
/// - by the pthread_create interceptor, so that a lock taken later in a
///   signal handler (lockWritersUnlessHeldHere, for the first query), which
///   installs none (pthread_atfork allocates), finds them installed; only
///   threads started past it (a raw clone) can leave that first query's
///   lock unprotected from a fork in another thread;
/// - by whatever subscribes to Event::ForkChild (ensureForkHandlers).
/// A process that registers its sections and exits single-threaded, most
/// short-lived programs, never installs them (libc's fork-handler list
/// costs a new process two page faults).
void lockWriters();
void unlockWriters();
/// Takes the writer lock if it is free; for a fault handler, which must not
/// wait for a lock the faulting thread may hold.
bool tryLockWriters();
/// Takes the writer lock, waiting for another thread that holds it; false,
/// without it, when the calling thread holds it already (a signal handler
/// that interrupted that thread's update). For work that a query does once,
/// possibly in a signal handler.
bool lockWritersUnlessHeldHere();
/// Installs the fork handlers (see lockWriters) if they are not yet: for
/// code that needs Event::ForkChild. Not async-signal-safe.
void ensureForkHandlers();

/// Announces Event::Exit (platform/hooks.h) when the process exits: an
/// atexit handler, registered once by the core's initialisation.
void announceExitAtExit();
/// The parent's process id.
int parentProcessId();
/// 64 random bits from the kernel (getrandom), or from the clock and the
/// process id when it has none to give. Async-signal-safe.
uint64_t randomBits();
/// The CPU time (user and system) the process has used, in nanoseconds.
/// Async-signal-safe.
uint64_t processCPUNanos();
/// The CPU time the calling thread has used, in nanoseconds.
/// Async-signal-safe.
uint64_t threadCPUNanos();
/// The monotonic clock, in nanoseconds. Async-signal-safe.
uint64_t monotonicNanos();
/// The context switches of the calling thread so far: those where it
/// blocked (voluntary) and those where the scheduler preempted it.
struct ContextSwitches {
  uint64_t Voluntary, Involuntary;
};
/// Async-signal-safe; zeros where the kernel does not say.
ContextSwitches threadContextSwitches();
/// The CPU time the calling thread has spent in the kernel, in
/// nanoseconds, as the kernel accounts it: its clock tick finds the thread
/// in user or in kernel mode, and the thread's precise CPU time is split in
/// that proportion (never decreasing). A tick that found it in the kernel
/// adds about a tick's time; one that found it in user mode, next to
/// nothing. Async-signal-safe.
uint64_t threadSystemNanos();
/// Starts a detached thread running Fn(Arg) with every signal blocked (it
/// never runs a handler of the program's or the runtime's). False if it
/// cannot be started. The C library then takes the process for a
/// multi-threaded one for good (its locks, its cancellable system calls,
/// libstdc++'s reference counts all turn atomic), so a layer starts one
/// only where it must: see Event::ThreadCreate.
bool startServiceThread(void *(*Fn)(void *), void *Arg);
/// Whether the process may have a thread besides the calling one: false
/// only while the C library (glibc 2.32 and later) says it has one thread.
/// Async-signal-safe (one byte read).
bool mayHaveOtherThreads();
/// Whether the program's threads may start without Event::ThreadStart and
/// Event::ThreadCreate: a sanitizer's pthread_create interceptor is in the
/// program, and starts them past this runtime's, or the program's calls do
/// not bind to this runtime's (it came with dlopen). Not async-signal-safe.
bool threadStartsMayBeUnseen();
/// Puts the calling thread in the kernel's batch scheduling class
/// (SCHED_BATCH). Its wake-ups never preempt a running thread of the
/// program's (one that holds a spinlock, say): it waits for the next
/// scheduler tick or for a CPU to fall idle. Yet it keeps a normal
/// thread's share of the CPU, so that on a fully loaded machine it still
/// runs within a scheduling period (the idle class, SCHED_IDLE, gets about
/// 0.3 % of a loaded CPU, and a thread in it may wait for a second or
/// more). False if the kernel refuses.
bool setCurrentThreadBackground();
/// A pipe whose ends are close-on-exec and whose write end does not block.
bool makeWakeupPipe(int (&Fds)[2]);

/// A loaded object as the dynamic loader describes it.
struct LoadedObject {
  static constexpr unsigned kMaxSegments = 16;
  uintptr_t Bias = 0;
  /// Executable PT_LOAD segments, [Begin, End).
  uintptr_t SegmentBegin[kMaxSegments];
  uintptr_t SegmentEnd[kMaxSegments];
  unsigned NumSegments = 0;
  /// The object's first mapped address: identifies it while it is loaded.
  uintptr_t Key = 0;
  char Path[512];
  /// Its GNU build ID (NT_GNU_BUILD_ID), BuildIdSize bytes; 0: none.
  uint8_t BuildId[32];
  unsigned BuildIdSize = 0;
};

/// Finds the loaded object one of whose PT_LOAD segments contains Address.
bool findLoadedObject(uintptr_t Address, LoadedObject &Out);

/// A loaded object's program headers, as the dynamic loader lists them.
struct ObjectHeaders {
  uintptr_t Bias;
  const ElfW(Phdr) * Phdrs;
  unsigned NumPhdrs;
  /// The loader's copy of the object's name ("" for the executable): with
  /// Key and Phdrs, it tells one load of an object from the next.
  const char *Name;
  /// The object's first mapped address: identifies it while it is loaded.
  uintptr_t Key;
  /// The calling thread's copy of the object's PT_TLS block, where the
  /// walker knows it (forEachLoadedObject); null otherwise.
  const void *TlsData;
};
/// The one walker of loaded objects: calls Visit for each until it returns
/// true.
void forEachLoadedObject(bool (*Visit)(const ObjectHeaders &, void *),
                         void *Data);
/// The file of a loaded object (the executable's as execve was given it,
/// made absolute, or through /proc/self/exe where that name would not do),
/// NUL-terminated in Path; the length, 0 if unknown.
size_t objectFilePath(const ObjectHeaders &O, char *Path, size_t Size);
/// Opens a file for reading (close-on-exec); -1 on failure.
int openForReading(const char *Path);
/// Reads exactly Size bytes at Offset; false on an error or the file's end.
bool readFileAt(int Fd, void *Buffer, size_t Size, uint64_t Offset);

//===----------------------------------------------------------------------===//
// Async-signal-safe services for the fault reporter and the tracer: system
// calls only, no locks, no allocation.
//===----------------------------------------------------------------------===//

/// The file mapped at Address (from /proc/self/maps) and the load bias of
/// the ELF object in it (read from its mapped headers). False for anonymous
/// memory or when /proc is not mounted.
bool findMapping(uintptr_t Address, char *Path, size_t PathSize,
                 uintptr_t &Bias);

/// A mapping of /proc/self/maps: [Begin, End), the file offset and inode
/// of its start, whether it is shared (MAP_SHARED), and its path ("" for
/// anonymous memory) at Paths + PathOffset.
struct MappingInfo {
  uintptr_t Begin, End;
  uint64_t Offset, Inode;
  uint32_t PathOffset;
  bool Shared;
};
/// Reads up to Max mappings, in address order, their paths into Paths
/// (PathsSize bytes; a path that does not fit is cut); how many were read,
/// 0 if /proc is not mounted.
unsigned readMappings(MappingInfo *Out, unsigned Max, char *Paths,
                      size_t PathsSize);
/// The mapping that holds Address, its path into Path (PathSize bytes, cut
/// to fit; "" for anonymous memory); false if no mapping does or /proc is
/// not mounted.
bool mappingAt(uintptr_t Address, MappingInfo &Out, char *Path,
               size_t PathSize);

int currentThreadId();

/// The interrupted PC in a signal handler's context (the third argument of
/// an SA_SIGINFO handler).
uintptr_t signalContextPC(const void *Context);

/// The return address in a signal context where the CPU keeps it in a
/// register (AArch64's link register: valid inside a leaf function, such as
/// an outline-atomic helper); 0 where it is on the stack (x86-64).
uintptr_t signalContextReturnAddress(const void *Context);
/// The call instruction that a return address follows, where every call
/// has one length (AArch64's BL and BLR: 4 bytes); 0 elsewhere.
uintptr_t callSiteOfReturnAddress(uintptr_t ReturnAddress);
/// For writers: the length of the outline-atomic helper (Format.h) at Entry,
/// read from its code; 0 if the code there is not one, or the architecture
/// has none.
size_t outlineHelperSize(uintptr_t Entry);

/// The signal handlers the runtime installs (the fault reporter's, the
/// tracer's): every sigaction call of the runtime is here.
using SignalHandler = void (*)(int, siginfo_t *, void *);
/// Installs Handler for Signal with Flags (SA_SIGINFO is added) and an empty
/// mask; Previous, if not null, receives the action it replaces.
void installSignalHandler(int Signal, SignalHandler Handler, int Flags,
                          struct sigaction *Previous);
/// Installs a sampling handler (SA_SIGINFO | SA_RESTART) that no other
/// asynchronous signal interrupts: every signal but the synchronous ones
/// (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGSYS; SIGTRAP too, which the clock
/// events send) is blocked while it runs. A program's own profiler, whose
/// SIGPROF the kernel raises at the same tick as the sampler's timer, then
/// takes its sample after the handler returns, in the program's code and with
/// the program's mask, not inside the handler.
void installSamplingHandler(int Signal, SignalHandler Handler);
/// Installs a handler of a fault (SA_SIGINFO | Flags) that no asynchronous
/// signal interrupts: while it runs on the runtime's alternate stack, a
/// signal of the program's (a garbage collector's stop-the-world signal)
/// would run there too, on a stack the program does not know. The handler
/// unblocks them (maskSignalsForHandler) once it runs the program's handler
/// where the kernel would have, and blocks them again after
/// (blockAsynchronousSignals).
void installFaultSignalHandler(int Signal, SignalHandler Handler, int Flags,
                               struct sigaction *Previous);
/// Blocks every signal but the synchronous ones. Async-signal-safe.
void blockAsynchronousSignals();
/// Installs a handler without SA_SIGINFO.
void installSimpleSignalHandler(int Signal, void (*Handler)(int), int Flags);
/// A signal the program does not use, for the runtime's own (the tracer's
/// samples): the highest real-time signal below Below whose action is the
/// default one; 0 if there is none.
int unusedRealTimeSignal(int Below);
/// Makes Signal, for which the runtime installs Handler, its own: the
/// program's masks, waits and signal descriptors (sigprocmask,
/// pthread_sigmask, sigwait, sigwaitinfo, sigtimedwait, signalfd) leave it
/// out when they name every real-time signal, so that no thread blocks it
/// or takes it. A program that uses it (installs a handler for it with
/// sigaction or signal, or names it apart from the other real-time
/// signals) is given it: Owner runs once, before the program's call takes
/// effect, and the signal is the runtime's no more (linux_signals.cpp).
void reserveSignal(int Signal, SignalHandler Handler, void (*Owner)());
/// The reserved signal, 0 once the program took it (or none was reserved).
/// Async-signal-safe.
int reservedSignal();
/// While the tracer's clock events signal with SIGTRAP (sampling kernel
/// mode), a thread must never hold one pending, for a wait of the
/// program's to take: the program's masks that name every signal leave
/// SIGTRAP unblocked (the kernel unblocks it anyway for a trap the thread
/// causes), and its waits and signalfds on every signal leave it out. A
/// program that names SIGTRAP apart from the others (it uses SIGTRAP,
/// which another process sends) is given it: Owner runs once, before the
/// program's call takes effect, and the call goes through unchanged
/// (linux_signals.cpp).
void keepTrapUnblocked(void (*Owner)());
/// Keeps Handler, the runtime's, in force for Signal (a fault the
/// reporter takes first) while the program sees the action it set: its
/// sigaction and signal calls set and report a shadow action, as the
/// kernel would have (Previous, the action Handler replaced, at first),
/// and the kernel keeps Handler. The runtime's handler then takes the
/// program's action itself (programSignalAction). At most
/// kMaxHiddenSignals signals (linux_signals.cpp).
void hideSignalAction(int Signal, SignalHandler Handler,
                      const struct sigaction &Previous);
/// The action the program set for Signal, if its action is hidden (else
/// false). Async-signal-safe.
bool programSignalAction(int Signal, struct sigaction &Out);
/// Sets the action the program sees for a hidden Signal, as the kernel sets
/// a handler's for SA_RESETHAND. Async-signal-safe.
void setProgramSignalAction(int Signal, const struct sigaction &Action);
/// The action in force for Signal (the kernel's, not the program's view).
void currentSignalAction(int Signal, struct sigaction &Out);
/// Makes the default action Signal's again. Async-signal-safe.
void restoreDefaultAction(int Signal);
/// In a handler of Signal whose signal context is Context: blocks the
/// signals the kernel would block while running a handler installed with
/// Action (the interrupted code's mask, Action's sa_mask, and Signal unless
/// SA_NODEFER), so that a handler the runtime calls on is called as the
/// kernel would have called it. Async-signal-safe.
void maskSignalsForHandler(const void *Context, const struct sigaction &Action,
                           int Signal);
/// Unblocks Signals[0..Count) in the calling thread. Async-signal-safe.
void unblockSignals(const int *Signals, int Count);
/// Sends Signal to the calling thread; it is delivered when the current
/// handler returns.
void raiseInThisThread(int Signal);
/// Queues Signal to the calling thread with the kernel's own Info (a fault's
/// code and address), to be delivered when the current handler returns, so
/// that a fault's default action does not depend on the faulting
/// instruction faulting again. Falls back to raiseInThisThread.
/// Async-signal-safe.
void resendToThisThread(int Signal, const siginfo_t *Info);
/// The columns of the terminal Fd writes to; 0 if Fd is not a terminal.
unsigned terminalColumns(int Fd);
/// Sends Signal to thread Tid of the process. Async-signal-safe.
void signalThread(int Tid, int Signal);
/// Sleeps for about Ms milliseconds.
void sleepMilliseconds(int Ms);
/// Lets another thread run (sched_yield). Async-signal-safe.
void yieldThread();
/// Gives the calling thread an alternate signal stack (256 KiB, reserved)
/// unless it has one already; a thread's is given back when it exits. The
/// program does not see it: its sigaltstack calls report and set its own
/// (none at first), and a stack it sets replaces the runtime's in the
/// kernel until it removes it (linux_threads.cpp). Not async-signal-safe.
void ensureAlternateSignalStack();
/// Whether the thread's alternate signal stack in the kernel, if any, is
/// the program's own (not the runtime's hidden one): where the kernel would
/// have run a handler with SA_ONSTACK. Async-signal-safe.
bool programHasSignalStack();
/// Calls Fn(Arg) with the stack pointer at Top (the 16-byte-aligned end of
/// a stack the caller owns) and comes back to the caller's stack when Fn
/// returns. Its call frame information lets an unwinder (and a stack
/// trace) walk from Fn to the caller. Async-signal-safe.
void callOnStack(void *Top, void (*Fn)(void *), void *Arg);
/// While a handler runs on a stack of its own (callOnStack): makes
/// [Lo, Lo + Size) the thread's alternate signal stack, so that a signal
/// taken there is delivered below the stack pointer on that same stack
/// rather than at the top of the alternate stack the handler came from,
/// whose frames are still live. Old receives the setting it replaces, for
/// restoreSignalStack once the handler is back on its first stack. False
/// if the kernel refuses. Async-signal-safe.
bool useStackForSignals(void *Lo, size_t Size, stack_t &Old);
void restoreSignalStack(const stack_t &Old);
/// Sets the thread's alternate signal stack to New (SS_DISABLE: none); Old
/// receives the one it replaces. False if the kernel refuses (the thread
/// runs on it). Async-signal-safe.
bool replaceSignalStack(const stack_t &New, stack_t &Old);
/// The calling thread's alternate signal stack, [Lo, Lo + Size), and
/// whether it is running on it; false if it has none. Async-signal-safe.
bool currentSignalStack(uintptr_t &Lo, size_t &Size, bool &OnIt);
/// The highest address a handler may use on the stack a signal context
/// interrupted: below its stack pointer and the red zone the ABI keeps
/// there (128 bytes on x86-64, none on AArch64), 16-byte aligned.
uintptr_t signalContextStackTop(const void *Context);
/// The page size (from the auxiliary vector). Async-signal-safe.
uintptr_t pageSize();
/// Reserves Size bytes of stack with a guard page below it: its lowest
/// usable byte, or null. Async-signal-safe (mmap and mprotect): the fault
/// reporter reserves its report stack in the first report.
void *reserveStack(size_t Size);
/// The calling thread's stack, [Lo, Hi) (for the main thread, down to its
/// size limit). Not async-signal-safe.
bool currentThreadStack(uintptr_t &Lo, uintptr_t &Hi);
/// The main thread's stack, [Lo, Hi), down to its size limit, found from
/// the auxiliary vector and the stack's mapping (three system calls, no
/// file). False where the mapping is not laid out as the kernel lays it
/// out, or the stack has no size limit. Async-signal-safe: the fault
/// reporter asks in its report, so that no process pays at start-up.
bool mainThreadStack(uintptr_t &Lo, uintptr_t &Hi);
/// Whether the calling thread is the process's main thread (its thread id
/// is the process id). Async-signal-safe.
bool isMainThread();
/// The bounds of the first accessible mapping that ends above SP
/// (/proc/self/maps): a thread's stack, whether SP is in it or in the guard
/// page below it, where an overflowing frame left it. False if none.
/// Async-signal-safe.
bool stackMappingAt(uintptr_t SP, uintptr_t &Begin, uintptr_t &End);
/// The calling thread's name (/proc/thread-self/comm), NUL-terminated;
/// its length, 0 if unknown. Async-signal-safe.
size_t currentThreadName(char *Name, size_t Size);
/// The stack pointer in a signal handler's context.
uintptr_t signalContextSP(const void *Context);

/// The frame pointer in a signal handler's context (x86-64's RBP,
/// AArch64's X29). A frame record there holds the caller's frame pointer
/// and, one word above it, the return address.
uintptr_t signalContextFP(const void *Context);
/// Whether the instruction just before ReturnAddress is a call (x86-64: a
/// direct or indirect CALL; AArch64: BL or BLR), reading only code bytes at
/// or after Floor (the start of the function that holds the call, known to
/// be mapped). A check for return addresses found by scanning a stack.
/// Async-signal-safe.
bool followsCall(uintptr_t ReturnAddress, uintptr_t Floor);
/// Whether the instruction just before PC is a system call (x86-64:
/// SYSCALL; AArch64: SVC #0): where a signal that came while the thread was
/// in the kernel for a system call finds it. Reads only PC's own page.
/// Async-signal-safe.
bool followsSystemCall(uintptr_t PC);
/// Whether the instruction at PC is a system call instruction: where a
/// thread resumes whose call the kernel restarts after the signal's handler
/// (SA_RESTART: the kernel moves the PC back to the instruction and gives
/// the call's number and arguments back to their registers), or one about
/// to make a call. Reads only PC's own page. Async-signal-safe.
bool atSystemCall(uintptr_t PC);
/// The futex word of a FUTEX_WAIT the thread of signal Context is in, and
/// the system call instruction in CallPC; 0 if it is in no such wait or it
/// cannot be told. Two cases:
/// - The wait returned (the call ends at the PC: a signal that came during
///   the wait finds the thread there). x86-64: the SYSCALL right after MOV
///   $SYS_futex, %EAX (glibc's futex wrappers), whose first argument, the
///   word, RDI still holds (SYSCALL keeps every register but RAX, RCX and
///   R11), with a wait's operation in RSI and a wait's result in RAX.
///   (Code is not decoded backward: an instruction whose last bytes read
///   as the move, right before the set-up, would pass for it; the
///   operation's and the result's checks stand behind it.) AArch64: never
///   (the result overwrites X0, the word).
/// - The wait is restarted (atSystemCall: the signal came before the
///   thread slept, an untimed wait's usual case) or about to be made: the
///   call's number and arguments are in their registers (x86-64: RAX 202,
///   RDI, RSI; AArch64: X8 98, X0, X1), whatever wrapper set them.
/// The kernel's time in the call was the wait's. Reads only PC's own page.
/// Async-signal-safe.
uintptr_t futexWaitWordAtSignalContext(const void *Context, uintptr_t &CallPC);
/// The return address of a function interrupted before it linked its
/// frame record or after it unlinked it (at its first instruction, before
/// or between x86-64's PUSH RBP and MOV RBP, RSP, at a RET), where a
/// frame-pointer walk would skip its caller; 0 elsewhere. The function that
/// holds the interrupted PC is [FunctionStart, + FunctionSize) (mapped
/// code). Async-signal-safe.
uintptr_t unlinkedReturnAddress(const void *Context, uintptr_t FunctionStart,
                                size_t FunctionSize);
/// Whether the page holding Address is mapped (mincore). Async-signal-safe.
bool pageIsMapped(uintptr_t Address);
/// Copies up to Size bytes of the process's memory at Address into Buffer
/// without faulting: stops at the first byte that cannot be read (an
/// unmapped or unreadable page, execute-only code). Returns how many were
/// copied. Async-signal-safe (process_vm_readv on the process itself; where
/// a sandbox forbids it, the mapped pages are read directly).
size_t copyMemorySafely(uintptr_t Address, void *Buffer, size_t Size);
/// The base of the calling thread's FS or GS segment (x86-64), 0 if not
/// known or not x86-64. Async-signal-safe.
uintptr_t threadSegmentBase(bool GS);

//===----------------------------------------------------------------------===//
// Unwinding (optional/unwind.h): the registers DWARF numbers and where the
// loader keeps each object's call frame index. Async-signal-safe.
//===----------------------------------------------------------------------===//

#if defined(__x86_64__)
/// DWARF's x86-64 numbering: RAX..R15 are 0..15 (RBP 6, RSP 7), and the
/// return address column is 16.
constexpr unsigned kDwarfRegisters = 17;
constexpr unsigned kDwarfSP = 7, kDwarfFP = 6, kDwarfReturnColumn = 16;
constexpr bool kDwarfHasSignedReturnAddresses = false;
#elif defined(__aarch64__)
/// DWARF's AArch64 numbering: X0..X30 are 0..30 (X29 the frame pointer, X30
/// the link register and return address column), SP 31.
constexpr unsigned kDwarfRegisters = 32;
constexpr unsigned kDwarfSP = 31, kDwarfFP = 29, kDwarfReturnColumn = 30;
constexpr bool kDwarfHasSignedReturnAddresses = true;
#else
#error "pcmap's runtime knows x86-64 and AArch64"
#endif
/// The interrupted thread's general registers, by DWARF number, into
/// Regs[0..kDwarfRegisters); x86-64's return address column holds the PC.
void signalContextRegisters(const void *Context, uintptr_t *Regs);
/// A return address without its pointer authentication code (AArch64's
/// PAC: the bits above the virtual address); unchanged elsewhere.
uintptr_t stripPointerAuthentication(uintptr_t ReturnAddress);
/// The .eh_frame_hdr (PT_GNU_EH_FRAME) of the loaded object whose code
/// holds PC: glibc's _dl_find_object, which takes no lock; otherwise (a
/// static executable's loader without it) the executable's and the vDSO's,
/// found once by noteUnwindIndexes. Null where none is known.
const uint8_t *unwindIndexFor(uintptr_t PC);
/// Where the return address is when PC, in code no call frame information
/// describes, is in a PLT stub (a jump through the GOT, which leaves the
/// stack and the callee-saved registers as the call left them: a static
/// executable's .iplt has no FDE): x86-64 at the stack pointer, AArch64 in
/// the link register. Reads only the instruction at PC. Async-signal-safe.
enum class StubReturn { None, AtStackPointer, InLinkRegister };
StubReturn pltStubAt(uintptr_t PC);
/// Finds the indexes unwindIndexFor falls back on. Not async-signal-safe;
/// run before a walk may need them (the tracer's start).
void noteUnwindIndexes();

/// A timer on thread Tid's own CPU clock (the clock pthread_getcpuclockid
/// gives: it advances only while that thread runs) that sends Signal with
/// the value Cookie to that thread. Returns its id, or -1. Async-signal-safe.
int createThreadCPUTimer(int Tid, int Signal, int Cookie);
/// A timer on the process's CPU clock (all its threads' CPU time) that
/// sends Signal with the value Cookie to thread Tid alone. -1 on failure.
int createProcessCPUTimer(int Tid, int Signal, int Cookie);
/// A sampler on thread Tid's own CPU time that is not held to the kernel's
/// clock tick: a perf software event on the thread's task clock, driven by
/// a high-resolution timer, that signals that thread after every Nanos
/// nanoseconds of its CPU time.
/// - User mode only (what perf_event_paranoid 2 allows an unprivileged
///   process): it sends Signal, and only for periods that end while the
///   thread runs in user mode (time in the kernel ends none: a CPU-time
///   timer reports it).
/// - Kernel mode too (Kernel: perf_event_paranoid at most 1, or
///   CAP_PERFMON): every period ends in a signal, a SIGTRAP (TRAP_PERF)
///   that the kernel sends on the thread's way back to user mode, where a
///   period that ended in a system call or a fault is charged, as perf
///   charges it. A signal queued while a call runs would make a call that
///   sleeps next fail with EINTR (one the kernel never restarts: nanosleep,
///   epoll_wait): this one never interrupts a call.
/// Its file descriptor is close-on-exec and placed high (clockEventBudget),
/// where a program's own descriptors rarely go; the program may still close
/// it (closefrom, dup2): closeClockEvent then leaves the descriptor alone.
struct ClockEvent {
  int Fd;      // -1: none
  uint64_t Id; // the kernel's id of the event, to know it again
};
/// Opens the event, disabled. False if the kernel or its settings refuse
/// (perf_event_paranoid 3, or above 1 for Kernel; seccomp, an emulator, a
/// kernel before 5.13 for Kernel) or no descriptor is left.
/// Async-signal-safe.
bool openThreadClockEvent(int Tid, int Signal, bool Kernel, ClockEvent &E);
/// Opens the process's clock event on the calling thread, disabled: a
/// task-clock event that samples kernel mode too, signals SIGTRAP every
/// Nanos of a thread's CPU time, and is copied into every thread the
/// calling thread (or a thread with a copy) starts after it. Two threads
/// with copies switch on one core at no cost to them (the kernel swaps the
/// copies), where two threads with events of their own have their timers
/// stopped and started at each switch (some 9 us on a virtual machine
/// whose timer is dear). A period may run on from one thread into the
/// next: a signal stands for one period of the process's CPU time, as a
/// sample of `perf record` does. Requires what openThreadClockEvent with
/// Kernel does. Async-signal-safe.
bool openProcessClockEvent(long Nanos, ClockEvent &E);
/// Blocks every signal in the calling thread; restoreSignals(Old) ends it.
/// Async-signal-safe.
void holdAllSignals(sigset_t &Old);
void restoreSignals(const sigset_t &Old);
/// Enables or disables the process's clock event and every copy of it.
void switchProcessClockEvent(const ClockEvent &E, bool On);
/// Whether this process may open clock events that sample kernel mode:
/// the kernel allows it, and no debugger traces the process (it would stop
/// the program at each of their SIGTRAPs). Not async-signal-safe.
bool kernelClockEventsAllowed();
/// Makes E signal every Nanos nanoseconds; 0 stops it.
void armClockEvent(const ClockEvent &E, long Nanos);
/// Closes E's descriptor if it is still E (the program may have closed it
/// and opened another file under its number).
void closeClockEvent(ClockEvent &E);
/// E's count: the nanoseconds of its thread's CPU time it has counted while
/// enabled. False if the descriptor is not E any more (then it is not read:
/// a read of the program's pipe or eventfd would take its data) or the
/// read fails. Unlike the thread's CPU clock (clock_gettime), this does not
/// bring the scheduler's account of the thread up to date, which ends its
/// time slice early when it ran out between ticks: a handler that read
/// that clock at each event signal made four threads sharing a core switch
/// twice as often. Async-signal-safe.
bool readClockEvent(const ClockEvent &E, uint64_t &Nanos);
/// How many clock events the process may hold: a share of the descriptors
/// its limit leaves above the first one the events take, so that a program
/// near its limit keeps its descriptors (its threads beyond the budget
/// are sampled at the tick).
unsigned clockEventBudget();
/// True if Info is a clock event's signal (not a timer's).
bool isClockEventSignal(const siginfo_t *Info);
/// True if Info is the SIGTRAP of a clock event that samples kernel mode
/// (a TRAP_PERF with the runtime's cookie), not one of the program's.
bool isClockEventTrap(const siginfo_t *Info);
/// True if Info is the SIGTRAP of the process's clock event
/// (openProcessClockEvent).
bool isProcessClockEventTrap(const siginfo_t *Info);
/// Waits until Signal, which the calling thread blocks, is pending, and
/// takes it: its value (the timer's cookie); -1 on an error.
int waitForSignal(int Signal);
/// Makes Timer fire every Nanos nanoseconds of CPU time, the first time
/// after FirstNanos (0: Nanos); Nanos 0 stops it.
void armTimer(int Timer, long Nanos, long FirstNanos = 0);
void deleteTimer(int Timer);
/// Opens /proc/self/task/TID/NAME for reading, close-on-exec, at a
/// descriptor number out of the program's way where the limit allows (as
/// clock events are); -1 if it cannot.
int openThreadProcFile(int Tid, const char *Name);
/// What /proc/self/fd names descriptor Fd ("pipe:[123]", a path), NUL-
/// terminated in Out; its length, 0 if not known.
size_t descriptorTarget(long Fd, char *Out, size_t Size);
/// Calls Visit with the id of every thread of the process (from
/// /proc/self/task). False if the threads cannot be listed.
bool forEachThread(void (*Visit)(int Tid, void *Data), void *Data);

/// Starts Path with Argv (null-terminated), its standard input and output
/// connected to pipes: ToChild is written by the caller, FromChild read.
/// The child gets an empty environment, /dev/null as its standard error and
/// no other descriptor of the program. It is started by a raw clone,
/// without fork handlers, so this works in a signal handler and in a
/// process whose locks are in any state; and through a go-between that is
/// the program's only child of the two, without an exit signal, so that
/// the program never sees them: no SIGCHLD, and its wait() and
/// waitpid(-1) reap neither (reapChild does; under qemu-user, which
/// emulates no other exit signal, the go-between is an ordinary child).
/// Returns the go-between's pid (killing it kills the child), or -1.
int spawnWithPipes(const char *Path, const char *const *Argv, int &ToChild,
                   int &FromChild);
/// Writes to a pipe whose reader may have exited: returns false (EPIPE)
/// instead of raising SIGPIPE, which would end the program with a signal
/// of pcmap's making. Async-signal-safe.
bool writeToPipe(int Fd, const char *Data, size_t Size);
/// Reads up to Size bytes, waiting at most TimeoutMs; returns the bytes
/// read, 0 at end of file, -1 on error or timeout.
long readWithTimeout(int Fd, char *Buffer, size_t Size, int TimeoutMs);
/// Waits until Fd is readable: 1 when it is, 0 after TimeoutMs milliseconds
/// (-1: no limit), -1 on an error.
int waitReadable(int Fd, int TimeoutMs);
/// Kills (SIGKILL) if Kill is set, then waits for the child of
/// spawnWithPipes. Keeps errno.
void reapChild(int Pid, bool Kill);
void closeFd(int Fd);
/// Reads the file Path into Buffer: the bytes read, -1 if it cannot be
/// opened or read, -2 if it holds more than Size bytes.
long readWholeFile(const char *Path, char *Buffer, size_t Size);
/// Flushes the C library's stdout and stderr (as the sanitizers do before
/// they end a process) and ends the process with Status at once: no exit
/// handler runs.
[[noreturn]] void exitProcessNow(int Status);
/// True if Path names an executable file.
bool isExecutable(const char *Path);

} // namespace rt
} // namespace pcmap

#endif // PCMAP_RT_PLATFORM_H
