// One manifest walker serves every transport: the same index gives the same choice, and the same
// error text, from an OCI layout, an OCI archive (file and stream) and a registry.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "local_registry.h"
#include "util/sha256.h"
#include "util/strings.h"

namespace imgaudit::test {
namespace {

struct Transports {
  std::string layout, archive;
  std::unique_ptr<LocalRegistry> reg;
};

// Each transport's spelling of the image tagged `tag`, and what to feed on standard input.
std::vector<std::pair<std::string, std::string>> spellings(const Transports& t, const std::string& tag) {
  return {{"oci:" + t.layout + ":" + tag, ""},
          {"oci-archive:" + t.archive + ":" + tag, ""},
          {"oci-archive:/dev/stdin:" + tag, read_file(t.archive)},
          {t.reg->host() + "/walk:" + tag, ""}};
}

// What follows "imgaudit: INPUT: " on the one line of an error.
std::string cause(const CliRun& r, const std::string& input) {
  std::string prefix = "imgaudit: " + input + ": ";
  EXPECT_TRUE(starts_with(r.err, prefix)) << r.err;
  return starts_with(r.err, prefix) ? r.err.substr(prefix.size()) : r.err;
}

TEST(WalkerTransports, SameChoiceAndSameErrorsEverywhere) {
  SKIP_WITHOUT_REGISTRY_TOOLS();
  Transports t;
  t.reg = std::make_unique<LocalRegistry>();
  TempDir tmp;
  t.layout = tmp / "layout";
  ImageSpec amd64, arm64, attestation;
  amd64.tag = "amd64";
  amd64.layers = {small_layer("etc/os-release", "ID=amd\n")};
  arm64.tag = "arm64";
  arm64.platform = {"linux", "arm64", ""};
  arm64.layers = {small_layer("etc/os-release", "ID=arm\n")};
  attestation.tag = "attestation";
  attestation.layers = {small_layer("etc/in-toto", "{}")};
  write_layout(amd64, t.layout);
  std::string arm64_digest = write_layout(arm64, t.layout);
  write_layout(attestation, t.layout);
  make_index(t.layout, "multi", {"amd64", "arm64"}, "attestation");
  make_index(t.layout, "armonly", {"arm64"}, "attestation");
  t.archive = tmp / "layout.tar";
  ASSERT_EQ(run("tar -C '" + t.layout + "' -cf '" + t.archive + "' ."), 0);
  t.reg->push(t.layout, "multi", "walk:multi");
  t.reg->push(t.layout, "armonly", "walk:armonly");

  // An index holding one arm64 image (and an attestation) gives that image on any machine.
  for (auto& [input, stdin_text] : spellings(t, "armonly")) {
    CliRun r = imgaudit(tmp / "home", "--format json --fail-on never " + input, "", stdin_text);
    ASSERT_EQ(r.status, 0) << input << ": " << r.err;
    nlohmann::json report = nlohmann::json::parse(r.out);
    EXPECT_EQ(report["image"]["platform"]["architecture"], "arm64") << input;
    EXPECT_EQ(report["image"]["digest"], arm64_digest) << input;
    EXPECT_EQ(report["distro"]["id"], "arm") << input;
  }
  // The platform asked for is chosen, and a missing one is refused in the same words.
  for (auto& [input, stdin_text] : spellings(t, "multi")) {
    CliRun arm = imgaudit(tmp / "home", "--format json --fail-on never --platform linux/arm64 " + input, "", stdin_text);
    ASSERT_EQ(arm.status, 0) << input << ": " << arm.err;
    EXPECT_EQ(nlohmann::json::parse(arm.out)["image"]["digest"], arm64_digest) << input;
    CliRun none = imgaudit(tmp / "home", "--platform linux/s390x " + input, "", stdin_text);
    EXPECT_EQ(none.status, 2) << input;
    EXPECT_EQ(cause(none, input), "no image for platform linux/s390x (the image has linux/amd64, linux/arm64)\n");
  }
  for (auto& [input, stdin_text] : spellings(t, "armonly")) {
    CliRun single = imgaudit(tmp / "home", "--platform linux/amd64 " + input, "", stdin_text);
    EXPECT_EQ(single.status, 2) << input;
    EXPECT_EQ(cause(single, input), "no image for platform linux/amd64 (the image has linux/arm64)\n");
  }
}

TEST(WalkerTransports, NestingIsBoundedAlike) {
  TempDir tmp;
  std::string layout = tmp / "layout";
  ImageSpec spec;
  spec.tag = "base";
  spec.layers = {small_layer("etc/os-release", "ID=x\n")};
  write_layout(spec, layout);
  // Index inside index, kMaxIndexNesting + 2 deep.
  nlohmann::json top = nlohmann::json::parse(read_file(layout + "/index.json"));
  nlohmann::json entry = top["manifests"][0];
  entry.erase("annotations");
  for (int depth = 0; depth < 10; ++depth) {
    std::string bytes = nlohmann::json{{"schemaVersion", 2},
                                       {"mediaType", "application/vnd.oci.image.index.v1+json"},
                                       {"manifests", nlohmann::json::array({entry})}}
                            .dump();
    std::string digest = Sha256::of(bytes);
    write_file(layout + "/blobs/sha256/" + digest.substr(7), bytes);
    entry = {{"mediaType", "application/vnd.oci.image.index.v1+json"}, {"digest", digest}, {"size", bytes.size()}};
  }
  top["manifests"] = nlohmann::json::array({entry});  // not {entry}: a copy of entry with clang
  write_file(layout + "/index.json", top.dump());
  ASSERT_EQ(run("tar -C '" + layout + "' -cf '" + tmp / "deep.tar" + "' ."), 0);
  for (std::string input : {"oci:" + layout, "oci-archive:" + tmp / "deep.tar"}) {
    CliRun r = imgaudit(tmp / "home", input);
    EXPECT_EQ(r.status, 2) << input;
    EXPECT_NE(r.err.find(": indexes nested more than 8 deep\n"), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace imgaudit::test
