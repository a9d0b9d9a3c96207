//===- Driver.cpp - pcmap-clang and pcmap-clang++ -------------------------===//
//
// A compiler wrapper in the style of afl-clang-fast: it understands
//   -fsanitize-metadata=<list>        atomics, functions (alias: covered), all
//   -fno-sanitize-metadata=<list>
//   -fsanitize-metadata-ignorelist=<file>
// turns them into the arguments that load the pcmap plugin into clang (and,
// for LTO, into the linker), and passes every other argument to the clang the
// plugin was built for, unchanged. It links no LLVM library (Platform.h),
// and replaces itself with clang (execv) unless it must compile and link in
// steps.
//
//===----------------------------------------------------------------------===//

#include "AssemblySources.h"
#include "Platform.h"
#include "ResponseFiles.h"
#include "TargetTriple.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#ifndef PCMAP_CLANG_PATH
#error "PCMAP_CLANG_PATH must name the clang the plugin was built for"
#endif
#ifndef PCMAP_CLANGXX_PATH
#error "PCMAP_CLANGXX_PATH must name the clang++ the plugin was built for"
#endif
#ifndef PCMAP_PLUGIN_RELATIVE_PATH
#error "PCMAP_PLUGIN_RELATIVE_PATH must locate the plugin from bin/"
#endif
#ifndef PCMAP_INCLUDE_RELATIVE_PATH
#error "PCMAP_INCLUDE_RELATIVE_PATH must locate the public headers from bin/"
#endif
#if !defined(PCMAP_VERSION) || !defined(PCMAP_LLVM_VERSION)
#error "PCMAP_VERSION and PCMAP_LLVM_VERSION must say what the driver is"
#endif
#ifndef PCMAP_HOST_TRIPLE
#error "PCMAP_HOST_TRIPLE must name the target the drivers run on"
#endif
#ifndef PCMAP_RT_SANITIZE
#define PCMAP_RT_SANITIZE "" // the sanitizers the runtime was built with
#endif

using namespace pcmap::driver;

namespace {

enum Feature : unsigned {
  Atomics = 1,
  Functions = 2,
  All = Atomics | Functions
};

std::string ToolName;

[[noreturn]] void fail(const std::string &Message) {
  std::fprintf(stderr, "%s: error: %s\n", ToolName.c_str(), Message.c_str());
  std::exit(1);
}

bool startsWith(std::string_view S, std::string_view Prefix) {
  return S.substr(0, Prefix.size()) == Prefix;
}

bool endsWith(std::string_view S, std::string_view Suffix) {
  return S.size() >= Suffix.size() &&
         S.substr(S.size() - Suffix.size()) == Suffix;
}

/// Removes Prefix from S if S starts with it.
bool consumePrefix(std::string_view &S, std::string_view Prefix) {
  if (!startsWith(S, Prefix))
    return false;
  S.remove_prefix(Prefix.size());
  return true;
}

template <typename Range, typename T>
bool contains(const Range &R, const T &Value) {
  for (const auto &Element : R)
    if (Element == Value)
      return true;
  return false;
}

unsigned parseFeature(std::string_view Item) {
  if (Item == "atomics")
    return Atomics;
  if (Item == "functions" || Item == "covered")
    return Functions;
  if (Item == "all")
    return All;
  return 0;
}

/// Parses "atomics,functions" for Option ("-fsanitize-metadata="). An empty
/// list names nothing, as clang's "-fsanitize=" does.
unsigned parseFeatures(std::string_view List, std::string_view Option) {
  unsigned Result = 0;
  if (List.empty())
    return Result;
  for (size_t Pos = 0;;) {
    size_t Comma = List.find(',', Pos);
    std::string_view Item = List.substr(Pos, Comma - Pos);
    unsigned F = parseFeature(Item);
    if (!F)
      fail("unsupported argument '" + std::string(Item) + "' to option '" +
           std::string(Option) + "' (valid: atomics, functions, covered, all)");
    Result |= F;
    if (Comma == std::string_view::npos)
      return Result;
    Pos = Comma + 1;
  }
}

std::string getEnv(const char *Name, const char *Default) {
  const char *V = std::getenv(Name);
  return V && *V ? V : Default;
}

/// Relative (a path from bin/) resolved next to this executable: the build
/// tree mirrors the install tree, so that it works in both.
std::string besideExecutable(const char *Argv0, std::string_view Relative) {
  // Resolved once: each resolution reads a link per path component.
  static const std::string Exe = mainExecutable(Argv0);
  return removeDots(joinPath(parentPath(Exe), Relative));
}

/// The directory of the plugin and the runtime: <prefix>/lib/pcmap.
std::string libraryDir(const char *Argv0) {
  return std::string(
      parentPath(besideExecutable(Argv0, PCMAP_PLUGIN_RELATIVE_PATH)));
}

std::string findPlugin(const char *Argv0) {
  if (const char *Env = std::getenv("PCMAP_PLUGIN"))
    if (*Env)
      return Env;
  return libraryDir(Argv0) + "/pcmap-plugin.so";
}

/// Options whose value is the next argument, so that it is not taken for an
/// input file.
bool takesSeparateValue(std::string_view Arg) {
  static const char *const Options[] = {
      "-o",       "-x",          "-I",
      "-D",       "-U",          "-include",
      "-imacros", "-isystem",    "-idirafter",
      "-iquote",  "-isysroot",   "-iprefix",
      "-MF",      "-MT",         "-MQ",
      "-L",       "-Xclang",     "-Xlinker",
      "-mllvm",   "-Xassembler", "-Xpreprocessor",
      "-target",  "-arch",       "-T",
      "-u",       "-z",          "-e"};
  return contains(Options, Arg);
}

/// True for inputs the link consumes as they are; any other input (a source
/// file, or a name pcmap does not recognise) may be compiled.
bool isLinkerInput(std::string_view Path) {
  std::string_view Name = fileName(Path);
  if (endsWith(Name, ".o") || endsWith(Name, ".obj") || endsWith(Name, ".a") ||
      endsWith(Name, ".lo") || endsWith(Name, ".so"))
    return true;
  return Name.find(".so.") != std::string_view::npos; // libfoo.so.1
}

/// Whether Arg makes clang stop before the link: the options of clang's
/// Driver::getFinalPhase that choose a phase other than the link, with
/// their aliases.
bool stopsBeforeLink(std::string_view Arg) {
  static const char *const Options[] = {"-E",
                                        "--preprocess",
                                        "-M",
                                        "--dependencies",
                                        "-MM",
                                        "--user-dependencies",
                                        "--precompile",
                                        "-extract-api",
                                        "-fsyntax-only",
                                        "--analyze",
                                        "-emit-ast",
                                        "-emit-cir",
                                        "-module-file-info",
                                        "-verify-pch",
                                        "-rewrite-objc",
                                        "-rewrite-legacy-objc",
                                        "--migrate",
                                        "-print-supported-cpus",
                                        "--print-supported-cpus",
                                        "-mcpu=help",
                                        "-mtune=help",
                                        "-print-enabled-extensions",
                                        "-S",
                                        "--assemble",
                                        "-fmodule-header",
                                        "-c",
                                        "--compile",
                                        "-emit-interface-stubs"};
  return contains(Options, Arg) || startsWith(Arg, "-fmodule-header=");
}

/// Whether clang takes the input as a header, which it precompiles and never
/// links (a PCH or a header unit): by its -x language, else by its name
/// (clang's types::lookupTypeForExtension).
bool isHeaderInput(std::string_view Path, std::string_view XLanguage) {
  if (XLanguage != "none")
    return endsWith(XLanguage, "-header") ||
           endsWith(XLanguage, "-header-cpp-output");
  std::string_view Ext = extension(Path);
  return Ext == ".h" || Ext == ".H" || Ext == ".hh" || Ext == ".hpp" ||
         Ext == ".hxx" || Ext == ".iih";
}

/// The language clang gives an input: the -x in force, or else what its
/// name says for the languages whose handling differs here (assembly).
std::string_view inputLanguage(std::string_view Path,
                               std::string_view XLanguage) {
  if (XLanguage != "none")
    return XLanguage;
  std::string_view Ext = extension(Path);
  if (Ext == ".s")
    return "assembler";
  if (Ext == ".S" || Ext == ".sx")
    return "assembler-with-cpp";
  return "none";
}

bool isCXXDriver(std::string_view Argv0) {
  return endsWith(fileName(Argv0), "++");
}

void append(std::vector<std::string> &To, const std::vector<std::string> &V) {
  To.insert(To.end(), V.begin(), V.end());
}

/// Runs Args; returns its exit status (-1 if it could not run).
int run(const std::vector<std::string> &Args) {
  std::string Error;
  int Status = runAndWait(Args, Error);
  if (Status < 0)
    std::fprintf(stderr, "%s: error: cannot run '%s': %s\n", ToolName.c_str(),
                 Args[0].c_str(), Error.c_str());
  return Status;
}

/// What the command line asks for, as far as pcmap is concerned.
struct Invocation {
  unsigned Features = 0;
  /// The ignorelists: absolute, for the plugin, and as the command line
  /// spells them, for the dependency file (as clang lists its own).
  std::vector<std::string> Ignorelists, IgnorelistsAsGiven;
  /// Every argument but pcmap's own, in order, for clang.
  std::vector<std::string> Passthrough;
  size_t OutputIndex = ~size_t(0); // of "-o" in Passthrough
  /// Linking: whether clang links (no option stops it before, and an input
  /// is not a header); HasLinkInput: whether an input is not a header.
  bool LTO = false, Linking = true, HasInput = false, UseLdGiven = false;
  bool StopsBeforeLink = false, HasLinkInput = false;
  /// Whether clang stops before it assembles (an option other than -c
  /// stops it before the link); whether it only prints its jobs (-###).
  bool StopsBeforeAssembly = false, DryRun = false;
  /// The assembly sources without a preprocessor (.s, -x assembler) and
  /// with one (.S, -x assembler-with-cpp): their index in Passthrough.
  std::vector<size_t> AssemblySources, PreprocessedAssemblySources;
  bool CompilesSource = false, Version = false, Help = false;
  bool PreprocessOnly = false; // -E
  /// Whether some input goes through clang's compiler (-cc1: C, C++, the
  /// preprocessing of .S), which alone takes the plugin; plain assembly goes
  /// to the assembler (-cc1as), which knows neither the plugin nor its
  /// options.
  bool RunsCompiler = false;
  /// Whether the code generator splits functions into fragments
  /// (-fbasic-block-sections=all|list=, -fsplit-machine-functions).
  bool BBSections = false, SplitMachineFunctions = false;
  std::string Target; // --target=, -target: empty for clang's default
  /// The inputs that are compiled: their index in Passthrough and the -x
  /// language in force for them ("none": from the file name).
  std::vector<std::pair<size_t, std::string>> Sources;
  std::vector<size_t> Inputs; // every input's index in Passthrough
  /// Whether the link gets the runtime, and which one.
  bool UpstreamMetadata = false, SharedRuntime = false, SharedOutput = false,
       NoRuntime = false;
  /// -static or -static-pie: the C library is an archive.
  bool StaticLink = false;
};

/// The -x language in force while the command line is read.
struct InputLanguage {
  std::string Name = "none";
  /// Whether a -x other than "none" is in force: the inputs are then sources.
  bool Given = false;

  void set(std::string_view Language) {
    Name = Language;
    Given = Name != "none";
  }
};

/// Notes what an option whose value is a separate argument says.
void noteSeparateValue(std::string_view Arg, std::string_view Value,
                       Invocation &Inv, InputLanguage &Language) {
  if (Arg == "-target")
    Inv.Target = Value;
  else if (Arg == "-x")
    Language.set(Value);
  else if (Arg == "-o")
    Inv.OutputIndex = Inv.Passthrough.size();
}

/// Takes one of pcmap's own options, which clang does not know; false if Arg
/// is not one.
bool takeOwnOption(std::string_view Arg, Invocation &Inv) {
  if (consumePrefix(Arg, "-fsanitize-metadata=")) {
    Inv.Features |= parseFeatures(Arg, "-fsanitize-metadata=");
    return true;
  }
  if (consumePrefix(Arg, "-fno-sanitize-metadata=")) {
    Inv.Features &= ~parseFeatures(Arg, "-fno-sanitize-metadata=");
    return true;
  }
  if (consumePrefix(Arg, "-fsanitize-metadata-ignorelist=")) {
    std::string File(Arg);
    if (!exists(File))
      fail("ignorelist file '" + File + "' not found");
    Inv.Ignorelists.push_back(makeAbsolute(File));
    Inv.IgnorelistsAsGiven.push_back(File);
    return true;
  }
  if (Arg == "-shared-libpcmap" || Arg == "-static-libpcmap") {
    Inv.SharedRuntime = Arg == "-shared-libpcmap";
    return true;
  }
  return false;
}

/// Notes what decides the runtime a link gets, and the informational
/// options (--version, --help).
void noteOutputOption(std::string_view Arg, Invocation &Inv) {
  std::string_view Target = Arg;
  if (consumePrefix(Target, "--target="))
    Inv.Target = Target;
  if (startsWith(Arg, "-fexperimental-sanitize-metadata="))
    Inv.UpstreamMetadata = true;
  else if (startsWith(Arg, "-fno-experimental-sanitize-metadata="))
    Inv.UpstreamMetadata = false;
  else if (Arg == "-shared")
    Inv.SharedOutput = true;
  else if (Arg == "-static" || Arg == "-static-pie")
    Inv.StaticLink = true;
  else if (Arg == "-r" || Arg == "-nostdlib" || Arg == "-nodefaultlibs")
    Inv.NoRuntime = true;
  else if (Arg == "--version")
    Inv.Version = true;
  else if (Arg == "--help")
    Inv.Help = true;
}

/// Notes whether the code generator will split functions into fragments.
void noteFragmentOption(std::string_view Arg, Invocation &Inv) {
  if (startsWith(Arg, "-fbasic-block-sections="))
    Inv.BBSections = Arg == "-fbasic-block-sections=all" ||
                     startsWith(Arg, "-fbasic-block-sections=list=");
  else if (Arg == "-fsplit-machine-functions")
    Inv.SplitMachineFunctions = true;
  else if (Arg == "-fno-split-machine-functions")
    Inv.SplitMachineFunctions = false;
}

/// Notes which phases clang runs (LTO, link or not) and the inputs, with the
/// language each is compiled as.
void notePhaseOrInput(std::string_view Arg, Invocation &Inv,
                      InputLanguage &Language) {
  if (Arg == "-flto" || startsWith(Arg, "-flto="))
    Inv.LTO = true;
  else if (Arg == "-fno-lto")
    Inv.LTO = false;
  else if (Arg == "-###")
    Inv.DryRun = true;
  else if (stopsBeforeLink(Arg)) {
    Inv.StopsBeforeLink = true;
    Inv.StopsBeforeAssembly |= Arg != "-c" && Arg != "--compile";
    Inv.PreprocessOnly |= Arg == "-E" || Arg == "--preprocess";
  } else if (startsWith(Arg, "-fuse-ld="))
    Inv.UseLdGiven = true;
  else if (startsWith(Arg, "-x"))
    Language.set(Arg.substr(2));
  else if (Arg == "-" || !startsWith(Arg, "-")) {
    Inv.HasInput = true;
    Inv.HasLinkInput |= !isHeaderInput(Arg, Language.Name);
    Inv.Inputs.push_back(Inv.Passthrough.size());
    if (Language.Given || Arg == "-" || !isLinkerInput(Arg)) {
      Inv.CompilesSource = true;
      std::string_view Input = inputLanguage(Arg, Language.Name);
      bool Assembly = Input == "assembler";
      Inv.RunsCompiler |= !Assembly;
      if (Assembly && Arg != "-")
        Inv.AssemblySources.push_back(Inv.Passthrough.size());
      if (Input == "assembler-with-cpp" && Arg != "-")
        Inv.PreprocessedAssemblySources.push_back(Inv.Passthrough.size());
      Inv.Sources.emplace_back(Inv.Passthrough.size(), Language.Name);
    }
  }
}

/// Takes pcmap's own options out of the command line and notes what the
/// rest asks clang to do.
Invocation parseArguments(const std::vector<std::string> &Argv) {
  Invocation Inv;
  InputLanguage Language;
  size_t Argc = Argv.size();
  for (size_t I = 1; I < Argc; ++I) {
    std::string_view Arg = Argv[I];
    if (takesSeparateValue(Arg) && I + 1 < Argc) {
      noteSeparateValue(Arg, Argv[I + 1], Inv, Language);
      Inv.Passthrough.emplace_back(Argv[I]);
      Inv.Passthrough.emplace_back(Argv[++I]);
      continue;
    }
    if (takeOwnOption(Arg, Inv))
      continue;
    noteOutputOption(Arg, Inv);
    noteFragmentOption(Arg, Inv);
    notePhaseOrInput(Arg, Inv, Language);
    Inv.Passthrough.emplace_back(Argv[I]);
  }
  Inv.Linking = !Inv.StopsBeforeLink && Inv.HasLinkInput;
  return Inv;
}

/// pcmap's public headers (<pcmap/pcmap.h>): <prefix>/include.
std::string includeDir(const char *Argv0) {
  return besideExecutable(Argv0, PCMAP_INCLUDE_RELATIVE_PATH);
}

/// 64-bit FNV-1a.
uint64_t hashBytes(std::string_view Bytes, uint64_t Hash = 14695981039346656037u) {
  for (unsigned char C : Bytes)
    Hash = (Hash ^ C) * 1099511628211u;
  return Hash;
}

/// A header that names File in the preprocessed output (a line marker), at a
/// path that says what File holds: <cache>/ignorelist-<hash>.h. "" if it
/// cannot be written.
std::string ignorelistMarker(const std::string &File) {
  std::string Contents, Dir = userCacheDirectory();
  if (Dir.empty() || !readFile(File, Contents))
    return "";
  char Name[64];
  std::snprintf(Name, sizeof(Name), "ignorelist-%016llx.h",
                (unsigned long long)hashBytes(Contents, hashBytes(File)));
  std::string Header = joinPath(Dir, Name);
  if (exists(Header))
    return Header;
  std::string Quoted;
  for (char C : File) {
    if (C == '"' || C == '\\')
      Quoted += '\\';
    Quoted += C;
  }
  std::string Text = "/* pcmap: names a -fsanitize-metadata-ignorelist= file "
                     "in preprocessed output. */\n#line 1 \"" +
                     Quoted + "\"\n";
  return writeFileAtomically(Header, Text) ? Header : "";
}

/// The ignorelists are inputs of the compile, as clang's own are: they go
/// into the dependency file (-MD, -MMD), so that make and ninja rebuild
/// what they affect. A compiler cache (ccache) keys an object on the
/// command line and on the preprocessed output (-E), in which it finds the
/// files to check in later builds: there each ignorelist is named, by a
/// header that the drivers include (in the user's cache directory, one per
/// file and contents, written once), so that an edit misses the cache.
void addIgnorelistDependencies(const Invocation &Inv,
                               std::vector<std::string> &CompileArgs) {
  for (const std::string &File : Inv.IgnorelistsAsGiven)
    append(CompileArgs, {"-Xclang", "-fdepfile-entry=" + File});
  if (!Inv.PreprocessOnly)
    return;
  for (const std::string &File : Inv.Ignorelists) {
    std::string Header = ignorelistMarker(File);
    if (!Header.empty())
      append(CompileArgs, {"-include", Header});
  }
}

/// The arguments that load the plugin into the compiles and, with LTO, into
/// the link.
void addPluginArgs(const Invocation &Inv, const char *Argv0,
                   std::vector<std::string> &CompileArgs,
                   std::vector<std::string> &LinkArgs) {
  if (!Inv.Features ||
      !(Inv.RunsCompiler || (Inv.LTO && Inv.Linking && Inv.HasInput)))
    return;
  std::string Plugin = findPlugin(Argv0);
  if (!exists(Plugin))
    fail("cannot find the pcmap plugin at '" + Plugin + "' (set PCMAP_PLUGIN)");
  // The plugin's options go to the compiler alone (-Xclang): clang would
  // also give -mllvm ones to its assembler (of .s and .S files, and of
  // -save-temps), which has no plugin and rejects them.
  auto Option = [&](const std::string &O) {
    append(CompileArgs, {"-Xclang", "-mllvm", "-Xclang", O});
  };
  if (Inv.RunsCompiler) {
    // -fplugin loads the library before -mllvm is parsed, so that the
    // plugin's -pcmap-* options exist; -fpass-plugin registers the pass.
    CompileArgs.push_back("-fplugin=" + Plugin);
    CompileArgs.push_back("-fpass-plugin=" + Plugin);
    Option(std::string("-pcmap-atomics=") +
           (Inv.Features & Atomics ? "1" : "0"));
    Option(std::string("-pcmap-functions=") +
           (Inv.Features & Functions ? "1" : "0"));
    for (const std::string &File : Inv.Ignorelists)
      Option("-pcmap-ignorelist=" + File);
    addIgnorelistDependencies(Inv, CompileArgs);
    // The pass cannot see the code generator's options; the entries say
    // that the runtime and the tools must look for the fragments. With
    // LTO, the mark goes with the functions to the link.
    if (Inv.BBSections || Inv.SplitMachineFunctions)
      Option("-pcmap-fragmented");
    // With LTO, compile steps only mark the functions; the link instruments
    // them after the link-time optimisations (docs/design/Instrumentation.md).
    if (Inv.LTO)
      Option("-pcmap-lto-prelink");
  }
  if (Inv.LTO && Inv.Linking && Inv.HasInput) {
    if (!Inv.UseLdGiven)
      LinkArgs.push_back("-fuse-ld=lld");
    LinkArgs.push_back("-Wl,--load-pass-plugin=" + Plugin);
  }
}

/// The runtime's directory for the command line's target: lib/pcmap for the
/// target pcmap runs on, lib/pcmap/<arch>-<os>-<environment> for one it was
/// cross-built for (cmake/PCMapCrossRuntime.cmake), as clang keeps a
/// directory of runtimes per target.
std::string runtimeDir(const Invocation &Inv, const char *Argv0) {
  std::string Dir = libraryDir(Argv0);
  if (Inv.Target.empty())
    return Dir;
  TargetTriple Target = parseTargetTriple(Inv.Target);
  TargetTriple Native = parseTargetTriple(PCMAP_HOST_TRIPLE);
  if (Target.Arch == Native.Arch && Target.OS == Native.OS)
    return Dir;
  return Dir + "/" + Target.Arch + "-" + Target.OS + "-" + Target.Environment;
}

/// The runtime goes into executables, as -fsanitize=address puts ASan's:
/// shared objects register with the executable's runtime, which exports its
/// interface to them. The archives go by compiler-rt's names
/// (libclang_rt.pcmap.a, links to libpcmap_rt.a; rt/CMakeLists.txt), which
/// build tools know for a flag's runtime rather than the language's.
std::vector<std::string> runtimeArgs(const Invocation &Inv, const char *Argv0) {
  std::vector<std::string> Args;
  if (!(Inv.Features || Inv.UpstreamMetadata) || !Inv.Linking ||
      !Inv.HasInput || Inv.NoRuntime)
    return Args;
  std::string Dir = runtimeDir(Inv, Argv0);
  // AArch64: every module, shared objects too, tells the runtime where its
  // outline-atomic helpers are (rt/platform/aarch64_outline_helpers.cpp).
  std::string Outline = Dir + "/libclang_rt.pcmap_outline.a";
  bool HasOutline = exists(Outline);
  if (Inv.SharedOutput && !HasOutline)
    return Args;
  if (!isDirectory(Dir))
    fail("no pcmap runtime for target '" + Inv.Target + "' (looked in '" + Dir +
         "'; docs/Drivers.md, \"AArch64\", says how to build one)");
  // The libraries are not sources, whatever -x the command line left in force.
  append(Args, {"-x", "none"});
  if (HasOutline)
    append(Args, {"-Wl,--whole-archive", Outline, "-Wl,--no-whole-archive"});
  if (Inv.SharedOutput)
    return Args;
  // A runtime built with sanitizers (PCMAP_SANITIZE) calls into theirs: the
  // program gets them too.
  if (*PCMAP_RT_SANITIZE)
    Args.push_back(std::string("-fsanitize=") + PCMAP_RT_SANITIZE);
  // The drivers' option defaults (the fault reporter on).
  append(Args, {"-Wl,--whole-archive", Dir + "/libclang_rt.pcmap_driver.a",
                "-Wl,--no-whole-archive"});
  if (Inv.SharedRuntime)
    append(Args, {Dir + "/libpcmap_rt.so", "-Wl,-rpath," + Dir});
  else
    append(Args, {"-Wl,--whole-archive", Dir + "/libclang_rt.pcmap.a",
                  "-Wl,--no-whole-archive",
                  "-Wl,--dynamic-list=" + Dir +
                      (Inv.StaticLink ? "/libpcmap_rt_static.syms"
                                      : "/libpcmap_rt.syms")});
  // In a static link the runtime's pthread_create interceptor (weak, as is
  // the C library's there) is the program's, and there is no dynamic loader
  // to find the real one: the C library's own name for it is pulled from
  // its archive, where the interceptor finds it (rt/platform/
  // linux_threads.cpp).
  if (Inv.StaticLink)
    Args.push_back("-Wl,--undefined=__pthread_create_2_1");
  return Args;
}

/// Whether the command compiles (-c) one input, a preprocessed assembly
/// source: the one case of those the drivers preprocess themselves.
bool compilesOnePreprocessedAssembly(const Invocation &Inv) {
  return Inv.StopsBeforeLink && Inv.Inputs.size() == 1 &&
         Inv.PreprocessedAssemblySources.size() == 1;
}

/// Runs Args, whose assembly sources get pcmap's tables
/// (AssemblySources.h); its exit status.
int assembleWithTables(std::vector<std::string> &Args, size_t PassthroughBegin,
                       const Invocation &Inv, const char *Argv0) {
  std::vector<size_t> Sources;
  for (size_t Index : Inv.AssemblySources)
    Sources.push_back(PassthroughBegin + Index);
  AssemblySources Assembly(libraryDir(Argv0) + "/pcmap-asm", Args[0]);
  if (compilesOnePreprocessedAssembly(Inv))
    Assembly.rewritePreprocessed(Args, PassthroughBegin +
                                           Inv.PreprocessedAssemblySources[0]);
  else
    Assembly.rewrite(Args, Sources);
  std::fflush(stdout);
  std::string Error;
  int Status = runAndWait(Args, Error);
  if (Status < 0)
    fail("cannot run '" + Args[0] + "': " + Error);
  return Status;
}

/// Compiles the source at Index of Inv.Passthrough to Object, with
/// CompileArgs and Options (the command's options but the inputs and -o);
/// an assembly source gets its tables as in a command of its own
/// (assembleWithTables). Returns the exit status.
int compileSource(const std::string &Clang, const Invocation &Inv,
                  const char *Argv0, size_t Index, const std::string &Language,
                  const std::vector<std::string> &CompileArgs,
                  const std::vector<std::string> &Options,
                  const std::string &Object) {
  std::vector<std::string> Args{Clang};
  append(Args, CompileArgs);
  append(Args, Options);
  append(Args, {"-Qunused-arguments", "-c", "-x", Language});
  size_t Source = Args.size();
  append(Args, {Inv.Passthrough[Index], "-o", Object});
  if (!Inv.Features || Inv.DryRun)
    return run(Args);
  AssemblySources Assembly(libraryDir(Argv0) + "/pcmap-asm", Clang);
  if (contains(Inv.AssemblySources, Index))
    Assembly.rewrite(Args, {Source});
  else if (contains(Inv.PreprocessedAssemblySources, Index))
    Assembly.rewritePreprocessed(Args, Source);
  return run(Args);
}

/// Compiles each source of Inv.Passthrough to a temporary object (with
/// CompileArgs, without the sanitizers), then links the objects and the
/// other inputs with LinkArgs and RuntimeArgs. Returns the exit status.
int compileThenLink(const std::string &Clang, const Invocation &Inv,
                    const char *Argv0,
                    const std::vector<std::string> &CompileArgs,
                    const std::vector<std::string> &LinkArgs,
                    const std::vector<std::string> &RuntimeArgs) {
  const std::vector<std::string> &Passthrough = Inv.Passthrough;
  const auto &Sources = Inv.Sources;
  // The options shared by every compile: all but the inputs and -o.
  std::vector<std::string> Options;
  for (size_t I = 0; I < Passthrough.size(); ++I) {
    if (contains(Inv.Inputs, I))
      continue;
    if (I == Inv.OutputIndex) {
      ++I;
      continue;
    }
    Options.push_back(Passthrough[I]);
  }
  std::vector<std::string> Objects;
  int Status = 0;
  for (const auto &[Index, Language] : Sources) {
    std::string Error;
    std::string Object = createTemporaryFile("pcmap", "o", Error);
    if (Object.empty()) {
      std::fprintf(stderr, "%s: error: cannot create a temporary file: %s\n",
                   ToolName.c_str(), Error.c_str());
      Status = 1;
      break;
    }
    Objects.push_back(Object);
    if ((Status = compileSource(Clang, Inv, Argv0, Index, Language, CompileArgs,
                                Options, Object)) != 0)
      break;
  }
  if (Status == 0) {
    std::vector<std::string> Args{Clang};
    append(Args, LinkArgs);
    size_t Next = 0;
    for (size_t I = 0; I < Passthrough.size(); ++I) {
      if (Next < Sources.size() && Sources[Next].first == I) {
        append(Args, {"-x", "none", Objects[Next]});
        if (Sources[Next].second != "none")
          append(Args, {"-x", Sources[Next].second});
        ++Next;
        continue;
      }
      Args.push_back(Passthrough[I]);
    }
    Args.push_back("-Qunused-arguments");
    append(Args, RuntimeArgs);
    Status = run(Args);
  }
  for (const std::string &Object : Objects)
    removeFile(Object);
  return Status == 0 ? 0 : 1;
}

/// pcmap's own options, printed before clang's --help.
void printHelp() {
  std::printf("pcmap %s: clang (LLVM %s) with pcmap's metadata. pcmap's "
              "options:\n",
              PCMAP_VERSION, PCMAP_LLVM_VERSION);
  std::fputs(
      R"(  -fsanitize-metadata=<list>     record <list>: atomics, functions
                                 (alias covered), all
  -fno-sanitize-metadata=<list>  stop recording <list>
  -fsanitize-metadata-ignorelist=<file>
                                 functions and files to leave out
                                 (the -fsanitize-ignorelist format)
  -static-libpcmap               link the static runtime (the default)
  -shared-libpcmap               link the shared runtime
Assembly sources (.s; .S compiled alone with -c) get tables from what the
assembler reads (pcmap-asm).
Run-time options: PCMAP_OPTIONS=help=1 ./program. clang's options follow.

)",
      stdout);
  std::fflush(stdout);
}

/// --version: clang's text first, as build tools read it (Meson, CMake,
/// autoconf and libtool take the compiler and its version from the first
/// line, "clang version 19.1.7"), then which pcmap, and the LLVM its plugin
/// was built for.
int runThenSayVersion(const std::vector<std::string> &Args) {
  std::fflush(stdout);
  std::string Error;
  int Status = runAndWait(Args, Error);
  if (Status < 0)
    fail("cannot run '" + Args[0] + "': " + Error);
  std::printf("pcmap version %s (plugin built for LLVM %s)\n", PCMAP_VERSION,
              PCMAP_LLVM_VERSION);
  std::fflush(stdout);
  return Status;
}

/// The command line with its response files (@file) expanded, as clang
/// expands them: pcmap's options may be in one.
std::vector<std::string> expandedArguments(int Argc, char **Argv) {
  std::vector<std::string> Args(Argv, Argv + Argc);
  std::string Error;
  if (!expandResponseFiles(Args, /*First=*/1, Error))
    fail(Error);
  return Args;
}

} // namespace

int main(int Argc, char **Argv) {
  ToolName = fileName(Argv[0]);
  bool CXX = isCXXDriver(Argv[0]);
  std::string Clang = CXX ? getEnv("PCMAP_CLANGXX", PCMAP_CLANGXX_PATH)
                          : getEnv("PCMAP_CLANG", PCMAP_CLANG_PATH);
  Invocation Inv = parseArguments(expandedArguments(Argc, Argv));
  if (Inv.Help)
    printHelp();

  std::vector<std::string> CompileArgs, LinkArgs;
  addPluginArgs(Inv, Argv[0], CompileArgs, LinkArgs);
  // <pcmap/pcmap.h> needs no -I, as <sanitizer/asan_interface.h> needs none
  // with clang: the directory comes after the user's own, like clang's
  // resource headers.
  if (Inv.RunsCompiler)
    append(CompileArgs, {"-idirafter", includeDir(Argv[0])});
  std::vector<std::string> RuntimeArgs = runtimeArgs(Inv, Argv[0]);

  // Linked with a sanitized runtime, the program's own code is still
  // compiled as asked: -fsanitize=thread, for one, would replace its atomics
  // with calls. Sources compiled and linked in one command are then compiled
  // first, each to a temporary object, and linked with the sanitizers.
  if (*PCMAP_RT_SANITIZE && !RuntimeArgs.empty() && Inv.CompilesSource)
    return compileThenLink(Clang, Inv, Argv[0], CompileArgs, LinkArgs,
                           RuntimeArgs);

  std::vector<std::string> Args{Clang};
  append(Args, CompileArgs);
  append(Args, LinkArgs);
  size_t PassthroughBegin = Args.size();
  append(Args, Inv.Passthrough);
  append(Args, RuntimeArgs);
  if (Inv.Version)
    return runThenSayVersion(Args);
  if (Inv.Features && !Inv.DryRun && !Inv.StopsBeforeAssembly &&
      (!Inv.AssemblySources.empty() || compilesOnePreprocessedAssembly(Inv)))
    return assembleWithTables(Args, PassthroughBegin, Inv, Argv[0]);
  int Error = execute(Args);
  fail("cannot run '" + Clang + "': " + std::strerror(Error));
}
