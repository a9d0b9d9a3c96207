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
  return LogFd;
}

void openLog(const char *Path) {
  if (!Path || !*Path || !__builtin_strcmp(Path, "stderr")) {
    LogFd = 2;
    return;
  }
  if (!__builtin_strcmp(Path, "stdout")) {
    LogFd = 1;
    return;
  }
  LogPath = Path;
  Message Name;
  Name << Path << "." << uint64_t(currentProcessId());
  int Fd = openOutputFile(Name.data());
  if (Fd < 0) {
    LogFd = 2;
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
  writeAll(logFd(), Out, N);
}

} // namespace rt
} // namespace pcmap
