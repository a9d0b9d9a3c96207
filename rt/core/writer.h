//===- writer.h - The runtime's one bounded text writer ---------*- C++ -*-===//
//
// Formats text into a buffer (no allocation, no locale, no stdio), so that
// signal handlers can use it too. What happens when the buffer is full is
// the sink's: a Text (a caller's buffer) and a Message (a log line) keep what
// fits; a writer with a descriptor (the report writer) writes the buffer out
// and goes on.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_RT_WRITER_H
#define PCMAP_RT_WRITER_H

#include <stddef.h>
#include <stdint.h>

namespace pcmap {
namespace rt {

class Writer {
public:
  Writer(const Writer &) = delete;
  Writer &operator=(const Writer &) = delete;

  Writer &operator<<(const char *S);
  Writer &operator<<(uint64_t V); // decimal
  Writer &hex(uint64_t V);        // 0x...
  /// V as a decimal with Digits digits after the point.
  Writer &fixed(double V, int Digits);
  /// S padded with spaces to Width, left-aligned or right-aligned.
  Writer &pad(const char *S, size_t Width, bool Right = false);
  Writer &padNumber(uint64_t V, size_t Width);
  /// A CSV field (quoted when it must be) and a JSON string (quoted).
  Writer &csv(const char *S);
  Writer &json(const char *S);

  /// The text so far, NUL-terminated (a writer without a descriptor).
  const char *data() const { return Buf; }
  size_t size() const { return Len; }
  /// Writes the buffer to the descriptor and empties it (with one).
  void flush();
  /// From now on, a line longer than Width columns is cut, "..." ending it
  /// at column Width; 0: lines are never cut.
  void setLineWidth(size_t Width) { LineWidth = Width < 4 ? 0 : Width; }

protected:
  /// Fd < 0: the text stays in Buffer, which keeps a terminating NUL.
  Writer(char *Buffer, size_t Capacity, int Fd = -1);
  void setDescriptor(int NewFd) { Fd = NewFd; }
  int descriptor() const { return Fd; }

private:
  void append(const char *S, size_t N);
  void appendRaw(const char *S, size_t N);
  char *Buf;
  size_t Cap, Len = 0;
  int Fd;
  bool Truncated = false; // a Text that did not fit (it ends with "...")
  // The line being written, with a LineWidth: its columns, whether it was
  // cut, and its last columns held back until it is known to fit.
  size_t LineWidth = 0, Column = 0;
  bool LineCut = false;
  char Held[16];
  size_t NumHeld = 0;
};

/// Text in a caller's buffer of Size bytes, truncated to fit: what was cut
/// is marked by "..." at the end (a name cut in a report says so), and
/// nothing is appended after the cut.
class Text : public Writer {
public:
  Text(char *Buffer, size_t Size) : Writer(Buffer, Size) {}
};

} // namespace rt
} // namespace pcmap

#endif // PCMAP_RT_WRITER_H
