// CLI habits users bring from the peers: version, typos of subcommands, bare architectures,
// formats a subcommand cannot write, and a usage line that names imgaudit.
#include <gtest/gtest.h>

#include <filesystem>

#include "image_fixture.h"
#include "util/strings.h"

using namespace imgaudit;
using namespace imgaudit::test;

TEST(Habits, VersionNamesTheCommitCatalogAndLibraries) {
  size_t rule_files = 0;
  for (auto& e : std::filesystem::directory_iterator(std::string(IMGAUDIT_SOURCE_DIR) + "/rules"))
    rule_files += e.path().extension() == ".json";
  const std::string rules = "\nrules: " + std::to_string(rule_files) + ", catalog sha256:";
  for (const char* args : {"version", "--version"}) {
    CliResult r = run_imgaudit(args);
    EXPECT_EQ(r.status, 0) << args;
    EXPECT_TRUE(starts_with(r.out, "imgaudit 0.")) << r.out;
    for (std::string part : {" (commit ", ", built ", rules.c_str(), "\nlibarchive 3.", "\nlibelf: elfutils 0.",
                             "\nlibcurl ", "\nOpenSSL ", "\nnlohmann-json 3."})
      EXPECT_NE(r.out.find(part), std::string::npos) << part << " in: " << r.out;
  }
  EXPECT_EQ(run_imgaudit("version").out, run_imgaudit("--version").out);
}

TEST(Habits, ASubcommandTypoIsAnsweredNotPulled) {
  TempDir t;
  CliResult r = run_imgaudit_in(t.path(), "rulez");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "imgaudit: \"rulez\" is no command, nor a file or folder here: did you mean `imgaudit rules`? (an "
                   "image of that name: docker://rulez or docker-daemon:rulez)\n");
  EXPECT_NE(run_imgaudit_in(t.path(), "explian ID").err.find("did you mean `imgaudit explain`?"), std::string::npos);
  EXPECT_NE(run_imgaudit_in(t.path(), "confg").err.find("did you mean `imgaudit config`?"), std::string::npos);
  // A folder of that name is audited as the folder it is.
  std::filesystem::create_directories(t / "rulez/etc");
  CliResult folder = run_imgaudit_in(t.path(), "--format json rulez");
  EXPECT_EQ(folder.status, 0) << folder.err;
  EXPECT_EQ(folder.json()["image"]["transport"], "rootfs");
}

// A typo of a flag or a rule id is answered with what was meant, as git and cargo answer.
TEST(Habits, AFlagOrRuleIdTypoSaysWhatWasMeant) {
  TempDir t;
  CliResult flag = run_imgaudit_in(t.path(), "--frmat json rootfs:.");
  EXPECT_EQ(flag.status, 2);
  EXPECT_NE(flag.err.find("(did you mean --format?)\n"), std::string::npos) << flag.err;
  CliResult with_value = run_imgaudit_in(t.path(), "--fail-onn=never rootfs:.");
  EXPECT_NE(with_value.err.find("(did you mean --fail-on?)\n"), std::string::npos) << with_value.err;
  CliResult unrelated = run_imgaudit_in(t.path(), "--completely-else rootfs:.");
  EXPECT_EQ(unrelated.status, 2);
  EXPECT_EQ(unrelated.err.find("did you mean"), std::string::npos) << unrelated.err;
  EXPECT_NE(unrelated.err.find("(see imgaudit --help)"), std::string::npos) << unrelated.err;

  CliResult explain = run_imgaudit_in(t.path(), "explain musl-alocator");
  EXPECT_EQ(explain.status, 2);
  EXPECT_EQ(explain.err,
            "imgaudit: unknown rule id 'musl-alocator' (did you mean musl-allocator? imgaudit rules lists them)\n");
  CliResult ignore = run_imgaudit_in(t.path(), "--ignore tzdata-mising rootfs:.");
  EXPECT_EQ(ignore.status, 2);
  EXPECT_NE(ignore.err.find("unknown rule id 'tzdata-mising' (did you mean tzdata-missing?"), std::string::npos)
      << ignore.err;
  // What reaches the terminal of an id is printable.
  CliResult escape = run_imgaudit_in(t.path(), "explain \"$(printf 'a\\033[2J')\"");
  EXPECT_EQ(escape.err, "imgaudit: unknown rule id 'a\\x1b[2J' (imgaudit rules lists them)\n");
}

TEST(Habits, ABareArchitectureOrAVariantPicksThePlatform) {
  TempDir t;
  ImageSpec amd, arm;
  amd.tag = arm.tag = "multi";
  amd.platform = {"linux", "amd64", ""};
  amd.layers.push_back(layer({file("etc/os-release", "ID=amd\n", 0644)}, "ADD / /"));
  arm.platform = {"linux", "arm64", ""};
  arm.layers.push_back(layer({file("etc/os-release", "ID=arm\n", 0644)}, "ADD / /"));
  write_oci_layout(amd, t / "img");
  write_oci_layout(arm, t / "img");
  for (const char* platform : {"arm64", "linux/arm64", "linux/arm64/v8", "aarch64"}) {
    CliResult r = run_imgaudit(std::string("--format json --fail-on never --platform ") + platform + " " + t / "img");
    ASSERT_EQ(r.status, 0) << platform << ": " << r.err;
    EXPECT_EQ(r.json()["distro"]["id"], "arm") << platform;
  }
  CliResult amd64 = run_imgaudit("--format json --fail-on never --platform amd64 " + t / "img");
  EXPECT_EQ(amd64.json()["distro"]["id"], "amd");
  CliResult bad = run_imgaudit("--platform linux/ " + t / "img");
  EXPECT_EQ(bad.status, 2);
  EXPECT_EQ(bad.err, "imgaudit: invalid platform \"linux/\": expected [os/]arch[/variant], e.g. linux/arm64 or arm64\n");
}

TEST(Habits, FormatsASubcommandCannotWriteAreRefused) {
  CliResult sarif = run_imgaudit("--format sarif compare a b");
  EXPECT_EQ(sarif.status, 2);
  EXPECT_EQ(sarif.err, "imgaudit: compare writes text or json, not sarif\n");
  CliResult outputs = run_imgaudit("-o junit=x.xml compare a b");
  EXPECT_EQ(outputs.status, 2);
  EXPECT_EQ(outputs.err, "imgaudit: compare writes one report: give its file as compare -o FILE\n");
}

TEST(Habits, UsageNamesImgaudit) {
  CliResult help = run_imgaudit("--help");
  EXPECT_EQ(help.status, 0);
  EXPECT_NE(help.out.find("Usage: imgaudit [OPTIONS]"), std::string::npos) << help.out.substr(0, 200);
  EXPECT_EQ(help.out.find(imgaudit_binary()), std::string::npos) << "not the binary's full path";
}
