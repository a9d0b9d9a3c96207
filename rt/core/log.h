//===- log.h - The runtime's own output -------------------------*- C++ -*-===//
//
// A small formatter into a caller's buffer (no allocation, no locale, no
// stdio), so that messages can be written from signal handlers too.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_RT_LOG_H
#define PCMAP_RT_LOG_H

#include <stddef.h>
#include <stdint.h>

namespace pcmap {
namespace rt {

class Message {
public:
  Message &operator<<(const char *S);
  Message &operator<<(uint64_t V); // decimal
  Message &hex(uint64_t V);        // 0x...
  const char *data() const { return Buffer; }
  size_t size() const { return Length; }
  /// Writes the message and a newline to the log, prefixed "pcmap: ".
  void emit();

private:
  char Buffer[512] = {};
  size_t Length = 0;
  void append(const char *S, size_t N);
};

/// 0: silent; 1 (default): rejected sections; 2: every registration. Set
/// from the verbosity option.
extern int Verbosity;

/// Directs the log to "stderr", "stdout", or the file Path.<pid>; on failure
/// says so on stderr and keeps stderr.
void openLog(const char *Path);
/// The log's file descriptor.
int logFd();

} // namespace rt
} // namespace pcmap

#endif // PCMAP_RT_LOG_H
