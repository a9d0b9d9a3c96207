//===- bench/unwind_bench.cpp - The tracer's stack walk, per sample -------===//
//
// What one sample's stack costs the tracer's handler: captureStack (the
// call frame information, rt/optional/unwind.cpp) from a context taken
// DEPTH calls down a chain of functions built without frame pointers,
// against glibc's backtrace() and libgcc's _Unwind_Backtrace (which cache
// what they look up and are not async-signal-safe) from the same place.
// At 1000 samples per second of CPU time, a walk of T ns costs T / 10^4
// percent of the thread's time.
//
//===----------------------------------------------------------------------===//

#include "optional/stacks.h"
#include "platform/platform.h"

#include <benchmark/benchmark.h>

#include <execinfo.h>
#include <ucontext.h>
#include <unwind.h>

#include <cstdint>
#include <functional>

using namespace pcmap::rt;

namespace {

/// Runs Body Depth calls further down the stack.
__attribute__((noinline)) int descend(int Depth,
                                      const std::function<void()> &Body) {
  if (Depth <= 0) {
    Body();
    return 0;
  }
  int R = descend(Depth - 1, Body);
  benchmark::DoNotOptimize(R);
  return R + 1;
}

void BM_CaptureStack(benchmark::State &State) {
  noteUnwindIndexes();
  StackBounds Bounds = {0, 0};
  currentThreadStack(Bounds.Lo, Bounds.Hi);
  unsigned Frames = 0;
  descend(int(State.range(0)), [&] {
    ucontext_t Context;
    getcontext(&Context);
    uintptr_t Out[64];
    for (auto _ : State) {
      Frames = captureStack(&Context, signalContextPC(&Context), Bounds, Out,
                            64);
      benchmark::DoNotOptimize(Out);
    }
  });
  State.counters["frames"] = Frames;
}

void BM_GlibcBacktrace(benchmark::State &State) {
  int Frames = 0;
  descend(int(State.range(0)), [&] {
    void *Out[64];
    for (auto _ : State) {
      Frames = backtrace(Out, 64);
      benchmark::DoNotOptimize(Out);
    }
  });
  State.counters["frames"] = Frames;
}

_Unwind_Reason_Code countFrame(_Unwind_Context *, void *Count) {
  ++*static_cast<unsigned *>(Count);
  return _URC_NO_REASON;
}

void BM_UnwindBacktrace(benchmark::State &State) {
  unsigned Frames = 0;
  descend(int(State.range(0)), [&] {
    for (auto _ : State) {
      Frames = 0;
      _Unwind_Backtrace(countFrame, &Frames);
      benchmark::DoNotOptimize(Frames);
    }
  });
  State.counters["frames"] = Frames;
}

} // namespace

BENCHMARK(BM_CaptureStack)->Arg(8)->Arg(24);
BENCHMARK(BM_GlibcBacktrace)->Arg(8)->Arg(24);
BENCHMARK(BM_UnwindBacktrace)->Arg(8)->Arg(24);
BENCHMARK_MAIN();
