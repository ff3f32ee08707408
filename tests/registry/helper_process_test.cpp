// Credential helpers run as child processes: SIGPIPE, which imgaudit ignores for the whole run, is back
// to its default in the helper, and a helper that leaves its input unread does not kill imgaudit.
#include <gtest/gtest.h>

#include <csignal>
#include <string>

#include "registry/helper_process.h"
#include "test_support.h"

namespace imgaudit::test {
namespace {

class HelperProcess : public ::testing::Test {
 protected:
  // As src/main.cpp does before anything runs.
  void SetUp() override { previous_ = std::signal(SIGPIPE, SIG_IGN); }
  void TearDown() override { std::signal(SIGPIPE, previous_); }

 private:
  void (*previous_)(int) = SIG_DFL;
};

TEST_F(HelperProcess, AHelperThatLeavesItsInputUnreadDoesNotKillImgaudit) {
  TempDir tmp;
  write_file(tmp / "helper", "#!/bin/sh\necho answered\nexit 3\n", 0755);
  // More than a pipe holds: the writes after the helper's exit fail with EPIPE.
  ProcessResult r = run_process({tmp / "helper"}, std::string(4 << 20, 'x'), 10);
  EXPECT_EQ(r.exit_status, 3);
  EXPECT_EQ(r.out, "answered\n");
  EXPECT_FALSE(r.timed_out);
}

// A caller that has not ignored SIGPIPE (a library user, a test's main) is not killed either: the run that
// failed in CI, on a helper that printed and exited before its input was written.
TEST(HelperProcessSignals, AHelperThatLeavesItsInputUnreadDoesNotKillACallerThatKeepsSigpipe) {
  void (*previous)(int) = std::signal(SIGPIPE, SIG_DFL);
  TempDir tmp;
  write_file(tmp / "helper", "#!/bin/sh\necho answered\nexit 3\n", 0755);
  for (int round = 0; round < 20; ++round) {  // small inputs too: the write may come before or after the exit
    ProcessResult r = run_process({tmp / "helper"}, std::string(round % 2 ? 4 << 20 : 16, 'x'), 10);
    EXPECT_EQ(r.exit_status, 3);
    EXPECT_EQ(r.out, "answered\n");
  }
  sigset_t pending;
  sigpending(&pending);
  EXPECT_EQ(sigismember(&pending, SIGPIPE), 0) << "no SIGPIPE left pending";
  std::signal(SIGPIPE, previous);
}

TEST_F(HelperProcess, TheHelperStartsWithSigpipesDefaultAction) {
  TempDir tmp;
  // SigIgn in /proc: the signals the shell started with ignored, in hex; SIGPIPE (13) is bit 12.
  write_file(tmp / "helper", "#!/bin/sh\nsed -n 's/^SigIgn:[[:space:]]*//p' /proc/$$/status\n", 0755);
  ProcessResult r = run_process({tmp / "helper"}, "", 10);
  ASSERT_EQ(r.exit_status, 0);
  ASSERT_FALSE(r.out.empty());
  unsigned long long ignored = std::stoull(r.out, nullptr, 16);
  EXPECT_EQ(ignored & (1ull << (SIGPIPE - 1)), 0u) << "SigIgn " << r.out;
  // The same helper, started by a shell that ignores SIGPIPE, sees it ignored: the check can fail.
  std::string out;
  ASSERT_EQ(run("sh -c \"trap '' PIPE; exec '" + (tmp / "helper") + "'\"", &out), 0);
  EXPECT_NE(std::stoull(out, nullptr, 16) & (1ull << (SIGPIPE - 1)), 0u) << "SigIgn " << out;
}

}  // namespace
}  // namespace imgaudit::test
