#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

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

namespace {

std::string json_error(const std::string& doc) {
  try {
    policy_from_json(nlohmann::json::parse(doc), "ci/imgaudit.yaml");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

PolicyContext on(const std::string& today, std::vector<std::string> names = {}) { return {today, std::move(names)}; }

Finding at_line(const std::string& id, std::vector<std::string> paths, const std::string& file, int line) {
  Finding f = finding(id, std::move(paths));
  f.dockerfile = DockerfileLine{file, line, line, "COPY x /x"};
  return f;
}

}  // namespace

TEST(PolicyFromJson, ReadsIgnoreAndSeverityAndLeavesOtherKeys) {
  auto doc = nlohmann::json::parse(R"({"fail-on": "warning", "format": "sarif",
      "ignore": [{"id": "exec-stack", "path": "/opt/*", "image": "myapp:*", "expires": "2025-06-30", "reason": "vendored"}],
      "severity": {"tzdata-missing": "info"}})");
  Policy p = policy_from_json(doc, "ci/imgaudit.yaml");
  ASSERT_EQ(p.ignores.size(), 1u);
  EXPECT_EQ(p.ignores[0].id, "exec-stack");
  EXPECT_EQ(p.ignores[0].path_glob, "/opt/*");
  EXPECT_EQ(p.ignores[0].image_glob, "myapp:*");
  EXPECT_EQ(p.ignores[0].expires, "2025-06-30");
  EXPECT_EQ(p.ignores[0].reason, "vendored");
  EXPECT_EQ(p.ignores[0].origin, "ci/imgaudit.yaml");
  EXPECT_EQ(p.severity.at("tzdata-missing"), Severity::Info);
  // YAML's `ignore:` with nothing under it is null: no ignores.
  EXPECT_TRUE(policy_from_json(nlohmann::json::parse(R"({"ignore": null, "severity": null})"), "c").ignores.empty());
  EXPECT_TRUE(policy_from_json(nlohmann::json::object(), "c").ignores.empty());
}

TEST(PolicyFromJson, WrongTypesAndKeysAreOneLineErrors) {
  EXPECT_EQ(json_error("[]"), "ci/imgaudit.yaml: the config must be a mapping of settings, not array");
  EXPECT_EQ(json_error(R"({"ignore": {"id": "exec-stack"}})"), "ci/imgaudit.yaml: \"ignore\" must be a list");
  EXPECT_EQ(json_error(R"({"ignore": ["exec-stack"]})"),
            "ci/imgaudit.yaml: ignore[0]: must be a mapping of id, path, image, expires and reason, not string");
  EXPECT_EQ(json_error(R"({"ignore": [{"id": "exec-stack", "reason": "x", "until": "2025-01-01"}]})"),
            "ci/imgaudit.yaml: ignore[0]: unknown key \"until\" (expected id, path, image, expires, reason)");
  EXPECT_EQ(json_error(R"({"ignore": [{"reason": "x"}]})"), "ci/imgaudit.yaml: ignore[0]: needs an \"id\"");
  EXPECT_EQ(json_error(R"({"ignore": [{"id": 7, "reason": "x"}]})"),
            "ci/imgaudit.yaml: ignore[0]: \"id\" must be a string naming a rule");
  EXPECT_EQ(json_error(R"({"ignore": [{"id": "exec-stack", "reason": "x"}, {"id": "exec-stack", "reason": ""}]})"),
            "ci/imgaudit.yaml: ignore[1]: needs a \"reason\" saying why it is accepted");
  EXPECT_EQ(json_error(R"({"ignore": [{"id": "exec-stack", "reason": "x", "image": ["a", "b"]}]})"),
            "ci/imgaudit.yaml: ignore[0]: \"image\" must be a string (a glob over the image's repository or tag)");
  EXPECT_EQ(json_error(R"({"ignore": [{"id": "exec-stack", "reason": "x", "path": 1}]})"),
            "ci/imgaudit.yaml: ignore[0]: \"path\" must be a string");
  EXPECT_EQ(json_error(R"({"ignore": [{"id": "exec-stack", "reason": "x", "expires": 20250630}]})"),
            "ci/imgaudit.yaml: ignore[0]: \"expires\" must be a date YYYY-MM-DD");
  EXPECT_EQ(json_error(R"({"ignore": [{"id": "exec-stack", "reason": "x", "expires": "2025-02-29"}]})"),
            "ci/imgaudit.yaml: ignore[0]: \"expires\" must be a date YYYY-MM-DD, not \"2025-02-29\"");
  EXPECT_EQ(json_error(R"({"ignore": [{"id": "exec-stack", "reason": "x", "expires": "30/06/2025"}]})"),
            "ci/imgaudit.yaml: ignore[0]: \"expires\" must be a date YYYY-MM-DD, not \"30/06/2025\"");
  EXPECT_EQ(json_error(R"({"ignore": [{"id": "nope", "reason": "x"}]})"),
            "ci/imgaudit.yaml: ignore[0]: unknown rule id 'nope' (imgaudit rules lists them)");
  EXPECT_EQ(json_error(R"({"severity": ["exec-stack"]})"),
            "ci/imgaudit.yaml: \"severity\" must be an object of rule id to severity");
  EXPECT_EQ(json_error(R"({"severity": {"exec-stack": "fatal"}})"),
            "ci/imgaudit.yaml: severity of exec-stack must be error, warning or info");
}

TEST(PolicyFromJson, LoadPolicyFileReadsTheNewKeysAndStillRefusesOthers) {
  TempDir tmp;
  write_file(tmp / "c.json", R"({"ignore": [{"id": "exec-stack", "expires": "2025-06-30", "image": "a*", "reason": "x"}]})");
  Policy p = load_policy_file(tmp / "c.json");
  ASSERT_EQ(p.ignores.size(), 1u);
  EXPECT_EQ(p.ignores[0].expires, "2025-06-30");
  EXPECT_EQ(p.ignores[0].origin, tmp / "c.json");
  write_file(tmp / "c.json", R"({"fail-on": "warning"})");
  try {
    load_policy_file(tmp / "c.json");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.what(), tmp / "c.json" + ": unknown key \"fail-on\" (expected \"ignore\" and \"severity\")");
  }
}

TEST(PolicyDates, IsoDatesAndToday) {
  EXPECT_TRUE(is_iso_date("2024-02-29"));
  EXPECT_TRUE(is_iso_date("2000-02-29"));
  EXPECT_FALSE(is_iso_date("1900-02-29"));
  EXPECT_FALSE(is_iso_date("2025-04-31"));
  EXPECT_FALSE(is_iso_date("2025-00-10"));
  EXPECT_FALSE(is_iso_date("2025-6-30"));
  EXPECT_FALSE(is_iso_date("2025-06-30T00:00:00Z"));
  EXPECT_TRUE(is_iso_date(utc_date_today()));
}

TEST(PolicyExpiry, AnIgnoreAppliesThroughItsDateAndIsListedExpiredAfter) {
  Policy p = policy_from_json(nlohmann::json::parse(R"({"ignore": [
      {"id": "runs-as-root", "expires": "2025-06-30", "reason": "init container until the rewrite"},
      {"id": "exec-stack", "reason": "no date"}]})"),
                              "c.yaml");
  std::vector<Finding> found = {finding("runs-as-root", {}), finding("exec-stack", {"/x"})};

  PolicyOutcome last_day = apply_policy(found, p, on("2025-06-30"));
  EXPECT_TRUE(last_day.kept.empty());
  ASSERT_EQ(last_day.suppressed.size(), 2u);
  EXPECT_EQ(last_day.suppressed[0].reason, "init container until the rewrite");
  EXPECT_EQ(last_day.suppressed[0].origin, "c.yaml");
  EXPECT_TRUE(last_day.expired.empty());
  EXPECT_TRUE(last_day.unused.empty());

  PolicyOutcome day_after = apply_policy(found, p, on("2025-07-01"));
  ASSERT_EQ(day_after.kept.size(), 1u);
  EXPECT_EQ(day_after.kept[0].id, "runs-as-root");
  ASSERT_EQ(day_after.suppressed.size(), 1u);
  EXPECT_EQ(day_after.suppressed[0].finding.id, "exec-stack");
  ASSERT_EQ(day_after.expired.size(), 1u);
  EXPECT_EQ(day_after.expired[0].id, "runs-as-root");
  EXPECT_EQ(day_after.expired[0].expires, "2025-06-30");
  EXPECT_TRUE(day_after.unused.empty()) << "an expired ignore is listed as expired, not unused";
}

TEST(PolicyImageScope, NamesOfAnImage) {
  ImageInfo hub;
  hub.source = "docker.io/library/alpine:3.20";
  hub.identity.repo_tags = {"docker.io/library/alpine:3.20"};
  EXPECT_EQ(image_names(hub), (std::vector<std::string>{"docker.io/library/alpine:3.20", "docker.io/library/alpine",
                                                         "alpine:3.20", "alpine", "library/alpine:3.20", "library/alpine"}));
  ImageInfo layout;
  layout.source = "oci:build/img:1.4";
  layout.identity.repo_tags = {"localhost:5000/team/app:1.4"};
  EXPECT_EQ(image_names(layout), (std::vector<std::string>{"localhost:5000/team/app:1.4", "localhost:5000/team/app",
                                                            "oci:build/img:1.4", "oci:build/img"}));
  ImageInfo pinned;
  pinned.source = "localhost:5000/team/app@sha256:0123";
  EXPECT_EQ(image_names(pinned), (std::vector<std::string>{"localhost:5000/team/app@sha256:0123", "localhost:5000/team/app"}));
}

TEST(PolicyImageScope, AnImageGlobAppliesOnlyToImagesItNames) {
  Policy p = policy_from_json(nlohmann::json::parse(R"({"ignore": [
      {"id": "runs-as-root", "image": "localhost:5000/team/*", "reason": "the team's images run as root for now"},
      {"id": "exec-stack", "image": "*/legacy:*", "reason": "legacy only"}]})"),
                              "c.yaml");
  std::vector<Finding> found = {finding("runs-as-root", {}), finding("exec-stack", {"/x"})};

  PolicyOutcome team = apply_policy(found, p, on("2025-01-01", {"localhost:5000/team/app:1.4", "localhost:5000/team/app"}));
  ASSERT_EQ(team.kept.size(), 1u);
  EXPECT_EQ(team.kept[0].id, "exec-stack");
  ASSERT_EQ(team.suppressed.size(), 1u);
  EXPECT_EQ(team.suppressed[0].finding.id, "runs-as-root");
  EXPECT_TRUE(team.unused.empty()) << "an ignore scoped to other images is not unused here";

  PolicyOutcome other = apply_policy(found, p, on("2025-01-01", {"docker.io/library/alpine:3.20", "alpine"}));
  EXPECT_EQ(other.kept.size(), 2u);
  EXPECT_TRUE(other.suppressed.empty());
  EXPECT_TRUE(other.unused.empty());

  PolicyOutcome legacy = apply_policy(found, p, on("2025-01-01", {"registry.example/legacy:2"}));
  ASSERT_EQ(legacy.kept.size(), 1u);
  EXPECT_EQ(legacy.kept[0].id, "runs-as-root");

  PolicyOutcome unnamed = apply_policy(found, p, on("2025-01-01"));
  EXPECT_EQ(unnamed.kept.size(), 2u) << "without names, image-scoped ignores apply nowhere";
}

TEST(PolicyUnused, IgnoresThatMatchedNothingAreListed) {
  Policy p = policy_from_json(nlohmann::json::parse(R"({"ignore": [
      {"id": "exec-stack", "path": "/opt/plugins/*", "reason": "vendored plugins"},
      {"id": "exec-stack", "path": "/usr/lib/*", "reason": "never there"},
      {"id": "runs-as-root", "reason": "not found in this image"}]})"),
                              "c.yaml");
  add_ignore_option(p, "tzdata-missing");
  add_ignore_option(p, "exec-stack:/opt/*");
  PolicyOutcome out = apply_policy({finding("exec-stack", {"/opt/plugins/a.so", "/opt/b.so", "/srv/c"})}, p, on("2025-01-01"));
  ASSERT_EQ(out.kept.size(), 1u);
  EXPECT_EQ(out.kept[0].paths, std::vector<std::string>{"/srv/c"});
  // The dropped paths, grouped by the first ignore that matched each.
  ASSERT_EQ(out.suppressed.size(), 2u);
  EXPECT_EQ(out.suppressed[0].finding.paths, std::vector<std::string>{"/opt/plugins/a.so"});
  EXPECT_EQ(out.suppressed[0].reason, "vendored plugins");
  EXPECT_EQ(out.suppressed[1].finding.paths, std::vector<std::string>{"/opt/b.so"});
  EXPECT_EQ(out.suppressed[1].origin, "--ignore");
  ASSERT_EQ(out.unused.size(), 3u);
  EXPECT_EQ(out.unused[0].path_glob, "/usr/lib/*");
  EXPECT_EQ(out.unused[1].id, "runs-as-root");
  EXPECT_EQ(out.unused[2].id, "tzdata-missing");
  EXPECT_EQ(out.unused[2].origin, "--ignore");
}

TEST(PolicyPragma, SuppressesOnlyTheFindingsOfItsInstruction) {
  Policy p;
  add_pragma_ignore(p, "docker/Dockerfile", 7, 8, {"interpreter-missing", "runs-as-root"}, "glibc comes from a volume");
  ASSERT_EQ(p.ignores.size(), 2u);
  EXPECT_EQ(p.ignores[0].origin, "docker/Dockerfile:7");
  PolicyOutcome out = apply_policy({at_line("interpreter-missing", {"/app/a"}, "docker/Dockerfile", 8),
                                    at_line("interpreter-missing", {"/app/b"}, "docker/Dockerfile", 9),
                                    at_line("interpreter-missing", {"/app/c"}, "other/Dockerfile", 8),
                                    finding("interpreter-missing", {"/app/d"})},
                                   p, on("2025-01-01"));
  ASSERT_EQ(out.kept.size(), 3u);
  EXPECT_EQ(out.kept[0].paths, std::vector<std::string>{"/app/b"});
  ASSERT_EQ(out.suppressed.size(), 1u);
  EXPECT_EQ(out.suppressed[0].finding.paths, std::vector<std::string>{"/app/a"});
  EXPECT_EQ(out.suppressed[0].reason, "glibc comes from a volume");
  EXPECT_EQ(out.suppressed[0].origin, "docker/Dockerfile:7");
  ASSERT_EQ(out.unused.size(), 1u);
  EXPECT_EQ(out.unused[0].id, "runs-as-root");
  EXPECT_EQ(out.unused[0].origin, "docker/Dockerfile:7");
}

TEST(PolicyPragma, AnUnknownRuleIdNamesTheFileAndLine) {
  Policy p;
  try {
    add_pragma_ignore(p, "docker/Dockerfile", 7, 8, {"exec-stack", "no-such-rule"}, "why");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "docker/Dockerfile:7: imgaudit ignore: unknown rule id 'no-such-rule' (imgaudit rules lists them)");
  }
  EXPECT_TRUE(p.ignores.empty()) << "none of the pragma's ids is added when one is unknown";
}
