//===- FuzzCheck.h - What every fuzz harness shares -------------*- C++ -*-===//
//
// FUZZ_CHECK, which fails the run with a message (libFuzzer then reports
// the input), and InputFile, the input as a file that readers open by name.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_FUZZ_CHECK_H
#define PCMAP_FUZZ_CHECK_H

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <sys/mman.h>
#include <sys/types.h>
#include <unistd.h>

/// Fails the run (libFuzzer reports the input) with a message.
#define FUZZ_CHECK(Cond, ...)                                                  \
  do {                                                                         \
    if (!(Cond)) {                                                             \
      std::fprintf(stderr, "FUZZ_CHECK failed at %s:%d: %s\n", __FILE__,       \
                   __LINE__, #Cond);                                           \
      std::fprintf(stderr, __VA_ARGS__);                                       \
      std::fprintf(stderr, "\n");                                              \
      std::abort();                                                            \
    }                                                                          \
  } while (0)

namespace pcmap {
namespace fuzz {

/// An in-memory file (memfd) reached by its /proc/self/fd path, created
/// once per harness and rewritten with each input.
class InputFile {
public:
  explicit InputFile(const char *Name) {
    Fd = memfd_create(Name, 0);
    if (Fd < 0) {
      std::perror("memfd_create");
      std::exit(1);
    }
    Path = "/proc/self/fd/" + std::to_string(Fd);
  }
  /// Makes Data the file's contents.
  void set(const uint8_t *Data, size_t Size) {
    if (ftruncate(Fd, 0) != 0 || pwrite(Fd, Data, Size, 0) != ssize_t(Size))
      std::abort();
  }
  const std::string &path() const { return Path; }

private:
  int Fd;
  std::string Path;
};

} // namespace fuzz
} // namespace pcmap

#endif // PCMAP_FUZZ_CHECK_H
