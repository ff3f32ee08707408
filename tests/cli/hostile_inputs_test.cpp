// Hostile inputs: JSON nested far deeper than any real document (an OCI index, a config's history) and a
// reference of 26,000 characters, which once crashed, give one short line and exit 2; damaged or oversized
// ELF files are reported, never dropped.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <memory>
#include <set>

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "image_fixture.h"
#include "util/bounded_json.h"
#include "util/limits.h"
#include "util/sha256.h"
#include "util/strings.h"

using namespace imgaudit;
using namespace imgaudit::test;

namespace {

constexpr int kDeep = 150000;

std::string nested_array(int depth) { return std::string(depth, '[') + std::string(depth, ']'); }

std::string blob_path(const std::string& layout, const std::string& digest) {
  return layout + "/blobs/sha256/" + digest.substr(7);
}

// Puts `bytes` in the layout as a blob; its descriptor's digest and size.
std::pair<std::string, size_t> put_blob(const std::string& layout, const std::string& bytes) {
  std::string digest = Sha256::of(bytes);
  write_file(blob_path(layout, digest), bytes);
  return {digest, bytes.size()};
}

}  // namespace

TEST(HostileInput, IndexNestedTooDeepIsOneLineAndExitTwo) {
  TempDir tmp;
  std::string layout = tmp / "deep";
  write_file(layout + "/oci-layout", R"({"imageLayoutVersion":"1.0.0"})");
  write_file(layout + "/index.json",
             R"({"schemaVersion":2,"manifests":[{"mediaType":"application/vnd.oci.image.manifest.v1+json",)"
             R"("digest":"sha256:)" + std::string(64, 'a') + R"(","size":2,"annotations":{"a":)" +
                 nested_array(kDeep) + "}}]}");
  CliResult r = run_imgaudit("oci:" + layout);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(r.err, "imgaudit: oci:" + layout + ": index.json: JSON nested deeper than " +
                       std::to_string(kMaxJsonDepth) + " levels\n");
}

TEST(HostileInput, ConfigHistoryNestedTooDeepIsOneLineAndExitTwo) {
  TempDir tmp;
  ImageSpec spec = native_image();
  spec.layers.push_back(layer({file("etc/hostname", "deep\n", 0644)}, "COPY hostname /etc/"));
  std::string layout = write_oci(tmp, spec).substr(4);
  // The writer's image, with its config's history replaced by a deeply nested array.
  nlohmann::json index = nlohmann::json::parse(read_file(layout + "/index.json"));
  nlohmann::json manifest = nlohmann::json::parse(read_file(blob_path(layout, index["manifests"][0]["digest"])));
  nlohmann::json config = nlohmann::json::parse(read_file(blob_path(layout, manifest["config"]["digest"])));
  config.erase("history");
  std::string text = config.dump();
  text.insert(text.size() - 1, R"(,"history":)" + nested_array(kDeep));
  auto [config_digest, config_size] = put_blob(layout, text);
  manifest["config"]["digest"] = config_digest;
  manifest["config"]["size"] = config_size;
  auto [manifest_digest, manifest_size] = put_blob(layout, manifest.dump());
  index["manifests"][0]["digest"] = manifest_digest;
  index["manifests"][0]["size"] = manifest_size;
  write_file(layout + "/index.json", index.dump());

  CliResult r = run_imgaudit("oci:" + layout);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels"), std::string::npos)
      << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST(HostileInput, DepthUpToTheLimitParses) {
  std::string problem;
  EXPECT_TRUE(parse_bounded_json(nested_array(kMaxJsonDepth), &problem)) << problem;
  EXPECT_FALSE(parse_bounded_json(nested_array(kMaxJsonDepth + 1), &problem));
  EXPECT_EQ(problem, "JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
  EXPECT_FALSE(parse_bounded_json("{\"a\": [1, 2,", &problem));
  EXPECT_EQ(problem, "malformed JSON at byte 13");  // nlohmann counts the end of the input as a byte
}

// A reference of 26,000 characters: the error keeps the start of the input and the whole reason.
TEST(HostileInput, HugeReferenceGivesAShortErrorLineWithItsReason) {
  for (const std::string& ref : {"docker://" + std::string(26000, 'a'), std::string(26000, '.')}) {
    CliResult r = run_imgaudit("'" + ref + "'");
    EXPECT_EQ(r.status, 2) << r.err.substr(0, 300);
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1);
    EXPECT_LT(r.err.size(), 1200u) << r.err.substr(0, 300);
    EXPECT_TRUE(starts_with(r.err, "imgaudit: " + ref.substr(0, 100))) << r.err.substr(0, 300);
    EXPECT_NE(r.err.find(" bytes left out) ..."), std::string::npos) << r.err;
  }
  CliResult r = run_imgaudit("docker://" + std::string(26000, 'a'));
  EXPECT_NE(r.err.find("invalid image reference: longer than 512 characters\n"), std::string::npos)
      << r.err;
}

// Every file with the ELF magic is in binaries[]: inspected, or with the inspect_error that says why not,
// and then in an elf-unreadable finding. Damaged headers must not hide a program from the audit.
TEST(HostileInput, DamagedAndOversizedElfFilesAreReportedNotDropped) {
  if (std::string why = toolchain_problem("gcc"); !why.empty()) GTEST_SKIP() << why;
  TempDir tmp;
  std::string root = tmp / "root";
  std::filesystem::create_directories(root + "/etc");
  std::filesystem::create_directories(root + "/bin");
  std::string good = compiled(tmp, "gcc", kHelloC);
  write_file(root + "/bin/good", good, 0755);
  write_file(root + "/bin/cut", good.substr(0, 40), 0755);  // ends inside the ELF header
  std::string far_phdrs = good;
  for (int i = 0; i < 8; ++i) far_phdrs[0x20 + i] = i < 6 ? '\xff' : '\0';  // e_phoff: 2^48 - 1
  write_file(root + "/bin/far-phdrs", far_phdrs, 0755);
  // Past the 64 GiB imgaudit inspects, without writing it: a sparse file behind a real header.
  write_file(root + "/bin/huge", good.substr(0, 64), 0755);
  std::filesystem::resize_file(root + "/bin/huge", (uint64_t(64) << 30) + 1);

  CliResult r = run_imgaudit("--format json --fail-on never '" + root + "'");
  ASSERT_EQ(r.status, 0) << r.err;
  nlohmann::json j = r.json();
  std::map<std::string, nlohmann::json> errors;
  for (auto& b : j["binaries"]) errors[b["path"]] = b["inspect_error"];
  ASSERT_EQ(errors.size(), 4u) << j["binaries"].dump(1);
  EXPECT_TRUE(errors["/bin/good"].is_null());
  for (const char* bad : {"/bin/cut", "/bin/far-phdrs", "/bin/huge"})
    EXPECT_TRUE(errors[bad].is_string() && !errors[bad].get<std::string>().empty()) << bad << " " << errors[bad];
  EXPECT_NE(errors["/bin/huge"].get<std::string>().find("not inspected: 68719476737 bytes is over the limit of 64.0 GiB"),
            std::string::npos)
      << errors["/bin/huge"];

  // What the ELF header says is still told, when the header is there to read.
  std::map<std::string, nlohmann::json> by_path;
  for (auto& b : j["binaries"]) by_path[b["path"]] = b;
  for (const char* readable_header : {"/bin/far-phdrs", "/bin/huge"}) {
    EXPECT_EQ(by_path[readable_header]["machine"], native_target().machine) << readable_header;
    EXPECT_EQ(by_path[readable_header]["type"], "dyn") << readable_header;
  }
  EXPECT_TRUE(by_path["/bin/cut"]["machine"].is_null()) << "its header is cut short";

  std::set<std::string> reported;
  for (auto& f : findings(j, "elf-unreadable")) {
    EXPECT_EQ(f["severity"], "warning");
    for (auto& p : f["paths"]) reported.insert(p);
  }
  EXPECT_EQ(reported, (std::set<std::string>{"/bin/cut", "/bin/far-phdrs", "/bin/huge"}));
}

// A gzip inside a gzip: libarchive would peel both, a runtime peels one and finds no tar.
TEST(HostileInput, LayerCompressedTwiceIsAnError) {
  TempDir tmp;
  write_file(tmp / "layer.tar.gz", make_layer_blob({file("etc/hostname", "twice\n", 0644)}, Compression::Gzip));
  ASSERT_EQ(run("gzip -n -c '" + (tmp / "layer.tar.gz") + "' > '" + (tmp / "layer.tar.gz.gz") + "'"), 0);
  ImageSpec spec = native_image();
  spec.layers.push_back({read_file(tmp / "layer.tar.gz.gz"), Compression::Gzip, "COPY hostname /etc/"});
  CliResult r = run_imgaudit(write_oci(tmp, spec));
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find(": compressed twice: gzip inside gzip (a runtime decompresses a layer once and finds no tar)\n"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

namespace {

// CPU seconds (user and system) the children waited for while `f` ran.
template <typename F>
double child_cpu_seconds(F f) {
  auto cpu = [] {
    rusage u{};
    getrusage(RUSAGE_CHILDREN, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
  };
  double before = cpu();
  f();
  return cpu() - before;
}

}  // namespace

// A layer blob 32 GiB longer than its descriptor says (a sparse file): the read stops as soon as it passes
// the size. Reading and hashing the whole would cost well over 20 s of CPU.
TEST(HostileInput, BlobLongerThanItsDescriptorFailsAtTheSize) {
  TempDir tmp;
  ImageSpec spec = native_image();
  spec.layers.push_back(layer({file("etc/hostname", "long\n", 0644)}, "COPY hostname /etc/"));
  std::string ref = write_oci(tmp, spec);
  std::string layer_file;
  for (auto& e : std::filesystem::directory_iterator(ref.substr(4) + "/blobs/sha256"))
    if (read_file(e.path()) == spec.layers[0].bytes) layer_file = e.path();
  ASSERT_FALSE(layer_file.empty());
  const uint64_t size = std::filesystem::file_size(layer_file);
  std::filesystem::resize_file(layer_file, size + (uint64_t(32) << 30));

  CliResult r;
  double cpu = child_cpu_seconds([&] { r = run_imgaudit(ref); });
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find(": blob is longer than the " + std::to_string(size) + " bytes its descriptor says\n"),
            std::string::npos)
      << r.err;
  EXPECT_LT(cpu, 5.0) << "CPU seconds";
}

namespace {

// The error line imgaudit gives for an image whose layer 0 is `blob`: "imgaudit: <ref>: layer 0 <digest>: ".
std::string layer_error_start(const std::string& ref, const LayerBlob& blob) {
  return "imgaudit: " + ref + ": layer 0 " + Sha256::of(blob.bytes) + ": ";
}

std::string repeated(const std::string& part, size_t times) {
  std::string out;
  for (size_t i = 0; i < times; ++i) out += part;
  return out;
}

// Folders nested `depth` deep in `root`, each named "d": their paths pass PATH_MAX, so they are made, and
// removed, one level at a time through file descriptors.
void make_nested_folders(const std::string& root, int depth) {
  int fd = open(root.c_str(), O_RDONLY | O_DIRECTORY);
  ASSERT_GE(fd, 0);
  for (int i = 0; i < depth; ++i) {
    ASSERT_EQ(mkdirat(fd, "d", 0755), 0) << i;
    int next = openat(fd, "d", O_RDONLY | O_DIRECTORY);
    close(fd);
    ASSERT_GE(next, 0) << i;
    fd = next;
  }
  close(fd);
}

void remove_nested_folders(const std::string& root, int depth) {
  int fd = open(root.c_str(), O_RDONLY | O_DIRECTORY);
  ASSERT_GE(fd, 0);
  for (int i = 0; i < depth; ++i) {
    int next = openat(fd, "d", O_RDONLY | O_DIRECTORY);
    close(fd);
    ASSERT_GE(next, 0) << i;
    fd = next;
  }
  for (int i = 0; i < depth; ++i) {
    int up = openat(fd, "..", O_RDONLY | O_DIRECTORY);
    close(fd);
    ASSERT_GE(up, 0) << i;
    ASSERT_EQ(unlinkat(up, "d", AT_REMOVEDIR), 0) << i;
    fd = up;
  }
  close(fd);
}

}  // namespace

namespace {

// The finding input-over-limit of a JSON report: each listed path with its message, as "PATH | MESSAGE".
std::vector<std::string> over_limit(const nlohmann::json& report) {
  std::vector<std::string> out;
  for (const nlohmann::json& f : report["findings"])
    if (f["id"] == "input-over-limit")
      for (const nlohmann::json& p : f["paths"]) out.push_back(p.get<std::string>() + " | " + f["message"].get<std::string>());
  return out;
}

}  // namespace

// Folders nested 3,000 deep (50,000 once cost 60 s and 2.7 GiB: each path is kept whole). The walk does not
// descend past the depth bound, at a cost that does not grow with the depth, and says where it stopped;
// the rest of the folder is audited.
TEST(HostileInput, FolderNestedThousandsDeepIsCutAtTheDepthBoundAndSaid) {
  constexpr int kDepth = 3000;
  TempDir tmp;
  std::string root = tmp / "root";
  std::filesystem::create_directories(root + "/etc");
  write_file(root + "/etc/os-release", "ID=deep\n");
  make_nested_folders(root, kDepth);

  MeasuredRun m;
  double cpu = child_cpu_seconds([&] { m = run_imgaudit_measured({"--format", "json", root}); });
  EXPECT_EQ(m.result.status, 0) << m.result.err;
  nlohmann::json report = m.result.json();
  EXPECT_EQ(report["distro"]["id"], "deep");
  EXPECT_EQ(over_limit(report),
            std::vector<std::string>{"/" + repeated("d/", 50) + "... | Past one of imgaudit's bounds, not read: paths "
                                     "deeper than 256 folders (kMaxPathDepth)."});
  EXPECT_LT(cpu, 5.0) << "CPU seconds";
  EXPECT_LT(m.peak_rss_mib, 200.0);
  remove_nested_folders(root, kDepth);
}

// In a layer: a path longer than PATH_MAX, a symlink target as long, and a path deeper than the bound, each
// beside a program whose loader is missing. The entry is left out and listed with its bound; the rest of
// the layer is audited, so the program's error is still found (the whole image was refused once).
TEST(HostileInput, LayerPathTooLongOrTooDeepIsLeftOutAndTheImageAudited) {
  const std::string too_long = std::string(kMaxPathBytes + 1, 'p');
  const std::string too_deep = repeated("d/", kMaxPathDepth) + "f";
  const std::string bytes = std::to_string(kMaxPathBytes) + " bytes (kMaxPathBytes).";
  struct Case {
    TarEntrySpec entry;
    std::string listed;
  };
  const std::vector<Case> cases = {
      {file(too_long, "x\n", 0644), "/" + std::string(100, 'p') + "... | Past one of imgaudit's bounds, not read: paths "
                                    "longer than " + bytes},
      {symlink_entry("etc/far", too_long), "/etc/far | Past one of imgaudit's bounds, not read: symbolic links whose "
                                           "targets are longer than " + bytes},
      {file(too_deep, "x\n", 0644), "/" + repeated("d/", 50) + "... | Past one of imgaudit's bounds, not read: paths "
                                    "deeper than 256 folders (kMaxPathDepth)."},
  };
  TempDir build;
  const std::string program = compiled(build, "gcc", kHelloC);
  for (const Case& c : cases) {
    TempDir tmp;
    ImageSpec spec = native_image();
    spec.layers.push_back(layer({c.entry, file("usr/bin/hello", program)}, "COPY . /"));
    nlohmann::json report = audit_json(tmp, spec, "img", "--fail-on error", 1);
    EXPECT_EQ(over_limit(report), std::vector<std::string>{c.listed});
    bool interpreter_missing = false;
    for (const nlohmann::json& f : report["findings"]) interpreter_missing |= f["id"] == "interpreter-missing";
    EXPECT_TRUE(interpreter_missing) << report["findings"].dump();
  }
}

// Up to the limits a path is read as any other.
TEST(HostileInput, LayerPathAtTheLimitsIsRead) {
  TempDir tmp;
  const std::string longest = std::string(kMaxPathBytes - 2, 'p') + "/f";
  const std::string deepest = repeated("d/", kMaxPathDepth - 1) + "f";
  ImageSpec spec = native_image();
  spec.layers.push_back(layer({file(longest, "x\n", 0644), file(deepest, "x\n", 0644)}, "COPY . /"));
  nlohmann::json j = audit_json(tmp, spec);
  EXPECT_EQ(j["warnings"], nlohmann::json::array());
}

namespace {

// A zstd tar of `count` empty files in `folder`, written entry by entry.
LayerBlob layer_of_empty_files(const TempDir& tmp, size_t count, const std::string& folder = "f") {
  const std::string path = tmp / "many.tar.zst";
  std::unique_ptr<archive, decltype(&archive_write_free)> a(archive_write_new(), archive_write_free);
  std::unique_ptr<archive_entry, decltype(&archive_entry_free)> e(archive_entry_new(), archive_entry_free);
  archive_write_add_filter_zstd(a.get());
  archive_write_set_format_pax_restricted(a.get());
  EXPECT_EQ(archive_write_open_filename(a.get(), path.c_str()), ARCHIVE_OK);
  for (size_t i = 0; i < count; ++i) {
    archive_entry_clear(e.get());
    archive_entry_set_pathname(e.get(), (folder + "/" + std::to_string(i)).c_str());
    archive_entry_set_filetype(e.get(), AE_IFREG);
    archive_entry_set_perm(e.get(), 0644);
    archive_entry_set_size(e.get(), 0);
    EXPECT_EQ(archive_write_header(a.get(), e.get()), ARCHIVE_OK);
  }
  EXPECT_EQ(archive_write_close(a.get()), ARCHIVE_OK);
  return {read_file(path), Compression::Zstd, "COPY f /f"};
}

}  // namespace

// A layer of one entry more than the limit: refused when that one comes, its memory bounded by what the
// limit allows (1,048,576 entries take some 120 MiB).
TEST(HostileInput, LayerWithTooManyEntriesIsOneLineAndExitTwo) {
  TempDir tmp;
  ImageSpec spec = native_image();
  spec.layers.push_back(layer_of_empty_files(tmp, kMaxLayerEntries + 1));
  std::string ref = write_oci(tmp, spec);
  MeasuredRun m = run_imgaudit_measured({ref});
  EXPECT_EQ(m.result.status, 2) << m.result.err;
  EXPECT_EQ(m.result.err, layer_error_start(ref, spec.layers[0]) + "more than " +
                              std::to_string(kMaxLayerEntries) + " entries in one layer\n");
  EXPECT_LT(m.peak_rss_mib, 512.0);
}

// Two layers each under the limit of one, together over the image's: each layer's facts are counted in as
// they arrive, so the image never holds all of them.
TEST(HostileInput, LayersWithTooManyEntriesTogetherAreOneLineAndExitTwo) {
  TempDir tmp;
  ImageSpec spec = native_image();
  spec.layers.push_back(layer_of_empty_files(tmp, kMaxImageEntries / 2 + 1, "a"));
  spec.layers.push_back(layer_of_empty_files(tmp, kMaxImageEntries / 2 + 1, "b"));
  std::string ref = write_oci(tmp, spec);
  MeasuredRun m = run_imgaudit_measured({ref});
  EXPECT_EQ(m.result.status, 2) << m.result.err;
  EXPECT_EQ(m.result.err,
            "imgaudit: " + ref + ": more than " + std::to_string(kMaxImageEntries) + " entries in all layers\n");
  EXPECT_LT(m.peak_rss_mib, 512.0);
}

TEST(HostileInput, ImageWithTooManyLayersIsOneLineAndExitTwo) {
  TempDir tmp;
  ImageSpec spec = native_image();
  for (size_t i = 0; i <= kMaxLayers; ++i)
    spec.layers.push_back(layer({file("etc/layer", std::to_string(i) + "\n", 0644)}, "COPY layer /etc/"));
  std::string ref = write_oci(tmp, spec);
  CliResult r = run_imgaudit(ref);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(r.err, "imgaudit: " + ref + ": " + std::to_string(kMaxLayers + 1) + " layers, more than the limit of " +
                       std::to_string(kMaxLayers) + "\n");
}

// An index of more manifests than the limit, and one whose 65 entries each name the same index of 65:
// 4,225 in all, which the walk would otherwise visit one by one.
TEST(HostileInput, IndexFanningOutTooFarIsOneLineAndExitTwo) {
  auto descriptor = [](const std::string& digest, size_t size, bool index) {
    return nlohmann::json{{"mediaType", index ? "application/vnd.oci.image.index.v1+json"
                                              : "application/vnd.oci.image.manifest.v1+json"},
                          {"digest", digest},
                          {"size", size}};
  };
  auto index_of = [](const nlohmann::json& entries) {
    return nlohmann::json{{"schemaVersion", 2}, {"mediaType", "application/vnd.oci.image.index.v1+json"},
                          {"manifests", entries}};
  };
  const std::string fake_manifest = "sha256:" + std::string(64, 'a');
  const std::string error_end = ": index.json: more than " + std::to_string(kMaxIndexManifests) +
                                " manifests, the indexes inside it counted in\n";
  {
    TempDir tmp;
    std::string layout = tmp / "flat";
    write_file(layout + "/oci-layout", R"({"imageLayoutVersion":"1.0.0"})");
    nlohmann::json entries = nlohmann::json::array();
    for (size_t i = 0; i <= kMaxIndexManifests; ++i) entries.push_back(descriptor(fake_manifest, 2, false));
    write_file(layout + "/index.json", index_of(entries).dump());
    CliResult r = run_imgaudit("oci:" + layout);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(r.err, "imgaudit: oci:" + layout + error_end);
  }
  {
    TempDir tmp;
    std::string layout = tmp / "nested";
    write_file(layout + "/oci-layout", R"({"imageLayoutVersion":"1.0.0"})");
    nlohmann::json inner = nlohmann::json::array();
    for (int i = 0; i < 65; ++i) inner.push_back(descriptor(fake_manifest, 2, false));
    auto [inner_digest, inner_size] = put_blob(layout, index_of(inner).dump());
    nlohmann::json outer = nlohmann::json::array();
    for (int i = 0; i < 65; ++i) outer.push_back(descriptor(inner_digest, inner_size, true));
    write_file(layout + "/index.json", index_of(outer).dump());
    CliResult r = run_imgaudit("oci:" + layout);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(r.err, "imgaudit: oci:" + layout + error_end);
  }
}

// docker save's manifest.json, the index of an archive, listing more images than the limit.
TEST(HostileInput, DockerArchiveListingTooManyImagesIsOneLineAndExitTwo) {
  TempDir tmp;
  nlohmann::json images = nlohmann::json::array();
  for (size_t i = 0; i <= kMaxIndexManifests; ++i)
    images.push_back({{"Config", std::string(64, 'a') + ".json"}, {"RepoTags", {"app:" + std::to_string(i)}},
                      {"Layers", nlohmann::json::array()}});
  write_file(tmp / "saved/manifest.json", images.dump());
  ASSERT_EQ(run("tar -C '" + (tmp / "saved") + "' -cf '" + (tmp / "saved.tar") + "' manifest.json"), 0);
  CliResult r = run_imgaudit("docker-archive:" + tmp / "saved.tar");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(r.err, "imgaudit: docker-archive:" + tmp / "saved.tar" + ": manifest.json: more than " +
                       std::to_string(kMaxIndexManifests) + " images\n");
}

TEST(HostileInput, LdLibraryPathOfThousandsOfEntriesIsSearchedToItsBoundAndSaid) {
  TempDir tmp;
  ImageSpec spec = native_image();
  spec.layers.push_back(layer({file("etc/hostname", "env\n", 0644)}, "COPY hostname /etc/"));
  std::vector<std::string> dirs;
  for (int i = 0; i < 5000; ++i) dirs.push_back("/opt/lib" + std::to_string(i));
  spec.env = {"LD_LIBRARY_PATH=" + join(dirs, ":")};
  nlohmann::json report = audit_json(tmp, spec);
  std::vector<std::string> messages;
  for (const nlohmann::json& f : report["findings"])
    if (f["id"] == "input-over-limit") messages.push_back(f["message"]);
  EXPECT_EQ(messages, std::vector<std::string>{"Past one of imgaudit's bounds, not read: the image config's "
                                               "LD_LIBRARY_PATH has 5000 entries, and those past the first " +
                                               std::to_string(kMaxLdLibraryPathEntries) +
                                               " (kMaxLdLibraryPathEntries) are not searched."});
}

// ld.so.conf whose includes include each other through one glob (each file read once, but every one names
// all the others again), one whose glob matches too many files, and one of too many lines: read up to the
// bound, the rest said in input-over-limit, the image audited.
TEST(HostileInput, LdSoConfIncludeBombIsReadToItsBoundAndSaid) {
  std::vector<TarEntrySpec> bomb = {file("etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n", 0644)};
  for (int i = 0; i < 64; ++i)
    bomb.push_back(file("etc/ld.so.conf.d/" + std::to_string(i) + ".conf", "include /etc/ld.so.conf.d/*.conf\n", 0644));
  std::vector<TarEntrySpec> wide = {file("etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n", 0644)};
  for (size_t i = 0; i <= kMaxLdSoConfFiles; ++i)
    wide.push_back(file("etc/ld.so.conf.d/" + std::to_string(i) + ".conf", "/opt/lib\n", 0644));
  const std::string files = std::to_string(kMaxLdSoConfFiles) + " (kMaxLdSoConfFiles) are not read.";
  const std::vector<std::pair<std::vector<TarEntrySpec>, std::string>> cases = {
      {bomb, "the files ld.so.conf and its includes name past the first " + files},
      {wide, "the files one include of ld.so.conf matches past the first " + files},
      {{file("etc/ld.so.conf", repeated("/opt/lib\n", kMaxLdSoConfLines + 1), 0644)},
       "the lines of ld.so.conf past the first " + std::to_string(kMaxLdSoConfLines) +
           ", its includes counted in (kMaxLdSoConfLines), are not read."},
  };
  for (const auto& [entries, limit] : cases) {
    TempDir tmp;
    ImageSpec spec = native_image();
    spec.layers.push_back(layer(entries, "COPY ld.so.conf* /etc/"));
    EXPECT_EQ(over_limit(audit_json(tmp, spec)),
              std::vector<std::string>{"/etc/ld.so.conf | Past one of imgaudit's bounds, not read: " + limit});
  }
}

// Text files the inspectors read, more than the layer's total of them: those past it are skipped, each
// with a warning, and the audit goes on. 12 package databases of 8 MiB each (the cap per file is 16 MiB).
TEST(HostileInput, TextFilesPastTheLayerTotalAreSkippedWithAWarning) {
  TempDir tmp;
  const std::string status(8 << 20, '\n');
  std::vector<TarEntrySpec> entries;
  const size_t files = kMaxLayerContentBytes / status.size() + 8;
  for (size_t i = 0; i < files; ++i)
    entries.push_back(file("lib/" + std::to_string(i) + "/site-packages/p.dist-info/METADATA", status, 0644));
  ImageSpec spec = native_image();
  spec.layers.push_back(layer(entries, "COPY . /"));
  nlohmann::json j = audit_json(tmp, spec);
  std::vector<std::string> expected;
  for (size_t i = kMaxLayerContentBytes / status.size(); i < files; ++i)
    expected.push_back("layer 0: skipped content of /lib/" + std::to_string(i) +
                       "/site-packages/p.dist-info/METADATA: the layer's text files and caches pass " +
                       std::to_string(kMaxLayerContentBytes) + " bytes in all");
  EXPECT_EQ(j["warnings"], nlohmann::json(expected));
}

// Layers each within their own total, together past the image's: one line and exit 2, whatever order the
// layers are read in, and the memory of what was read stays bounded.
TEST(HostileInput, TextFilesPastTheImageTotalAreOneLineAndExitTwo) {
  TempDir tmp;
  const std::string status(8 << 20, '\n');
  const size_t per_layer = kMaxLayerContentBytes / status.size();
  ImageSpec spec = native_image();
  for (size_t l = 0; l * per_layer * status.size() <= kMaxImageContentBytes; ++l) {
    std::vector<TarEntrySpec> entries;
    for (size_t i = 0; i < per_layer; ++i)
      entries.push_back(file("lib/" + std::to_string(l) + "-" + std::to_string(i) + "/site-packages/p.dist-info/METADATA",
                             status, 0644));
    spec.layers.push_back(layer(entries, "COPY . /"));
  }
  std::string ref = write_oci(tmp, spec);
  MeasuredRun m = run_imgaudit_measured({ref});
  EXPECT_EQ(m.result.status, 2) << m.result.err;
  EXPECT_EQ(m.result.err, "imgaudit: " + ref + ": the text files and caches the inspectors read pass " +
                              std::to_string(kMaxImageContentBytes) + " bytes in all layers\n");
  EXPECT_LT(m.peak_rss_mib, 512.0);
}

namespace {

std::string percent_decoded(const std::string& uri) {
  std::string out;
  for (size_t i = 0; i < uri.size(); ++i) {
    if (uri[i] == '%' && i + 2 < uri.size()) {
      out += char(std::stoi(uri.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += uri[i];
    }
  }
  return out;
}

}  // namespace

// File names that are not UTF-8 (Latin-1, a stray byte) or hold a backslash reach JSON and SARIF losslessly:
// decoded as docs/json.md says, each string gives the name's bytes back; SARIF's URIs percent-encode the same bytes.
TEST(HostileInput, NamesThatAreNotUtf8AreKeptLosslesslyInJsonAndSarif) {
  if (std::string why = toolchain_problem("gcc"); !why.empty()) GTEST_SKIP() << why;
  TempDir tmp;
  const std::string good = compiled(tmp, "gcc", kHelloC);
  const std::set<std::string> names = {"/bin/caf\xe9", "/bin/back\\slash\\xff", "/bin/\xff\xfe\x80"};
  // A folder: the project's tar writer, as pax wants, refuses names that are not UTF-8.
  std::string root = tmp / "root";
  std::filesystem::create_directories(root + "/etc");
  for (const std::string& name : names) write_file(root + name, good.substr(0, 40), 0755);
  CliResult r = run_imgaudit("--fail-on never --format json -o sarif=" + tmp / "r.sarif" + " '" + root + "'");
  ASSERT_EQ(r.status, 0) << r.err;

  std::set<std::string> in_binaries, in_finding, in_sarif_names, in_sarif_uris;
  nlohmann::json j = r.json();
  for (auto& b : j["binaries"]) in_binaries.insert(decode_lossless_utf8(b["path"]));
  for (auto& f : findings(j, "elf-unreadable"))
    for (auto& p : f["paths"]) in_finding.insert(decode_lossless_utf8(p));
  nlohmann::json sarif = nlohmann::json::parse(read_file(tmp / "r.sarif"));
  for (auto& result : sarif["runs"][0]["results"]) {
    if (result["ruleId"] != "elf-unreadable") continue;
    for (auto& location : result["locations"]) {
      for (auto& logical : location["logicalLocations"])
        in_sarif_names.insert(decode_lossless_utf8(logical["fullyQualifiedName"]));
      in_sarif_uris.insert("/" + percent_decoded(location["physicalLocation"]["artifactLocation"]["uri"]));
    }
  }
  EXPECT_EQ(in_binaries, names);
  EXPECT_EQ(in_finding, names);
  EXPECT_EQ(in_sarif_names, names);
  EXPECT_EQ(in_sarif_uris, names);
  EXPECT_NE(r.out.find(R"("/bin/caf\\xe9")"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(R"("/bin/back\\\\slash\\\\xff")"), std::string::npos) << r.out;
}

// DEL and the C1 controls (U+009B is CSI on some terminals) in a file name come out of JSON, SARIF and Code
// Quality escaped, never as raw bytes, and decode back to the name.
TEST(HostileInput, DelAndC1ControlsAreEscapedInJsonSarifAndCodeQuality) {
  if (std::string why = toolchain_problem("gcc"); !why.empty()) GTEST_SKIP() << why;
  TempDir tmp;
  const std::string name = "/bin/del\x7f" "csi\xc2\x9b" "nel\xc2\x85";
  std::string root = tmp / "root";
  std::filesystem::create_directories(root + "/etc");
  write_file(root + name, compiled(tmp, "gcc", kHelloC).substr(0, 40), 0755);
  CliResult r = run_imgaudit("--fail-on never --format json -o sarif=" + tmp / "r.sarif" + " -o codequality=" +
                             tmp / "r.cq.json" + " '" + root + "'");
  ASSERT_EQ(r.status, 0) << r.err;
  for (const std::string& text : {r.out, read_file(tmp / "r.sarif"), read_file(tmp / "r.cq.json")}) {
    EXPECT_EQ(text.find('\x7f'), std::string::npos);
    EXPECT_EQ(text.find("\xc2\x9b"), std::string::npos);
    EXPECT_EQ(text.find("\xc2\x85"), std::string::npos);
    EXPECT_NE(text.find(R"(del\u007fcsi\u009bnel\u0085)"), std::string::npos) << text.substr(0, 2000);
  }
  std::set<std::string> in_binaries;
  nlohmann::json j = r.json();
  for (auto& b : j["binaries"]) in_binaries.insert(decode_lossless_utf8(b["path"]));
  EXPECT_EQ(in_binaries, std::set<std::string>{name});
}
