// A credential helper that closes its output and then sleeps: imgaudit waits for its exit only until
// --timeout, then kills it and says so in one line.
#include <gtest/gtest.h>

#include <signal.h>

#include <filesystem>
#include <string>

#include "scripted_registry.h"
#include "timed_run.h"

namespace imgaudit::test {
namespace {

class HelperTimeout : public OneLayerRegistryTest {};

TEST_F(HelperTimeout, AHelperThatClosesItsOutputAndSleepsIsKilledAtTheTimeout) {
  // A helper on PATH, named in the docker config: it closes its standard output, then sleeps as itself.
  write_file(tmp_ / "bin/docker-credential-sleepy", "#!/bin/sh\necho $$ > \"$0.pid\"\nexec >&-\nexec sleep 60\n", 0755);
  ScriptedRegistry reg(layout());
  std::filesystem::create_directories(home_ / "docker");
  write_file(home_ / "docker/config.json", R"({"credsStore": "sleepy"})");
  TimedRun r = run_timed(home_, {"--timeout", "2", reg.host() + "/app:v1"},
                         {{"PATH", tmp_ / ("bin:" + std::string(getenv("PATH")))}});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(r.err, "imgaudit: " + reg.host() + "/app:v1: credential helper docker-credential-sleepy closed its output but "
                   "did not exit within 2 s (--timeout): killed it\n");
  EXPECT_GE(r.seconds, 2);
  EXPECT_LT(r.seconds, 10);
  pid_t helper = std::stoi(read_file(tmp_ / "bin/docker-credential-sleepy.pid"));
  EXPECT_NE(kill(helper, 0), 0) << "the helper still runs";
  EXPECT_TRUE(reg.requests_to("/v2/").empty());  // the credentials come first
}

}  // namespace
}  // namespace imgaudit::test
