#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <stdexcept>

#include "layer/layer_facts.h"
#include "layer_test_util.h"
#include "native_target.h"
#include "test_support.h"
#include "util/error.h"
#include "util/limits.h"
#include "util/strings.h"

namespace imgaudit::test {
namespace {

const std::vector<TarEntrySpec> kSample = {
    dir("etc/"),
    file("etc/os-release", "ID=alpine\nVERSION_ID=3.20.3\n"),
    file("etc/hostname", "box\n"),
    symlink("etc/mtab", "/proc/mounts"),
    dir("usr/bin/"),
    file("usr/bin/tool", "#!/bin/sh\necho hi\n", 0755),
    hardlink("usr/bin/tool2", "usr/bin/tool"),
};

// The message of the InputError `f` throws; fails the test when it throws none.
template <class F>
std::string input_error_of(F f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no InputError";
  return "";
}

std::string tar_of(const std::vector<TarEntrySpec>& entries) { return make_layer_blob(entries, Compression::None); }

TEST(ReadLayer, GzipZstdAndPlainTarGiveIdenticalEntries) {
  std::vector<LayerFacts> read;
  for (Compression c : {Compression::Gzip, Compression::Zstd, Compression::None}) {
    std::string blob = make_layer_blob(kSample, c);
    read.push_back(read_blob(blob));
    EXPECT_EQ(read.back().digest, Sha256::of(blob));
    EXPECT_EQ(read.back().compressed_size, blob.size());
  }
  std::string tar = tar_of(kSample);
  for (const LayerFacts& l : read) {
    EXPECT_EQ(nlohmann::json(l.entries), nlohmann::json(read[0].entries));
    EXPECT_EQ(l.diff_id, Sha256::of(tar));
    EXPECT_EQ(l.uncompressed_size, tar.size());
    EXPECT_EQ(l.texts, read[0].texts);
  }
  EXPECT_NE(read[0].digest, read[1].digest);
  EXPECT_EQ(read[2].digest, read[2].diff_id);
}

TEST(ReadLayer, EntriesKeepTypesModesAndLinks) {
  LayerFacts l = layer_of(kSample);
  ASSERT_EQ(paths_of(l), (std::vector<std::string>{"etc", "etc/os-release", "etc/hostname", "etc/mtab", "usr/bin",
                                                   "usr/bin/tool", "usr/bin/tool2"}));
  EXPECT_EQ(l.entries[0].type, EntryType::Dir);
  EXPECT_EQ(l.entries[1].type, EntryType::File);
  EXPECT_EQ(l.entries[1].size, 28u);
  EXPECT_EQ(l.entries[3].type, EntryType::Symlink);
  EXPECT_EQ(l.entries[3].link, "/proc/mounts");
  EXPECT_EQ(l.entries[5].mode, 0755u);
  EXPECT_EQ(l.entries[6].type, EntryType::Hardlink);
  EXPECT_EQ(l.entries[6].link, "usr/bin/tool");
  EXPECT_TRUE(l.warnings.empty());
}

TEST(ReadLayer, KeepsTextsWorthReadingAndNothingElse) {
  LayerFacts l = layer_of({
      file("etc/os-release", "ID=debian\n"),
      file("etc/hostname", "box\n"),
      file("usr/lib/python3.12/site-packages/six-1.16.0.dist-info/WHEEL", "Tag: py3-none-any\n"),
      file("usr/lib/python3.12/site-packages/six-1.16.0.dist-info/RECORD", "six.py,,\n"),
      file("srv/WHEEL", "Tag: none\n"),
      file("var/lib/dpkg/status.d/base", "Package: base-files\n"),
      file("etc/ld-musl-x86_64.path", "/lib:/usr/lib\n"),
      file("big.bin", std::string(1 << 20, 'z')),
  });
  EXPECT_EQ(l.texts, (std::map<std::string, std::string>{
                         {"etc/os-release", "ID=debian\n"},
                         {"usr/lib/python3.12/site-packages/six-1.16.0.dist-info/WHEEL", "Tag: py3-none-any\n"},
                         {"var/lib/dpkg/status.d/base", "Package: base-files\n"},
                         {"etc/ld-musl-x86_64.path", "/lib:/usr/lib\n"},
                     }));
  EXPECT_TRUE(l.elves.empty());
  EXPECT_EQ(l.entries.back().size, 1u << 20);
}

TEST(ReadLayer, TextsWorthReading) {
  for (const char* p : {"etc/os-release", "usr/lib/os-release", "etc/alpine-release", "etc/debian_version",
                        "lib/apk/db/installed", "var/lib/dpkg/status", "var/lib/dpkg/status.d/libc6",
                        "etc/ld.so.conf", "etc/ld.so.conf.d/libc.conf", "etc/ld-musl-aarch64.path", "etc/passwd",
                        "etc/group", "usr/local/lib/python3.11/site-packages/numpy-2.0.0.dist-info/METADATA",
                        "app/.venv/lib/python3.12/site-packages/a-1.dist-info/WHEEL"})
    EXPECT_TRUE(is_text_worth_reading(p)) << p;
  for (const char* p : {"etc/shadow", "etc/ld.so.conf.d/README", "etc/ld.so.conf.d/sub/x.conf", "etc/os-release.d/x",
                        "var/lib/dpkg/status-old", "var/lib/dpkg/status.d/libc6.md5sums", "etc/ld-musl-x86_64.so",
                        "usr/share/doc/WHEEL", "a.dist-info/RECORD", "x/etc/passwd", ""})
    EXPECT_FALSE(is_text_worth_reading(p)) << p;
}

TEST(ReadLayer, RecordsWhiteoutsAndOpaqueDirsWithoutEntries) {
  LayerFacts l = layer_of({
      file("a/keep"),
      file("a/.wh.gone"),
      file(".wh.top"),
      dir("o/"),
      file("o/.wh..wh..opq", ""),
      file("./x/y/.wh.z"),
  });
  EXPECT_EQ(paths_of(l), (std::vector<std::string>{"a/keep", "o"}));
  EXPECT_EQ(l.whiteouts, (std::vector<std::string>{"a/gone", "top", "x/y/z"}));
  EXPECT_EQ(l.opaque_dirs, (std::vector<std::string>{"o"}));
}

TEST(ReadLayer, SkipsEntriesEscapingTheRootWithWarnings) {
  LayerFacts l = layer_of({
      file("../../etc/x"),
      file("/abs/path"),
      file("a/../../b"),
      file("./ok/../fine"),
      hardlink("link", "../../etc/shadow"),
  });
  EXPECT_EQ(paths_of(l), (std::vector<std::string>{"abs/path", "fine"}));
  ASSERT_EQ(l.warnings.size(), 3u);
  EXPECT_NE(l.warnings[0].find("../../etc/x"), std::string::npos) << l.warnings[0];
  EXPECT_NE(l.warnings[1].find("a/../../b"), std::string::npos) << l.warnings[1];
  EXPECT_NE(l.warnings[2].find("../../etc/shadow"), std::string::npos) << l.warnings[2];
}

TEST(ReadLayer, AttachesFactsOfAnElfCompiledNow) {
  TempDir tmp;
  ASSERT_TRUE(compile_c("gcc", kHelloC, tmp / "hello"));
  std::string elf = read_file(tmp / "hello");
  LayerFacts l = layer_of({file("usr/bin/hello", elf, 0755), file("usr/bin/broken", elf.substr(0, 200), 0755)},
                          Compression::Zstd);
  ASSERT_EQ(l.elves.count("usr/bin/hello"), 1u);
  const ElfFacts& f = *l.elves.at("usr/bin/hello");
  EXPECT_EQ(f.machine, native_target().machine);
  EXPECT_EQ(f.linkage, Linkage::Dynamic);
  EXPECT_EQ(f.interpreter, native_target().glibc_interpreter);
  EXPECT_EQ(f.needed, (std::vector<std::string>{"libc.so.6"}));
  EXPECT_EQ(f.libc, LibcKind::Glibc);
  EXPECT_EQ(l.elf_errors.count("usr/bin/broken"), 1u);
  EXPECT_EQ(l.elves.count("usr/bin/broken"), 0u);
  EXPECT_TRUE(l.texts.empty());
}

TEST(ReadLayer, AttachesFactsOfAStaticMuslElf) {
  if (std::string problem = toolchain_problem("musl-gcc", "-static"); !problem.empty()) GTEST_SKIP() << problem;
  TempDir tmp;
  ASSERT_TRUE(compile_c("musl-gcc", kHelloC, tmp / "hello", "-static"));
  LayerFacts l = layer_of({file("hello", read_file(tmp / "hello"), 0755)});
  ASSERT_EQ(l.elves.count("hello"), 1u);
  EXPECT_EQ(l.elves.at("hello")->interpreter, "");
  EXPECT_NE(l.elves.at("hello")->linkage, Linkage::Dynamic);
}

TEST(ReadLayer, LaterEntryOfTheSamePathReplacesItsContent) {
  TempDir tmp;
  ASSERT_TRUE(compile_c("gcc", kHelloC, tmp / "hello"));
  LayerFacts l = layer_of({file("bin/x", read_file(tmp / "hello")), file("bin/x", "#!/bin/sh\n"),
                           file("etc/passwd", "root:x:0:0::/root:/bin/sh\n"), symlink("etc/passwd", "/x")});
  EXPECT_TRUE(l.elves.empty());
  EXPECT_TRUE(l.texts.empty());
}

TEST(ReadLayer, WrongDigestIsAnInputError) {
  std::string blob = make_layer_blob(kSample, Compression::Gzip);
  Descriptor d = descriptor_of(blob);
  std::string real = d.digest;
  d.digest = Sha256::of("something else");
  MemoryStream s(blob);
  std::string msg = input_error_of([&] { read_layer(s, d, ""); });
  EXPECT_EQ(msg, "digest mismatch (got " + real + ")");
}

TEST(ReadLayer, WrongDiffIdIsAnInputError) {
  std::string blob = make_layer_blob(kSample, Compression::Zstd);
  MemoryStream s(blob);
  std::string wrong = Sha256::of("not the tar");
  std::string msg = input_error_of([&] { read_layer(s, descriptor_of(blob), wrong); });
  EXPECT_EQ(msg, "diff_id mismatch (expected " + wrong + ", got " +
                     Sha256::of(uncompressed_tar(blob)) + ")");
}

TEST(ReadLayer, DigestsAreCheckedOnlyWhenGiven) {
  std::string blob = make_layer_blob(kSample, Compression::Gzip);
  MemoryStream s(blob);
  LayerFacts l = read_layer(s, Descriptor{"application/vnd.oci.image.layer.v1.tar+gzip", "", -1}, "");
  EXPECT_EQ(l.digest, Sha256::of(blob));
  EXPECT_EQ(l.media_type, "application/vnd.oci.image.layer.v1.tar+gzip");
}

TEST(ReadLayer, DrainsTheWholeBlobPastTheTarEndMarker) {
  std::string tar = tar_of(kSample) + std::string(8192, '\0');
  MemoryStream s(tar, 100);
  LayerFacts l = read_layer(s, descriptor_of(tar, "application/vnd.oci.image.layer.v1.tar"), Sha256::of(tar));
  EXPECT_EQ(s.position(), tar.size());
  EXPECT_EQ(l.uncompressed_size, tar.size());
}

TEST(ReadLayer, TruncatedGzipIsAnInputErrorOfOneLine) {
  std::string blob = make_layer_blob({file("big", std::string(200000, 'a') + "end")}, Compression::Gzip);
  std::string cut = blob.substr(0, blob.size() / 2);
  MemoryStream s(cut);
  Descriptor d = descriptor_of(blob);
  std::string msg = input_error_of([&] { read_layer(s, d, ""); });
  EXPECT_FALSE(starts_with(msg, "layer ")) << msg;  // read_layers names the layer
  EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
}

TEST(ReadLayer, BlobShorterThanItsDescriptorIsAnInputError) {
  std::string tar = tar_of(kSample);
  Descriptor d = descriptor_of(tar);
  MemoryStream s(tar.substr(0, 1024));
  std::string msg = input_error_of([&] { read_layer(s, d, ""); });
  EXPECT_FALSE(starts_with(msg, "layer ")) << msg;  // read_layers names the layer
  EXPECT_NE(msg.find("runcated"), std::string::npos) << msg;
}

TEST(ReadLayer, SizeMismatchIsAnInputError) {
  std::string blob = make_layer_blob(kSample, Compression::Gzip);
  Descriptor d = descriptor_of(blob);
  d.size += 10;
  MemoryStream s(blob);
  EXPECT_EQ(input_error_of([&] { read_layer(s, d, ""); }),
            "blob is " + std::to_string(blob.size()) + " bytes, its descriptor says " +
                std::to_string(d.size));
}

TEST(ReadLayer, BlobLongerThanItsDescriptorStopsAtTheSize) {
  std::string blob = make_layer_blob(kSample, Compression::Gzip);
  Descriptor d = descriptor_of(blob);
  d.size -= 10;
  MemoryStream s(blob);
  EXPECT_EQ(input_error_of([&] { read_layer(s, d, ""); }),
            "blob is longer than the " + std::to_string(d.size) + " bytes its descriptor says");
}

TEST(ReadLayer, CorruptTarIsAnInputError) {
  std::string tar = tar_of(kSample);
  tar[100] ^= 0x55;  // inside the first header: its checksum no longer matches
  tar[148] = 'Z';
  MemoryStream s(tar);
  std::string msg = input_error_of([&] { read_layer(s, descriptor_of(tar), ""); });
  EXPECT_FALSE(starts_with(msg, "layer ")) << msg;  // read_layers names the layer
}

TEST(ReadLayer, CorruptTarInsideGzipIsAnInputError) {
  std::string tar = tar_of(kSample);
  std::string entries_then_garbage = tar.substr(0, 1536) + std::string(1024, 'G');
  TempDir tmp;
  write_file(tmp / "t", entries_then_garbage);
  ASSERT_EQ(run("gzip -n '" + tmp / "t" + "'"), 0);
  std::string blob = read_file(tmp / "t.gz");
  MemoryStream s(blob);
  std::string msg = input_error_of([&] { read_layer(s, descriptor_of(blob), ""); });
  EXPECT_FALSE(starts_with(msg, "layer ")) << msg;  // read_layers names the layer
}

TEST(ReadLayer, GarbageBytesAreAnInputError) {
  std::string garbage;
  for (int i = 0; i < 5000; ++i) garbage += char((i * 7919 + 13) % 251);
  MemoryStream s(garbage);
  std::string msg = input_error_of([&] { read_layer(s, descriptor_of(garbage), ""); });
  EXPECT_EQ(msg, "not a valid tar stream: Unrecognized archive format");
  EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
}

// A blob stream that fails after `head`, with an InputError or, when `plain`, any other exception.
class FailingStream : public ByteStream {
 public:
  explicit FailingStream(std::string head, bool plain = false) : head_(std::move(head)), plain_(plain) {}
  size_t read(void* buf, size_t n) override {
    if (pos_ == head_.size()) {
      if (plain_) throw std::runtime_error("connection reset");
      throw InputError("blob cut by the network");
    }
    size_t k = std::min(n, head_.size() - pos_);
    std::memcpy(buf, head_.data() + pos_, k);
    pos_ += k;
    return k;
  }

 private:
  std::string head_;
  bool plain_;
  size_t pos_ = 0;
};

// Any exception of the stream becomes the layer's InputError, in the gzip inflater (which libarchive's
// callbacks reach) as in libarchive's filters: none may cross libarchive's C frames.
TEST(ReadLayer, AnyStreamExceptionBecomesTheLayersError) {
  for (Compression c : {Compression::Gzip, Compression::Zstd}) {
    std::string blob = make_layer_blob({file("big", std::string(300000, 'q'))}, c);
    FailingStream s(blob.substr(0, blob.size() / 2), /*plain=*/true);
    std::string msg = input_error_of([&] { read_layer(s, descriptor_of(blob), ""); });
    EXPECT_EQ(msg, "connection reset");
  }
}

TEST(ReadLayer, StreamFailureIsReportedWithItsReason) {
  std::string blob = make_layer_blob({file("big", std::string(300000, 'q'))}, Compression::Gzip);
  FailingStream s(blob.substr(0, blob.size() / 2));
  std::string msg = input_error_of([&] { read_layer(s, descriptor_of(blob), ""); });
  EXPECT_FALSE(starts_with(msg, "layer ")) << msg;  // read_layers names the layer
  EXPECT_NE(msg.find("blob cut by the network"), std::string::npos) << msg;
}

TEST(ReadLayer, JsonRoundTrip) {
  TempDir tmp;
  ASSERT_TRUE(compile_c("gcc", kHelloC, tmp / "hello"));
  LayerFacts l = layer_of({file("usr/bin/hello", read_file(tmp / "hello"), 0755), file("etc/passwd", "root\n"),
                           file("a/.wh.b"), file("o/.wh..wh..opq"), file("../x"), symlink("s", "../t"),
                           hardlink("h", "usr/bin/hello")});
  nlohmann::json j = l;
  EXPECT_EQ(j.at("format_version"), kLayerFactsFormatVersion);
  LayerFacts back = nlohmann::json::parse(j.dump()).get<LayerFacts>();
  EXPECT_EQ(nlohmann::json(back), j);
  EXPECT_EQ(back.elves.size(), 1u);
  EXPECT_EQ(back.entries.size(), l.entries.size());

  j["format_version"] = kLayerFactsFormatVersion + 1;
  EXPECT_THROW(j.get<LayerFacts>(), InputError);
}


TEST(ReadLayerEdges, EmptyTarIsAnEmptyLayer) {
  for (Compression c : {Compression::Gzip, Compression::Zstd, Compression::None}) {
    LayerFacts l = layer_of({}, c);
    EXPECT_TRUE(l.entries.empty());
    EXPECT_TRUE(l.warnings.empty());
  }
}

TEST(ReadLayerEdges, EmptyBlobIsAnInputError) {
  MemoryStream s("");
  try {
    LayerFacts l = read_layer(s, descriptor_of(""), "");
    ADD_FAILURE() << "read " << l.entries.size() << " entries from nothing";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "the blob is empty");
  }
}

TEST(ReadLayerEdges, ElfTruncatedInsideTheTarIsAnInputError) {
  TempDir tmp;
  ASSERT_TRUE(compile_c("gcc", kHelloC, tmp / "hello"));
  std::string tar = make_layer_blob({file("bin/hello", read_file(tmp / "hello"))}, Compression::None);
  std::string cut = tar.substr(0, 512 + 4096);
  MemoryStream s(cut);
  try {
    read_layer(s, descriptor_of(cut), "");
    ADD_FAILURE() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("/bin/hello"), std::string::npos) << e.what();
  }
}


TEST(ReadLayerEdges, TextOverItsLimitIsSkippedWithAWarning) {
  LayerFacts l = layer_of({file("etc/passwd", std::string(kMaxTextSize + 1, 'p')), file("etc/group", "root:x:0:\n")},
                          Compression::Zstd);
  EXPECT_EQ(l.texts, (std::map<std::string, std::string>{{"etc/group", "root:x:0:\n"}}));
  ASSERT_EQ(l.warnings.size(), 1u);
  EXPECT_EQ(l.warnings[0], "skipped content of /etc/passwd: 16777217 bytes is over the limit of 16777216");
  EXPECT_EQ(l.entries.size(), 2u);
}

// Each way a blob can be wrong, read on two threads (the blob's side on a thread of its own): the same
// error as on one, from the same side.
TEST(ReadLayer, ErrorsOnTwoThreadsAreThoseOfOne) {
  const std::string gz = make_layer_blob(kSample, Compression::Gzip);
  const std::string big = make_layer_blob({file("big", std::string(3 << 20, 'a') + "end")}, Compression::Gzip);
  std::string tar = tar_of(kSample);
  std::string bad_tar = tar;
  bad_tar[100] ^= 0x55;
  bad_tar[148] = 'Z';
  struct Case {
    std::string blob;
    Descriptor d;
    std::string diff_id;
  };
  std::vector<Case> cases;
  Descriptor wrong_digest = descriptor_of(gz);
  wrong_digest.digest = Sha256::of("something else");
  cases.push_back({gz, wrong_digest, ""});
  cases.push_back({gz, descriptor_of(gz), Sha256::of("not the tar")});
  cases.push_back({big.substr(0, big.size() / 2), descriptor_of(big), ""});
  cases.push_back({tar.substr(0, 1024), descriptor_of(tar), ""});
  Descriptor longer = descriptor_of(gz), shorter = descriptor_of(gz);
  longer.size += 10;
  shorter.size -= 10;
  cases.push_back({gz, longer, ""});
  cases.push_back({gz, shorter, ""});
  cases.push_back({bad_tar, descriptor_of(bad_tar), ""});
  for (const Case& c : cases) {
    MemoryStream one(c.blob), two(c.blob);
    std::string sequential = input_error_of([&] { read_layer(one, c.d, c.diff_id, LayerReadOptions{true, false}); });
    std::string pipelined = input_error_of([&] { read_layer(two, c.d, c.diff_id, LayerReadOptions{true, true}); });
    EXPECT_FALSE(sequential.empty());
    EXPECT_EQ(pipelined, sequential);
  }
}

}  // namespace
}  // namespace imgaudit::test
