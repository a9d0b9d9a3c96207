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
  size_t Begin = 0;
  while (Begin < Output.size()) {
    size_t End = Output.find('\n', Begin);
    if (End == std::string::npos)
      End = Output.size();
    std::vector<std::string> Job =
        quotedArguments(std::string_view(Output).substr(Begin, End - Begin));
    Begin = End + 1;
    if (Job.size() < 3 || Job[1] != "-cc1as")
      continue;
    // The job's input is its last argument, as the command line spells it.
    for (size_t K = 0; K < Sources.size(); ++K)
      if (Result[K].empty() && Job.back() == Args[Sources[K]])
        Result[K] = readingOptions(Job);
  }
  return true;
}

void AssemblySources::rewrite(std::vector<std::string> &Args,
                              const std::vector<size_t> &Sources) {
  std::vector<std::vector<std::string>> Options;
  if (Sources.empty() || !exists(Tool) ||
      !assemblerArguments(Args, Sources, Options))
    return;
  std::string Error;
  Directory = createTemporaryDirectory("pcmap-asm", Error);
  if (Directory.empty())
    return;
  // Each rewritten source is <root><the source's path>, inside the
  // temporary directory, and <root> is mapped to nothing in the debug
  // information: the object names the source as the command line did. A
  // relative path that climbs ("../x.s") gets a root as many directories
  // deep.
  std::vector<std::string> Roots;
  for (size_t K = 0; K < Sources.size(); ++K) {
    if (Options[K].empty())
      continue; // clang does not assemble it (an error, say): leave it
    const std::string &Source = Args[Sources[K]];
    std::string Root = Directory + "/abs";
    if (Source.empty() || Source[0] != '/') {
      Root = Directory + "/rel/";
      for (size_t Level = levelsAbove(Source); Level; --Level)
        Root += "up/";
    }
    std::string Rewritten = Root + Source;
    if (!makeDirectories(std::string(parentPath(Rewritten))))
      continue;
    std::vector<std::string> Command{Tool};
    Command.insert(Command.end(), Options[K].begin(), Options[K].end());
    Command.insert(Command.end(), {Source, "-o", Rewritten});
    std::string Output;
    if (runAndCapture(Command, Output, Error) != 0)
      continue;
    Args[Sources[K]] = Rewritten;
    bool Known = false;
    for (const std::string &R : Roots)
      Known |= R == Root;
    if (!Known)
      Roots.push_back(Root);
  }
  for (const std::string &Root : Roots)
    Args.push_back("-fdebug-prefix-map=" + Root + "=");
}

} // namespace pcmap::driver
