//===- PlatformTest.cpp - The runtime's OS services that guard privilege --===//
//
// The files the runtime writes, the trust check of the symbolizer a secure
// process may run, and writes to a symbolizer that has exited
// (docs/design/Runtime.md, "Security").
//
//===----------------------------------------------------------------------===//

#include "platform/platform.h"

#include "gtest/gtest.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

using namespace pcmap::rt;

namespace {

class OutputFileTest : public ::testing::Test {
protected:
  void SetUp() override {
    char Template[] = "/tmp/pcmap-platform-XXXXXX";
    ASSERT_NE(mkdtemp(Template), nullptr);
    Dir = Template;
  }
  void TearDown() override {
    std::string Command = "rm -rf '" + Dir + "'";
    ASSERT_EQ(system(Command.c_str()), 0);
  }
  std::string path(const char *Name) { return Dir + "/" + Name; }
  static std::string contents(const std::string &Path) {
    std::string Out;
    int Fd = open(Path.c_str(), O_RDONLY);
    char Buffer[256];
    ssize_t N;
    while (Fd >= 0 && (N = read(Fd, Buffer, sizeof(Buffer))) > 0)
      Out.append(Buffer, size_t(N));
    if (Fd >= 0)
      close(Fd);
    return Out;
  }
  std::string Dir;
};

TEST_F(OutputFileTest, CreatesOwnerOnlyCloseOnExec) {
  mode_t Old = umask(0);
  int Fd = openOutputFile(path("log.1").c_str());
  umask(Old);
  ASSERT_GE(Fd, 0);
  struct stat St;
  ASSERT_EQ(fstat(Fd, &St), 0);
  EXPECT_EQ(St.st_mode & 07777, 0600u);
  EXPECT_TRUE(fcntl(Fd, F_GETFD) & FD_CLOEXEC);
  EXPECT_FALSE(fcntl(Fd, F_GETFL) & O_NONBLOCK);
  close(Fd);
}

TEST_F(OutputFileTest, AppendsAndNeverTruncates) {
  std::string P = path("report.7");
  int Fd = open(P.c_str(), O_WRONLY | O_CREAT, 0644);
  ASSERT_GE(Fd, 0);
  ASSERT_EQ(write(Fd, "before\n", 7), 7);
  close(Fd);
  Fd = openOutputFile(P.c_str());
  ASSERT_GE(Fd, 0);
  writeAll(Fd, "after\n", 6);
  close(Fd);
  EXPECT_EQ(contents(P), "before\nafter\n");
}

TEST_F(OutputFileTest, RefusesSymbolicLinks) {
  std::string Target = path("target"), Link = path("log.2");
  ASSERT_EQ(symlink(Target.c_str(), Link.c_str()), 0);
  EXPECT_EQ(openOutputFile(Link.c_str()), -1);
  EXPECT_NE(access(Target.c_str(), F_OK), 0) << "the link was followed";
}

TEST_F(OutputFileTest, RefusesFIFOsWithoutWaiting) {
  // Without a reader, a blocking open of a FIFO for writing never returns.
  std::string Fifo = path("log.3");
  ASSERT_EQ(mkfifo(Fifo.c_str(), 0600), 0);
  EXPECT_EQ(openOutputFile(Fifo.c_str()), -1);
}

TEST_F(OutputFileTest, RefusesDirectories) {
  EXPECT_EQ(openOutputFile(Dir.c_str()), -1);
}

TEST_F(OutputFileTest, TrustsOnlyRootOwnedPaths) {
  EXPECT_FALSE(isRootOwnedExecutable(nullptr));
  EXPECT_FALSE(isRootOwnedExecutable("relative/llvm-symbolizer"));
  EXPECT_FALSE(isRootOwnedExecutable("/nonexistent/llvm-symbolizer"));
  // /tmp is writable by everyone: nothing below it is trusted, whoever owns
  // the file.
  std::string Program = path("llvm-symbolizer");
  int Fd = open(Program.c_str(), O_WRONLY | O_CREAT, 0755);
  ASSERT_GE(Fd, 0);
  close(Fd);
  ASSERT_EQ(chmod(Dir.c_str(), 0755), 0);
  EXPECT_FALSE(isRootOwnedExecutable(Program.c_str()));
  // A directory is not an executable file.
  EXPECT_FALSE(isRootOwnedExecutable("/usr/bin"));
  // Debian's /bin is a link to usr/bin: the link is judged by its directory
  // and the resolved path by its own.
  struct stat St;
  if (stat("/usr/bin/env", &St) == 0 && St.st_uid == 0 &&
      !(St.st_mode & (S_IWGRP | S_IWOTH))) {
    EXPECT_TRUE(isRootOwnedExecutable("/usr/bin/env"));
    EXPECT_TRUE(isRootOwnedExecutable("/usr//bin/env"));
    if (access("/bin/env", X_OK) == 0)
      EXPECT_TRUE(isRootOwnedExecutable("/bin/env"));
  }
}

TEST(PipeTest, WriteToExitedReaderFailsWithoutSignal) {
  int Fds[2];
  ASSERT_EQ(pipe(Fds), 0);
  close(Fds[0]);
  // SIGPIPE's default action would end the test program.
  EXPECT_FALSE(writeToPipe(Fds[1], "x", 1));
  sigset_t Pending;
  sigpending(&Pending);
  EXPECT_FALSE(sigismember(&Pending, SIGPIPE));
  close(Fds[1]);
}

TEST(PipeTest, WritesWhenTheReaderIsThere) {
  int Fds[2];
  ASSERT_EQ(pipe(Fds), 0);
  EXPECT_TRUE(writeToPipe(Fds[1], "abc", 3));
  char Buffer[4] = {};
  EXPECT_EQ(read(Fds[0], Buffer, 3), 3);
  EXPECT_STREQ(Buffer, "abc");
  close(Fds[0]);
  close(Fds[1]);
}

} // namespace

// The main thread's stack comes from the auxiliary vector and the stack
// limit, not from /proc/self/maps: it must be what the C library says.
TEST(ThreadStackTest, MainThreadMatchesTheCLibrary) {
  ASSERT_EQ(getpid(), gettid()) << "gtest runs tests on the main thread";
  uintptr_t Lo = 0, Hi = 0;
  ASSERT_TRUE(currentThreadStack(Lo, Hi));
  pthread_attr_t Attr;
  ASSERT_EQ(pthread_getattr_np(pthread_self(), &Attr), 0);
  void *Base = nullptr;
  size_t Size = 0;
  ASSERT_EQ(pthread_attr_getstack(&Attr, &Base, &Size), 0);
  pthread_attr_destroy(&Attr);
  // The same lowest address; the top is the mapping's end, which is above
  // the C library's (the page after __libc_stack_end: the arguments and the
  // environment lie between them).
  EXPECT_EQ(Lo, uintptr_t(Base));
  EXPECT_GE(Hi, uintptr_t(Base) + Size);
  FILE *Maps = fopen("/proc/self/maps", "r");
  ASSERT_NE(Maps, nullptr);
  char Line[512];
  uintptr_t MappingEnd = 0;
  while (fgets(Line, sizeof(Line), Maps))
    if (strstr(Line, "[stack]"))
      sscanf(Line, "%*lx-%lx", &MappingEnd);
  fclose(Maps);
  EXPECT_EQ(Hi, MappingEnd);
  uintptr_t Here = uintptr_t(__builtin_frame_address(0));
  EXPECT_LT(Lo, Here);
  EXPECT_LT(Here, Hi);
}

// Another thread's stack is the one pthread gave it.
TEST(ThreadStackTest, OtherThreadsMatchTheirAttributes) {
  struct Bounds {
    uintptr_t Lo = 0, Hi = 0, Here = 0;
    bool Ok = false;
  } B;
  pthread_t T;
  ASSERT_EQ(pthread_create(
                &T, nullptr,
                [](void *P) -> void * {
                  auto &B = *static_cast<Bounds *>(P);
                  B.Ok = currentThreadStack(B.Lo, B.Hi);
                  B.Here = uintptr_t(__builtin_frame_address(0));
                  return nullptr;
                },
                &B),
            0);
  pthread_join(T, nullptr);
  ASSERT_TRUE(B.Ok);
  EXPECT_LT(B.Lo, B.Here);
  EXPECT_LT(B.Here, B.Hi);
}

// The stack a thread's first fault report finds: the mapping that holds its
// stack pointer, which is the stack pthread gave it; from the guard page
// below it (where an overflowing frame leaves the stack pointer) too.
TEST(ThreadStackTest, StackMappingIsTheThreadsStack) {
  struct Bounds {
    uintptr_t Lo = 0, Hi = 0, MapLo = 0, MapHi = 0, GuardLo = 0, GuardHi = 0;
    bool Ok = false, Mapped = false, FromGuard = false;
  } B;
  pthread_t T;
  ASSERT_EQ(pthread_create(
                &T, nullptr,
                [](void *P) -> void * {
                  auto &B = *static_cast<Bounds *>(P);
                  B.Ok = currentThreadStack(B.Lo, B.Hi);
                  uintptr_t SP = uintptr_t(__builtin_frame_address(0));
                  B.Mapped = stackMappingAt(SP, B.MapLo, B.MapHi);
                  // glibc's guard page lies just below the stack.
                  B.FromGuard = stackMappingAt(B.Lo - 1, B.GuardLo, B.GuardHi);
                  return nullptr;
                },
                &B),
            0);
  pthread_join(T, nullptr);
  ASSERT_TRUE(B.Ok);
  ASSERT_TRUE(B.Mapped);
  EXPECT_LE(B.MapLo, B.Lo);
  EXPECT_GE(B.MapHi, B.Hi);
  ASSERT_TRUE(B.FromGuard);
  EXPECT_EQ(B.GuardLo, B.MapLo);
}

static void forkWhileAnotherThreadHoldsIt() {
  static int Held, Release;
  // The C library's pthread_create, past the runtime's interceptor:
  // no fork handlers are installed for this thread.
  using CreateFn =
      int (*)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
  auto Create = reinterpret_cast<CreateFn>(dlsym(RTLD_NEXT, "pthread_create"));
  if (!Create)
    _exit(2);
  pthread_t T;
  Create(
      &T, nullptr,
      [](void *) -> void * {
        lockWritersUnlessHeldHere();
        __atomic_store_n(&Held, 1, __ATOMIC_RELEASE);
        while (!__atomic_load_n(&Release, __ATOMIC_ACQUIRE))
          usleep(1000);
        unlockWriters();
        return nullptr;
      },
      nullptr);
  while (!__atomic_load_n(&Held, __ATOMIC_ACQUIRE))
    usleep(1000);
  pid_t Child = fork();
  if (Child == 0) {
    alarm(10); // a lock that stays held ends the child (SIGALRM)
    lockWriters();
    unlockWriters();
    _exit(0);
  }
  int Status = 0;
  waitpid(Child, &Status, 0);
  __atomic_store_n(&Release, 1, __ATOMIC_RELEASE);
  pthread_join(T, nullptr);
  // The parent's lock is whole: taken and freed again.
  lockWriters();
  unlockWriters();
  _exit(WIFEXITED(Status) && WEXITSTATUS(Status) == 0 ? 0 : 1);
}

// A fork copies the writer lock held by a thread the child does not have
// when no fork handlers are installed yet: a signal handler's first query
// took it (lockWritersUnlessHeldHere) in a thread started past the
// pthread_create interceptor. The child frees it at its first writer lock
// instead of waiting forever.
// Regression test: the child's first registration hung.
TEST(WriterLockTest, ChildOfAForkWhileAnotherThreadHoldsItTakesIt) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "a sanitizer must see every thread start";
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
  GTEST_SKIP() << "a sanitizer must see every thread start";
#endif
#endif
  if (getenv("PCMAP_TEST_EMULATED"))
    GTEST_SKIP() << "the fresh process runs the binary again, which an "
                    "emulator cannot";
  GTEST_FLAG_SET(death_test_style, "threadsafe"); // a fresh process
  EXPECT_EXIT(forkWhileAnotherThreadHoldsIt(), ::testing::ExitedWithCode(0),
              "");
}

namespace {

// The SIGTRAPs of a clock event that samples kernel mode are told from the
// program's own by their code and cookie (si_perf_data, which the C
// library's siginfo_t does not name), on the kernel's real layout.
volatile sig_atomic_t EventTraps, OtherTraps;

void countTrap(int, siginfo_t *Info, void *) {
  if (isClockEventTrap(Info) && isClockEventSignal(Info))
    ++EventTraps;
  else
    ++OtherTraps;
}

TEST(ClockEventTest, KernelEventTrapsAreTheirOwn) {
  if (!kernelClockEventsAllowed())
    GTEST_SKIP() << "the kernel does not let this process sample kernel mode";
  struct sigaction Action, Old;
  memset(&Action, 0, sizeof(Action));
  Action.sa_sigaction = countTrap;
  Action.sa_flags = SA_SIGINFO;
  ASSERT_EQ(sigaction(SIGTRAP, &Action, &Old), 0);
  ClockEvent E;
  ASSERT_TRUE(openThreadClockEvent(currentThreadId(), 0, true, E));
  armClockEvent(E, 100000); // 0.1 ms
  // In the kernel, mostly: the signals still come, on the way back.
  for (int I = 0; I < 200000 && EventTraps < 5; ++I)
    getppid();
  armClockEvent(E, 0);
  closeClockEvent(E);
  raise(SIGTRAP);
  sigaction(SIGTRAP, &Old, nullptr);
  EXPECT_GE(EventTraps, 5);
  EXPECT_EQ(OtherTraps, 1);
}

} // namespace
