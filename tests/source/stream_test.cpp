// Archives read in one pass (pipes, devices, the engines' exports): each layer blob goes to the
// reader as it streams past, the image is assembled at the end, and the result is the image the
// same archive gives when read from a file.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <thread>

#include "source_test_util.h"
#include "source/blob_store.h"
#include "util/sha256.h"
#include "util/strings.h"

using namespace imgaudit;
using namespace imgaudit::test;

namespace {

// What a StreamedBlobReader was handed.
struct Handed {
  std::map<std::string, std::string> digests;  // path -> digest of the bytes read
  std::map<std::string, std::string> named;    // path -> the digest its name gave
  StreamedBlobReader reader() {
    return [this](const std::string& path, const std::string& named_digest, uint64_t, ByteStream& bytes) {
      std::string digest = Sha256::of(read_all(bytes));
      digests[path] = digest;
      named[path] = named_digest;
      return digest;
    };
  }
};

// `bytes` written into a FIFO by another thread while `open` reads it.
std::unique_ptr<ImageSource> open_through_fifo(const TempDir& t, const std::string& bytes, const std::string& prefix,
                                               const std::string& suffix, Handed& handed,
                                               const std::optional<Platform>& platform = std::nullopt) {
  std::string fifo = t / "pipe";
  unlink(fifo.c_str());
  EXPECT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  std::thread writer([&] {
    int fd = ::open(fifo.c_str(), O_WRONLY);
    for (size_t off = 0; fd >= 0 && off < bytes.size();) {
      ssize_t n = ::write(fd, bytes.data() + off, bytes.size() - off);
      if (n <= 0) break;
      off += size_t(n);
    }
    if (fd >= 0) ::close(fd);
  });
  signal(SIGPIPE, SIG_IGN);
  ImageOpeners openers;
  openers.read_streamed_blob = handed.reader();
  std::unique_ptr<ImageSource> img;
  try {
    img = open_image(prefix + fifo + suffix, platform, openers);
  } catch (...) {
    // The reader is closed: the writer's next write fails with EPIPE (SIGPIPE is ignored here).
    writer.join();
    throw;
  }
  writer.join();
  return img;
}

void expect_same_image(const ImageSource& streamed, const ImageSource& file) {
  EXPECT_EQ(streamed.config(), file.config());
  EXPECT_EQ(streamed.manifest_digest(), file.manifest_digest());
  EXPECT_EQ(streamed.identity().image_id, file.identity().image_id);
  EXPECT_EQ(streamed.identity().repo_tags, file.identity().repo_tags);
  auto a = streamed.layers(), b = file.layers();
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].digest, b[i].digest);
    EXPECT_EQ(a[i].media_type, b[i].media_type);
  }
}

// A tar of members as given, through the project's writer.
std::string archive_of(const std::vector<TarEntrySpec>& members) { return make_layer_blob(members, Compression::None); }

}  // namespace

TEST(SourceStream, EachFormatInOnePassGivesTheFilesImage) {
  TempDir t;
  ImageSpec spec = sample_spec();
  write_docker_archive(spec, t / "legacy.tar", true);
  write_docker_archive(spec, t / "new.tar", false);
  write_oci_archive(spec, t / "oci.tar");
  for (const std::string name : {"legacy.tar", "new.tar", "oci.tar"}) {
    Handed handed;
    auto streamed = open_through_fifo(t, read_file(t / name), "", "", handed);
    auto file = open_image(t / name, std::nullopt);
    SCOPED_TRACE(name);
    expect_same_image(*streamed, *file);
    EXPECT_EQ(streamed->describe(), std::string(name == "oci.tar" ? "oci-archive:" : "docker-archive:") + t / "pipe");
    EXPECT_EQ(handed.digests.size(), 3u) << "the three layer blobs, and no manifest or config";
    for (const Descriptor& d : streamed->layers()) {
      bool found = false;
      for (auto& [path, digest] : handed.digests) found = found || digest == d.digest;
      EXPECT_TRUE(found) << d.digest;
      expect_input_error([&] { streamed->open_blob(d); }, {"a stream is read once"});
    }
    for (auto& [path, named] : handed.named)
      EXPECT_EQ(named, starts_with(path, "blobs/sha256/") ? "sha256:" + path.substr(13) : "") << path;
  }
}

TEST(SourceStream, CompressedOuterStreamAndSymlinkedLayers) {
  TempDir t;
  ImageSpec spec = sample_spec();
  write_docker_archive(spec, t / "legacy.tar", true);
  ASSERT_EQ(run("gzip -c '" + t / "legacy.tar" + "' > '" + t / "legacy.tar.gz" + "'"), 0);
  Handed gz;
  expect_same_image(*open_through_fifo(t, read_file(t / "legacy.tar.gz"), "docker-archive:", "", gz),
                    *open_image(t / "legacy.tar", std::nullopt));
  EXPECT_EQ(gz.digests.size(), 3u);
}

// go-containerregistry's hello-world-v25.tar: an untagged Docker 25 save, its index.json with
// "manifests": null; manifest.json names the config and the layer.
TEST(SourceStream, UntaggedDocker25SaveIsReadFromManifestJson) {
  TempDir t;
  std::string layer = make_layer_blob({TarEntrySpec::file("hello", "\x7f" "ELF", 0755)}, Compression::None);
  std::string layer_digest = Sha256::of(layer);
  nlohmann::json config = {{"architecture", "arm64"}, {"os", "linux"},
                           {"config", {{"Cmd", {"/hello"}}}},
                           {"rootfs", {{"type", "layers"}, {"diff_ids", {layer_digest}}}},
                           {"history", {{{"created_by", "COPY hello / # buildkit"}}}}};
  std::string config_bytes = config.dump();
  std::string config_digest = Sha256::of(config_bytes);
  nlohmann::json manifest = nlohmann::json::array(
      {{{"Config", "blobs/sha256/" + config_digest.substr(7)},
        {"RepoTags", nullptr},
        {"Layers", {"blobs/sha256/" + layer_digest.substr(7)}},
        {"LayerSources", {{layer_digest, {{"mediaType", "application/vnd.oci.image.layer.v1.tar"},
                                          {"size", layer.size()}, {"digest", layer_digest}}}}}}});
  std::string tar = archive_of({TarEntrySpec::dir("blobs"), TarEntrySpec::dir("blobs/sha256"),
                                TarEntrySpec::file("blobs/sha256/" + layer_digest.substr(7), layer),
                                TarEntrySpec::file("blobs/sha256/" + config_digest.substr(7), config_bytes),
                                TarEntrySpec::file("index.json", R"({"schemaVersion":2,"mediaType":"application/vnd.oci.image.index.v1+json","manifests":null})"),
                                TarEntrySpec::file("manifest.json", manifest.dump()),
                                TarEntrySpec::file("oci-layout", R"({"imageLayoutVersion": "1.0.0"})")});
  write_file(t / "hello-world-v25.tar", tar);
  Handed handed;
  auto streamed = open_through_fifo(t, tar, "", "", handed);
  auto file = open_image(t / "hello-world-v25.tar", std::nullopt);
  for (const ImageSource* img : {streamed.get(), file.get()}) {
    EXPECT_EQ(img->identity().image_id, config_digest);
    EXPECT_TRUE(img->identity().repo_tags.empty());
    EXPECT_EQ(img->config()["architecture"], "arm64");
    ASSERT_EQ(img->layers().size(), 1u);
    EXPECT_EQ(img->layers()[0].digest, layer_digest);
  }
  EXPECT_EQ(handed.named.at("blobs/sha256/" + layer_digest.substr(7)), layer_digest);
}

// go-containerregistry's test_bundle.tar: two legacy images, neither named on the command line.
TEST(SourceStream, SeveralImagesAndNoChoiceIsRefusedListingTheTags) {
  TempDir t;
  std::vector<TarEntrySpec> members;
  nlohmann::json manifest = nlohmann::json::array();
  for (const std::string name : {"test_image_2", "test_image_1"}) {
    std::string layer = make_layer_blob({TarEntrySpec::file(name, name)}, Compression::None);
    std::string id = Sha256::of(name).substr(7);
    nlohmann::json config = {{"architecture", "amd64"}, {"os", "linux"},
                             {"rootfs", {{"type", "layers"}, {"diff_ids", {Sha256::of(layer)}}}}};
    std::string config_name = Sha256::of(config.dump()).substr(7) + ".json";
    members.push_back(TarEntrySpec::file(config_name, config.dump()));
    members.push_back(TarEntrySpec::file(id + "/layer.tar", layer));
    members.push_back(TarEntrySpec::file(id + "/VERSION", "1.0"));
    manifest.push_back({{"Config", config_name}, {"Layers", {id + "/layer.tar"}}, {"RepoTags", {name}}});
  }
  members.push_back(TarEntrySpec::file("manifest.json", manifest.dump()));
  write_file(t / "bundle.tar", archive_of(members));
  const std::string refusal =
      "the archive holds 2 images (tags: test_image_2, test_image_1): name one as docker-archive:FILE:TAG, or "
      "docker-archive:FILE:@N for the Nth from @0";
  expect_input_error([&] { open_image(t / "bundle.tar", std::nullopt); }, {t / "bundle.tar: " + refusal});
  Handed handed;
  expect_input_error([&] { open_through_fifo(t, read_file(t / "bundle.tar"), "", "", handed); }, {refusal});
  auto one = open_image("docker-archive:" + t / "bundle.tar" + ":test_image_1", std::nullopt);
  EXPECT_EQ(one->identity().repo_tags, std::vector<std::string>{"test_image_1"});
  auto second = open_image("docker-archive:" + t / "bundle.tar" + ":@1", std::nullopt);
  EXPECT_EQ(second->identity().repo_tags, std::vector<std::string>{"test_image_1"});
  Handed by_tag;
  auto streamed = open_through_fifo(t, read_file(t / "bundle.tar"), "docker-archive:", ":test_image_2", by_tag);
  EXPECT_EQ(streamed->identity().repo_tags, std::vector<std::string>{"test_image_2"});
  expect_input_error([&] { open_image("docker-archive:" + t / "bundle.tar" + ":@2", std::nullopt); },
                     {"no image @2 (the archive holds 2, from @0)"});
}

TEST(SourceStream, HostileStreamsFailNamingWhatWasWrong) {
  TempDir t;
  Handed handed;
  // Small files that are no layer add up to the bound, not to memory without end.
  std::vector<TarEntrySpec> many;
  std::string junk = "{" + std::string((1 << 20) - 1, 'x');
  for (int i = 0; i < 70; ++i) many.push_back(TarEntrySpec::file("f" + std::to_string(i) + ".json", junk));
  expect_input_error([&] { open_through_fifo(t, archive_of(many), "", "", handed); },
                     {"more than 64 MiB of files that are no layer blobs (at f64.json)"});
  // A config too large to keep is refused when the image names it.
  std::string layer = make_layer_blob({TarEntrySpec::file("a", "a")}, Compression::None);
  std::string big = "{\"pad\": \"" + std::string(17 << 20, 'x') + "\"}";
  nlohmann::json manifest = nlohmann::json::array({{{"Config", "big.json"}, {"Layers", {"l/layer.tar"}}}});
  std::string tar = archive_of({TarEntrySpec::file("l/layer.tar", layer), TarEntrySpec::file("big.json", big),
                                TarEntrySpec::file("manifest.json", manifest.dump())});
  expect_input_error([&] { open_through_fifo(t, tar, "", "", handed); }, {"big.json: too large"});
  // Cut short: the tar reader says so.
  write_docker_archive(sample_spec(), t / "legacy.tar", true);
  std::string whole = read_file(t / "legacy.tar");
  expect_input_error([&] { open_through_fifo(t, whole.substr(0, whole.size() / 2), "", "", handed); },
                     {"truncated or corrupt archive"});
  expect_input_error([&] { open_through_fifo(t, "not a tar at all", "", "", handed); }, {"not a tar archive"});
}

namespace {

// The first `cut` bytes of `bytes`, then the error a connection that drops gives.
class DroppedStream : public ByteStream {
 public:
  DroppedStream(const std::string& bytes, size_t cut) : bytes_(bytes), cut_(cut) {}
  size_t read(void* buf, size_t n) override {
    if (pos_ == cut_) throw InputError::about("docker-daemon:app:1", "the connection dropped");
    n = std::min({n, cut_ - pos_, size_t(4096)});
    std::memcpy(buf, bytes_.data() + pos_, n);
    pos_ += n;
    return n;
  }

 private:
  const std::string& bytes_;
  size_t cut_, pos_ = 0;
};

}  // namespace

// Wherever the stream fails (a member's header, a layer blob being read, plain or gzip-compressed), its own
// error is the one the reader gets, not what libarchive or the layer's reader made of it.
TEST(SourceStream, AStreamThatFailsGivesItsOwnError) {
  TempDir t;
  write_docker_archive(sample_spec(), t / "legacy.tar", true);
  ASSERT_EQ(run("gzip -c '" + t / "legacy.tar" + "' > '" + t / "legacy.tar.gz" + "'"), 0);
  for (const std::string name : {"legacy.tar", "legacy.tar.gz"}) {
    const std::string bytes = read_file(t / name);
    for (size_t cut : {size_t(0), size_t(100), size_t(700), bytes.size() / 3, bytes.size() / 2, bytes.size() * 3 / 4}) {
      SCOPED_TRACE(name + " cut at " + std::to_string(cut));
      DroppedStream in(bytes, cut);
      Handed handed;
      try {
        TarStore store(in, handed.reader());
        ADD_FAILURE() << "no error";
      } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()), "docker-daemon:app:1: the connection dropped");
        EXPECT_EQ(e.subject(), "docker-daemon:app:1");
      }
    }
  }
}
