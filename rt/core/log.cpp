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

void Message::append(const char *S, size_t N) {
  for (size_t I = 0; I < N && Length + 1 < sizeof(Buffer); ++I)
    Buffer[Length++] = S[I];
  Buffer[Length] = '\0';
}

Message &Message::operator<<(const char *S) {
  size_t N = 0;
  while (S && S[N])
    ++N;
  append(S, N);
  return *this;
}

Message &Message::operator<<(uint64_t V) {
  char Digits[20];
  size_t N = 0;
  do {
    Digits[N++] = char('0' + V % 10);
    V /= 10;
  } while (V);
  while (N)
    append(&Digits[--N], 1);
  return *this;
}

Message &Message::hex(uint64_t V) {
  static const char Hex[] = "0123456789abcdef";
  char Digits[16];
  size_t N = 0;
  do {
    Digits[N++] = Hex[V & 15];
    V >>= 4;
  } while (V);
  append("0x", 2);
  while (N)
    append(&Digits[--N], 1);
  return *this;
}

void Message::emit() {
  char Out[sizeof(Buffer) + 16];
  size_t N = 0;
  for (const char *P = "pcmap: "; *P; ++P)
    Out[N++] = *P;
  for (size_t I = 0; I < Length; ++I)
    Out[N++] = Buffer[I];
  Out[N++] = '\n';
  writeAll(LogFd, Out, N);
}

} // namespace rt
} // namespace pcmap
