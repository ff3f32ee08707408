// A pull counts on the progress line as every transport does, in binary units; nothing off a terminal or with -q.
#include <gtest/gtest.h>

#include "local_registry.h"

namespace imgaudit::test {
namespace {

TEST(RegistryProgress, OnATerminalOnly) {
  SKIP_WITHOUT_REGISTRY_TOOLS();
  SKIP_WITHOUT_TERMINAL();
  LocalRegistry reg;
  TempDir tmp;
  ImageSpec spec;
  spec.tag = "v1";
  spec.layers = {small_layer("etc/a", "a")};
  write_layout(spec, tmp / "layout");
  reg.push(tmp / "layout", "v1", "progress:v1");
  auto on_tty = [&](const std::string& args, const std::string& cache) {
    std::string out;
    // Its standard output is discarded, so what the terminal shows is standard error.
    run_on_a_terminal("env XDG_CACHE_HOME='" + (tmp / cache) + "' DOCKER_CONFIG='" + (tmp / "docker") + "' '" +
                          imgaudit_binary() + "' --fail-on never " + args + " " + reg.host() +
                          "/progress:v1 >/dev/null",
                      &out);
    return out;
  };
  const std::string blob = std::to_string(spec.layers[0].bytes.size()) + " B";
  std::string shown = on_tty("", "c1");
  EXPECT_NE(shown.find("\rimgaudit: layers 0 of 1, 0 B of " + blob), std::string::npos) << shown;
  EXPECT_EQ(shown.find(" MB"), std::string::npos) << shown;
  EXPECT_EQ(on_tty("-q", "c2").find("imgaudit: layers"), std::string::npos);

  CliRun piped = imgaudit(tmp / "home", "--fail-on never " + reg.host() + "/progress:v1");
  EXPECT_EQ(piped.status, 0);
  EXPECT_EQ(piped.err, "");
}

}  // namespace
}  // namespace imgaudit::test
