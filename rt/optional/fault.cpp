//===- fault.cpp - The fault reporter -------------------------------------===//

#include "optional/fault.h"

#include "core/log.h"
#include "core/options.h"
#include "core/outline.h"
#include "optional/describe.h"
#include "optional/symbolizer.h"
#include "platform/hooks.h"
#include "platform/platform.h"

#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <unwind.h>

// The unwinder: the runtime's private copy of libgcc's (rt/CMakeLists.txt),
// so that a program needs no libgcc_s.so for pcmap: loading it would cost
// every C process its start-up share (docs/design/Runtime.md, "Start-up").
#if PCMAP_PRIVATE_UNWINDER
extern "C" _Unwind_Reason_Code __pcmap_unwind_backtrace(_Unwind_Trace_Fn,
                                                        void *);
extern "C" _Unwind_Ptr __pcmap_unwind_get_ip_info(_Unwind_Context *, int *);
#define PCMAP_UNWIND_BACKTRACE __pcmap_unwind_backtrace
#define PCMAP_UNWIND_GET_IP_INFO __pcmap_unwind_get_ip_info
#else
#define PCMAP_UNWIND_BACKTRACE _Unwind_Backtrace
#define PCMAP_UNWIND_GET_IP_INFO _Unwind_GetIPInfo
#endif

namespace pcmap {
namespace rt {

namespace {

struct HandledSignal {
  int Signal;
  bool Options::*Enabled;
};
const HandledSignal Handled[] = {{SIGSEGV, &Options::handle_segv},
                                 {SIGBUS, &Options::handle_sigbus},
                                 {SIGILL, &Options::handle_sigill},
                                 {SIGTRAP, &Options::handle_sigtrap}};

constexpr unsigned kNumHandled = sizeof(Handled) / sizeof(Handled[0]);

/// The action the program set for Signal, one of Handled's, as the program
/// sees it (hideSignalAction: the one pcmap's handler replaced, or any the
/// program set since); the default one for any other. Async-signal-safe.
struct sigaction programAction(int Signal) {
  struct sigaction A;
  if (!programSignalAction(Signal, A)) {
    memset(&A, 0, sizeof(A));
    A.sa_handler = SIG_DFL;
  }
  return A;
}

/// The thread writing a report, or 0.
PCMAP_STARTUP_STATE int ReportingThread;

/// Whether threads get alternate stacks: unknown until the options are
/// read (threads started before then get one), then on or off.
enum { AltStacksUnknown, AltStacksOn, AltStacksOff };
PCMAP_STARTUP_STATE int AltStacks = AltStacksUnknown;

/// The calling thread's stack, [Lo, Hi), once its first report found it
/// (isStackOverflow). Initial-exec TLS, which a signal handler reads
/// without a call.
__thread uintptr_t ThreadStackLo __attribute__((tls_model("initial-exec")));
__thread uintptr_t ThreadStackHi __attribute__((tls_model("initial-exec")));

/// How far from a stack's end, or from the stack pointer, a fault may lie
/// and still be the stack overflowing: a frame, or a probe of one, that
/// did not fit.
constexpr uintptr_t kOverflowReach = 64 * 1024;

/// Whether a SIGSEGV at Address is the thread's stack overflowing: the
/// address is just beyond the end of the thread's stack (where it is
/// known), or else near the stack pointer and below it.
bool isStackOverflow(int Signal, const siginfo_t *Info, uintptr_t SP) {
  if (Signal != SIGSEGV || Info->si_code <= 0)
    return false;
  uintptr_t Address = uintptr_t(Info->si_addr);
  uintptr_t Lo = ThreadStackLo, Hi = ThreadStackHi;
  // Found here, in the thread's first report, not when it starts (a
  // thread's start costs no system call for it): the main thread's from
  // its layout, another's as the mapping that holds its stack pointer.
  if (!Hi && ((isMainThread() && mainThreadStack(Lo, Hi)) ||
              stackMappingAt(SP, Lo, Hi))) {
    ThreadStackLo = Lo;
    ThreadStackHi = Hi;
  }
  if (Hi)
    return Address + kOverflowReach >= Lo && Address < Lo + kOverflowReach &&
           SP < Lo + kOverflowReach;
  return Address + kOverflowReach >= SP && Address < SP + 256;
}

const char *signalName(int Signal) {
  switch (Signal) {
  case SIGSEGV:
    return "SIGSEGV";
  case SIGBUS:
    return "SIGBUS";
  case SIGILL:
    return "SIGILL";
  case SIGTRAP:
    return "SIGTRAP";
  case SIGABRT:
    return "SIGABRT";
  default:
    return "signal";
  }
}

/// TRAP_PERF (Linux 5.13): a perf event with sigtrap, e.g. a watchpoint.
constexpr int kTrapPerf = 6;

const char *codeMeaning(int Signal, int Code) {
  if (Code <= 0)
    return "sent by a process";
  switch (Signal) {
  case SIGSEGV:
    return Code == SEGV_MAPERR   ? "address not mapped"
           : Code == SEGV_ACCERR ? "permission denied"
                                 : "segmentation fault";
  case SIGBUS:
    return Code == BUS_ADRALN   ? "misaligned address"
           : Code == BUS_ADRERR ? "nonexistent physical address"
           : Code == BUS_OBJERR ? "object-specific hardware error"
                                : "bus error";
  case SIGILL:
    return Code == ILL_ILLOPC   ? "illegal opcode"
           : Code == ILL_ILLOPN ? "illegal operand"
           : Code == ILL_PRVOPC ? "privileged opcode"
                                : "illegal instruction";
  case SIGTRAP:
    return Code == TRAP_HWBKPT  ? "hardware breakpoint or watchpoint"
           : Code == TRAP_BRKPT ? "breakpoint"
           : Code == kTrapPerf  ? "perf event: breakpoint or watchpoint"
                                : "trap";
  default:
    return "";
  }
}

void emitLine(const char *S) {
  Message M;
  M << S;
  M.emit();
}

/// The report's first line: the signal, its cause, address, PC and thread.
void writeHeadline(int Signal, const siginfo_t *Info, uintptr_t PC,
                   const void *Context) {
  char Line[900];
  Text T(Line, sizeof(Line));
  T << "==" << uint64_t(currentProcessId()) << "== " << signalName(Signal)
    << " ("
    << (isStackOverflow(Signal, Info, signalContextSP(Context))
            ? "stack overflow"
            : codeMeaning(Signal, Info->si_code))
    << ")";
  bool HasAddress = Signal != SIGTRAP || Info->si_code == TRAP_HWBKPT ||
                    Info->si_code == kTrapPerf;
  if (Info->si_code > 0 && HasAddress) {
    T << " on address ";
    T.hex(uintptr_t(Info->si_addr));
  }
  T << " at pc ";
  T.hex(PC) << " in thread " << uint64_t(currentThreadId());
  char Name[32];
  if (currentThreadName(Name, sizeof(Name)))
    T << " (" << Name << ")";
  emitLine(Line);
}

void writeModuleLine(uintptr_t PC) {
  char Line[900], Path[512];
  uintptr_t Bias = 0;
  Text T(Line, sizeof(Line));
  T << "  module:   ";
  if (moduleOf(PC, Path, sizeof(Path), Bias)) {
    T << Path << "+";
    T.hex(PC - Bias);
  } else {
    T << "unknown";
  }
  emitLine(Line);
}

/// What the tables say about the faulting PC. A trap reports the PC after
/// the instruction of interest (After); inside an outline-atomic helper
/// whose caller is known, the report is about the call site: its function,
/// and the order the source asked for.
struct FaultSite {
  uintptr_t PC, Inside, At;
  bool After, Outline, HasFunction;
  pcmap_atomic Call, Helper;
  pcmap_function F;

  FaultSite(int Signal, uintptr_t PC, const void *Context) : PC(PC) {
    After = Signal == SIGTRAP;
    Inside = After ? PC - 1 : PC;
    Outline =
        !After &&
        lookupOutlineCallSite(PC, signalContextReturnAddress(Context), Call) &&
        pcmap_lookup_atomic(PC, &Helper);
    At = Outline ? Call.pc : PC;
    if (Outline) {
      F = Call.function;
      HasFunction = Call.has_function == 1;
    } else {
      HasFunction = pcmap_lookup_function(Inside, &F);
    }
  }
};

void writeFunctionLine(const FaultSite &S) {
  char Line[900];
  Text T(Line, sizeof(Line));
  T << "  function: ";
  if (!S.HasFunction) {
    T << "not covered by pcmap metadata";
    emitLine(Line);
    return;
  }
  const pcmap_function &F = S.F;
  T.hex(F.start) << "+";
  T.hex(S.At - F.start) << " (" << uint64_t(F.size) << " bytes, "
                        << uint64_t(F.num_atomics)
                        << (F.num_atomics == 1 ? " atomic" : " atomics");
  if (F.features & PCMAP_FEATURE_OPAQUE_ASM)
    T << ", atomics not recorded: inline asm pcmap cannot analyse";
  else if (!(F.features & PCMAP_FEATURE_ATOMICS))
    T << ", atomics not recorded";
  T << ")";
  char Path[512];
  uintptr_t Bias = 0;
  SymbolizedPC Name;
  Symbolizer Sym;
  if (moduleOf(F.start, Path, sizeof(Path), Bias) &&
      Sym.symbolize(F.start, Path, F.start - Bias, Name) && Name.Function[0])
    T << ": " << Name.Function;
  emitLine(Line);
}

void writeAtomicLine(const FaultSite &S) {
  char Line[900];
  Text T(Line, sizeof(Line));
  pcmap_atomic A;
  bool Found = S.After ? pcmap_lookup_atomic_before(S.PC, 15, &A)
                       : pcmap_lookup_atomic(S.PC, &A);
  const char *Origin =
      Found && (A.flags & PCMAP_ATOMIC_INLINE_ASM) ? " (inline asm)" : "";
  if (S.After)
    T << "  before pc: ";
  else
    T << "  atomic" << Origin << (*Origin ? ": " : ":   ");
  if (S.Outline) {
    describeAtomic(S.Call, T, /*WithOrigin=*/false);
    char Name[48];
    bool Named = outlineHelperName(S.Helper, Name, sizeof(Name));
    T << " (in " << (Named ? Name : "an outline-atomic helper")
      << ", called at ";
    T.hex(S.Call.pc) << ")";
  } else if (Found) {
    if (S.After) {
      T << "atomic" << Origin << " at ";
      T.hex(A.pc) << ", ";
    }
    describeAtomic(A, T, /*WithOrigin=*/false);
  } else if (pcmap_is_atomic_pc(S.Inside) != PCMAP_UNKNOWN) {
    T << "not atomic (covered)";
  } else if (S.HasFunction && (S.F.features & PCMAP_FEATURE_OPAQUE_ASM)) {
    T << "unknown (inline asm pcmap cannot analyse)";
  } else {
    T << "no pcmap metadata";
  }
  emitLine(Line);
}

/// Writes the signal-safe part of the report.
void reportFault(int Signal, siginfo_t *Info, uintptr_t PC,
                 const void *Context) {
  writeHeadline(Signal, Info, PC, Context);
  writeModuleLine(PC);
  FaultSite Site(Signal, PC, Context);
  writeFunctionLine(Site);
  writeAtomicLine(Site);
}

//===----------------------------------------------------------------------===//
// Stack traces
//===----------------------------------------------------------------------===//

constexpr int kMaxFrames = 256;

struct Frames {
  uintptr_t PC[kMaxFrames];
  bool Exact[kMaxFrames]; // the PC of a signal frame: not a return address
  int Count = 0;
};

_Unwind_Reason_Code collectFrame(_Unwind_Context *Ctx, void *Data) {
  auto *F = static_cast<Frames *>(Data);
  if (F->Count == kMaxFrames)
    return _URC_END_OF_STACK;
  int BeforeInsn = 0;
  uintptr_t PC = PCMAP_UNWIND_GET_IP_INFO(Ctx, &BeforeInsn);
  if (!PC)
    return _URC_END_OF_STACK;
  F->PC[F->Count] = PC;
  F->Exact[F->Count] = BeforeInsn != 0;
  ++F->Count;
  return _URC_NO_REASON;
}

/// Prints frames [First, First + Depth). The first frame's PC is the
/// interrupted instruction, or, if FirstIsAfter (a trap), the one after it.
void printFrames(const Frames &F, int First, int Depth,
                 bool FirstIsAfter = false) {
  Symbolizer Sym;
  bool Noted = false;
  for (int I = First, N = 0; I < F.Count && N < Depth; ++I) {
    uintptr_t PC = F.PC[I];
    // A return address points after the call: symbolize the call.
    uintptr_t Lookup = I == First   ? (FirstIsAfter ? PC - 1 : PC)
                       : F.Exact[I] ? PC
                                    : PC - 1;
    char Path[512];
    uintptr_t Bias = 0;
    bool HasModule = moduleOf(Lookup, Path, sizeof(Path), Bias);
    SymbolizedPC S;
    bool Named =
        Sym.symbolize(Lookup, HasModule ? Path : nullptr, Lookup - Bias, S);
    // A frame per inlined function, innermost first, as ASan prints them:
    // they share the PC and count against stack_depth.
    unsigned Inlined = Named && S.NumFrames ? S.NumFrames : 1;
    for (unsigned K = 0; K < Inlined && N < Depth; ++K, ++N) {
      char Line[1400];
      Text T(Line, sizeof(Line));
      T << "  #" << uint64_t(N) << " ";
      T.hex(PC);
      if (Named) {
        const SymbolizedFrame &Fr = S.Frames[K];
        bool One = !S.NumFrames;
        const char *Fn = One ? S.Function : Fr.Function;
        const char *Loc = One ? S.Location : Fr.Location;
        T << " in " << (Fn[0] ? Fn : "??");
        if (Loc[0])
          T << " " << Loc;
      }
      if (HasModule) {
        T << " (" << baseName(Path) << "+";
        T.hex(PC - Bias) << ")";
      }
      emitLine(Line);
    }
    if (!Named && !Noted && Flags.symbolize && Sym.problem()) {
      Noted = true;
      Message M;
      M << "  (not symbolized: " << Sym.problem() << ")";
      M.emit();
    }
  }
}

/// Whether the program's disposition of Signal (the one pcmap's replaced)
/// is a handler of its own.
bool programHandles(const struct sigaction &P) {
  return (P.sa_flags & SA_SIGINFO)
             ? P.sa_sigaction != nullptr
             : P.sa_handler != SIG_DFL && P.sa_handler != SIG_IGN;
}

/// Whether a handler is a sanitizer's: one that reports and ends the
/// process, so pcmap reports before it. A sanitizer (ASan, UBSan) installs
/// its handlers when its runtime starts, before any constructor, and its
/// code has no pcmap tables; a handler of the program's built with pcmap
/// has them.
bool isSanitizerHandler(const struct sigaction &P) {
  if (!haveSanitizerSymbolizer())
    return false;
  uintptr_t Handler = (P.sa_flags & SA_SIGINFO)
                          ? reinterpret_cast<uintptr_t>(P.sa_sigaction)
                          : reinterpret_cast<uintptr_t>(P.sa_handler);
  return pcmap_is_atomic_pc(Handler) == PCMAP_UNKNOWN;
}

/// What the signal would have done without pcmap. The program's handler is
/// called as the kernel would have called it: with its own mask and flags
/// (SA_NODEFER: the signal stays unblocked, for a nested fault the handler
/// expects; SA_RESETHAND: the disposition is the default from then on, so
/// that the repeated fault ends the process, reported; SA_ONSTACK or not:
/// on the alternate stack or the interrupted one), with or without
/// SA_SIGINFO's arguments.
struct HandlerCall {
  struct sigaction Action;
  int Signal;
  siginfo_t *Info;
  void *Context;
};

/// On the stack the handler runs on: its mask, as the kernel would have
/// set it, only there (pcmap's handler blocks every asynchronous signal
/// while it runs on pcmap's alternate stack, so that none of the program's
/// runs there: a garbage collector's stop-the-world handler took that stack
/// for the thread's and scanned the wrong memory), and blocked again after.
void callHandler(const HandlerCall &C) {
  maskSignalsForHandler(C.Context, C.Action, C.Signal);
  if (C.Action.sa_flags & SA_SIGINFO)
    C.Action.sa_sigaction(C.Signal, C.Info, C.Context);
  else
    C.Action.sa_handler(C.Signal);
  blockAsynchronousSignals();
}

/// While a handler without SA_ONSTACK runs on the interrupted stack
/// (callOnItsStack): the thread's alternate stack, which the handler's
/// call has turned off, and where that call's stack starts. Initial-exec
/// TLS, read in handlers.
__thread stack_t OffAlternateStack __attribute__((tls_model("initial-exec")));
__thread uintptr_t OffStackTop __attribute__((tls_model("initial-exec")));

/// The fault that the program's handler of it is handling on this thread,
/// while that handler runs (chain): a signal the handler raises (a crash
/// handler that resets the default action and raises the signal again) or
/// the abort() it calls (Boehm GC's handler of a fault outside its heap) is
/// reported as that fault, the crash's cause. Info and Context are the
/// kernel's, in the signal frame below the handler; Top is where the
/// handler's stack starts. Initial-exec TLS, read in handlers.
struct PendingFault {
  int Signal;
  siginfo_t *Info;
  void *Context;
  uintptr_t Top;
};
__thread PendingFault Pending __attribute__((tls_model("initial-exec")));

/// The last fault a program's handler returned from on this thread: a
/// handler that raised its signal again with the fault's signal blocked
/// (signal(), or sigaction without SA_NODEFER) gets it when it returns, at
/// the faulting instruction, and that signal is reported as the fault.
struct ReturnedFault {
  int Signal;
  uintptr_t PC;
  siginfo_t Info;
};
__thread ReturnedFault Returned __attribute__((tls_model("initial-exec")));

/// A handler's frames, at most (the bound of a nested signal's distance).
constexpr uintptr_t kMaxHandlerStackBytes = uintptr_t(8) << 20;

/// The fault pending on this thread, if the calling handler runs inside its
/// handler's call: below where that call's stack starts, on the same stack.
/// A handler that left by siglongjmp left Pending behind; a signal taken
/// after that runs above it, or on another stack.
const PendingFault *pendingFault() {
  uintptr_t Here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  if (!Pending.Signal || Here >= Pending.Top ||
      Pending.Top - Here > kMaxHandlerStackBytes)
    return nullptr;
  return &Pending;
}

/// On the interrupted stack: the handler, as the kernel would have run it.
/// Meanwhile the alternate stack is off, so that a signal the handler takes
/// (SA_NODEFER) is delivered below it on this stack, as without pcmap,
/// rather than at the top of the alternate stack, over the frames live
/// there (the kernel's signal frame, pcmap's). Turning it off is allowed
/// here: this is not on it.
void callHandlerOffAlternateStack(void *P) {
  const auto &C = *static_cast<HandlerCall *>(P);
  stack_t Off;
  Off.ss_sp = nullptr;
  Off.ss_size = 0;
  Off.ss_flags = SS_DISABLE;
  stack_t Old;
  bool Changed = replaceSignalStack(Off, Old);
  if (Changed) {
    OffAlternateStack = Old;
    __atomic_store_n(&OffStackTop, signalContextStackTop(C.Context),
                     __ATOMIC_RELAXED);
  }
  callHandler(C);
  if (Changed) {
    __atomic_store_n(&OffStackTop, uintptr_t(0), __ATOMIC_RELAXED);
    restoreSignalStack(Old);
  }
}

/// A handler that left by siglongjmp never came back to turn the alternate
/// stack on again: the next fault handler does, once the stack is above
/// where that handler's call started (a signal taken inside the handler is
/// below it). It runs on the interrupted stack then, so the change is
/// allowed.
void restoreAbandonedAlternateStack(const void *Context) {
  uintptr_t Top = __atomic_load_n(&OffStackTop, __ATOMIC_RELAXED);
  if (Top && signalContextSP(Context) > Top) {
    __atomic_store_n(&OffStackTop, uintptr_t(0), __ATOMIC_RELAXED);
    restoreSignalStack(OffAlternateStack);
  }
}

/// Calls the program's handler on the stack the kernel would have run it
/// on: the alternate stack (this one) with SA_ONSTACK, or when the
/// interrupted code was on it already; otherwise the interrupted stack.
void callOnItsStack(HandlerCall &C) {
  uintptr_t Lo;
  size_t Size;
  bool OnIt;
  PendingFault Outer = Pending;
  Pending = {C.Signal, C.Info, C.Context,
             reinterpret_cast<uintptr_t>(__builtin_frame_address(0))};
  // With SA_ONSTACK, on the program's alternate stack: the runtime's
  // hidden one is not (programHasSignalStack).
  bool OnProgramStack =
      (C.Action.sa_flags & SA_ONSTACK) && programHasSignalStack();
  if (OnProgramStack || !currentSignalStack(Lo, Size, OnIt) || !OnIt ||
      signalContextSP(C.Context) - Lo < Size) {
    callHandler(C);
  } else {
    Pending.Top = signalContextStackTop(C.Context);
    callOnStack(reinterpret_cast<void *>(Pending.Top),
                callHandlerOffAlternateStack, &C);
  }
  Pending = Outer;
  Returned.Signal = C.Signal;
  Returned.PC = signalContextPC(C.Context);
  memcpy(&Returned.Info, C.Info, sizeof(Returned.Info));
}

/// Makes Signal's default action follow when the handler returns. A sent
/// signal (or a trap, which does not recur) is sent again. A fault recurs
/// when its instruction runs again, unless the report mapped memory where
/// the fault's address was unmapped (the kernel gives a hole to the next
/// mapping at once): the program would then run on past its crash, so such
/// a fault is queued again with the kernel's own information. Only then:
/// qemu-user cannot deliver a queued fault (it asserts).
void takeDefaultAction(int Signal, const siginfo_t *Info) {
  restoreDefaultAction(Signal);
  if (Info->si_code <= 0 || Signal == SIGTRAP)
    raiseInThisThread(Signal);
  else if (Signal == SIGSEGV && Info->si_code == SEGV_MAPERR &&
           pageIsMapped(uintptr_t(Info->si_addr)))
    resendToThisThread(Signal, Info);
}

void chain(int Signal, siginfo_t *Info, void *Context) {
  struct sigaction P = programAction(Signal);
  if (programHandles(P)) {
    if (P.sa_flags & SA_RESETHAND) {
      struct sigaction Default;
      memset(&Default, 0, sizeof(Default));
      Default.sa_handler = SIG_DFL;
      setProgramSignalAction(Signal, Default);
    }
    HandlerCall C = {P, Signal, Info, Context};
    callOnItsStack(C);
    return;
  }
  if (P.sa_handler == SIG_IGN) {
    // A fault the program ignores kills it anyway (the kernel forces the
    // default action); a sent signal is ignored.
    if (Info->si_code <= 0)
      return;
  }
  takeDefaultAction(Signal, Info);
}

/// Where a fault inside the report returns to (one thread reports at a
/// time), and whether one is being written.
sigjmp_buf *ReportJump; // runReport's, in its frame: no static buffer
bool ReportInProgress;

/// The stack reports are written on: the unwinder, the symbolizer's
/// buffers and the report's lines take tens of KiB, more than a program's
/// alternate signal stack may have (SIGSTKSZ is 8 KiB), so the handler
/// itself only decides and chains, in a frame of a few hundred bytes, and
/// the report runs here. One thread reports at a time (ReportingThread).
/// Reserved when the reporter starts; backed by memory only where a report
/// touches it.
constexpr size_t kReportStackBytes = 256 * 1024;
PCMAP_STARTUP_STATE char *ReportStack;

/// ReportStack, reserved by the first report that needs it (with mmap and
/// mprotect, which a signal handler may call); null if it cannot be, and
/// the report then runs where the handler does. Called by the reporting
/// thread only (beginReport).
char *reportStack() {
  if (!ReportStack)
    ReportStack = static_cast<char *>(reserveStack(kReportStackBytes));
  return ReportStack;
}

/// The report: what faulted, then the stack. Not inlined, so that the
/// frame that sigsetjmp saved is not this one.
__attribute__((noinline)) void writeReport(int Signal, siginfo_t *Info,
                                           void *Context) {
  uintptr_t PC = signalContextPC(Context);
  reportFault(Signal, Info, PC, Context);
  if (Flags.stack_depth <= 0)
    return;
  emitLine("stack:");
  Frames F;
  PCMAP_UNWIND_BACKTRACE(collectFrame, &F);
  // Skip the frames of the handler: start at the interrupted PC.
  int First = 0;
  for (int I = 0; I < F.Count; ++I)
    if (F.PC[I] == PC) {
      First = I;
      break;
    }
  if (F.Count && F.PC[First] != PC) {
    // The unwinder did not cross the signal frame: print the PC alone.
    F.PC[0] = PC;
    F.Exact[0] = true;
    F.Count = 1;
    First = 0;
  }
  printFrames(F, First, Flags.stack_depth, Signal == SIGTRAP);
}

struct ReportRequest {
  int Signal; // the fault reported
  siginfo_t *Info;
  void *Context;
  // The signal whose action follows: the fault's, or one the program's
  // handler of the fault raised (Pending).
  int Follows;
  siginfo_t *FollowsInfo;
  bool OwnStack;          // running on ReportStack
  stack_t OldSignalStack; // the alternate stack to restore, if OwnStack
};

/// Writes the report and says what follows it; on ReportStack when there
/// is one. A fault inside the report (the unwinder reading a bad PC's code,
/// a stack of junk) ends the report, not the process: the nested handler
/// jumps back here, and the hand-over still happens.
void runReport(void *P) {
  auto &R = *static_cast<ReportRequest *>(P);
  // A nested fault is delivered on this stack, below the report's frames,
  // not at the top of the alternate stack the handler came from.
  if (R.OwnStack)
    R.OwnStack =
        useStackForSignals(ReportStack, kReportStackBytes, R.OldSignalStack);
  // And it is delivered: a handler that wraps pcmap's (TSan's) may have
  // blocked every signal. The mask is the signal frame's again when the
  // handler returns, or chain() sets the program's handler's.
  int FaultSignals[kNumHandled];
  int N = 0;
  for (const HandledSignal &H : Handled)
    FaultSignals[N++] = H.Signal;
  unblockSignals(FaultSignals, N);
  sigjmp_buf Jump;
  ReportJump = &Jump;
  if (sigsetjmp(Jump, /*savemask=*/0) == 0) {
    __atomic_store_n(&ReportInProgress, true, __ATOMIC_RELAXED);
    writeReport(R.Signal, R.Info, R.Context);
  } else {
    emitLine("  (the report itself faulted; it ends here)");
  }
  __atomic_store_n(&ReportInProgress, false, __ATOMIC_RELAXED);
  const struct sigaction Prev = programAction(R.Follows);
  bool Default = !(Prev.sa_flags & SA_SIGINFO) &&
                 (Prev.sa_handler == SIG_DFL || Prev.sa_handler == SIG_IGN);
  // The default action ends the process (an ignored fault too; an ignored
  // sent signal does not): the tracer's last report now, as no exit
  // handler will run.
  if (Default && (Prev.sa_handler == SIG_DFL || R.FollowsInfo->si_code > 0))
    announce(Event::Fatal);
  char Line[200];
  Text T(Line, sizeof(Line));
  T << "==" << uint64_t(currentProcessId()) << "== ";
  if (R.FollowsInfo != R.Info)
    T << "the program's handler of " << signalName(R.Signal)
      << (R.Follows == SIGABRT && R.FollowsInfo->si_code <= 0
              ? " called abort(); "
              : " raised it again; ");
  T << (Default ? "the default action of " : "the program's handler of ")
    << signalName(R.Follows) << " follows";
  emitLine(Line);
}

/// Takes the right to report (ReportingThread); false for a fault of the
/// reporting thread outside its report, which is not reported again. A
/// fault inside the report does not return (it ends the report).
bool beginReport() {
  int Self = currentThreadId();
  int Expected = 0;
  if (__atomic_compare_exchange_n(&ReportingThread, &Expected, Self, false,
                                  __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
    return true;
  if (Expected == Self) {
    // A fault in the reporter itself: end the report (runReport), or, past
    // it, take the default action.
    if (__atomic_load_n(&ReportInProgress, __ATOMIC_RELAXED))
      siglongjmp(*ReportJump, 1);
    return false;
  }
  // Another thread is reporting: wait (at most about ten seconds) so that
  // the reports do not interleave.
  for (int I = 0; I < 10000; ++I) {
    Expected = 0;
    if (__atomic_compare_exchange_n(&ReportingThread, &Expected, Self, false,
                                    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
      break;
    sleepMilliseconds(1);
  }
  return true;
}

/// Reports the fault Signal, or, for a signal the program's handler of a
/// fault raised (Pending), that fault, with the action of Signal after it.
void reportCrash(int Signal, siginfo_t *Info, void *Context) {
  if (!beginReport())
    return;
  ReportRequest R;
  R.Signal = Signal;
  R.Info = Info;
  R.Context = Context;
  R.Follows = Signal;
  R.FollowsInfo = Info;
  const PendingFault *F = pendingFault();
  if (F && Info->si_code <= 0) {
    R.Signal = F->Signal;
    R.Info = F->Info;
    R.Context = F->Context;
  } else if (Info->si_code <= 0 && Returned.Signal == Signal &&
             Returned.PC == signalContextPC(Context)) {
    R.Info = &Returned.Info;
    Returned.Signal = 0;
  }
  char *Stack = reportStack();
  R.OwnStack = Stack != nullptr;
  if (R.OwnStack) {
    callOnStack(Stack + kReportStackBytes, runReport, &R);
    if (R.OwnStack)
      restoreSignalStack(R.OldSignalStack);
  } else {
    runReport(&R);
  }
  __atomic_store_n(&ReportingThread, 0, __ATOMIC_RELEASE);
}

/// The handler of every fault signal. Its own frame is small (the report
/// runs on ReportStack), so it fits on any alternate stack the program
/// gives its threads, beside the kernel's signal frame.
/// Set while the calling thread's handler decides whose fault it has: a
/// fault there is pcmap's own (a first query that builds the tables from a
/// section the program has since protected), and deciding again would
/// fault again, down to the end of the alternate stack. Initial-exec TLS.
__thread bool Deciding __attribute__((tls_model("initial-exec")));

/// A fault in the handler's own decision: said, and the default action
/// taken at once (the faulting instruction, pcmap's, runs again and ends
/// the process).
__attribute__((noinline, cold)) void faultWhileDeciding(int Signal,
                                                        siginfo_t *Info) {
  Deciding = false;
  char Line[160];
  Text T(Line, sizeof(Line));
  T << "==" << uint64_t(currentProcessId()) << "== " << signalName(Signal)
    << " in the fault reporter's handler, before its report; the default "
       "action follows";
  emitLine(Line);
  takeDefaultAction(Signal, Info);
}

/// Whether the program's own handler takes the fault, unreported: a fault
/// the program handles is its business (a garbage collector's write
/// barrier, a JIT's guard page, a recovery with siglongjmp), not a crash,
/// and it must cost what it costs without pcmap. If the handler does not
/// repair it, the fault recurs; once the disposition is the default
/// (SA_RESETHAND), pcmap reports it.
bool programTakes(int Signal) {
  struct sigaction P = programAction(Signal);
  return programHandles(P) && !Flags.report_handled_faults &&
         !isSanitizerHandler(P);
}

void handleSignal(int Signal, siginfo_t *Info, void *Context) {
  int SavedErrno = errno;
  if (Deciding) {
    faultWhileDeciding(Signal, Info);
    errno = SavedErrno;
    return;
  }
  Deciding = true;
  restoreAbandonedAlternateStack(Context);
  bool Program = programTakes(Signal);
  Deciding = false;
  if (!Program)
    reportCrash(Signal, Info, Context);
  chain(Signal, Info, Context);
  errno = SavedErrno;
}

/// The tracer's handler of its clock events' SIGTRAPs (routeClockEventTraps),
/// or null.
SignalHandler ClockEventTraps;

/// The handler of SIGTRAP: the tracer's clock events' go to the tracer,
/// the program's own (a breakpoint, __builtin_debugtrap) to the fault
/// report with handle_sigtrap, else to the program's action.
void handleTrap(int Signal, siginfo_t *Info, void *Context) {
  SignalHandler Tracer = __atomic_load_n(&ClockEventTraps, __ATOMIC_ACQUIRE);
  if (Tracer && isClockEventTrap(Info)) {
    Tracer(Signal, Info, Context);
    return;
  }
  if (Flags.handle_sigtrap) {
    handleSignal(Signal, Info, Context);
    return;
  }
  int SavedErrno = errno;
  restoreAbandonedAlternateStack(Context);
  chain(Signal, Info, Context);
  errno = SavedErrno;
}

/// The handler of SIGABRT, which only a fault makes pcmap's business: the
/// abort() of a program's handler of a fault (Pending) is reported as that
/// fault. Otherwise the signal takes the program's action, unreported (an
/// assertion's abort is the program's own report).
void handleAbort(int Signal, siginfo_t *Info, void *Context) {
  int SavedErrno = errno;
  if (pendingFault())
    reportCrash(Signal, Info, Context);
  chain(Signal, Info, Context);
  errno = SavedErrno;
}

} // namespace

namespace {

/// First thing in every thread the program starts (Event::ThreadStart), even
/// before the runtime has initialised: its alternate stack, unless the
/// options (once read) want none, and where its stack ends.
void threadStarted() {
  if (__atomic_load_n(&AltStacks, __ATOMIC_ACQUIRE) != AltStacksOff)
    ensureAlternateSignalStack();
}

/// Installs Handler for Signal; the program goes on seeing the action it
/// replaces, and any it sets later (hideSignalAction), which the handler
/// takes in its turn. One system call: a fault of another thread before
/// the action is hidden finds the default one (at start-up there are
/// seldom other threads).
PCMAP_STARTUP_CODE void installHiddenHandler(int Signal, SignalHandler Handler,
                                             int Flags = SA_ONSTACK |
                                                         SA_NODEFER) {
  struct sigaction Old;
  // SA_NODEFER: a fault in pcmap's own report is told apart by
  // ReportingThread (the program's handler that pcmap calls gets the mask
  // the kernel would have given it: chain()).
  installFaultSignalHandler(Signal, Handler, Flags | SA_RESTART, &Old);
  hideSignalAction(Signal, Handler, Old);
}

PCMAP_STARTUP_CODE void initFaultReporter() {
  bool Any = false;
  for (const HandledSignal &H : Handled)
    Any |= Flags.*H.Enabled;
  __atomic_store_n(&AltStacks,
                   Any && Flags.use_sigaltstack ? AltStacksOn : AltStacksOff,
                   __ATOMIC_RELEASE);
  if (!Any)
    return;
  if (Flags.use_sigaltstack)
    ensureAlternateSignalStack();
  // Not this thread's stack bounds: it is the thread that registered first,
  // nearly always the main one, whose bounds a report finds
  // (isStackOverflow); another gets the report's estimate from its stack
  // pointer.
  // The report stack is reserved by the first report (reportStack()): a
  // process that never faults does not pay for its mapping.
  for (const HandledSignal &H : Handled)
    if (Flags.*H.Enabled)
      installHiddenHandler(H.Signal,
                           H.Signal == SIGTRAP ? handleTrap : handleSignal);
  // The abort() of a program's handler of a fault (reportCrash).
  installHiddenHandler(SIGABRT, handleAbort);
}

PCMAP_SUBSCRIBE(FaultHooks, 30,
                {{Event::Initialize, initFaultReporter},
                 {Event::ThreadStart, threadStarted}});

} // namespace

void routeClockEventTraps(SignalHandler Handler) {
  SignalHandler Old =
      __atomic_exchange_n(&ClockEventTraps, Handler, __ATOMIC_ACQ_REL);
  // Without SA_ONSTACK: a sample is no stack overflow, and the tracer's
  // handler runs on the thread's stack as its timer's does. Without
  // SA_NODEFER: a clock event's SIGTRAP that comes while the handler runs
  // waits for it, instead of a second signal frame on that stack.
  if (!Old && !Flags.handle_sigtrap)
    installHiddenHandler(SIGTRAP, handleTrap, 0);
}

void printStackTrace(unsigned long StartPC, int Depth) {
  Frames F;
  PCMAP_UNWIND_BACKTRACE(collectFrame, &F);
  int First = F.Count > 1 ? 1 : 0; // skip printStackTrace itself
  for (int I = 0; StartPC && I < F.Count; ++I)
    if (F.PC[I] == StartPC) {
      First = I;
      break;
    }
  printFrames(F, First, Depth);
}

} // namespace rt
} // namespace pcmap

using namespace pcmap::rt;

#pragma GCC visibility push(default)
extern "C" size_t pcmap_describe_pc(uintptr_t PC, char *Buffer, size_t Size) {
  if (!Buffer || !Size)
    return 0;
  Text T(Buffer, Size);
  describePC(PC, /*After=*/false, T);
  return T.size();
}
#pragma GCC visibility pop
