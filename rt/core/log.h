//===- log.h - The runtime's own output -------------------------*- C++ -*-===//
//
// The log: where the runtime's messages go (stderr, stdout or log_path), one
// Message (a Writer, core/writer.h) per line; usable in signal handlers.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_RT_LOG_H
#define PCMAP_RT_LOG_H

#include "core/writer.h"

#include <stddef.h>
#include <stdint.h>

namespace pcmap {
namespace rt {

namespace detail {
struct MessageBuffer {
  char Storage[512];
};
} // namespace detail

/// One line of the log (truncated to 511 bytes). The buffer comes first so
/// that it exists before the writer that points at it.
class Message : private detail::MessageBuffer, public Writer {
public:
  Message() : Writer(Storage, sizeof(Storage)) {}
  /// Writes the message and a newline to the log, prefixed "pcmap: ".
  void emit();
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
