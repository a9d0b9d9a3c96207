//===- ResponseFiles.cpp - @file arguments, as clang expands them ---------===//
//
// The messages are LLVM's, word for word, so that a user sees what clang
// would have said.
//
//===----------------------------------------------------------------------===//

#include "ResponseFiles.h"

#include "Platform.h"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace pcmap::driver {

namespace {

bool isWhitespace(char C) {
  return C == ' ' || C == '\t' || C == '\r' || C == '\n';
}

/// Reads all of Path into Text; errno on failure.
int readFile(const std::string &Path, std::string &Text) {
  int FD = ::open(Path.c_str(), O_RDONLY | O_CLOEXEC);
  if (FD < 0)
    return errno;
  char Buffer[16384];
  ssize_t N;
  while ((N = ::read(FD, Buffer, sizeof(Buffer))) != 0) {
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0) {
      int Err = errno;
      ::close(FD);
      return Err;
    }
    Text.append(Buffer, size_t(N));
  }
  ::close(FD);
  return 0;
}

void appendUTF8(uint32_t C, std::string &Out) {
  if (C < 0x80) {
    Out.push_back(char(C));
  } else if (C < 0x800) {
    Out.push_back(char(0xC0 | C >> 6));
    Out.push_back(char(0x80 | (C & 0x3F)));
  } else if (C < 0x10000) {
    Out.push_back(char(0xE0 | C >> 12));
    Out.push_back(char(0x80 | (C >> 6 & 0x3F)));
    Out.push_back(char(0x80 | (C & 0x3F)));
  } else {
    Out.push_back(char(0xF0 | C >> 18));
    Out.push_back(char(0x80 | (C >> 12 & 0x3F)));
    Out.push_back(char(0x80 | (C >> 6 & 0x3F)));
    Out.push_back(char(0x80 | (C & 0x3F)));
  }
}

/// Text, UTF-16 after its byte order mark (either order), as UTF-8; false
/// if it is not valid UTF-16.
bool convertUTF16(std::string_view Text, std::string &Out) {
  if (Text.size() % 2)
    return false;
  bool BigEndian = uint8_t(Text[0]) == 0xFE;
  auto Unit = [&](size_t I) {
    uint8_t A = uint8_t(Text[2 * I]), B = uint8_t(Text[2 * I + 1]);
    return uint32_t(BigEndian ? A << 8 | B : B << 8 | A);
  };
  size_t Units = Text.size() / 2;
  for (size_t I = 1; I < Units; ++I) {
    uint32_t C = Unit(I);
    if (C >= 0xDC00 && C < 0xE000)
      return false; // A low surrogate without its high one.
    if (C >= 0xD800 && C < 0xDC00) {
      uint32_t Low = I + 1 < Units ? Unit(I + 1) : 0;
      if (Low < 0xDC00 || Low >= 0xE000)
        return false;
      C = 0x10000 + ((C - 0xD800) << 10) + (Low - 0xDC00);
      ++I;
    }
    appendUTF8(C, Out);
  }
  return true;
}

/// The arguments response file Path holds.
bool readResponseFile(const std::string &Path, std::vector<std::string> &Args,
                      std::string &Error) {
  std::string Text;
  if (int Err = readFile(Path, Text)) {
    Error = "cannot not open file '" + Path + "': " + std::strerror(Err);
    return false;
  }
  std::string_view View = Text;
  std::string Converted;
  if (View.size() >= 2 &&
      ((uint8_t(View[0]) == 0xFE && uint8_t(View[1]) == 0xFF) ||
       (uint8_t(View[0]) == 0xFF && uint8_t(View[1]) == 0xFE))) {
    if (!convertUTF16(View, Converted)) {
      Error = "Could not convert UTF16 to UTF8";
      return false;
    }
    View = Converted;
  } else if (View.substr(0, 3) == "\xEF\xBB\xBF") {
    View.remove_prefix(3); // The UTF-8 byte order mark.
  }
  Args = tokenizeGNUCommandLine(View);
  return true;
}

/// A response file being expanded: its arguments end before Args[End].
struct OpenResponseFile {
  std::string Path;
  dev_t Device;
  ino_t Inode;
  size_t End;
};

} // namespace

std::vector<std::string> tokenizeGNUCommandLine(std::string_view Text) {
  // As LLVM 19 to 22 do, an empty argument ('') is dropped.
  std::vector<std::string> Args;
  std::string Token;
  for (size_t I = 0, E = Text.size(); I != E; ++I) {
    if (Token.empty()) {
      while (I != E && isWhitespace(Text[I]))
        ++I;
      if (I == E)
        break;
    }
    char C = Text[I];
    if (C == '\\' && I + 1 < E) {
      Token.push_back(Text[++I]);
    } else if (C == '"' || C == '\'') {
      for (++I; I != E && Text[I] != C; ++I) {
        if (Text[I] == '\\' && I + 1 != E)
          ++I;
        Token.push_back(Text[I]);
      }
      if (I == E)
        break;
    } else if (isWhitespace(C)) {
      if (!Token.empty())
        Args.push_back(Token);
      Token.clear();
    } else {
      Token.push_back(C);
    }
  }
  if (!Token.empty())
    Args.push_back(Token);
  return Args;
}

bool expandResponseFiles(std::vector<std::string> &Args, size_t First,
                         std::string &Error) {
  std::vector<OpenResponseFile> Open;
  for (size_t I = First; I != Args.size();) {
    while (!Open.empty() && I == Open.back().End)
      Open.pop_back();
    if (Args[I].empty() || Args[I][0] != '@') {
      ++I;
      continue;
    }
    std::string Path = makeAbsolute(std::string_view(Args[I]).substr(1));
    struct stat Status;
    if (::stat(Path.c_str(), &Status) != 0) {
      if (errno == ENOENT) { // Left to clang, which says so.
        ++I;
        continue;
      }
      Error = "cannot not open file '" + Path + "': " + std::strerror(errno);
      return false;
    }
    for (const OpenResponseFile &F : Open) {
      if (F.Device == Status.st_dev && F.Inode == Status.st_ino) {
        Error = "recursive expansion of: '" + F.Path + "'";
        return false;
      }
    }
    std::vector<std::string> Expanded;
    if (!readResponseFile(Path, Expanded, Error))
      return false;
    // The files being expanded now end Expanded.size() - 1 arguments later.
    for (OpenResponseFile &F : Open)
      F.End += Expanded.size() - 1;
    Open.push_back({Path, Status.st_dev, Status.st_ino, I + Expanded.size()});
    Args.erase(Args.begin() + I);
    Args.insert(Args.begin() + I, Expanded.begin(), Expanded.end());
  }
  return true;
}

} // namespace pcmap::driver
