//===- symbolizer.cpp - Function names and source lines for PCs -----------===//

#include "optional/symbolizer.h"

#include "core/log.h"
#include "core/mapped.h"
#include "core/options.h"
#include "optional/describe.h"
#include "platform/hooks.h"
#include "platform/platform.h"

#include <string.h>

extern "C" {
// sanitizer/common_interface_defs.h; present when the program carries a
// sanitizer runtime.
void __sanitizer_symbolize_pc(void *PC, const char *Format, char *Out,
                              size_t OutSize) __attribute__((weak));
}

namespace pcmap {
namespace rt {

namespace {

/// The path of the llvm-symbolizer that reports start (chooseSymbolizer),
/// mapped when one is chosen, not static: a process that never symbolizes
/// keeps no data for it (a conservative garbage collector scans .bss as
/// roots). Null or "": none.
MappedArray<char, 512> SymbolizerPath;
/// Whether SymbolizerPath has been chosen (at the first symbolize call).
bool Chosen;
/// The environment the choice reads, as it was at start-up (the program may
/// change its environment later; the choice does not follow it).
PCMAP_STARTUP_STATE const char *StartUpSymbolizerPath, *StartUpPath;

bool choose(const char *Candidate) {
  if (!isExecutable(Candidate))
    return false;
  char *Path = SymbolizerPath.get();
  if (!Path)
    return false;
  Text T(Path, SymbolizerPath.size());
  T << Candidate;
  return true;
}

bool searchPath(const char *Dirs, const char *Name) {
  while (Dirs && *Dirs) {
    const char *End = Dirs;
    while (*End && *End != ':')
      ++End;
    char Candidate[512];
    Text T(Candidate, sizeof(Candidate));
    char Dir[400];
    size_t N = size_t(End - Dirs) < sizeof(Dir) - 1 ? size_t(End - Dirs)
                                                    : sizeof(Dir) - 1;
    memcpy(Dir, Dirs, N);
    Dir[N] = '\0';
    T << (N ? Dir : ".") << "/" << Name;
    if (choose(Candidate))
      return true;
    Dirs = *End ? End + 1 : End;
  }
  return false;
}

/// Copies the line at Begin (up to a newline) into Out, or "" for "??".
void copyAnswer(const char *Begin, const char *End, char *Out, size_t Size) {
  size_t N = size_t(End - Begin);
  if ((N == 2 && !memcmp(Begin, "??", 2)) ||
      (N >= 3 && !memcmp(Begin, "??:", 3)))
    N = 0;
  bool Cut = N > Size - 1;
  if (Cut)
    N = Size - 1;
  memcpy(Out, Begin, N);
  Out[N] = '\0';
  if (Cut && N >= 3)
    memcpy(Out + N - 3, "...", 3); // a name cut says so
}

/// The sanitizers' symbolizer renders Format for each frame of PC, the
/// innermost inlined frame first, each ending with a NUL, the list with an
/// empty one: copies frame I's to Out[I] (Field: Function or Location) and
/// returns the number of frames.
unsigned sanitizerSymbolize(void *PC, const char *Format, SymbolizedPC &Out,
                            bool Function) {
  char Frames[2048];
  Frames[0] = Frames[1] = '\0';
  __sanitizer_symbolize_pc(PC, Format, Frames, sizeof(Frames));
  Frames[sizeof(Frames) - 2] = Frames[sizeof(Frames) - 1] = '\0';
  unsigned N = 0;
  for (const char *P = Frames; *P && N < SymbolizedPC::kMaxFrames; ++N) {
    SymbolizedFrame &F = Out.Frames[N];
    char *Field = Function ? F.Function : F.Location;
    size_t Size = Function ? sizeof(F.Function) : sizeof(F.Location);
    copyAnswer(P, P + strlen(P), Field, Size);
    if (!strcmp(Field, "<null>") || !strncmp(Field, "(", 1))
      Field[0] = '\0';
    P += strlen(P) + 1;
  }
  return N;
}

/// llvm-symbolizer's answer, [Begin, End): pairs of lines (function,
/// location), innermost inlined frame first.
void parseFrames(const char *Begin, const char *End, SymbolizedPC &Out) {
  Out.NumFrames = 0;
  for (const char *P = Begin;
       P < End && Out.NumFrames < SymbolizedPC::kMaxFrames;) {
    const char *NL1 =
        static_cast<const char *>(memchr(P, '\n', size_t(End - P)));
    if (!NL1)
      NL1 = End;
    const char *NL2 = NL1 < End ? static_cast<const char *>(memchr(
                                      NL1 + 1, '\n', size_t(End - NL1 - 1)))
                                : nullptr;
    if (!NL2)
      NL2 = End;
    SymbolizedFrame &F = Out.Frames[Out.NumFrames++];
    copyAnswer(P, NL1, F.Function, sizeof(F.Function));
    F.Location[0] = '\0';
    if (NL1 < End) {
      copyAnswer(NL1 + 1, NL2, F.Location, sizeof(F.Location));
      normalizeSourcePath(F.Location);
    }
    P = NL2 < End ? NL2 + 1 : End;
  }
}

/// Function: the outermost frame's with a name (the function that holds
/// PC); Location: the innermost frame's with a line (PC's own).
bool finishFrames(SymbolizedPC &Out) {
  Out.Function[0] = Out.Location[0] = '\0';
  for (unsigned I = Out.NumFrames; I-- > 0;)
    if (Out.Frames[I].Function[0]) {
      Text(Out.Function, sizeof(Out.Function)) << Out.Frames[I].Function;
      break;
    }
  for (unsigned I = 0; I < Out.NumFrames; ++I)
    if (Out.Frames[I].Location[0]) {
      Text(Out.Location, sizeof(Out.Location)) << Out.Frames[I].Location;
      break;
    }
  return Out.Function[0] || Out.Location[0];
}

/// Chooses SymbolizerPath (see initSymbolizer): only stat()s files (and
/// maps the path's memory), so that a fault handler may call it.
void chooseSymbolizer() {
  if (SecureMode) {
    // Only the llvm-symbolizer of the LLVM pcmap was built with, and only if
    // nobody but root can replace it; otherwise reports name functions from
    // the program's own symbols.
#ifdef PCMAP_LLVM_TOOLS_DIR
    const char *Fixed = PCMAP_LLVM_TOOLS_DIR "/llvm-symbolizer";
    if (isRootOwnedExecutable(Fixed))
      choose(Fixed);
    else if (Verbosity >= 2) {
      Message M;
      M << "secure mode: " << Fixed
        << " is missing or not root-owned; stack traces are not symbolized "
           "with file and line";
      M.emit();
    }
#endif
    return;
  }
  // A path the user gave must work: it is not silently replaced.
  const char *Given[][2] = {{Flags.symbolizer_path, "symbolizer_path"},
                            {StartUpSymbolizerPath, "PCMAP_SYMBOLIZER_PATH"}};
  for (auto &G : Given) {
    if (!G[0] || !*G[0])
      continue;
    if (!choose(G[0]) && Flags.symbolize) {
      Message M;
      M << "warning: " << G[1] << " '" << G[0]
        << "' is not an executable; stack traces are not symbolized";
      M.emit();
    }
    return;
  }
#ifdef PCMAP_LLVM_TOOLS_DIR
  if (choose(PCMAP_LLVM_TOOLS_DIR "/llvm-symbolizer"))
    return;
#endif
  searchPath(StartUpPath, "llvm-symbolizer");
}

} // namespace

PCMAP_STARTUP_CODE void initSymbolizer() {
  StartUpSymbolizerPath = getEnv("PCMAP_SYMBOLIZER_PATH");
  StartUpPath = getEnv("PATH");
}

namespace {
PCMAP_SUBSCRIBE(SymbolizerHooks, 20, {{Event::Initialize, initSymbolizer}});
} // namespace

bool haveSanitizerSymbolizer() { return &__sanitizer_symbolize_pc != nullptr; }

bool Symbolizer::start() {
  if (Pid > 0)
    return true;
  if (Failed)
    return false;
  Failed = true;
  const char *Path = SymbolizerPath.peek();
  if (!Path || !Path[0]) {
    Problem = SecureMode ? "secure mode: no root-owned llvm-symbolizer"
                         : "no llvm-symbolizer found (set "
                           "PCMAP_SYMBOLIZER_PATH)";
    return false;
  }
  const char *Argv[] = {Path, "--inlines", "--demangle", nullptr};
  Pid = spawnWithPipes(Path, Argv, ToChild, FromChild);
  if (Pid < 0) {
    Problem = "cannot start llvm-symbolizer";
    return false;
  }
  Failed = false;
  return true;
}

void Symbolizer::close() {
  closeFd(ToChild);
  closeFd(FromChild);
  reapChild(Pid, /*Kill=*/false);
  Pid = ToChild = FromChild = -1;
}

bool Symbolizer::symbolize(uintptr_t PC, const char *Module, uintptr_t Offset,
                           SymbolizedPC &Out) {
  Out.Function[0] = Out.Location[0] = '\0';
  Out.NumFrames = 0;
  if (!Flags.symbolize)
    return false;
  if (!Chosen) {
    Chosen = true;
    chooseSymbolizer();
  }
  if (haveSanitizerSymbolizer()) {
    // It takes a return address and looks at the byte before it.
    void *After = reinterpret_cast<void *>(PC + 1);
    unsigned N = sanitizerSymbolize(After, "%f", Out, true);
    unsigned L = sanitizerSymbolize(After, "%S", Out, false);
    Out.NumFrames = N < L ? N : L;
    return finishFrames(Out);
  }
  if (!Module || !*Module || !start())
    return false;
  char Request[600];
  Text T(Request, sizeof(Request));
  T << "CODE \"" << Module << "\" ";
  T.hex(Offset) << "\n";
  char Answer[16384];
  char *End = ask(T.data(), T.size(), Answer, sizeof(Answer));
  if (!End)
    return false;
  parseFrames(Answer, End, Out);
  return finishFrames(Out);
}

char *Symbolizer::ask(const char *Request, size_t Size, char *Answer,
                      size_t AnswerSize) {
  if (!writeToPipe(ToChild, Request, Size)) {
    Problem = "llvm-symbolizer exited";
    close();
    Failed = true;
    return nullptr;
  }
  // The answer: its lines, then an empty line.
  size_t Len = 0;
  for (;;) {
    // The first answer may wait for the debug information to load.
    long N =
        readWithTimeout(FromChild, Answer + Len, AnswerSize - 1 - Len, 10000);
    if (N <= 0) {
      Problem = "llvm-symbolizer did not answer";
      close();
      Failed = true;
      return nullptr;
    }
    Len += size_t(N);
    Answer[Len] = '\0';
    if (char *End = strstr(Answer, "\n\n"))
      return End;
    if (Len == AnswerSize - 1) {
      Problem = "llvm-symbolizer answered too much";
      close();
      Failed = true;
      return nullptr;
    }
  }
}

bool Symbolizer::symbolizeData(const char *Module, uintptr_t Offset,
                               SymbolizedData &Out) {
  Out.Name[0] = '\0';
  Out.Start = Out.Size = 0;
  if (!Flags.symbolize || !Module || !*Module || haveSanitizerSymbolizer())
    return false;
  if (!Chosen) {
    Chosen = true;
    chooseSymbolizer();
  }
  if (!start())
    return false;
  char Request[600];
  Text T(Request, sizeof(Request));
  T << "DATA \"" << Module << "\" ";
  T.hex(Offset) << "\n";
  char Answer[2048];
  char *End = ask(T.data(), T.size(), Answer, sizeof(Answer));
  if (!End)
    return false;
  // "name\nstart size\n" (and a declaration's line where the debug
  // information has one); "??\n0 0\n" for none.
  *End = '\0';
  char *NL = strchr(Answer, '\n');
  if (!NL || !strcmp(Answer, "??") || NL == Answer)
    return false;
  *NL = '\0';
  const char *P = NL + 1;
  uint64_t Start = 0, Size = 0;
  while (*P >= '0' && *P <= '9')
    Start = Start * 10 + uint64_t(*P++ - '0');
  while (*P == ' ')
    ++P;
  while (*P >= '0' && *P <= '9')
    Size = Size * 10 + uint64_t(*P++ - '0');
  if (Offset < Start || (Size && Offset >= Start + Size))
    return false;
  size_t N = strnlen(Answer, sizeof(Out.Name) - 1);
  memcpy(Out.Name, Answer, N);
  Out.Name[N] = '\0';
  Out.Start = uintptr_t(Start);
  Out.Size = uintptr_t(Size);
  return true;
}

void normalizeSourcePath(char *Location) {
  char *End = Location + strlen(Location);
  // The path ends where ":line[:column]" starts (a path may hold colons).
  for (int Fields = 0; Fields < 2; ++Fields) {
    char *Colon = End;
    while (Colon > Location && Colon[-1] >= '0' && Colon[-1] <= '9')
      --Colon;
    if (Colon == End || Colon == Location || Colon[-1] != ':')
      break;
    End = Colon - 1;
  }
  bool Absolute = *Location == '/';
  char *Base = Location + Absolute, *Out = Base;
  for (const char *In = Base; In < End;) {
    const char *Slash =
        static_cast<const char *>(memchr(In, '/', size_t(End - In)));
    const char *Next = Slash ? Slash : End;
    size_t Len = size_t(Next - In);
    bool Dot = Len == 1 && In[0] == '.';
    bool DotDot = Len == 2 && In[0] == '.' && In[1] == '.';
    const char *Component = In;
    In = Slash ? Slash + 1 : End;
    if (!Len || Dot)
      continue;
    if (DotDot) {
      char *Last = Out;
      while (Last > Base && Last[-1] != '/')
        --Last;
      if (Out > Base &&
          !(Out - Last == 2 && Last[0] == '.' && Last[1] == '.')) {
        Out = Last > Base ? Last - 1 : Base; // "dir/.." says nothing
        continue;
      }
      if (Absolute)
        continue; // "/.." is "/"
    }
    if (Out > Base)
      *Out++ = '/';
    memmove(Out, Component, Len);
    Out += Len;
  }
  if (Out == Location && End > Location)
    *Out++ = '.'; // "a/.." is "."
  memmove(Out, End, strlen(End) + 1);
}

} // namespace rt
} // namespace pcmap
