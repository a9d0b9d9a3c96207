//===- pcmap/TraceDump.h - The atomic tracer's JSON dumps -------*- C++ -*-===//
//
// The one definition, in this project, of the tracer's JSON Lines dumps:
// the runtime writes them (rt/optional/tracer.cpp), `pcmap-report trace`
// reads them (tools/pcmap-report/trace/). docs/Runtime.md ("The tracer's
// JSON") is the prose version, field by field; keep the two in step. It
// depends on nothing, so that the runtime (no libc++, no LLVM) includes it.
//
// A dump is one line, one JSON object. Version 3 adds call stacks to
// version 2:
//
//   "stack_depth": 32,            the most frames a stack keeps
//   "stack_samples_dropped": 0,   samples whose stack the table had no room
//                                 for (they are in every other count)
//   "modules": [{"path": "/usr/bin/prog", "build_id": "ab12..."}, ...],
//                                 every module a frame lies in
//   "stacks": [{"samples": 120, "atomic_samples": 100,
//               "frames": [[0, "0x1a2b"], [0, "0x1890"], [2, "0x29d8f"]]},
//              ...]
//
// Each stack's frames are innermost first, each a module's index in
// "modules" and the offset in that module (the address less its load bias;
// -1 and the absolute address for code in no module: JIT code). Frame 0 is
// the sampled instruction: for a sample charged to an atomic site (exactly
// or within trace_skid), the site's own address; frames after it are return
// addresses less one, so that they lie inside the call instruction and a
// symbolizer gives the call's line. "functions" rows add
// "uncovered_callee_samples": samples taken in code without pcmap tables
// (the C library, the dynamic loader) whose nearest covered frame in the
// stack is this function.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_TRACEDUMP_H
#define PCMAP_TRACEDUMP_H

namespace pcmap {
namespace trace {

/// The version the runtime writes; pcmap-report reads it and every version
/// from kMinReadVersion on (version 2 has no stacks).
constexpr unsigned kVersion = 3;
constexpr unsigned kMinReadVersion = 2;

/// The "report" field of every dump.
constexpr const char kReportName[] = "pcmap-trace";

/// Keys that version 3 adds.
constexpr const char kStackDepthKey[] = "stack_depth";
constexpr const char kStackSamplesDroppedKey[] = "stack_samples_dropped";
constexpr const char kModulesKey[] = "modules";
constexpr const char kStacksKey[] = "stacks";
constexpr const char kFramesKey[] = "frames";
constexpr const char kUncoveredCalleeSamplesKey[] = "uncovered_callee_samples";

/// A frame's module index when it lies in no module.
constexpr int kNoModule = -1;

/// The default and the largest stack depth (option trace_stack_depth).
constexpr unsigned kDefaultStackDepth = 32;
constexpr unsigned kMaxStackDepth = 64;

} // namespace trace
} // namespace pcmap

#endif // PCMAP_TRACEDUMP_H
