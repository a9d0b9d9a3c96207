//===- log.cpp - The runtime's own output
//----------------------------------===//

#include "core/log.h"

#include "platform/hooks.h"
#include "platform/platform.h"

namespace pcmap {
namespace rt {

int Verbosity = 1;

namespace {
/// -1: a file of log_path, to be opened by the next write.
int LogFd = 2;
const char *LogPath;
/// The standard descriptor the log is (stderr, or stdout), as it was when
/// the log was opened, at start-up.
PCMAP_STARTUP_STATE DescriptorIdentity StandardAtStart;

/// Whether the log may be written to its standard descriptor. A program
/// may close descriptor 2 and open a file of its own, which then takes it:
/// a report there would write into the program's data. It is written while
/// the descriptor is the file it was at start-up, or anything a program
/// points its standard error at for its messages (a terminal, a pipe, a
/// socket, a file opened for appending); not into a regular file opened
/// otherwise (log_path then keeps the reports).
bool standardDescriptorIsSafe(int Fd) {
  DescriptorIdentity Now = identifyDescriptor(Fd);
  if (!Now.Open)
    return false;
  if (StandardAtStart.Open && Now.Device == StandardAtStart.Device &&
      Now.Inode == StandardAtStart.Inode)
    return true;
  return !Now.OverwritesData;
}

/// A child writes to a log file of its own (.<its pid>), as the sanitizers
/// do. It is opened when the child first writes, so that a child that
/// execs or exits silently leaves no empty file.
void reopenLogInChild() {
  if (LogFd <= 2)
    return;
  closeFd(LogFd);
  LogFd = -1;
}
PCMAP_SUBSCRIBE(LogHooks, 0, {{Event::ForkChild, reopenLogInChild}});
} // namespace

int logFd() {
  if (LogFd < 0)
    openLog(LogPath);
  if (LogFd <= 2 && !standardDescriptorIsSafe(LogFd))
    return -1;
  return LogFd;
}

PCMAP_STARTUP_CODE void openLog(const char *Path) {
  if (!Path || !*Path || !__builtin_strcmp(Path, "stderr") ||
      !__builtin_strcmp(Path, "stdout")) {
    LogFd = Path && !__builtin_strcmp(Path, "stdout") ? 1 : 2;
    StandardAtStart = identifyDescriptor(LogFd);
    return;
  }
  LogPath = Path;
  // A forked child writes to a file of its own (reopenLogInChild).
  ensureForkHandlers();
  Message Name;
  Name << Path << "." << uint64_t(currentProcessId());
  int Fd = openOutputFile(Name.data());
  if (Fd < 0) {
    LogFd = 2;
    StandardAtStart = identifyDescriptor(LogFd);
    Message M;
    M << "warning: cannot open log_path '" << Name.data()
      << "'; writing to stderr";
    M.emit();
    return;
  }
  LogFd = Fd;
}

void Message::emit() {
  char Out[sizeof(Storage) + 16];
  size_t N = 0;
  for (const char *P = "pcmap: "; *P; ++P)
    Out[N++] = *P;
  for (size_t I = 0; I < size(); ++I)
    Out[N++] = data()[I];
  Out[N++] = '\n';
  int Fd = logFd();
  if (Fd >= 0)
    writeAll(Fd, Out, N);
}

} // namespace rt
} // namespace pcmap
