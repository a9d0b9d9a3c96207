//===- WriterTest.cpp - The runtime's one bounded text writer -------------===//
//
// What it keeps when the room runs out, numbers, CSV and JSON quoting, and a
// writer to a file descriptor.
//
//===----------------------------------------------------------------------===//

#include "core/writer.h"

#include "gtest/gtest.h"

#include <string>
#include <unistd.h>

using pcmap::rt::Text;
using pcmap::rt::Writer;

namespace {

TEST(WriterTest, TextKeepsWhatFits) {
  char Buffer[8];
  Text T(Buffer, sizeof(Buffer));
  EXPECT_STREQ(T.data(), "");
  T << "abc" << uint64_t(12345) << "xyz";
  // What was cut is marked, and nothing comes after the cut.
  EXPECT_STREQ(T.data(), "abc1...");
  EXPECT_EQ(T.size(), 7u);
  T << "z";
  EXPECT_STREQ(T.data(), "abc1...");
}

TEST(WriterTest, TextThatFitsExactlyIsNotMarked) {
  char Buffer[8];
  Text T(Buffer, sizeof(Buffer));
  T << "abcdefg";
  EXPECT_STREQ(T.data(), "abcdefg");
  T << "";
  EXPECT_STREQ(T.data(), "abcdefg");
}

TEST(WriterTest, Numbers) {
  char Buffer[128];
  Text T(Buffer, sizeof(Buffer));
  T << uint64_t(0) << " " << ~uint64_t(0) << " ";
  T.hex(0) << " ";
  T.hex(0xdeadbeef) << " ";
  T.fixed(2.0 / 3.0, 3) << " ";
  T.fixed(-1.25, 1) << " ";
  T.padNumber(42, 5) << "|";
  T.pad("ab", 4) << "|";
  EXPECT_STREQ(T.data(), "0 18446744073709551615 0x0 0xdeadbeef 0.667 -1.3    "
                         "42|ab  |");
}

TEST(WriterTest, CSVAndJSON) {
  char Buffer[128];
  Text T(Buffer, sizeof(Buffer));
  T.csv("plain") << ",";
  T.csv("a,\"b\"") << ",";
  T.json("q\"\\\n\t\x01");
  EXPECT_STREQ(T.data(), "plain,\"a,\"\"b\"\"\",\"q\\\"\\\\\\n\\t\\u0001\"");
}

/// A writer with a descriptor: writes its buffer out when full.
class PipeWriter : public Writer {
public:
  PipeWriter(char *Buffer, size_t Size, int Fd) : Writer(Buffer, Size, Fd) {}
};

TEST(WriterTest, WriterWithADescriptorLosesNothing) {
  int Fds[2];
  ASSERT_EQ(pipe(Fds), 0);
  char Small[4];
  {
    PipeWriter W(Small, sizeof(Small), Fds[1]);
    W << "0123456789" << uint64_t(42);
    W.flush();
  }
  close(Fds[1]);
  std::string Out;
  char Chunk[64];
  ssize_t N;
  while ((N = read(Fds[0], Chunk, sizeof(Chunk))) > 0)
    Out.append(Chunk, size_t(N));
  close(Fds[0]);
  EXPECT_EQ(Out, "012345678942");
}

} // namespace
