//===- log.cpp - The runtime's own output
//----------------------------------===//

#include "core/log.h"

#include "platform/platform.h"

namespace pcmap {
namespace rt {

int Verbosity = 1;

namespace {
int LogFd = 2;
} // namespace

int logFd() { return LogFd; }

void openLog(const char *Path) {
  if (!Path || !*Path || !__builtin_strcmp(Path, "stderr")) {
    LogFd = 2;
    return;
  }
  if (!__builtin_strcmp(Path, "stdout")) {
    LogFd = 1;
    return;
  }
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
  writeAll(LogFd, Out, N);
}

} // namespace rt
} // namespace pcmap
