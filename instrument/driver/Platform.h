//===- Platform.h - The drivers' paths, files and processes -----*- C++ -*-===//
//
// What the drivers ask of the system, on top of the C library alone: they
// link no LLVM library, whose loading would cost more than the rest of the
// driver (bench/driver_cost.py). Paths are handled as LLVM's sys::path does
// on POSIX, so that the arguments given to clang are the ones it always got.
// Every OS call of the drivers is here.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_INSTRUMENT_DRIVER_PLATFORM_H
#define PCMAP_INSTRUMENT_DRIVER_PLATFORM_H

#include <string>
#include <string_view>
#include <vector>

namespace pcmap::driver {

/// The last component of Path: "." if it ends with '/', "/" for the root.
std::string_view fileName(std::string_view Path);
/// Path without its last component and the separators before it: "" for a
/// name without a directory, "/" for a file in the root.
std::string_view parentPath(std::string_view Path);
/// The extension of Path's file name, with its dot ("" if none).
std::string_view extension(std::string_view Path);
/// Dir and Name joined by one separator.
std::string joinPath(std::string_view Dir, std::string_view Name);
/// Path without "." components, ".." resolved against the components before
/// it and repeated separators merged (no file system access).
std::string removeDots(std::string_view Path);

/// The working directory: $PWD if it names it (so that a path through a
/// symbolic link is kept), else getcwd().
std::string currentDirectory();
/// Path, prefixed with the working directory if it is relative.
std::string makeAbsolute(std::string_view Path);
bool exists(const std::string &Path);
bool isDirectory(const std::string &Path);
/// The real path of the running program: /proc/self/exe, else found from
/// Argv0 (a path, or a name looked up in $PATH); "" if neither works.
std::string mainExecutable(const char *Argv0);
/// Creates an empty file <temporary directory>/<Prefix>-XXXXXX.<Suffix> and
/// returns its name; on failure, "" and the reason in Error.
std::string createTemporaryFile(const char *Prefix, const char *Suffix,
                                std::string &Error);
void removeFile(const std::string &Path);
/// Creates a directory <temporary directory>/<Prefix>-XXXXXX, private to
/// the user; "" and the reason in Error if it cannot.
std::string createTemporaryDirectory(const char *Prefix, std::string &Error);
/// Removes Dir and everything in it (symbolic links are not followed).
void removeDirectoryTree(const std::string &Dir);
/// Creates Dir (mode 0700) and its missing parents; true if it is then a
/// directory.
bool makeDirectories(const std::string &Dir);
/// Reads the whole of Path into Contents; false if it cannot.
bool readFile(const std::string &Path, std::string &Contents);
/// Writes Contents to Path so that no reader sees a part of it (a file
/// beside it, renamed over it); false if it cannot.
bool writeFileAtomically(const std::string &Path, std::string_view Contents);
/// The user's cache directory for pcmap ($XDG_CACHE_HOME/pcmap, else
/// $HOME/.cache/pcmap), created private to the user if it does not exist;
/// "" if there is none.
std::string userCacheDirectory();

/// Runs Args (Args[0] is the program's path, not looked up in $PATH) and
/// waits for it: its exit status, or -1 if it could not run, -2 if a signal
/// ended it, with the reason in Error.
int runAndWait(const std::vector<std::string> &Args, std::string &Error);
/// Runs Args as runAndWait does, with what it writes to its standard output
/// and error in Output.
int runAndCapture(const std::vector<std::string> &Args, std::string &Output,
                  std::string &Error);
/// Replaces this process with Args; returns errno if it could not.
int execute(const std::vector<std::string> &Args);

} // namespace pcmap::driver

#endif // PCMAP_INSTRUMENT_DRIVER_PLATFORM_H
