//===- AssemblySources.cpp - Tables for the assembly sources a command has ===//

#include "AssemblySources.h"

#include "Platform.h"

#include <algorithm>
#include <string_view>

namespace pcmap::driver {

namespace {

/// The arguments of one line of clang's -### output, each in double quotes
/// with `\"` and `\\` escaped.
std::vector<std::string> quotedArguments(std::string_view Line) {
  std::vector<std::string> Result;
  for (size_t I = 0; I < Line.size(); ++I) {
    if (Line[I] != '"')
      continue;
    std::string Arg;
    for (++I; I < Line.size() && Line[I] != '"'; ++I) {
      if (Line[I] == '\\' && I + 1 < Line.size())
        ++I;
      Arg += Line[I];
    }
    Result.push_back(std::move(Arg));
  }
  return Result;
}

/// The options of a -cc1as job that decide how pcmap-asm reads its source.
std::vector<std::string> readingOptions(const std::vector<std::string> &Job) {
  std::vector<std::string> Result;
  for (size_t I = 2; I + 1 < Job.size(); ++I) {
    const std::string &Arg = Job[I];
    if (Arg == "-triple" || Arg == "-target-cpu" || Arg == "-target-feature" ||
        Arg == "-I" || Arg == "-defsym") {
      Result.push_back(Arg);
      Result.push_back(Job[++I]);
    }
  }
  return Result;
}

/// How many directories above the working directory Path reaches with its
/// ".." components ("../../x.s": 2).
size_t levelsAbove(std::string_view Path) {
  long Depth = 0, Lowest = 0;
  while (!Path.empty()) {
    size_t Slash = Path.find('/');
    std::string_view Part = Path.substr(0, Slash);
    Path = Slash == std::string_view::npos ? "" : Path.substr(Slash + 1);
    if (Part == "..")
      Lowest = std::min(Lowest, --Depth);
    else if (!Part.empty() && Part != ".")
      ++Depth;
  }
  return size_t(-Lowest);
}

} // namespace

AssemblySources::~AssemblySources() {
  if (!Directory.empty())
    removeDirectoryTree(Directory);
}

bool AssemblySources::assemblerArguments(
    const std::vector<std::string> &Args, const std::vector<size_t> &Sources,
    std::vector<std::vector<std::string>> &Result) {
  std::vector<std::string> DryRun{Clang, "-###"};
  DryRun.insert(DryRun.end(), Args.begin() + 1, Args.end());
  std::string Output, Error;
  if (runAndCapture(DryRun, Output, Error) != 0)
    return false;
  Result.assign(Sources.size(), {});
  std::vector<std::string> Only;
  size_t Begin = 0, Jobs = 0;
  while (Begin < Output.size()) {
    size_t End = Output.find('\n', Begin);
    if (End == std::string::npos)
      End = Output.size();
    std::vector<std::string> Job =
        quotedArguments(std::string_view(Output).substr(Begin, End - Begin));
    Begin = End + 1;
    if (Job.size() < 3 || Job[1] != "-cc1as")
      continue;
    ++Jobs;
    Only = readingOptions(Job);
    // The job's input is its last argument, as the command line spells it.
    for (size_t K = 0; K < Sources.size(); ++K)
      if (Result[K].empty() && Job.back() == Args[Sources[K]])
        Result[K] = Only;
  }
  // A preprocessed source is assembled from a temporary file: with one
  // source, the command's one assembler job is its.
  if (Sources.size() == 1 && Result[0].empty() && Jobs == 1)
    Result[0] = Only;
  return true;
}

std::string AssemblySources::runTool(const std::vector<std::string> &Options,
                                     const std::string &Input,
                                     const std::string &Path) {
  std::string Error;
  if (Directory.empty() &&
      (Directory = createTemporaryDirectory("pcmap-asm", Error)).empty())
    return "";
  // The rewritten source is <root><the source's path>, inside the
  // temporary directory, and <root> is mapped to nothing in the debug
  // information: the object names the source as the command line did. A
  // relative path that climbs ("../x.s") gets a root as many directories
  // deep.
  std::string Root = Directory + "/abs";
  if (Path.empty() || Path[0] != '/') {
    Root = Directory + "/rel/";
    for (size_t Level = levelsAbove(Path); Level; --Level)
      Root += "up/";
  }
  std::string Rewritten = Root + Path;
  if (!makeDirectories(std::string(parentPath(Rewritten))))
    return "";
  std::vector<std::string> Command{Tool};
  Command.insert(Command.end(), Options.begin(), Options.end());
  Command.insert(Command.end(), {Input, "-o", Rewritten});
  std::string Output;
  if (runAndCapture(Command, Output, Error) != 0)
    return "";
  if (std::find(Roots.begin(), Roots.end(), Root) == Roots.end())
    Roots.push_back(Root);
  return Rewritten;
}

void AssemblySources::mapRoots(std::vector<std::string> &Args) const {
  for (const std::string &Root : Roots)
    Args.push_back("-fdebug-prefix-map=" + Root + "=");
}

void AssemblySources::rewrite(std::vector<std::string> &Args,
                              const std::vector<size_t> &Sources) {
  std::vector<std::vector<std::string>> Options;
  if (Sources.empty() || !exists(Tool) ||
      !assemblerArguments(Args, Sources, Options))
    return;
  for (size_t K = 0; K < Sources.size(); ++K) {
    if (Options[K].empty())
      continue; // clang does not assemble it (an error, say): leave it
    const std::string Source = Args[Sources[K]];
    std::string Rewritten = runTool(Options[K], Source, Source);
    if (!Rewritten.empty())
      Args[Sources[K]] = Rewritten;
  }
  mapRoots(Args);
}

namespace {

bool isDependencyFlag(const std::string &Arg) {
  return Arg == "-MD" || Arg == "-MMD" || Arg == "-MP" || Arg == "-MG" ||
         Arg == "-MV";
}

bool isDependencyOption(const std::string &Arg) {
  return Arg == "-MF" || Arg == "-MT" || Arg == "-MQ" || Arg == "-MJ";
}

/// Path without its extension ("a/b.o": "a/b").
std::string stem(const std::string &Path) {
  std::string_view Name = fileName(Path);
  size_t Dot = Name.rfind('.');
  if (Dot == std::string_view::npos || Dot == 0)
    return Path;
  return Path.substr(0, Path.size() - (Name.size() - Dot));
}

} // namespace

bool AssemblySources::rewritePreprocessed(std::vector<std::string> &Args,
                                          size_t Source) {
  std::vector<std::vector<std::string>> Options;
  if (!exists(Tool) || !assemblerArguments(Args, {Source}, Options) ||
      Options[0].empty())
    return false;
  const std::string Input = Args[Source];
  // The object, and the names clang gives the dependency file and its
  // target when the command does not (-MD and -MMD without -MF, -MT, -MQ).
  std::string Object = std::string(fileName(stem(Input))) + ".o";
  bool Dependencies = false, HasFile = false, HasTarget = false;
  for (size_t I = 1; I < Args.size(); ++I) {
    if (Args[I] == "-o" && I + 1 < Args.size())
      Object = Args[I + 1];
    Dependencies |= Args[I] == "-MD" || Args[I] == "-MMD";
    HasFile |= Args[I] == "-MF";
    HasTarget |= Args[I] == "-MT" || Args[I] == "-MQ";
  }
  std::string Error;
  if (Directory.empty() &&
      (Directory = createTemporaryDirectory("pcmap-asm", Error)).empty())
    return false;
  std::string Preprocessed = Directory + "/preprocessed.s";
  // The preprocessing clang would do, with the dependency file.
  std::vector<std::string> Preprocess;
  for (size_t I = 0; I < Args.size(); ++I) {
    if (Args[I] == "-c" || Args[I] == "--compile") {
      Preprocess.push_back("-E");
    } else if (Args[I] == "-o" && I + 1 < Args.size()) {
      Preprocess.insert(Preprocess.end(), {"-o", Preprocessed});
      ++I;
    } else {
      Preprocess.push_back(Args[I]);
    }
  }
  if (Dependencies && !HasFile)
    Preprocess.insert(Preprocess.end(), {"-MF", stem(Object) + ".d"});
  if (Dependencies && !HasTarget)
    Preprocess.insert(Preprocess.end(), {"-MT", Object});
  if (std::find(Preprocess.begin(), Preprocess.end(), "-o") == Preprocess.end())
    Preprocess.insert(Preprocess.end(), {"-o", Preprocessed});
  if (runAndWait(Preprocess, Error) != 0)
    return false; // the command itself says why
  std::string Rewritten = runTool(Options[0], Preprocessed, Input);
  if (Rewritten.empty())
    return false;
  // The command assembles the rewritten text; the preprocessor's options
  // have done their work (unused, as the dependency options are).
  std::vector<std::string> Assemble;
  for (size_t I = 0; I < Args.size(); ++I) {
    if (I == Source) {
      Assemble.insert(Assemble.end(), {"-x", "assembler", Rewritten});
    } else if (isDependencyOption(Args[I]) && I + 1 < Args.size()) {
      ++I;
    } else if (!isDependencyFlag(Args[I])) {
      Assemble.push_back(Args[I]);
    }
  }
  Assemble.push_back("-Qunused-arguments");
  mapRoots(Assemble);
  Args = std::move(Assemble);
  return true;
}

} // namespace pcmap::driver
