//===- Platform.cpp - The drivers' paths, files and processes -------------===//
//
// POSIX and the C library only (Platform.h says why).
//
//===----------------------------------------------------------------------===//

#include "Platform.h"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <ftw.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace pcmap::driver {

std::string_view fileName(std::string_view Path) {
  size_t Last = Path.find_last_of('/');
  if (Last == std::string_view::npos)
    return Path;
  if (Last + 1 < Path.size())
    return Path.substr(Last + 1);
  // A trailing separator: the root itself, or a directory ("a/" is "a/.").
  if (Path.find_first_not_of('/') == std::string_view::npos)
    return Path.substr(0, 1);
  return ".";
}

std::string_view parentPath(std::string_view Path) {
  size_t End = Path.find_last_of('/');
  if (End == std::string_view::npos)
    return {};
  bool TrailingSeparator = End + 1 == Path.size();
  while (End > 0 && Path[End - 1] == '/')
    --End;
  if (End == 0) // The root: the parent of "/a" is "/", "/" has none.
    return TrailingSeparator ? std::string_view() : Path.substr(0, 1);
  return Path.substr(0, End);
}

std::string_view extension(std::string_view Path) {
  std::string_view Name = fileName(Path);
  size_t Dot = Name.find_last_of('.');
  if (Dot == std::string_view::npos || Name == "." || Name == "..")
    return {};
  return Name.substr(Dot);
}

std::string joinPath(std::string_view Dir, std::string_view Name) {
  std::string Path(Dir);
  if (Name.empty())
    return Path;
  if (!Path.empty() && Path.back() == '/') {
    size_t Start = Name.find_first_not_of('/');
    Path.append(Start == std::string_view::npos ? std::string_view()
                                                : Name.substr(Start));
  } else {
    if (!Path.empty() && Name.front() != '/')
      Path.push_back('/');
    Path.append(Name);
  }
  return Path;
}

std::string removeDots(std::string_view Path) {
  bool Absolute = !Path.empty() && Path.front() == '/';
  std::vector<std::string_view> Components;
  size_t Pos = 0;
  while (Pos < Path.size()) {
    size_t End = Path.find('/', Pos);
    if (End == std::string_view::npos)
      End = Path.size();
    std::string_view C = Path.substr(Pos, End - Pos);
    Pos = End + 1;
    if (C.empty() || C == ".")
      continue;
    if (C == "..") {
      if (!Components.empty() && Components.back() != "..") {
        Components.pop_back();
        continue;
      }
      if (Absolute) // Nothing is above the root.
        continue;
    }
    Components.push_back(C);
  }
  std::string Result = Absolute ? "/" : "";
  for (std::string_view C : Components)
    Result = joinPath(Result, C);
  return Result;
}

namespace {

bool sameFile(const char *A, const char *B) {
  struct stat SA, SB;
  return ::stat(A, &SA) == 0 && ::stat(B, &SB) == 0 && SA.st_dev == SB.st_dev &&
         SA.st_ino == SB.st_ino;
}

/// The real path of Dir/Name if it names an existing file.
bool realPathIn(const std::string &Dir, const char *Name, std::string &Real) {
  std::string Full = Dir + "/" + Name;
  char *Resolved = ::realpath(Full.c_str(), nullptr);
  if (!Resolved)
    return false;
  Real = Resolved;
  std::free(Resolved);
  struct stat S;
  return ::stat(Full.c_str(), &S) == 0;
}

/// Argv0 as the shell found it: a path, or a name in $PATH.
std::string programFromArgv0(const char *Argv0) {
  std::string Real;
  if (!Argv0)
    return "";
  if (Argv0[0] == '/')
    return realPathIn("", Argv0 + 1, Real) ? Real : "";
  if (std::strchr(Argv0, '/')) {
    char Cwd[PATH_MAX];
    if (::getcwd(Cwd, sizeof(Cwd)) && realPathIn(Cwd, Argv0, Real))
      return Real;
    return "";
  }
  const char *Path = std::getenv("PATH");
  for (std::string_view Rest = Path ? Path : ""; !Rest.empty();) {
    size_t Colon = Rest.find(':');
    std::string Dir(Rest.substr(0, Colon));
    Rest = Colon == std::string_view::npos ? "" : Rest.substr(Colon + 1);
    if (!Dir.empty() && realPathIn(Dir, Argv0, Real))
      return Real;
  }
  return "";
}

std::vector<char *> cArguments(const std::vector<std::string> &Args) {
  std::vector<char *> Argv;
  for (const std::string &A : Args)
    Argv.push_back(const_cast<char *>(A.c_str()));
  Argv.push_back(nullptr);
  return Argv;
}

} // namespace

std::string currentDirectory() {
  const char *Pwd = std::getenv("PWD");
  if (Pwd && Pwd[0] == '/' && sameFile(Pwd, "."))
    return Pwd;
  char Buffer[PATH_MAX];
  return ::getcwd(Buffer, sizeof(Buffer)) ? Buffer : "";
}

std::string makeAbsolute(std::string_view Path) {
  if (!Path.empty() && Path.front() == '/')
    return std::string(Path);
  return joinPath(currentDirectory(), Path);
}

bool exists(const std::string &Path) {
  return ::access(Path.c_str(), F_OK) == 0;
}

bool isDirectory(const std::string &Path) {
  struct stat S;
  return ::stat(Path.c_str(), &S) == 0 && S_ISDIR(S.st_mode);
}

std::string mainExecutable(const char *Argv0) {
  const char *Self = "/proc/self/exe";
  if (exists(Self)) { // /proc may not be mounted (a chroot).
    char Link[PATH_MAX];
    ssize_t Length = ::readlink(Self, Link, sizeof(Link) - 1);
    if (Length < 0)
      return "";
    Link[Length] = '\0';
    if (char *Real = ::realpath(Link, nullptr)) {
      std::string Result = Real;
      std::free(Real);
      return Result;
    }
  }
  return programFromArgv0(Argv0);
}

/// The directory of temporary files: the variables LLVM's
/// sys::path::system_temp_directory reads, in order.
static std::string temporaryDirectory() {
  for (const char *Var : {"TMPDIR", "TMP", "TEMP", "TEMPDIR"})
    if (const char *Dir = std::getenv(Var))
      return Dir;
  return "/tmp";
}

std::string createTemporaryFile(const char *Prefix, const char *Suffix,
                                std::string &Error) {
  std::string Name = std::string(Prefix) + "-XXXXXX." + Suffix;
  std::string Path = joinPath(temporaryDirectory(), Name);
  int FD = ::mkstemps(Path.data(), int(std::strlen(Suffix)) + 1);
  if (FD < 0) {
    Error = std::strerror(errno);
    return "";
  }
  ::close(FD);
  return Path;
}

void removeFile(const std::string &Path) { ::unlink(Path.c_str()); }

std::string createTemporaryDirectory(const char *Prefix, std::string &Error) {
  std::string Path =
      joinPath(temporaryDirectory(), std::string(Prefix) + "-XXXXXX");
  if (!::mkdtemp(Path.data())) {
    Error = std::strerror(errno);
    return "";
  }
  return Path;
}

void removeDirectoryTree(const std::string &Dir) {
  ::nftw(
      Dir.c_str(),
      [](const char *Path, const struct stat *, int Type, struct FTW *) {
        if (Type == FTW_DP)
          ::rmdir(Path);
        else
          ::unlink(Path);
        return 0;
      },
      16, FTW_DEPTH | FTW_PHYS);
}

/// Appends what FD holds, to its end, to Contents and closes FD; false if
/// a read failed.
static bool readAllAndClose(int FD, std::string &Contents) {
  char Buffer[4096];
  ssize_t N;
  while ((N = ::read(FD, Buffer, sizeof(Buffer))) != 0) {
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0)
      break;
    Contents.append(Buffer, size_t(N));
  }
  ::close(FD);
  return N == 0;
}

bool readFile(const std::string &Path, std::string &Contents) {
  int FD = ::open(Path.c_str(), O_RDONLY | O_CLOEXEC);
  Contents.clear();
  return FD >= 0 && readAllAndClose(FD, Contents);
}

bool writeFileAtomically(const std::string &Path, std::string_view Contents) {
  std::string Temporary = Path + ".XXXXXX";
  int FD = ::mkstemp(Temporary.data());
  if (FD < 0)
    return false;
  bool Written = true;
  for (size_t Done = 0; Written && Done < Contents.size();) {
    ssize_t N = ::write(FD, Contents.data() + Done, Contents.size() - Done);
    if (N < 0 && errno == EINTR)
      continue;
    Written = N > 0;
    Done += Written ? size_t(N) : 0;
  }
  // mkstemp made it 0600: the file is as readable as any the user writes.
  mode_t Mask = ::umask(0);
  ::umask(Mask);
  ::fchmod(FD, 0666 & ~Mask);
  Written &= ::close(FD) == 0;
  if (Written && ::rename(Temporary.c_str(), Path.c_str()) == 0)
    return true;
  ::unlink(Temporary.c_str());
  return false;
}

bool makeDirectories(const std::string &Dir) {
  if (isDirectory(Dir))
    return true;
  std::string Parent(parentPath(Dir));
  if (!Parent.empty() && Parent != Dir && !makeDirectories(Parent))
    return false;
  return ::mkdir(Dir.c_str(), 0700) == 0 || (errno == EEXIST && isDirectory(Dir));
}

std::string userCacheDirectory() {
  std::string Base;
  if (const char *XDG = std::getenv("XDG_CACHE_HOME"); XDG && *XDG == '/')
    Base = XDG;
  else if (const char *Home = std::getenv("HOME"); Home && *Home == '/')
    Base = joinPath(Home, ".cache");
  else
    return "";
  std::string Dir = joinPath(Base, "pcmap");
  return makeDirectories(Dir) && ::access(Dir.c_str(), W_OK) == 0 ? Dir : "";
}

/// Starts Args with Actions; the child's pid, or -1 with Error.
static pid_t spawn(const std::vector<std::string> &Args,
                   const posix_spawn_file_actions_t *Actions,
                   std::string &Error) {
  if (!exists(Args[0])) {
    Error = "Executable \"" + Args[0] + "\" doesn't exist!";
    return -1;
  }
  std::vector<char *> Argv = cArguments(Args);
  pid_t Pid;
  if (int Err = ::posix_spawn(&Pid, Argv[0], Actions, nullptr, Argv.data(),
                              environ)) {
    Error = std::string("posix_spawn failed: ") + std::strerror(Err);
    return -1;
  }
  return Pid;
}

/// Waits for Pid: runAndWait's result.
static int waitFor(pid_t Pid, std::string &Error) {
  int Status;
  while (::waitpid(Pid, &Status, 0) < 0) {
    if (errno != EINTR) {
      Error = std::string("Error waiting for child process: ") +
              std::strerror(errno);
      return -1;
    }
  }
  if (WIFSIGNALED(Status)) {
    Error = ::strsignal(WTERMSIG(Status));
    if (WCOREDUMP(Status))
      Error += " (core dumped)";
    return -2;
  }
  int Code = WEXITSTATUS(Status);
  // The shell's codes for a program it could not find, or not execute.
  if (Code == 127 || Code == 126) {
    Error =
        Code == 127 ? std::strerror(ENOENT) : "Program could not be executed";
    return -1;
  }
  return Code;
}

int runAndWait(const std::vector<std::string> &Args, std::string &Error) {
  pid_t Pid = spawn(Args, nullptr, Error);
  return Pid < 0 ? -1 : waitFor(Pid, Error);
}

int runAndCapture(const std::vector<std::string> &Args, std::string &Output,
                  std::string &Error) {
  int Pipe[2];
  if (::pipe2(Pipe, O_CLOEXEC) != 0) {
    Error = std::strerror(errno);
    return -1;
  }
  posix_spawn_file_actions_t Actions;
  ::posix_spawn_file_actions_init(&Actions);
  ::posix_spawn_file_actions_adddup2(&Actions, Pipe[1], 1);
  ::posix_spawn_file_actions_adddup2(&Actions, Pipe[1], 2);
  pid_t Pid = spawn(Args, &Actions, Error);
  ::posix_spawn_file_actions_destroy(&Actions);
  ::close(Pipe[1]);
  readAllAndClose(Pipe[0], Output);
  return Pid < 0 ? -1 : waitFor(Pid, Error);
}

int execute(const std::vector<std::string> &Args) {
  std::vector<char *> Argv = cArguments(Args);
  ::execv(Argv[0], Argv.data());
  return errno;
}

} // namespace pcmap::driver
