#include <filesystem>

#include "source_test_util.h"
#include "util/sha256.h"
#include "writer/tar_builder.h"

using namespace imgaudit;
using namespace imgaudit::test;

namespace {

std::string blob_file(const std::string& layout, const std::string& digest) {
  return layout + "/blobs/sha256/" + digest.substr(7);
}

nlohmann::json index_of(const std::string& layout) { return nlohmann::json::parse(read_file(layout + "/index.json")); }

// A legacy docker-save archive whose manifest.json names `layer_path`, with
// the real layer at `<hex>.tar` and extra entries added by `extra`.
void write_linked_archive(const std::string& path, const std::string& layer_path,
                          const std::function<void(TarBuilder&, const std::string&)>& extra) {
  std::string tar = make_layer_blob({TarEntrySpec::file("etc/hostname", "box\n")}, Compression::None);
  std::string diff_id = Sha256::of(tar);
  ImageSpec spec;
  spec.layers.push_back({tar, Compression::None, "ADD x"});
  std::string config = make_config(spec).dump();
  std::string config_name = Sha256::of(config).substr(7) + ".json";
  TarBuilder out(Compression::None, path);
  out.add_file(diff_id.substr(7) + ".tar", tar);
  out.add_file(config_name, config);
  extra(out, diff_id.substr(7) + ".tar");
  nlohmann::json manifest = nlohmann::json::array({{{"Config", config_name}, {"RepoTags", {"x:1"}}, {"Layers", {layer_path}}}});
  out.add_file("manifest.json", manifest.dump());
  out.finish();
}

}  // namespace

TEST(SourceBadInput, ArchiveMemberSymlinksResolveInsideTheArchive) {
  TempDir t;
  write_linked_archive(t / "linked.tar", "0123/layer.tar", [](TarBuilder& tar, const std::string& real) {
    tar.add_dir("0123");
    tar.add_symlink("0123/layer.tar", "../alias.tar");
    tar.add_symlink("alias.tar", real);
  });
  auto img = open_image(t / "linked.tar", std::nullopt);
  ASSERT_EQ(img->layers().size(), 1u);
  std::string blob = read_all(*img->open_blob(img->layers()[0]));
  EXPECT_EQ(Sha256::of(blob), img->layers()[0].digest);

  write_linked_archive(t / "loop.tar", "a/layer.tar", [](TarBuilder& tar, const std::string&) {
    tar.add_symlink("a/layer.tar", "../b.tar");
    tar.add_symlink("b.tar", "a/layer.tar");
  });
  expect_input_error([&] { open_image(t / "loop.tar", std::nullopt); },
                     {t.path() + "/loop.tar: missing layer a/layer.tar"});

  write_linked_archive(t / "escape.tar", "a/layer.tar", [](TarBuilder& tar, const std::string&) {
    tar.add_symlink("a/layer.tar", "/etc/passwd");
  });
  expect_input_error([&] { open_image(t / "escape.tar", std::nullopt); }, {"missing layer a/layer.tar"});
}

TEST(SourceBadInput, MalformedIndexJson) {
  TempDir t;
  write_oci_layout(sample_spec(), t / "img");
  write_file(t / "img/index.json", R"({"schemaVersion": 2, "manifests": [)");
  expect_input_error([&] { open_image("oci:" + t.path() + "/img", std::nullopt); },
                     {"oci:" + t.path() + "/img: index.json: malformed JSON at byte"});
  write_file(t / "img/index.json", R"({"schemaVersion": 2})");
  expect_input_error([&] { open_image("oci:" + t.path() + "/img", std::nullopt); }, {"index.json: no \"manifests\" array"});
}

TEST(SourceBadInput, MissingBlob) {
  TempDir t;
  write_oci_layout(sample_spec(), t / "img");
  std::string config = make_config(sample_spec()).dump();
  std::filesystem::remove(blob_file(t / "img", Sha256::of(config)));
  expect_input_error([&] { open_image("oci:" + t.path() + "/img:v1", std::nullopt); },
                     {"oci:" + t.path() + "/img:v1: ", "missing blob " + Sha256::of(config)});
}

TEST(SourceBadInput, TamperedManifestIsRejected) {
  TempDir t;
  write_oci_layout(sample_spec(), t / "img");
  std::string digest = index_of(t / "img")["manifests"][0]["digest"];
  std::string manifest = read_file(blob_file(t / "img", digest));
  manifest.replace(manifest.find("\"schemaVersion\":2"), 17, "\"schemaVersion\":3");
  write_file(blob_file(t / "img", digest), manifest);
  expect_input_error([&] { open_image(t / "img", std::nullopt); },
                     {"manifest " + digest, "does not match its digest", Sha256::of(manifest)});
  write_file(blob_file(t / "img", digest), manifest + " ");
  expect_input_error([&] { open_image(t / "img", std::nullopt); }, {"descriptor says"});
}

TEST(SourceBadInput, HostileDigestsNeverBecomePaths) {
  TempDir t;
  write_oci_layout(sample_spec(), t / "img");
  nlohmann::json index = index_of(t / "img");
  std::string manifest_digest = index["manifests"][0]["digest"];
  index["manifests"][0]["digest"] = "sha256:../../../../etc/passwd";
  write_file(t / "img/index.json", index.dump());
  expect_input_error([&] { open_image(t / "img", std::nullopt); },
                     {"malformed digest \"sha256:../../../../etc/passwd\""});
  index["manifests"][0]["digest"] = "sha512:" + std::string(128, 'a');
  write_file(t / "img/index.json", index.dump());
  expect_input_error([&] { open_image(t / "img", std::nullopt); }, {"unsupported or malformed digest \"sha512:"});

  // A layer descriptor in a (correctly hashed) manifest.
  nlohmann::json manifest = nlohmann::json::parse(read_file(blob_file(t / "img", manifest_digest)));
  manifest["layers"][0]["digest"] = "sha256:/etc/shadow";
  std::string bytes = manifest.dump();
  write_file(blob_file(t / "img", Sha256::of(bytes)), bytes);
  index["manifests"][0]["digest"] = Sha256::of(bytes);
  index["manifests"][0]["size"] = bytes.size();
  write_file(t / "img/index.json", index.dump());
  expect_input_error([&] { open_image(t / "img", std::nullopt); }, {"layer: unsupported or malformed digest \"sha256:/etc/shadow\""});

  // In a docker archive, manifest.json names members: never files outside it.
  write_linked_archive(t / "d.tar", "../../../../etc/passwd", [](TarBuilder&, const std::string&) {});
  expect_input_error([&] { open_image(t / "d.tar", std::nullopt); }, {"missing layer ../../../../etc/passwd"});
}

TEST(SourceBadInput, FilesThatAreNoImage) {
  TempDir t;
  TarBuilder tar(Compression::None, t / "plain.tar");
  tar.add_file("hello.txt", "hi");
  tar.finish();
  expect_input_error([&] { open_image(t / "plain.tar", std::nullopt); },
                     {t.path() + "/plain.tar: not an image: no manifest.json or oci-layout"});
  write_file(t / "notes.txt", "just some words, not a tar at all\n");
  expect_input_error([&] { open_image(t / "notes.txt", std::nullopt); },
                     {t.path() + "/notes.txt: not an image: no manifest.json or oci-layout"});
  expect_input_error([&] { open_image("docker-archive:" + t.path() + "/plain.tar", std::nullopt); },
                     {"docker-archive:" + t.path() + "/plain.tar: not a docker archive: no manifest.json"});
  expect_input_error([&] { open_image("oci:" + t.path() + "/notes.txt", std::nullopt); }, {"not a directory"});
}

TEST(SourceBadInput, TruncatedArchive) {
  TempDir t;
  ImageSpec spec = sample_spec();
  spec.layers.push_back({make_layer_blob({TarEntrySpec::file("big", std::string(200000, 'x'))}, Compression::None),
                         Compression::None, "ADD big"});
  write_docker_archive(spec, t / "full.tar", false);
  std::string full = read_file(t / "full.tar");
  write_file(t / "cut.tar", full.substr(0, full.size() / 2));
  expect_input_error([&] { open_image("docker-archive:" + t.path() + "/cut.tar", std::nullopt); },
                     {"docker-archive:" + t.path() + "/cut.tar: truncated or corrupt archive"});
  write_file(t / "cut.tar", full.substr(0, 700));
  expect_input_error([&] { open_image(t / "cut.tar", std::nullopt); }, {t.path() + "/cut.tar: "});
}

TEST(SourceBadInput, MissingPathsAndRegistryReferences) {
  expect_input_error([] { open_image("./no-such-image.tar", std::nullopt); },
                     {"./no-such-image.tar: no such file or directory"});
  expect_input_error([] { open_image("/nonexistent/dir/img", std::nullopt); }, {"no such file or directory"});
  expect_input_error([] { open_image("oci:/nonexistent/layout:tag", std::nullopt); },
                     {"oci:/nonexistent/layout:tag: no such file or directory"});
  expect_input_error([] { open_image("alpine:3.20", std::nullopt); },
                     {"alpine:3.20: registry pulls are not available here"});
  expect_input_error([] { open_image("ghcr.io/org/app@sha256:" + std::string(64, 'a'), std::nullopt); },
                     {"registry pulls are not available here"});
}

// An error that names the image already (InputError::about, as the engines' do) is not named again; one
// that only starts with the same words is.
TEST(SourceBadInput, TheImageIsNamedOnce) {
  auto error_of = [](const std::function<void()>& f) -> std::string {
    try {
      f();
    } catch (const InputError& e) {
      return e.what();
    }
    return "no InputError";
  };
  ImageOpeners named;
  named.engine = [](const std::string&, const std::string& name, const std::optional<Platform>&, bool,
                    const StreamedBlobReader&, EngineMiss*) -> std::unique_ptr<ImageSource> {
    throw InputError::about("docker-daemon:" + name, "the engine has no image " + name);
  };
  EXPECT_EQ(error_of([&] { open_image("docker-daemon:app", std::nullopt, named); }),
            "docker-daemon:app: the engine has no image app");
  ImageOpeners unnamed;
  unnamed.engine = [](const std::string&, const std::string&, const std::optional<Platform>&, bool,
                      const StreamedBlobReader&, EngineMiss*) -> std::unique_ptr<ImageSource> {
    throw InputError("docker-daemon:app: words that only look like a name");
  };
  EXPECT_EQ(error_of([&] { open_image("docker-daemon:app", std::nullopt, unnamed); }),
            "docker-daemon:app: docker-daemon:app: words that only look like a name");
}

// A bare name found nowhere: the headline is the cause that matters most to the user, and every place looked in
// follows in a few words each.
TEST(SourceBadInput, ABareNameFoundNowhereHeadlinesTheNearestMiss) {
  auto error_of = [](const ImageOpeners& openers) -> std::string {
    try {
      open_image("app:dev", Platform::parse("linux/arm64"), openers);
    } catch (const InputError& e) {
      return e.what();
    }
    return "no InputError";
  };
  const std::string docker_why = "the Docker Engine at unix:///x.sock (DOCKER_HOST)";
  auto engines = [&](bool docker_has_it) {
    return [=](const std::string& engine, const std::string& name, const std::optional<Platform>&, bool,
               const StreamedBlobReader&, EngineMiss* miss) -> std::unique_ptr<ImageSource> {
      if (engine == "podman")
        *miss = {EngineMiss::Kind::Unreachable, "Podman at unix:///p.sock (the default socket): not running (no socket there)",
                 "not running"};
      else if (engine == "containerd")
        *miss = {EngineMiss::Kind::Absent, "containerd at /c.sock (namespace default): no image " + name,
                 "no image " + name};
      else if (docker_has_it)
        *miss = {EngineMiss::Kind::OtherPlatform, docker_why + ": " + name + " is for linux/amd64, not linux/arm64",
                 name + " is for linux/amd64"};
      else
        *miss = {EngineMiss::Kind::Absent, docker_why + ": no image " + name, "no image " + name};
      return nullptr;
    };
  };
  ImageOpeners openers;
  openers.registry = [](const std::string&, const std::optional<Platform>&) -> std::unique_ptr<ImageSource> {
    throw InputError("https://registry-1.docker.io/v2/: cannot resolve the host name");
  };
  // The local image is for another platform: that, not the registry's DNS, is what the user needs to hear.
  openers.engine = engines(true);
  EXPECT_EQ(error_of(openers),
            "app:dev: " + docker_why + ": app:dev is for linux/amd64, not linux/arm64 (looked in docker: app:dev is "
            "for linux/amd64; podman: not running; containerd: no image app:dev; the registry: https://registry-1.docker.io/v2/: cannot resolve the "
            "host name)");
  // Nowhere locally: the registry's answer, then the engines in a few words (no socket paths).
  openers.engine = engines(false);
  EXPECT_EQ(error_of(openers), "app:dev: https://registry-1.docker.io/v2/: cannot resolve the host name (looked in the "
                               "registry after docker: no image app:dev; podman: not running; containerd: no image app:dev)");
  // No registry asked (--image-src docker,podman): each engine's whole answer.
  openers.lookup = {"docker", "podman"};
  EXPECT_EQ(error_of(openers), "app:dev: not found: docker: " + docker_why + ": no image app:dev; podman: Podman at "
                               "unix:///p.sock (the default socket): not running (no socket there)");
}
