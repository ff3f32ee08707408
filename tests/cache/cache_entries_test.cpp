// The cache folder's own commands underneath: which names are imgaudit's, and a walk that counts or removes
// those only, whatever else the folder holds (links out of it, other files, deep trees, more names than
// the bound). Entries are written by the caches' own code (BlobCache, FactsCache), as an audit writes them.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "cache/blob_cache.h"
#include "cache/cache_entries.h"
#include "cache/cache_layout.h"
#include "cache/facts_cache.h"
#include "test_support.h"
#include "util/error.h"
#include "util/sha256.h"

namespace imgaudit {
namespace {

namespace fs = std::filesystem;
using test::read_file;
using test::TempDir;
using test::write_file;

const CacheKindTally& kind_of(const CacheTally& tally, const std::string& kind) {
  for (const CacheKindTally& k : tally.kinds)
    if (k.kind == kind) return k;
  throw std::runtime_error("no kind " + kind);
}

// The bytes of every regular file under `dir`, links not followed.
uint64_t file_bytes_under(const std::string& dir) {
  uint64_t bytes = 0;
  for (auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file() && !e.is_symlink()) bytes += e.file_size();
  return bytes;
}

// A cache folder as audits leave it: `blobs` manifests or configs, `layers` layers' facts.
void fill_cache(const std::string& dir, int blobs, int layers) {
  BlobCache blob_cache(dir);
  for (int i = 0; i < blobs; ++i) {
    const std::string bytes = "{\"schemaVersion\":2,\"n\":" + std::to_string(i) + "}";
    blob_cache.put(Sha256::of(bytes), bytes);
  }
  FactsCache facts_cache(dir);
  for (int i = 0; i < layers; ++i) {
    LayerFacts facts;
    facts.digest = Sha256::of("layer " + std::to_string(i));
    facts_cache.store(facts);
  }
}

TEST(CacheLayout, NamesAreTheOnesTheCachesGive) {
  const std::string digest = Sha256::of("x");
  const std::string hex = digest.substr(7);
  EXPECT_EQ(cache_entry_path("/c", kBlobEntries, digest), "/c/blobs/sha256/" + hex);
  EXPECT_EQ(cache_entry_path("/c", kFactsEntries, digest), "/c/layers/sha256/" + hex + ".json");
  EXPECT_TRUE(is_cache_entry_name(kBlobEntries, hex));
  EXPECT_FALSE(is_cache_entry_name(kBlobEntries, hex + ".json"));
  EXPECT_TRUE(is_cache_entry_name(kFactsEntries, hex + ".json"));
  EXPECT_FALSE(is_cache_entry_name(kFactsEntries, hex));
  std::string upper = hex;
  upper[0] = 'A';
  EXPECT_FALSE(is_cache_entry_name(kBlobEntries, upper)) << "the caches write lower-case hex only";
  EXPECT_FALSE(is_cache_entry_name(kBlobEntries, hex.substr(1)));
  EXPECT_FALSE(is_cache_entry_name(kBlobEntries, "README"));

  const std::string temp = cache_temp_path("/c", 12, 3, 4000000000ul);
  EXPECT_EQ(temp, "/c/tmp/12-3-4000000000.part");
  EXPECT_TRUE(is_cache_temp_name(fs::path(temp).filename().string()));
  for (const char* other : {"12-3.part", "12-3-4-5.part", "a-3-4.part", "12--4.part", "12-3-4.partial", "12-3-4"})
    EXPECT_FALSE(is_cache_temp_name(other)) << other;
}

TEST(CacheEntries, CountsWhatTheCachesWrote) {
  TempDir t;
  const std::string dir = t / "cache";
  fill_cache(dir, 3, 2);
  const CacheTally tally = count_cache_entries(dir);
  EXPECT_TRUE(tally.folder_exists);
  EXPECT_EQ(kind_of(tally, "blobs").entries, 3u);
  EXPECT_EQ(kind_of(tally, "blobs").bytes, file_bytes_under(dir + "/blobs"));
  EXPECT_EQ(kind_of(tally, "facts").entries, 2u);
  EXPECT_EQ(kind_of(tally, "facts").bytes, file_bytes_under(dir + "/layers"));
  EXPECT_EQ(kind_of(tally, "temporary").entries, 0u);
  EXPECT_EQ(tally.entries(), 5u);
  EXPECT_EQ(tally.bytes(), file_bytes_under(dir));
  EXPECT_EQ(tally.foreign, 0u);
  EXPECT_FALSE(tally.cut);

  const CacheTally none = count_cache_entries(t / "absent");
  EXPECT_FALSE(none.folder_exists);
  EXPECT_EQ(none.entries(), 0u);
  EXPECT_EQ(none.kinds.size(), 3u);
}

// Links out of the folder, another program's files, a hard link to a file elsewhere and a deep tree are
// neither counted nor removed, and nothing outside the folder changes.
TEST(CacheEntries, LeavesAloneWhatIsNotImgauditsOwn) {
  TempDir t;
  const std::string dir = t / "cache", outside = t / "outside";
  fill_cache(dir, 1, 1);
  const std::string hex = std::string(64, 'b');
  write_file(outside + "/" + hex, "not a cache entry");
  write_file(outside + "/facts/" + hex + ".json", "{}");
  write_file(outside + "/linked", "hard linked");
  // blobs' folder is a link to a folder outside holding a file of a blob's name.
  fs::rename(dir + "/blobs/sha256", dir + "/blobs/sha256.real");
  fs::create_directory_symlink(outside, dir + "/blobs/sha256");
  // An entry's name that is a link to a file outside, a file of another name, a hard link, a deep tree.
  fs::create_symlink(outside + "/facts/" + hex + ".json", dir + "/layers/sha256/" + hex + ".json");
  write_file(dir + "/layers/sha256/notes.txt", "mine");
  ASSERT_EQ(::link((outside + "/linked").c_str(), (dir + "/layers/sha256/" + std::string(64, 'c') + ".json").c_str()), 0);
  std::string deep = dir + "/layers/sha256/" + std::string(64, 'd') + ".json";
  for (int i = 0; i < 200; ++i) deep += "/d";
  fs::create_directories(deep);
  write_file(deep + "/" + std::string(64, 'e') + ".json", "deep");

  const CacheTally counted = count_cache_entries(dir);
  EXPECT_EQ(kind_of(counted, "blobs").entries, 0u);
  EXPECT_EQ(kind_of(counted, "facts").entries, 1u);
  EXPECT_EQ(counted.foreign, 5u) << "blobs/sha256, the link, notes.txt, the hard link, the deep tree";
  EXPECT_FALSE(counted.first_foreign.empty());

  const CacheTally removed = remove_cache_entries(dir, std::nullopt, std::time(nullptr));
  EXPECT_EQ(removed.entries(), 1u);
  EXPECT_EQ(removed.foreign, counted.foreign);
  EXPECT_EQ(removed.failed, 0u) << removed.first_failure;
  EXPECT_EQ(read_file(outside + "/" + hex), "not a cache entry");
  EXPECT_EQ(read_file(outside + "/facts/" + hex + ".json"), "{}");
  EXPECT_EQ(read_file(outside + "/linked"), "hard linked");
  EXPECT_TRUE(fs::is_symlink(dir + "/blobs/sha256"));
  EXPECT_TRUE(fs::is_symlink(dir + "/layers/sha256/" + hex + ".json"));
  EXPECT_EQ(read_file(dir + "/layers/sha256/notes.txt"), "mine");
  EXPECT_EQ(read_file(deep + "/" + std::string(64, 'e') + ".json"), "deep");
  EXPECT_TRUE(fs::is_directory(dir + "/layers/sha256")) << "folders stay: a running audit may write into them";
}

void set_age(const std::string& path, std::time_t now, int64_t seconds) {
  struct timespec times[2] = {{now - seconds, 0}, {now - seconds, 0}};
  ASSERT_EQ(::utimensat(AT_FDCWD, path.c_str(), times, 0), 0) << path;
}

// --older-than keeps entries written within it; a young temporary file may be one an audit is writing.
TEST(CacheEntries, RemovalKeepsYoungEntriesAndTemporaryFilesInUse) {
  TempDir t;
  const std::string dir = t / "cache";
  fill_cache(dir, 2, 0);
  const std::time_t now = std::time(nullptr);
  std::vector<std::string> blobs;
  for (auto& e : fs::directory_iterator(dir + "/blobs/sha256")) blobs.push_back(e.path().string());
  ASSERT_EQ(blobs.size(), 2u);
  set_age(blobs[0], now, 10 * 86400);
  const std::string young_temp = cache_temp_path(dir, 1, 0, 7), hour_old_temp = cache_temp_path(dir, 2, 0, 7),
                    old_temp = cache_temp_path(dir, 3, 0, 7);
  write_file(young_temp, "being written");
  write_file(hour_old_temp, "left by a run that died an hour ago");
  set_age(hour_old_temp, now, kCacheTempFileGraceSeconds + 60);
  write_file(old_temp, "left by a run that died last month");
  set_age(old_temp, now, 30 * 86400);

  const CacheTally removed = remove_cache_entries(dir, 7 * 86400, now);
  EXPECT_EQ(kind_of(removed, "blobs").entries, 1u);
  EXPECT_EQ(kind_of(removed, "temporary").entries, 1u);
  EXPECT_EQ(removed.kept, 3u);
  EXPECT_FALSE(fs::exists(blobs[0]));
  EXPECT_TRUE(fs::exists(blobs[1]));
  EXPECT_TRUE(fs::exists(young_temp));
  EXPECT_TRUE(fs::exists(hour_old_temp));
  EXPECT_FALSE(fs::exists(old_temp));

  const CacheTally all = remove_cache_entries(dir, std::nullopt, now);
  EXPECT_EQ(kind_of(all, "blobs").entries, 1u);
  EXPECT_EQ(kind_of(all, "temporary").entries, 1u);
  EXPECT_EQ(all.kept, 1u) << "the young temporary file, whatever --older-than";
  EXPECT_TRUE(fs::exists(young_temp));
  EXPECT_FALSE(fs::exists(hour_old_temp));
}

// The walk reads a bounded number of names, says it stopped, and a next removal goes on.
TEST(CacheEntries, TheWalkIsBounded) {
  TempDir t;
  const std::string dir = t / "cache";
  fill_cache(dir, 25, 0);
  const CacheTally counted = count_cache_entries(dir, 10);
  EXPECT_TRUE(counted.cut);
  EXPECT_EQ(counted.entries(), 10u);
  EXPECT_FALSE(count_cache_entries(dir, 25).cut) << "exactly the bound's names: all were read";

  EXPECT_EQ(remove_cache_entries(dir, std::nullopt, std::time(nullptr), 10).entries(), 10u);
  EXPECT_EQ(remove_cache_entries(dir, std::nullopt, std::time(nullptr), 10).entries(), 10u);
  const CacheTally last = remove_cache_entries(dir, std::nullopt, std::time(nullptr), 10);
  EXPECT_EQ(last.entries(), 5u);
  EXPECT_FALSE(last.cut);
  EXPECT_EQ(count_cache_entries(dir).entries(), 0u);
}

TEST(CacheEntries, AFolderThatCannotBeOpenedIsAnError) {
  TempDir t;
  write_file(t / "file", "not a folder");
  EXPECT_THROW(count_cache_entries(t / "file"), InputError);
}

}  // namespace
}  // namespace imgaudit
