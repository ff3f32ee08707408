// --platform all: every platform of an index audited in one run, on every transport (OCI layout,
// OCI archive as a file and as a stream, registry, docker-archive), each distinct layer read once,
// and what differs between the platforms named.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include <nlohmann/json.hpp>

#include "local_registry.h"
#include "native_target.h"
#include "util/sha256.h"
#include "util/strings.h"

namespace imgaudit::test {
namespace {

// This machine's platform, and one other.
Platform native_platform() { return {"linux", native_target().oci_arch, ""}; }
Platform other_platform() {
  return native_target().oci_arch == "amd64" ? Platform{"linux", "arm64", ""} : Platform{"linux", "amd64", ""};
}

// One layer, the same bytes on both platforms: this machine's static program as the entrypoint. On the
// other platform it is a program for another architecture, and the container cannot start.
struct TwoPlatforms {
  ImageSpec native, other;
};

TwoPlatforms two_platforms(const TempDir& tmp) {
  const std::string program = tmp / "app";
  // It asks for local time, so an image without zone files has tzdata-missing on every platform: the same
  // finding twice, a result each.
  EXPECT_TRUE(compile_c("gcc", "#include <time.h>\nint main(void) { time_t t = 0; return localtime(&t) == 0; }\n",
                        program, "-static"));
  LayerBlob layer;
  layer.bytes = make_layer_blob({TarEntrySpec::dir("usr"), TarEntrySpec::dir("usr/local"),
                                 TarEntrySpec::dir("usr/local/bin"),
                                 TarEntrySpec::file("usr/local/bin/app", read_file(program), 0755)},
                                Compression::Gzip);
  layer.created_by = "COPY app /usr/local/bin/app";
  TwoPlatforms t;
  t.native.layers = {layer};
  t.native.entrypoint = {"/usr/local/bin/app"};
  t.native.user = "65532";
  t.native.tag = "native";
  t.native.platform = native_platform();
  t.other = t.native;
  t.other.tag = "other";
  t.other.platform = other_platform();
  return t;
}

// The two platforms in an OCI layout in `tmp`, whose tag "multi" is their index; returns the layout.
std::string two_platform_layout(const TempDir& tmp) {
  TwoPlatforms images = two_platforms(tmp);
  const std::string layout = tmp / "layout";
  write_layout(images.native, layout);
  write_layout(images.other, layout);
  make_index(layout, "multi", {"native", "other"}, "");
  return layout;
}

std::set<std::string> rules_of(const nlohmann::json& differences) {
  std::set<std::string> out;
  for (const nlohmann::json& d : differences) out.insert(d["rule"].get<std::string>());
  return out;
}

// The JSON document of --platform all: each platform's document, what differs, one read of the shared layer.
void expect_platforms_document(const CliRun& r, const std::string& input) {
  ASSERT_EQ(r.status, 0) << input << ": " << r.err;
  nlohmann::json doc = nlohmann::json::parse(r.out);
  ASSERT_EQ(doc["platforms"].size(), 2u) << input;
  EXPECT_EQ(doc["platforms"][0]["platform"], native_platform().str()) << input;
  EXPECT_EQ(doc["platforms"][1]["platform"], other_platform().str()) << input;
  EXPECT_EQ(doc["platforms"][1]["image"]["platform"]["architecture"], other_platform().architecture) << input;
  const std::set<std::string> expected{"arch-mismatch", "entrypoint-cannot-load"};
  EXPECT_EQ(rules_of(doc["differences"]), expected) << input << ": " << doc["differences"].dump(1);
  for (const nlohmann::json& d : doc["differences"]) {
    EXPECT_EQ(d["found_on"], nlohmann::json::array({other_platform().str()})) << input;
    EXPECT_EQ(d["missing_on"], nlohmann::json::array({native_platform().str()})) << input;
    EXPECT_EQ(d["paths"], nlohmann::json::array({"/usr/local/bin/app"})) << input;
  }
  // A stream is read in one pass: its layers' facts are the stream's, not counted as read here.
  EXPECT_LE(doc["summary"]["layers_read"].get<int>(), 1) << input << ": the layer both platforms hold is read once";
  EXPECT_EQ(doc["summary"]["layers_shared"], 1) << input << ": the second platform takes the first one's layer";
}

TEST(PlatformAll, EveryPlatformOfAnIndexOnEachTransport) {
  SKIP_WITHOUT_REGISTRY_TOOLS();
  if (auto why = toolchain_problem("gcc", "-static"); !why.empty()) GTEST_SKIP() << why;
  TempDir tmp;
  TwoPlatforms images = two_platforms(tmp);
  const std::string layout = tmp / "layout";
  ImageSpec attestation;
  attestation.tag = "attestation";
  attestation.layers = {small_layer("etc/in-toto", "{}")};
  write_layout(images.native, layout);
  write_layout(images.other, layout);
  write_layout(attestation, layout);
  make_index(layout, "multi", {"native", "other"}, "attestation");
  const std::string archive = tmp / "layout.tar";
  ASSERT_EQ(run("tar -C '" + layout + "' -cf '" + archive + "' ."), 0);
  LocalRegistry reg;
  reg.push(layout, "multi", "app:multi");

  const std::vector<std::pair<std::string, std::string>> inputs = {{"oci:" + layout + ":multi", ""},
                                                                  {"oci-archive:" + archive + ":multi", ""},
                                                                  {"oci-archive:/dev/stdin:multi", read_file(archive)},
                                                                  {reg.host() + "/app:multi", ""}};
  for (auto& [input, stdin_text] : inputs) {
    CliRun r = imgaudit(tmp / "home", "--format json --fail-on never --platform all " + input, "", stdin_text);
    expect_platforms_document(r, input);
  }
  // Pulled from the registry, each blob once: the shared layer was not fetched a second time.
  const std::string layer_digest = Sha256::of(images.native.layers[0].bytes);
  EXPECT_LE(reg.blob_gets("app", layer_digest), 1) << reg.log();
}

// --shard with --platform all: a shard holds the platforms whose manifest digests fall in it, so the two
// platforms of one name can be two shards' (a shard lets go the images of others once their names'
// platforms are described). Each shard names the platform it holds, and the shards cover each once.
TEST(PlatformAll, ShardsSplitANamesPlatformsAndNameEach) {
  SKIP_WITHOUT_REGISTRY_TOOLS();
  if (auto why = toolchain_problem("gcc", "-static"); !why.empty()) GTEST_SKIP() << why;
  TempDir tmp;
  const std::string layout = two_platform_layout(tmp);
  LocalRegistry reg;
  reg.push(layout, "multi", "app:multi");
  const std::string name = reg.host() + "/app:multi";

  bool split = false;
  for (int n = 2; n <= 8 && !split; ++n) {
    std::multiset<std::string> platforms;
    for (int k = 1; k <= n; ++k) {
      CliRun r = imgaudit(tmp / "home", "--format json --fail-on never --no-cache --platform all --shard " +
                                            std::to_string(k) + "/" + std::to_string(n) + " " + name + " " + name);
      ASSERT_EQ(r.status, 0) << r.err;
      nlohmann::json parts = nlohmann::json::parse(r.out)["images"];
      std::set<std::string> held;
      for (const nlohmann::json& part : parts) {
        EXPECT_EQ(part["name"], name);
        if (part.contains("platforms")) {
          for (const nlohmann::json& p : part["platforms"]) held.insert(p["platform"].get<std::string>());
        } else {
          ASSERT_TRUE(part.contains("platform")) << part.dump(1);
          EXPECT_EQ(part["platform"], part["image"]["platform"]["os"].get<std::string>() + "/" +
                                          part["image"]["platform"]["architecture"].get<std::string>());
          held.insert(part["platform"].get<std::string>());
        }
      }
      platforms.insert(held.begin(), held.end());
      split |= held.size() == 1;
    }
    EXPECT_EQ(platforms, (std::multiset<std::string>{native_platform().str(), other_platform().str()})) << n << " shards";
  }
  EXPECT_TRUE(split) << "the two platforms fell in one shard of every count from 2 to 8";
}

TEST(PlatformAll, TextSarifAndTheExitStatusOfTheWorstPlatform) {
  if (auto why = toolchain_problem("gcc", "-static"); !why.empty()) GTEST_SKIP() << why;
  TempDir tmp;
  const std::string layout = two_platform_layout(tmp);
  const std::string input = "oci:" + layout + ":multi";

  CliRun text = imgaudit(tmp / "home", "--color never --platform all " + input);
  EXPECT_EQ(text.status, 1) << "the other platform's container cannot start: " << text.err;
  EXPECT_NE(text.out.find("=== " + input + " (" + native_platform().str() + ") ===\n"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("=== " + input + " (" + other_platform().str() + ") ===\n"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find(other_platform().str() + " only: arch-mismatch (error) on /usr/local/bin/app\n"),
            std::string::npos)
      << text.out;

  CliRun sarif = imgaudit(tmp / "home", "--format sarif --fail-on never --platform all " + input);
  ASSERT_EQ(sarif.status, 0) << sarif.err;
  nlohmann::json doc = nlohmann::json::parse(sarif.out);
  ASSERT_EQ(doc["runs"].size(), 1u) << "one run, as GitHub takes at most 20";
  if (std::filesystem::exists(SARIF_SCHEMA)) {
    write_file(tmp / "report.sarif", sarif.out);
    EXPECT_EQ(schema_verdict(SARIF_SCHEMA, tmp / "report.sarif"), "valid");
  }
  std::set<std::string> platforms, fingerprints;
  size_t results = 0;
  for (const nlohmann::json& result : doc["runs"][0]["results"]) {
    const std::string platform = result["properties"]["platform"];
    platforms.insert(platform);
    EXPECT_TRUE(starts_with(result["message"]["text"].get<std::string>(), platform + ": ")) << result.dump();
    fingerprints.insert(result["partialFingerprints"].begin().value().get<std::string>());
    ++results;
  }
  EXPECT_EQ(platforms, (std::set<std::string>{native_platform().str(), other_platform().str()}));
  EXPECT_EQ(fingerprints.size(), results) << "the same finding on two platforms is two results";

  CliRun junit = imgaudit(tmp / "home", "--format junit --fail-on never --platform all " + input);
  ASSERT_EQ(junit.status, 0) << junit.err;
  EXPECT_NE(junit.out.find("name=\"imgaudit: " + input + " (" + other_platform().str() + ")\""), std::string::npos) << junit.out;
  CliRun quality = imgaudit(tmp / "home", "--format codequality --fail-on never --platform all " + input);
  ASSERT_EQ(quality.status, 0) << quality.err;
  std::set<std::string> quality_fingerprints;
  for (const nlohmann::json& issue : nlohmann::json::parse(quality.out))
    quality_fingerprints.insert(issue["fingerprint"].get<std::string>());
  EXPECT_EQ(quality_fingerprints.size(), nlohmann::json::parse(quality.out).size()) << quality.out;

  // Markdown: each platform's section, then what differs, a table row a finding.
  CliRun markdown = imgaudit(tmp / "home", "--format markdown --fail-on never --platform all " + input);
  auto escaped = [](const Platform& p) { return p.os + "\\/" + p.architecture; };  // as Markdown text: "linux\/arm64"
  ASSERT_EQ(markdown.status, 0) << markdown.err;
  const size_t differs = markdown.out.find("#### What differs between the platforms of ");
  ASSERT_NE(differs, std::string::npos) << markdown.out;
  EXPECT_GT(differs, markdown.out.find(escaped(other_platform()))) << "after the platforms' sections";
  EXPECT_NE(markdown.out.find("| arch\\-mismatch | error | \\/usr\\/local\\/bin\\/app | " +
                              escaped(other_platform()) + " | " + escaped(native_platform()) + " |\n",
                              differs),
            std::string::npos)
      << markdown.out.substr(differs);

  // Several images: each one's part holds its platforms; one of a single platform is one document.
  CliRun fleet = imgaudit(tmp / "home", "--format json --fail-on never --platform all " + input + " oci:" + layout + ":native");
  ASSERT_EQ(fleet.status, 0) << fleet.err;
  nlohmann::json parts = nlohmann::json::parse(fleet.out)["images"];
  ASSERT_EQ(parts.size(), 2u) << fleet.out;
  EXPECT_EQ(parts[0]["name"], input);
  EXPECT_EQ(parts[0]["platforms"].size(), 2u);
  EXPECT_EQ(rules_of(parts[0]["differences"]), (std::set<std::string>{"arch-mismatch", "entrypoint-cannot-load"}));
  EXPECT_EQ(parts[1]["platform"], native_platform().str());
  EXPECT_FALSE(parts[1].contains("platforms"));
}

// `docker save app:amd64 app:arm64`: an archive of two images, one a platform.
TEST(PlatformAll, DockerArchiveOfOneImageAPlatform) {
  if (auto why = toolchain_problem("gcc", "-static"); !why.empty()) GTEST_SKIP() << why;
  TempDir tmp;
  TwoPlatforms images = two_platforms(tmp);
  images.native.tag = "app:native";
  images.other.tag = "app:other";
  const std::string merged = tmp / "merged";
  std::filesystem::create_directories(merged);
  nlohmann::json manifest = nlohmann::json::array();
  for (const ImageSpec* spec : {&images.native, &images.other}) {
    const std::string tar = tmp / (spec->platform.architecture + ".tar");
    write_docker_archive(*spec, tar, true);
    ASSERT_EQ(run("tar -C '" + merged + "' -xf '" + tar + "'"), 0);
    for (const nlohmann::json& entry : nlohmann::json::parse(read_file(merged + "/manifest.json"))) manifest.push_back(entry);
  }
  write_file(merged + "/manifest.json", manifest.dump());
  std::filesystem::remove(merged + "/repositories");
  const std::string archive = tmp / "saved.tar";
  ASSERT_EQ(run("tar -C '" + merged + "' -cf '" + archive + "' ."), 0);

  for (auto& [input, stdin_text] : std::vector<std::pair<std::string, std::string>>{
           {"docker-archive:" + archive, ""}, {"-", read_file(archive)}}) {
    CliRun r = imgaudit(tmp / "home", "--format json --fail-on never --platform all " + input, "", stdin_text);
    expect_platforms_document(r, input);
  }
}

TEST(PlatformAll, OneImageIsItsOnePlatformAndRepeatedPlatformsAreRefused) {
  TempDir tmp;
  const std::string layout = tmp / "layout";
  ImageSpec a, b;
  a.tag = "a";
  a.layers = {small_layer("etc/os-release", "ID=a\n")};
  b.tag = "b";
  b.layers = {small_layer("etc/os-release", "ID=b\n")};
  write_layout(a, layout);
  write_layout(b, layout);
  make_index(layout, "twice", {"a", "b"}, "");

  CliRun one = imgaudit(tmp / "home", "--format json --fail-on never --platform all oci:" + layout + ":a");
  ASSERT_EQ(one.status, 0) << one.err;
  nlohmann::json doc = nlohmann::json::parse(one.out);
  ASSERT_EQ(doc["platforms"].size(), 1u);
  EXPECT_EQ(doc["platforms"][0]["platform"], "linux/amd64");
  EXPECT_EQ(doc["differences"], nlohmann::json::array());

  CliRun twice = imgaudit(tmp / "home", "--platform all oci:" + layout + ":twice");
  EXPECT_EQ(twice.status, 2);
  EXPECT_NE(twice.err.find("lists linux/amd64 more than once"), std::string::npos) << twice.err;
  EXPECT_EQ(std::count(twice.err.begin(), twice.err.end(), '\n'), 1) << "one line: " << twice.err;

  // A platform that cannot be read: the others are reported, the error names it, the exit status is 2.
  ImageSpec c = b;
  c.tag = "c";
  c.platform = {"linux", "arm64", ""};
  c.layers.push_back(small_layer("etc/only-arm64", "x"));
  write_layout(c, layout);
  make_index(layout, "broken", {"a", "c"}, "");
  std::filesystem::remove(layout + "/blobs/sha256/" + Sha256::of(c.layers[1].bytes).substr(7));
  CliRun broken = imgaudit(tmp / "home", "--format json --platform all oci:" + layout + ":broken");
  EXPECT_EQ(broken.status, 2) << broken.err;
  EXPECT_NE(broken.err.find("missing blob (platform linux/arm64)\n"), std::string::npos) << broken.err;
  nlohmann::json partial = nlohmann::json::parse(broken.out);
  ASSERT_EQ(partial["platforms"].size(), 2u);
  EXPECT_TRUE(partial["platforms"][0].contains("findings"));
  EXPECT_TRUE(partial["platforms"][1].contains("error"));
  EXPECT_EQ(partial["platforms"][1]["platform"], "linux/arm64");

  CliRun compare = imgaudit(tmp / "home", "compare --platform all oci:" + layout + ":a oci:" + layout + ":b");
  EXPECT_EQ(compare.status, 2);
  EXPECT_TRUE(starts_with(compare.err, "imgaudit: compare sets two images side by side on one platform")) << compare.err;
}

}  // namespace
}  // namespace imgaudit::test
