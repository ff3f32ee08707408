// The four input formats give the same audit; bad input gives one clear line and exit 2.
#include <gtest/gtest.h>

#include <filesystem>

#include "image_fixture.h"
#include "util/sha256.h"
#include "util/strings.h"

using namespace imgaudit;
using namespace imgaudit::test;

namespace {

ImageSpec two_layer_image(const TempDir& tmp) {
  const NativeTarget& native = native_target();
  ImageSpec spec = native_image();
  spec.layers.push_back(layer({file(NativeTarget::relative(native.musl_interpreter), read_file(native.musl_libc_file)),
                               file("etc/os-release", "ID=example\nVERSION_ID=1\n", 0644)},
                              "ADD base.tar /", Compression::Zstd));
  spec.layers.push_back(layer({file("usr/bin/hello", compiled(tmp, "gcc", kHelloC)),
                               file("usr/bin/mhello", compiled(tmp, "musl-gcc", kHelloC))},
                              "COPY bin /usr/bin/", Compression::None));
  spec.env = {"PATH=/usr/bin"};
  return spec;
}

// The parts of a report that must not depend on the transport.
nlohmann::json essence(const nlohmann::json& j) {
  nlohmann::json binaries = nlohmann::json::array();
  for (auto& b : j["binaries"]) binaries.push_back({b["path"], b["linkage"], b["interpreter_present"], b["libc"]});
  nlohmann::json ids = nlohmann::json::array();
  for (auto& f : j["findings"]) ids.push_back({f["id"], f["paths"], f["layer"].is_null() ? nlohmann::json() : f["layer"]["index"]});
  return {{"binaries", binaries}, {"findings", ids}, {"libc", j["libc"]["family"]}, {"env", j["image"]["env"]}};
}

void expect_one_line_error(const CliResult& r, const std::string& fragment) {
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_NE(r.err.find(fragment), std::string::npos) << r.err;
  ASSERT_FALSE(r.err.empty());
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "not one line: " << r.err;
  EXPECT_TRUE(starts_with(r.err, "imgaudit: ")) << r.err;
}

}  // namespace

TEST(Inputs, FourFormatsFilesAndStreamsGiveTheSameAudit) {
  TempDir tmp;
  ImageSpec spec = two_layer_image(tmp);
  write_oci_layout(spec, tmp / "layout");
  write_docker_archive(spec, tmp / "legacy.tar", true);
  write_docker_archive(spec, tmp / "docker.tar", false);
  write_oci_archive(spec, tmp / "oci.tar");

  auto base = run_imgaudit("--format json oci:" + tmp / "layout");
  ASSERT_EQ(base.status, 1) << base.err;
  auto want = essence(base.json());
  EXPECT_EQ(errors(base.json()).size(), 2u) << want.dump();  // glibc hello: interpreter-missing, libc-mismatch

  auto q = [](const std::string& s) { return "'" + s + "'"; };
  const std::string cache = "--cache-dir " + q(tmp / "cache") + " ";
  for (std::string input : {q(tmp / "layout"), q("docker-archive:" + tmp / "legacy.tar"), q(tmp / "legacy.tar"),
                            q("docker-archive:" + tmp / "docker.tar"), q(tmp / "docker.tar"),
                            q("oci-archive:" + tmp / "oci.tar"), q(tmp / "oci.tar"),
                            // Read in one pass; the second run with a cache takes the named blobs' facts from it.
                            "- < " + q(tmp / "legacy.tar"), "- < " + q(tmp / "docker.tar"),
                            "docker-archive:/dev/stdin < " + q(tmp / "docker.tar"), "- < " + q(tmp / "oci.tar"),
                            cache + "- < " + q(tmp / "docker.tar"), cache + "- < " + q(tmp / "docker.tar")}) {
    auto r = run_imgaudit("--format json " + input);
    ASSERT_EQ(r.status, 1) << input << ": " << r.err;
    EXPECT_EQ(essence(r.json()), want) << input;
    EXPECT_EQ(r.json()["image"]["id"], base.json()["image"]["id"]) << input;
  }
  const auto base_json = base.json();  // a loop over base.json()["image"]... would read it after its end
  for (auto& l : base_json["image"]["layers"])
    EXPECT_TRUE(std::filesystem::exists(tmp / "cache/layers/sha256/" + l["digest"].get<std::string>().substr(7) + ".json"))
        << "a streamed layer's facts are cached by its digest";
  auto piped = run_imgaudit("--format json - < " + q(tmp / "legacy.tar")).json();
  EXPECT_EQ(piped["image"]["source"], "docker-archive:-");
  EXPECT_EQ(piped["image"]["transport"], "docker-archive");
  EXPECT_EQ(piped["image"]["repo_tags"], nlohmann::json::array({"image:latest"}));
}

TEST(Inputs, TamperedStreamIsADigestMismatch) {
  TempDir tmp;
  std::string real = make_layer_blob({file("etc/os-release", "ID=example\n", 0644)}, Compression::None);
  std::string forged = make_layer_blob({file("etc/os-release", "ID=forged\n", 0644)}, Compression::None);
  std::string digest = Sha256::of(real);
  nlohmann::json config = {{"architecture", "amd64"}, {"os", "linux"},
                           {"rootfs", {{"type", "layers"}, {"diff_ids", {digest}}}}};
  std::string config_path = "blobs/sha256/" + Sha256::of(config.dump()).substr(7);
  nlohmann::json manifest = nlohmann::json::array({{{"Config", config_path}, {"Layers", {"blobs/sha256/" + digest.substr(7)}}}});
  write_file(tmp / "forged.tar",
             make_layer_blob({TarEntrySpec::file("blobs/sha256/" + digest.substr(7), forged),
                              TarEntrySpec::file(config_path, config.dump()),
                              TarEntrySpec::file("manifest.json", manifest.dump())},
                             Compression::None));
  // A file is read after its manifest, which numbers the layers; standard input streams its blobs before.
  for (auto [input, layer] : {std::pair{"'" + tmp / "forged.tar" + "'", "layer 0 "}, {"- < '" + tmp / "forged.tar" + "'", "layer "}}) {
    auto r = run_imgaudit(input);
    EXPECT_EQ(r.status, 2) << input;
    EXPECT_NE(r.err.find(layer + digest + ": digest mismatch (got " + Sha256::of(forged) + ")"), std::string::npos)
        << r.err;
  }
}

// A config whose diff_id is not its layer's: refused, as a runtime refuses it, unless the check is
// turned off; the blob's own digest is verified either way.
TEST(Inputs, DiffIdsAreVerifiedUnlessTurnedOff) {
  TempDir tmp;
  std::string layer = make_layer_blob({file("etc/os-release", "ID=example\n", 0644)}, Compression::Gzip);
  std::string digest = Sha256::of(layer), claimed = Sha256::of("not the tar");
  nlohmann::json config = {{"architecture", "amd64"}, {"os", "linux"},
                           {"rootfs", {{"type", "layers"}, {"diff_ids", {claimed}}}}};
  std::string config_path = "blobs/sha256/" + Sha256::of(config.dump()).substr(7);
  nlohmann::json manifest = nlohmann::json::array({{{"Config", config_path}, {"Layers", {"blobs/sha256/" + digest.substr(7)}}}});
  write_file(tmp / "saved.tar", make_layer_blob({TarEntrySpec::file("blobs/sha256/" + digest.substr(7), layer),
                                                 TarEntrySpec::file(config_path, config.dump()),
                                                 TarEntrySpec::file("manifest.json", manifest.dump())},
                                                Compression::None));
  const std::string image = "'" + tmp / "saved.tar" + "'";
  auto checked = run_imgaudit("--no-cache " + image);
  EXPECT_EQ(checked.status, 2);
  EXPECT_NE(checked.err.find("layer 0 " + digest + ": diff_id mismatch (expected " + claimed + ", got " +
                             Sha256::of(uncompressed_tar(layer)) + ")"),
            std::string::npos)
      << checked.err;
  auto unchecked = run_imgaudit("--no-cache --no-verify-diff-ids --fail-on never --format json " + image);
  EXPECT_EQ(unchecked.status, 0) << unchecked.err;
  EXPECT_EQ(unchecked.json()["image"]["layers"][0]["digest"], digest);
}

TEST(Inputs, ABareWordNamesAFolderOnlyWhenItLooksLikeARootfs) {
  TempDir tmp;
  write_file(tmp / "app/src/main.c", "int main(void) { return 0; }\n");
  write_file(tmp / "root/etc/os-release", "ID=example\n");
  auto bare = run_imgaudit_in(tmp.path(), "app");
  EXPECT_EQ(bare.status, 2);
  EXPECT_EQ(bare.err,
            "imgaudit: app: a folder that is neither an OCI layout nor a root filesystem (no etc/, usr/, bin/ or lib/ at "
            "its top), so not audited; for the folder say rootfs:app, for an image of that name docker-daemon:app or "
            "docker://app\n");
  for (std::string as_folder : {"./app", "app/", "rootfs:app", "root"}) {
    auto r = run_imgaudit_in(tmp.path(), "--format json " + as_folder);
    EXPECT_EQ(r.status, 0) << as_folder << ": " << r.err;
    EXPECT_EQ(r.json()["image"]["transport"], "rootfs") << as_folder;
  }
}

TEST(Inputs, RootfsFolder) {
  TempDir tmp;
  const NativeTarget& native = native_target();
  write_file(tmp / "root" + native.musl_interpreter, read_file(native.musl_libc_file), 0755);
  ASSERT_TRUE(compile_c("gcc", kHelloC, tmp / "root/usr/bin/hello"));
  auto r = run_imgaudit("--format json rootfs:" + tmp / "root");
  ASSERT_EQ(r.status, 1) << r.err;
  auto j = r.json();
  EXPECT_EQ(j["libc"]["family"], "musl");
  auto missing = findings(j, "interpreter-missing");
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0]["layer"], nullptr);
  EXPECT_EQ(findings(j, "runs-as-root").size(), 0u) << "a folder has no config";
  // Detected as a rootfs without the prefix too.
  EXPECT_EQ(run_imgaudit("--format json " + tmp / "root").status, 1);
}

TEST(Inputs, TextReportAndOutputFile) {
  TempDir tmp;
  write_oci_layout(two_layer_image(tmp), tmp / "layout");
  auto r = run_imgaudit("-o " + tmp / "report.txt " + tmp / "layout");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(r.out, "");
  auto text = read_file(tmp / "report.txt");
  EXPECT_NE(text.find("error interpreter-missing:"), std::string::npos) << text;
  EXPECT_NE(text.find("layer 1: COPY bin /usr/bin/"), std::string::npos) << text;
  EXPECT_NE(text.find("/usr/bin/hello"), std::string::npos) << text;
  EXPECT_NE(text.find("2 error(s), "), std::string::npos) << text;
  EXPECT_EQ(text.find("\033["), std::string::npos) << "no colour into a file";

  auto quiet = run_imgaudit("-q --fail-on never " + tmp / "layout");
  EXPECT_EQ(quiet.status, 0);
  EXPECT_EQ(quiet.out.find("ELF files"), std::string::npos);
  EXPECT_NE(quiet.out.find("interpreter-missing"), std::string::npos);
}

TEST(Inputs, BadInputsAreOneLineAndExitTwo) {
  TempDir tmp;
  ImageSpec spec = two_layer_image(tmp);
  write_oci_layout(spec, tmp / "good");

  expect_one_line_error(run_imgaudit("--no-such-flag " + tmp / "good"), "--no-such-flag");
  expect_one_line_error(run_imgaudit(""), "IMAGE");
  expect_one_line_error(run_imgaudit("--format xml " + tmp / "good"), "xml");
  expect_one_line_error(run_imgaudit(tmp / "does-not-exist.tar"), "does-not-exist.tar");

  write_file(tmp / "notimage.tar", "this is not a tar file at all");
  expect_one_line_error(run_imgaudit(tmp / "notimage.tar"), "notimage.tar");

  // A malformed index.json.
  std::filesystem::copy(tmp / "good", tmp / "badindex", std::filesystem::copy_options::recursive);
  write_file(tmp / "badindex/index.json", "{\"manifests\": [");
  expect_one_line_error(run_imgaudit("oci:" + tmp / "badindex"), "index.json");

  // A missing blob, a wrong digest and a truncated gzip, on the gzip layer of a fresh image.
  ImageSpec gz = spec;
  gz.layers[1].bytes = make_layer_blob({file("usr/bin/x", "#!/bin/sh\n")}, Compression::Gzip);
  gz.layers[1].compression = Compression::Gzip;
  write_oci_layout(gz, tmp / "gz");
  std::string blobs = tmp / "gz/blobs/sha256";
  std::string layer_blob;
  for (auto& e : std::filesystem::directory_iterator(blobs))
    if (read_file(e.path()) == gz.layers[1].bytes) layer_blob = e.path();
  ASSERT_FALSE(layer_blob.empty());
  std::string hex = std::filesystem::path(layer_blob).filename();

  std::filesystem::copy(tmp / "gz", tmp / "missing", std::filesystem::copy_options::recursive);
  std::filesystem::remove(tmp / ("missing/blobs/sha256/" + hex));
  expect_one_line_error(run_imgaudit("oci:" + tmp / "missing"), hex.substr(0, 12));

  std::filesystem::copy(tmp / "gz", tmp / "tampered", std::filesystem::copy_options::recursive);
  auto tampered = make_layer_blob({file("usr/bin/x", "#!/bin/sh\necho evil\n")}, Compression::Gzip);
  write_file(tmp / ("tampered/blobs/sha256/" + hex), tampered);
  expect_one_line_error(run_imgaudit("oci:" + tmp / "tampered"), "sha256:" + hex.substr(0, 12));

  std::filesystem::copy(tmp / "gz", tmp / "truncated", std::filesystem::copy_options::recursive);
  write_file(tmp / ("truncated/blobs/sha256/" + hex), gz.layers[1].bytes.substr(0, gz.layers[1].bytes.size() / 2));
  auto r = run_imgaudit("oci:" + tmp / "truncated");
  expect_one_line_error(r, "sha256:" + hex.substr(0, 12));
}

TEST(Inputs, HelpAndVersion) {
  auto v = run_imgaudit("--version");
  EXPECT_EQ(v.status, 0);
  EXPECT_TRUE(starts_with(v.out, "imgaudit ")) << v.out;
  auto h = run_imgaudit("--help");
  EXPECT_EQ(h.status, 0);
  EXPECT_NE(h.out.find("--platform"), std::string::npos);
  EXPECT_NE(h.out.find("--format"), std::string::npos);
}

TEST(Inputs, ColourOnATerminalOnlyAndNoColorHonoured) {
  SKIP_WITHOUT_TERMINAL();
  TempDir tmp;
  write_oci_layout(two_layer_image(tmp), tmp / "layout");
  std::string on_tty, no_color;
  run_on_a_terminal(imgaudit_binary() + " " + tmp / "layout", &on_tty);
  run_on_a_terminal("NO_COLOR=1 " + imgaudit_binary() + " " + tmp / "layout", &no_color);
  EXPECT_NE(on_tty.find("\033[1;31merror"), std::string::npos) << on_tty;
  EXPECT_NE(no_color.find("error interpreter-missing"), std::string::npos) << no_color;
  EXPECT_EQ(no_color.find("\033["), std::string::npos) << no_color;
}

TEST(Inputs, LongPathListsAreCutInText) {
  SKIP_WITHOUT_ALPINE_OF("x86_64");
  TempDir tmp;
  ImageSpec spec;
  spec.platform = Platform{"linux", "arm64", ""};
  spec.layers.push_back(alpine_base("x86_64"));
  write_oci_layout(spec, tmp / "img");
  auto j = run_imgaudit("--format json " + tmp / "img").json();
  size_t n = findings(j, "arch-mismatch").at(0)["paths"].size();
  ASSERT_GT(n, 5u);
  auto text = run_imgaudit(tmp / "img").out;
  // By folder: "    /lib/ (5 files): a, b, c, ... and 2 more", a folder's one path, "    and 2 more in 2 folders
  // (--format json for all)"; the counts add up to every path of the finding.
  const size_t block = text.find("error arch-mismatch:");
  ASSERT_NE(block, std::string::npos) << text;
  size_t counted = 0, lines = 0;
  for_each_line(text.substr(block, text.find("\n  fix: ", block) - block), [&](std::string_view line) {
    if (!starts_with(line, "    ")) return;
    ++lines;
    const size_t files = line.find(" files): "), more = line.find("    and ");
    if (files != std::string_view::npos)
      counted += std::stoul(std::string(line.substr(line.rfind('(', files) + 1)));
    else if (more == 0)
      counted += std::stoul(std::string(line.substr(8)));
    else
      ++counted;
  });
  EXPECT_EQ(counted, n) << text;
  EXPECT_LT(lines, n) << text;
  EXPECT_NE(text.find(" more in "), std::string::npos) << text;
  EXPECT_NE(text.find("(--format json for all)\n"), std::string::npos) << text;
}

TEST(Inputs, StandardInputOnATerminalIsRefusedNotWaitedFor) {
  SKIP_WITHOUT_TERMINAL();
  std::string out;
  EXPECT_NE(run_on_a_terminal(imgaudit_binary() + " -", &out), 0);
  EXPECT_NE(out.find("imgaudit: docker-archive:-: standard input is a terminal: pipe an archive into it (docker save "
                     "IMAGE | imgaudit -)"),
            std::string::npos)
      << out;
}
