#pragma once
// imgaudit run against a test's registry in a child of its own: its exit status, output, wall time and
// peak RSS, killed after a bound so that a test of a hang fails instead of hanging.
#include <map>
#include <string>
#include <vector>

#include "test_support.h"

namespace imgaudit::test {

struct TimedRun {
  int status = -1;  // 128 + signal when killed
  std::string out, err;
  double seconds = 0;
  double peak_rss_mib = 0;
};

// imgaudit --image-src remote ARGS, with its cache and docker config in `home` and `env` set over this
// process's environment, in a child forked for it alone (its peak RSS is its own), killed by SIGALRM after
// `kill_after` seconds so that a regression fails the test instead of hanging it.
TimedRun run_timed(const TempDir& home, const std::vector<std::string>& args,
                   std::map<std::string, std::string> env = {}, unsigned kill_after = 60);

// ASan's shadow and quarantine multiply a run's memory: a bound on peak RSS holds in the normal build only.
#if defined(__SANITIZE_ADDRESS__)
#define IMGAUDIT_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define IMGAUDIT_TEST_ASAN 1
#endif
#endif
#ifdef IMGAUDIT_TEST_ASAN
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif

}  // namespace imgaudit::test
