//===- symbolizer.h - Function names and source lines for PCs --*- C++ -*-===//
//
// If the program carries a sanitizer runtime, its public symbolizer
// (__sanitizer_symbolize_pc) answers. Otherwise an llvm-symbolizer process,
// started on first use with a raw clone and talked to through pipes: every
// step is a system call, so that the fault reporter can use it after the
// async-signal-safe part of its report, whatever state the program is in.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_RT_SYMBOLIZER_H
#define PCMAP_RT_SYMBOLIZER_H

#include <stddef.h>
#include <stdint.h>

namespace pcmap {
namespace rt {

/// Notes what chooses the llvm-symbolizer to run: the symbolizer_path
/// option, $PCMAP_SYMBOLIZER_PATH, the one next to the clang pcmap was
/// built with, then the first llvm-symbolizer in $PATH. Called once at
/// start-up; the files are looked at when the first PC is symbolized.
void initSymbolizer();

/// One frame of a PC: a function and a line, either empty if unknown.
struct SymbolizedFrame {
  char Function[256];
  char Location[256];
};

struct SymbolizedPC {
  /// The function that holds PC (demangled), and PC's own line: the
  /// innermost inlined frame's (a helper's, where the helper was inlined);
  /// either empty if unknown.
  char Function[256];
  char Location[512];
  /// The frames at PC, innermost first, as llvm-symbolizer --inlines gives
  /// them: the helpers inlined there, then the function that holds PC (its
  /// line is the call's). One frame where nothing was inlined.
  static constexpr unsigned kMaxFrames = 8;
  SymbolizedFrame Frames[kMaxFrames];
  unsigned NumFrames;
};

/// A data symbol: its name, and where it starts in its module and its size
/// (0: not known).
struct SymbolizedData {
  char Name[256];
  uintptr_t Start, Size;
};

class Symbolizer {
public:
  ~Symbolizer() { close(); }
  /// Symbolizes PC, which lies in the object Module (a path) at file
  /// address Offset (PC - load bias). False if nothing could be said.
  bool symbolize(uintptr_t PC, const char *Module, uintptr_t Offset,
                 SymbolizedPC &Out);
  /// The data symbol that holds file address Offset of Module (a path), by
  /// llvm-symbolizer (the sanitizers' symbolizer names no data). False if
  /// none does.
  bool symbolizeData(const char *Module, uintptr_t Offset, SymbolizedData &Out);
  /// Ends the llvm-symbolizer process, if one was started.
  void close();
  /// Why the last symbolize() said nothing, or null.
  const char *problem() const { return Problem; }

private:
  bool start();
  /// Sends Request, reads the answer up to its empty line into Answer;
  /// where that line starts, or null (the process is then closed).
  char *ask(const char *Request, size_t Size, char *Answer, size_t AnswerSize);
  int Pid = -1, ToChild = -1, FromChild = -1;
  bool Failed = false;
  const char *Problem = nullptr;
};

/// The sanitizer runtime's stack printer, if the program has one.
bool haveSanitizerSymbolizer();

/// A source location's path ("file:line:column") without "." and
/// "dir/.." components, in place: "/usr/lib/gcc/x86_64-linux-gnu/12/../../
/// ../../include/c++/12/bits/atomic_base.h:523:9" is "/usr/include/c++/12/
/// bits/atomic_base.h:523:9" (lexically, as a reader takes it).
void normalizeSourcePath(char *Location);

} // namespace rt
} // namespace pcmap

#endif // PCMAP_RT_SYMBOLIZER_H
