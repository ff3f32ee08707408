#include <gtest/gtest.h>

#include "policy/policy.h"
#include "test_support.h"
#include "util/error.h"

using namespace imgaudit;
using namespace imgaudit::test;

namespace {

Finding finding(const std::string& id, std::vector<std::string> paths, Severity s = Severity::Error) {
  Finding f;
  f.id = id;
  f.severity = s;
  f.paths = std::move(paths);
  return f;
}

std::string error_of(const std::string& json) {
  TempDir tmp;
  write_file(tmp / ".imgaudit.json", json);
  try {
    load_policy_file(tmp / ".imgaudit.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(Policy, LoadsIgnoresWithReasonsAndOverrides) {
  TempDir tmp;
  write_file(tmp / "c.json", R"({"ignore": [{"id": "musl-allocator", "path": "/usr/bin/*", "reason": "single-user CLI tools"},
                                          {"id": "runs-as-root", "reason": "init container needs root"}],
                               "severity": {"tzdata-missing": "info"}})");
  Policy p = load_policy_file(tmp / "c.json");
  ASSERT_EQ(p.ignores.size(), 2u);
  EXPECT_EQ(p.ignores[0].path_glob, "/usr/bin/*");
  EXPECT_EQ(p.ignores[1].path_glob, "");
  EXPECT_EQ(p.severity.at("tzdata-missing"), Severity::Info);

  std::vector<Suppressed> gone;
  auto kept = apply_policy({finding("musl-allocator", {"/usr/bin/a", "/app/server"}), finding("runs-as-root", {}),
                            finding("tzdata-missing", {}, Severity::Warning), finding("musl-allocator", {"/usr/bin/b"})},
                           p, &gone);
  ASSERT_EQ(kept.size(), 2u);
  EXPECT_EQ(kept[0].id, "musl-allocator");
  EXPECT_EQ(kept[0].paths, std::vector<std::string>{"/app/server"});
  EXPECT_EQ(kept[1].id, "tzdata-missing");
  EXPECT_EQ(kept[1].severity, Severity::Info);
  ASSERT_EQ(gone.size(), 3u);
  EXPECT_EQ(gone[0].finding.paths, std::vector<std::string>{"/usr/bin/a"});
  EXPECT_EQ(gone[0].reason, "single-user CLI tools");
  EXPECT_EQ(gone[1].reason, "init container needs root");
}

TEST(Policy, CommandLineIgnores) {
  Policy p;
  add_ignore_option(p, "exec-stack");
  add_ignore_option(p, "needed-lib-missing:/opt/plugins/*");
  auto kept = apply_policy({finding("exec-stack", {"/x"}), finding("needed-lib-missing", {"/opt/plugins/a.so", "/usr/bin/b"})},
                           p, nullptr);
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_EQ(kept[0].paths, std::vector<std::string>{"/usr/bin/b"});
  EXPECT_THROW(add_ignore_option(p, "no-such-rule"), InputError);
}

TEST(Policy, BadConfigsAreClearErrors) {
  EXPECT_NE(error_of("{\"ignore\": [").find("malformed JSON"), std::string::npos);
  EXPECT_NE(error_of("[]").find("must be a JSON object"), std::string::npos);
  EXPECT_NE(error_of(R"({"ignore": [{"id": "exec-stack"}]})").find("needs a \"reason\""), std::string::npos);
  EXPECT_NE(error_of(R"({"ignore": [{"id": "nope", "reason": "x"}]})").find("unknown rule id 'nope'"), std::string::npos);
  EXPECT_NE(error_of(R"({"severity": {"exec-stack": "fatal"}})").find("must be error, warning or info"), std::string::npos);
  EXPECT_NE(error_of(R"({"ignores": []})").find("unknown key \"ignores\""), std::string::npos);
  EXPECT_NE(error_of(R"({"ignore": [{"id": "exec-stack", "reason": "x", "paths": "/a"}]})").find("unknown key \"paths\""),
            std::string::npos);
}
