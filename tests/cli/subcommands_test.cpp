// The subcommands that print and exit besides the rule catalog's: help, completion, and the cache folder's
// info and clean, run as users run them, on cache folders that real audits filled.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <future>

#include "cache/blob_cache.h"
#include "image_fixture.h"
#include "util/human_size.h"
#include "util/sha256.h"
#include "util/strings.h"

using namespace imgaudit;
using namespace imgaudit::test;

namespace {

namespace fs = std::filesystem;

// An image of two small layers, audited with its layers' facts cached in the folder --cache-dir names.
ImageSpec two_layers() {
  ImageSpec spec = native_image();
  spec.layers.push_back(layer({file("etc/os-release", "ID=test\n", 0644)}, "ADD rootfs /"));
  spec.layers.push_back(layer({file("app/run.sh", "#!/bin/sh\necho hi\n")}, "COPY run.sh /app/"));
  return spec;
}

// The entries of a folder of the cache, and their bytes, as the file system tells.
std::pair<size_t, uint64_t> files_in(const std::string& dir) {
  std::pair<size_t, uint64_t> out{0, 0};
  if (!fs::exists(dir)) return out;
  for (auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && !e.is_symlink()) ++out.first, out.second += e.file_size();
  return out;
}

std::string entries_line(const std::string& kind, std::pair<size_t, uint64_t> files, const std::string& tail) {
  return kind + ": " + std::to_string(files.first) + (files.first == 1 ? " entry" : " entries") + tail +
         human_size(files.second);
}

}  // namespace

TEST(HelpCommand, PrintsWhatHelpPrints) {
  CliResult help = run_imgaudit("help");
  EXPECT_EQ(help.status, 0);
  EXPECT_EQ(help.out, run_imgaudit("--help").out);
  for (const char* sub : {"compare", "cache", "cache clean", "completion"}) {
    CliResult topic = run_imgaudit(std::string("help ") + sub);
    EXPECT_EQ(topic.status, 0) << sub;
    EXPECT_EQ(topic.out, run_imgaudit(std::string(sub) + " --help").out) << sub;
  }
  for (const char* sub : {"help", "completion", "cache"})
    EXPECT_NE(help.out.find("\n  " + std::string(sub) + " "), std::string::npos) << sub << " in --help";
}

TEST(HelpCommand, AnUnknownSubcommandIsOneLineWithWhatWasMeant) {
  CliResult typo = run_imgaudit("help compre");
  EXPECT_EQ(typo.status, 2);
  EXPECT_EQ(typo.err, "imgaudit: \"compre\" is no subcommand of imgaudit: did you mean `imgaudit help compare`?\n");
  EXPECT_EQ(typo.out, "");
  CliResult nested = run_imgaudit("help cache clen");
  EXPECT_EQ(nested.err,
            "imgaudit: \"clen\" is no subcommand of imgaudit cache: did you mean `imgaudit help cache clean`?\n");
  CliResult far = run_imgaudit("help \"$(printf 'x\\033[2J')\"");
  EXPECT_EQ(far.status, 2);
  EXPECT_EQ(far.err, "imgaudit: \"x\\x1b[2J\" is no subcommand of imgaudit (imgaudit has rules, explain, compare, "
                     "version, config, help, completion, cache)\n");
}

// The typo check knows every subcommand, the new ones too: a typo is not pulled from a registry.
TEST(HelpCommand, TyposOfTheNewSubcommandsAreAnswered) {
  TempDir t;
  for (auto [typo, meant] : {std::pair{"hepl", "help"}, {"cach", "cache"}, {"completoin", "completion"}}) {
    CliResult r = run_imgaudit_in(t.path(), typo);
    EXPECT_EQ(r.status, 2) << typo;
    EXPECT_NE(r.err.find("did you mean `imgaudit " + std::string(meant) + "`?"), std::string::npos) << r.err;
  }
}

// The scripts packaging/completions holds, byte for byte, and the shells load them.
TEST(CompletionCommand, PrintsTheShippedScripts) {
  const std::string dir = std::string(IMGAUDIT_SOURCE_DIR) + "/packaging/completions/";
  CliResult bash = run_imgaudit("completion bash");
  EXPECT_EQ(bash.status, 0);
  EXPECT_EQ(bash.out, read_file(dir + "imgaudit.bash"));
  CliResult zsh = run_imgaudit("completion zsh");
  EXPECT_EQ(zsh.status, 0);
  EXPECT_EQ(zsh.out, read_file(dir + "_imgaudit"));

  CliResult fish = run_imgaudit("completion fish");
  EXPECT_EQ(fish.status, 2);
  EXPECT_EQ(fish.err, "imgaudit: SHELL: fish not in {bash,zsh} (see imgaudit --help)\n");
  EXPECT_EQ(run_imgaudit("completion").status, 2);
}

TEST(CompletionCommand, BashLoadsIt) {
  std::string out;
  ASSERT_EQ(run("bash -c " + shell_quoted("source <(" + imgaudit_binary() + " completion bash) && complete -p imgaudit"),
                &out),
            0);
  EXPECT_EQ(out, "complete -F _imgaudit imgaudit\n");
}

TEST(CompletionCommand, ZshLoadsIt) {
  if (!have_tool("zsh")) GTEST_SKIP() << "zsh is not installed (packaging/install-deps.sh installs it)";
  TempDir t;
  ASSERT_EQ(run(imgaudit_binary() + " completion zsh > " + t / "_imgaudit"), 0);
  // As a user installs it: the file in a folder on $fpath, compinit, and zsh completes imgaudit with it.
  std::string out;
  ASSERT_EQ(run("zsh -f -c " + shell_quoted("fpath=(" + t.path() + " $fpath); autoload -U compinit && compinit -u -d " +
                                            t / "dump" + " && print -r -- $_comps[imgaudit]"),
                &out),
            0);
  EXPECT_EQ(out, "_imgaudit\n");
}

// `cache info` on a folder real audits filled: every entry and its bytes, as the file system counts them.
TEST(CacheCommand, InfoCountsWhatAuditsCached) {
  TempDir t;
  const std::string cache = t / "cache";
  CliResult audit = run_imgaudit("--cache-dir " + cache + " -q --fail-on never " + write_oci(t, two_layers()));
  ASSERT_EQ(audit.status, 0) << audit.err;
  // Manifests and configs are cached as registries send them: one written by imgaudit's own blob cache.
  const std::string manifest = "{\"schemaVersion\":2}";
  BlobCache(cache).put(Sha256::of(manifest), manifest);
  const auto blobs = files_in(cache + "/blobs/sha256"), facts = files_in(cache + "/layers/sha256");
  ASSERT_EQ(facts.first, 2u) << "a layer's facts an entry";

  CliResult info = run_imgaudit("cache info --cache-dir " + cache);
  ASSERT_EQ(info.status, 0) << info.err;
  EXPECT_EQ(info.out, "cache folder: " + cache + "\n" + entries_line("blobs", blobs, ", ") +
                          " (manifests and configs)\n" + entries_line("facts", facts, ", ") + " (layer facts)\n" +
                          "temporary: 0 entries, 0 B (entries being written, or left by a run that died)\n" +
                          entries_line("total", {blobs.first + facts.first, blobs.second + facts.second}, ", ") +
                          "\n");
  // The folder from the variable, the option before the subcommand: the same folder.
  EXPECT_EQ(run_imgaudit("--cache-dir " + cache + " cache info").out, info.out);
  EXPECT_EQ(run("IMGAUDIT_CACHE_DIR=" + cache + " " + imgaudit_binary() + " cache info > " + t / "env.out"), 0);
  EXPECT_EQ(read_file(t / "env.out"), info.out);
}

// clean removes the entries and says what that freed; the next audit fills the folder again.
TEST(CacheCommand, CleanRemovesImgauditsEntries) {
  TempDir t;
  const std::string cache = t / "cache", image = write_oci(t, two_layers());
  ASSERT_EQ(run_imgaudit("--cache-dir " + cache + " -q --fail-on never " + image).status, 0);
  const auto facts = files_in(cache + "/layers/sha256");
  CliResult clean = run_imgaudit("cache clean --cache-dir " + cache);
  ASSERT_EQ(clean.status, 0) << clean.err;
  EXPECT_EQ(clean.out, "cache folder: " + cache + "\nblobs: 0 entries removed, 0 B\n" +
                           entries_line("facts", facts, " removed, ") + "\ntemporary: 0 entries removed, 0 B\n" +
                           entries_line("freed", facts, ", ") + "\n");
  EXPECT_EQ(files_in(cache + "/layers/sha256").first, 0u);
  ASSERT_EQ(run_imgaudit("--cache-dir " + cache + " -q --fail-on never " + image).status, 0);
  EXPECT_EQ(files_in(cache + "/layers/sha256"), facts);

  // --older-than keeps what was just written.
  CliResult young = run_imgaudit("cache clean --older-than 1d --cache-dir " + cache);
  ASSERT_EQ(young.status, 0) << young.err;
  EXPECT_NE(young.out.find("\nfreed: 0 entries, 0 B\nkept: 2 entries, "), std::string::npos) << young.out;
  EXPECT_EQ(files_in(cache + "/layers/sha256"), facts);
  CliResult bad = run_imgaudit("cache clean --older-than 1y --cache-dir " + cache);
  EXPECT_EQ(bad.status, 2);
  EXPECT_TRUE(starts_with(bad.err, "imgaudit: --older-than: \"1y\" is no duration")) << bad.err;
}

// A cache folder someone else put things in: links out of it and other files stay, outside nothing changes.
TEST(CacheCommand, CleanLeavesAloneWhatIsNotImgaudits) {
  TempDir t;
  const std::string cache = t / "cache", outside = t / "outside";
  ASSERT_EQ(run_imgaudit("--cache-dir " + cache + " -q --fail-on never " + write_oci(t, two_layers())).status, 0);
  const std::string hex(64, 'a');
  write_file(outside + "/" + hex, "precious");
  write_file(outside + "/" + hex + ".json", "precious too");
  fs::create_directories(cache + "/blobs");
  fs::create_directory_symlink(outside, cache + "/blobs/sha256");
  fs::create_symlink(outside + "/" + hex + ".json", cache + "/layers/sha256/" + hex + ".json");
  write_file(cache + "/layers/sha256/README", "my notes");

  CliResult clean = run_imgaudit("cache clean --cache-dir " + cache);
  ASSERT_EQ(clean.status, 0) << clean.err;
  EXPECT_NE(clean.out.find("\nfacts: 2 entries removed, "), std::string::npos) << clean.out;
  EXPECT_NE(clean.out.find("\nleft alone: 3 names imgaudit did not make (first: "), std::string::npos) << clean.out;
  EXPECT_EQ(read_file(outside + "/" + hex), "precious");
  EXPECT_EQ(read_file(outside + "/" + hex + ".json"), "precious too");
  EXPECT_EQ(read_file(cache + "/layers/sha256/README"), "my notes");
  EXPECT_TRUE(fs::is_symlink(cache + "/layers/sha256/" + hex + ".json"));
}

// Audits running while the cache is cleaned over and over read every layer they need, from the cache or
// again, and report what an audit alone reports.
TEST(CacheCommand, CleaningDoesNotDisturbRunningAudits) {
  TempDir t;
  const std::string cache = t / "cache", image = write_oci(t, two_layers());
  const std::string audit = "--cache-dir " + cache + " --format json --fail-on never " + image;
  CliResult alone = run_imgaudit(audit);
  ASSERT_EQ(alone.status, 0) << alone.err;
  std::vector<std::future<CliResult>> audits;
  for (int i = 0; i < 4; ++i) audits.push_back(std::async(std::launch::async, [&] { return run_imgaudit(audit); }));
  for (int i = 0; i < 20; ++i) EXPECT_EQ(run_imgaudit("cache clean --cache-dir " + cache).status, 0);
  for (auto& f : audits) {
    CliResult r = f.get();
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.json()["findings"], alone.json()["findings"]);
    EXPECT_EQ(r.json()["image"], alone.json()["image"]);
  }
}

TEST(CacheCommand, RedisIsNamedNotCleaned) {
  TempDir t;
  // No server listens there: neither command connects.
  CliResult info = run_imgaudit("cache info --cache-dir " + t / "cache" + " --cache redis://user:s3cret@127.0.0.1:1/2");
  ASSERT_EQ(info.status, 0) << info.err;
  EXPECT_NE(info.out.find("\nlayer facts: in Redis at redis://127.0.0.1:1/2 (--cache), shared with other runs: neither "
                          "counted nor removed here; Redis drops those unused for 30d (--cache-ttl)\n"),
            std::string::npos)
      << info.out;
  EXPECT_EQ(info.out.find("s3cret"), std::string::npos);
  CliResult clean = run_imgaudit("cache clean --cache-dir " + t / "cache" + " --cache redis://127.0.0.1:1");
  EXPECT_EQ(clean.status, 0) << clean.err;
  EXPECT_NE(clean.out.find("layer facts: in Redis at redis://127.0.0.1:1/0"), std::string::npos) << clean.out;
}

TEST(CacheCommand, UsageErrorsAreOneLine) {
  TempDir t;
  write_file(t / "file", "not a folder");
  for (const std::string& args :
       std::vector<std::string>{"cache", "cache info extra", "cache clean --cache-dir " + t / "file", "cache sweep"}) {
    CliResult r = run_imgaudit(args);
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_TRUE(starts_with(r.err, "imgaudit: ")) << args << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << ": " << r.err;
    EXPECT_EQ(r.out, "") << args;
  }
  // A folder not made yet holds nothing.
  CliResult none = run_imgaudit("cache info --cache-dir " + t / "none");
  EXPECT_EQ(none.status, 0);
  EXPECT_TRUE(starts_with(none.out, "cache folder: " + t / "none" + " (not made yet)\n")) << none.out;
}

// The audit's flags do nothing in a subcommand that does not read them: given before it, or after the
// ones that pass flags on (cache, compare), they are refused in one line, where they were once ignored.
TEST(SubcommandFlags, TheAuditsFlagsASubcommandDoesNotReadAreRefused) {
  const std::vector<std::pair<std::string, std::string>> refused = {
      {"cache info --fail-on error", "--fail-on is no option of imgaudit cache info (it takes --cache-dir, "
                                     "--cache, --cache-ttl)"},
      {"--fail-on error cache info", "--fail-on is no option of imgaudit cache info (it takes --cache-dir, "
                                     "--cache, --cache-ttl)"},
      {"cache clean -j 2", "--jobs is no option of imgaudit cache clean (it takes --cache-dir, --cache, --cache-ttl)"},
      {"rules --fail-on=error", "--fail-on is no option of imgaudit rules, which takes none"},
      {"--format json rules", "--format is no option of imgaudit rules, which takes none"},
      {"version -q", "--quiet is no option of imgaudit version, which takes none"},
      {"--images-from f explain tzdata-missing", "--images-from is no option of imgaudit explain, which takes none"},
      {"image.tar rules", "\"image.tar\" is no argument of imgaudit rules"},
      {"cache extra", "\"extra\" is no argument of imgaudit cache: it takes info or clean"},
      {"cache info extra", "\"extra\" is no argument of imgaudit cache info"},
      {"compare a b c", "\"c\" is no argument of imgaudit compare"},
  };
  for (const auto& [args, line] : refused) {
    CliResult r = run_imgaudit(args);
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_EQ(r.err, "imgaudit: " + line + "\n") << args;
    EXPECT_EQ(r.out, "") << args;
  }
  // compare takes the audit's reading flags, not the gate's nor the fleet's: its list is long, its start is shown.
  const std::vector<std::pair<std::string, std::string>> not_compares = {
      {"--ignore tzdata-missing compare a b", "ignore"}, {"compare a b --baseline base.json", "baseline"},
      {"compare a b --fail-on warning", "fail-on"}, {"--shard 1/2 compare a b", "shard"}};
  for (const auto& [args, flag] : not_compares) {
    CliResult r = run_imgaudit(args);
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_TRUE(starts_with(r.err, "imgaudit: --" + flag + " is no option of imgaudit compare (it takes --platform,"))
        << args << ": " << r.err;
  }
}

// What a subcommand reads stays taken, before and after it; the settings file and the variables serve every
// command, so what they set is never refused.
TEST(SubcommandFlags, TheFlagsASubcommandReadsAndTheSettingsAreTaken) {
  TempDir t;
  const std::string cache = t / "cache", a = write_oci(t, two_layers(), "a"), b = write_oci(t, native_image(), "b");
  CliResult compare = run_imgaudit("compare " + a + " " + b + " --cache-dir " + cache + " -j 1 --format json");
  ASSERT_EQ(compare.status, 0) << compare.err;
  EXPECT_NO_THROW((void)compare.json()) << compare.out;
  EXPECT_EQ(files_in(cache + "/layers/sha256").first, 2u) << "compare read --cache-dir given after it";
  EXPECT_EQ(run_imgaudit("cache info --cache-dir " + cache + " --cache-ttl 1d").status, 0);

  write_file(t / ".imgaudit.yaml", "fail-on: error\nformat: json\nbaseline: none.json\n");
  CliResult rules = run_imgaudit_in(t.path(), "rules");
  EXPECT_EQ(rules.status, 0) << rules.err;
  EXPECT_NE(rules.out.find("tzdata-missing"), std::string::npos);
  EXPECT_EQ(run_imgaudit_in(t.path(), "--config .imgaudit.yaml version").status, 0);
  CliResult config = run_imgaudit_in(t.path(), "--fail-on warning --jobs 3 config");
  EXPECT_EQ(config.status, 0) << config.err;
  EXPECT_NE(config.out.find("fail-on: warning  # --fail-on\n"), std::string::npos) << config.out;
  EXPECT_EQ(run("IMGAUDIT_FAIL_ON=error " + imgaudit_binary() + " rules > " + t / "env.out"), 0);
}
