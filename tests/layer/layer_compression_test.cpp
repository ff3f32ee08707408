// Compressed layers as a runtime takes them. gzip as containerd's Go reader does: several members are one
// stream, each member's CRC-32 and length are checked, bytes after the last member are an error, and a
// layer compressed twice is refused (libarchive's gzip filter checked none of these). zstd: the frame
// checksum and trailing bytes, which libzstd checks. Exact error texts, as users read them.
#include <gtest/gtest.h>

#include "layer/layer_facts.h"
#include "layer_test_util.h"
#include "test_support.h"
#include "util/error.h"
#include "util/strings.h"

namespace imgaudit::test {
namespace {

const std::vector<TarEntrySpec> kFiles = {file("etc/os-release", "ID=test\n", 0644),
                                          file("usr/share/big", std::string(300000, 'z') + "end\n", 0644)};

// The InputError of reading `blob` as a layer whose descriptor matches it (so only the content is wrong),
// on one thread or two.
std::string error_reading_on(const std::string& blob, bool two_threads) {
  MemoryStream s(blob);
  Descriptor d = descriptor_of(blob);
  try {
    read_layer(s, d, "", LayerReadOptions{true, two_threads});
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no InputError";
  return "";
}

// The same on one thread and on two.
std::string error_reading(const std::string& blob) {
  std::string one = error_reading_on(blob, false);
  EXPECT_EQ(error_reading_on(blob, true), one) << "on two threads";
  return one;
}

TEST(GzipLayer, ABadCrcIsCorruptData) {
  std::string blob = make_layer_blob(kFiles, Compression::Gzip);
  blob[blob.size() - 8] ^= 0x01;  // the trailer: CRC-32, then the length
  EXPECT_EQ(error_reading(blob), "corrupt gzip data: incorrect data check (the member's CRC-32 does not match its data)");
}

TEST(GzipLayer, ABadLengthIsCorruptData) {
  std::string blob = make_layer_blob(kFiles, Compression::Gzip);
  blob[blob.size() - 4] ^= 0x01;
  EXPECT_EQ(error_reading(blob), "corrupt gzip data: incorrect length check (the member's length does not match its data)");
}

TEST(GzipLayer, BytesAfterTheLastMemberAreAnError) {
  EXPECT_EQ(error_reading(make_layer_blob(kFiles, Compression::Gzip) + "trailing bytes"),
            "bytes after the last gzip member that are not another member (1 member(s) read)");
  EXPECT_EQ(error_reading(make_layer_blob(kFiles, Compression::Gzip) + std::string(512, '\0')),
            "bytes after the last gzip member that are not another member (1 member(s) read)");
}

TEST(GzipLayer, SeveralMembersAreOneStream) {
  std::string tar = make_layer_blob(kFiles, Compression::None);
  std::string blob = gzip_of(tar.substr(0, 1000)) + gzip_of(tar.substr(1000, 200000)) + gzip_of(tar.substr(201000));
  MemoryStream s(blob, 777);  // small reads: members end inside them
  LayerFacts l = read_layer(s, descriptor_of(blob), Sha256::of(tar));
  EXPECT_EQ(l.uncompressed_size, tar.size());
  EXPECT_EQ(l.texts.at("etc/os-release"), "ID=test\n");
}

TEST(GzipLayer, CutShortIsAnError) {
  std::string blob = make_layer_blob(kFiles, Compression::Gzip);
  EXPECT_EQ(error_reading(blob.substr(0, blob.size() - 3)), "gzip stream cut short");
}

TEST(GzipLayer, CompressedTwiceIsRefused) {
  EXPECT_EQ(error_reading(gzip_of(make_layer_blob(kFiles, Compression::Gzip))),
            "compressed twice: gzip inside gzip (a runtime decompresses a layer once and finds no tar)");
  EXPECT_EQ(error_reading(gzip_of(make_layer_blob(kFiles, Compression::Zstd))),
            "compressed twice: zstd inside gzip (a runtime decompresses a layer once and finds no tar)");
}

// A tar starts with its first member's name, and "BZh" (bzip2's magic) is text that a name may start with.
TEST(GzipLayer, AFirstNameThatStartsAsBzip2MagicIsNoSecondCompression) {
  std::string tar = make_layer_blob({file("BZh91AY&SY", "text\n", 0644)}, Compression::None);
  ASSERT_TRUE(starts_with(tar, "BZh91AY&SY"));
  std::string blob = gzip_of(tar);
  MemoryStream s(blob);
  LayerFacts l = read_layer(s, descriptor_of(blob), Sha256::of(tar));
  ASSERT_EQ(l.entries.size(), 1u);
  EXPECT_EQ(l.entries[0].path, "BZh91AY&SY");
}

TEST(ZstdLayer, ABadFrameChecksumOrTrailingBytesAreErrors) {
  if (!have_tool("zstd")) GTEST_SKIP() << "the zstd program (Debian package zstd) writes the frames";
  std::string blob = compressed_by("zstd -q --check -c", make_layer_blob(kFiles, Compression::None));
  std::string bad_sum = blob;
  bad_sum.back() ^= 0x01;  // the frame's last 4 bytes are its content checksum
  EXPECT_EQ(error_reading(bad_sum), "Zstd decompression failed: Restored data doesn't match checksum");
  EXPECT_EQ(error_reading(blob + "trailing bytes"), "Zstd decompression failed: Unknown frame descriptor");
}

}  // namespace
}  // namespace imgaudit::test
