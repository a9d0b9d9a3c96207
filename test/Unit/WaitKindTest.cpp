//===- WaitKindTest.cpp - pcmap-report trace: the kind and name of a wait -===//
//
// The kind of a blocked thread's wait from its stack's functions
// (waitKindOfStack, by pcmap/TraceDump.h's kWaitKinds), and a futex word's
// name without the C and C++ libraries' own members
// (withoutLibraryMembers).
//
//===----------------------------------------------------------------------===//

#include "Trace.h"

#include "gtest/gtest.h"

using namespace pcmap::report;

namespace {

TEST(WaitKind, OtherSystemCallsAreTheirKind) {
  EXPECT_EQ(waitKindOfStack("read", {"__GI___libc_read", "main"}), "read");
  EXPECT_EQ(waitKindOfStack("nanosleep", {}), "nanosleep");
}

TEST(WaitKind, FutexWithoutAMatchingFrame) {
  EXPECT_EQ(waitKindOfStack("futex", {}), "futex");
  EXPECT_EQ(waitKindOfStack("futex", {"", "worker", "start_thread"}), "futex");
}

TEST(WaitKind, TheOutermostFrameOfTheInnermostRun) {
  // glibc's internal names: underscores and __GI_ left out.
  EXPECT_EQ(waitKindOfStack("futex", {"__lll_lock_wait",
                                      "___pthread_mutex_lock", "worker"}),
            "mutex");
  // std::mutex::lock over pthread_mutex_lock: a std::mutex.
  EXPECT_EQ(waitKindOfStack("futex", {"__futex_abstimed_wait_common",
                                      "__GI___pthread_mutex_lock",
                                      "__gthread_mutex_lock(pthread_mutex_t*)",
                                      "std::mutex::lock()",
                                      "std::lock_guard<std::mutex>::"
                                      "lock_guard(std::mutex&)",
                                      "lock_registry"}),
            "std::mutex");
  EXPECT_EQ(waitKindOfStack("futex", {"__pthread_cond_wait_common",
                                      "pthread_cond_wait", "wait_ready"}),
            "condition variable");
  EXPECT_EQ(waitKindOfStack("futex",
                            {"pthread_cond_wait",
                             "std::condition_variable::wait(std::unique_lock<"
                             "std::mutex>&)",
                             "wait_changed"}),
            "std::condition_variable");
}

// Regression test: glibc 2.36's pthread_mutex_lock inlines
// lll_mutex_lock_optimized, which ended the run below std::mutex::lock; a
// function template's name with its return type never matched.
TEST(WaitKind, GlibcInlinedHelpersAndReturnTypes) {
  EXPECT_EQ(waitKindOfStack("futex",
                            {"futex_wait", "__GI___lll_lock_wait",
                             "lll_mutex_lock_optimized", "__pthread_mutex_lock",
                             "__gthread_mutex_lock()", "std::mutex::lock()",
                             "lockShard()"}),
            "std::mutex");
  EXPECT_EQ(waitKindOfStack("futex",
                            {"__futex_abstimed_wait_common64",
                             "__pthread_cond_wait_common", "pthread_cond_wait",
                             "void std::condition_variable::wait<main::$_0>("
                             "std::unique_lock<std::mutex>&, main::$_0)",
                             "main"}),
            "std::condition_variable");
  // A space inside template arguments is not a return type's.
  EXPECT_EQ(waitKindOfStack(
                "futex", {"pthread_mutex_lock", "f<std::mutex::lock x>(int)"}),
            "mutex");
}

TEST(WaitKind, TheProgramsCodeEndsTheRun) {
  // A mutex locked in a function a condition variable's wait called back
  // is still the mutex: the run stops at the program's frame.
  EXPECT_EQ(waitKindOfStack("futex", {"pthread_mutex_lock", "callback",
                                      "pthread_cond_wait"}),
            "mutex");
  // An unnamed frame ends it too.
  EXPECT_EQ(
      waitKindOfStack("futex", {"pthread_mutex_lock", "", "std::mutex::lock"}),
      "mutex");
}

TEST(WaitObjectName, LibraryMembersLeftOut) {
  EXPECT_EQ(withoutLibraryMembers("big_lock.__data.__lock"), "big_lock");
  EXPECT_EQ(withoutLibraryMembers("cache.mu.__data.__lock"), "cache.mu");
  EXPECT_EQ(withoutLibraryMembers("app::registry.mu._M_mutex"),
            "app::registry.mu");
  EXPECT_EQ(withoutLibraryMembers("ready.__data.{__wseq..__g1_start}"),
            "ready");
  EXPECT_EQ(withoutLibraryMembers("locks[3].__size[0]"), "locks[3]");
  EXPECT_EQ(withoutLibraryMembers("g.shards[3].lock"), "g.shards[3].lock");
  EXPECT_EQ(withoutLibraryMembers("big_lock"), "big_lock");
  // A member of the program's own that starts with one underscore and a
  // lower-case letter is not reserved.
  EXPECT_EQ(withoutLibraryMembers("s._lock"), "s._lock");
}

} // namespace
