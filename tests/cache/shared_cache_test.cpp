// --cache redis://: imgaudit processes with cache folders of their own share layer facts through one
// redis-server, under versioned keys that expire as --cache-ttl says.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <thread>

#include <nlohmann/json.hpp>

#include "local_registry.h"
#include "piped_run.h"
#include "redis_server.h"
#include "util/sha256.h"

namespace imgaudit::test {
namespace {

ImageSpec three_layers(const std::string& tag) {
  ImageSpec spec;
  spec.tag = tag;
  spec.layers = {small_layer("etc/base-one", "base 1"), small_layer("etc/base-two", "base 2"),
                 small_layer("etc/app", "app " + tag)};
  return spec;
}

std::string digest(const LayerBlob& layer) { return Sha256::of(layer.bytes); }

// A redis-server and a registry of the test's own, the registry holding three_layers("v1") as REPO:TAG.
struct PushedImage {
  RedisServer redis;
  LocalRegistry reg;
  TempDir tmp;
  ImageSpec spec = three_layers("v1");
  std::string ref;
  explicit PushedImage(const std::string& repo_tag) {
    write_layout(spec, tmp / "layout");
    reg.push(tmp / "layout", "v1", repo_tag);
    ref = reg.host() + "/" + repo_tag;
  }
  // A JSON audit of it through the shared cache, with `options` besides.
  std::string args(const std::string& options = "") const {
    return "--format json --fail-on never --cache " + redis.url() + " " + options + " " + ref;
  }
};

TEST(SharedCache, TwoProcessesWithTheirOwnFoldersShareLayerFacts) {
  SKIP_WITHOUT_REDIS();
  SKIP_WITHOUT_REGISTRY_TOOLS();
  PushedImage image("shared:v1");
  std::string args = image.args();

  CliRun first = imgaudit(image.tmp / "machine-a", args);
  ASSERT_EQ(first.status, 0) << first.err;
  EXPECT_EQ(first.err, "");
  for (const LayerBlob& l : image.spec.layers) {
    EXPECT_EQ(image.reg.blob_gets("shared", digest(l)), 1);
    EXPECT_EQ(image.redis.cli("EXISTS " + facts_key(digest(l))), "1");
  }
  EXPECT_FALSE(std::filesystem::exists(image.tmp / "machine-a/cache/imgaudit/layers")) << "layer facts went to the folder";
  EXPECT_TRUE(std::filesystem::exists(image.tmp / "machine-a/cache/imgaudit/blobs")) << "manifests and configs stay there";

  CliRun second = imgaudit(image.tmp / "machine-b", args);
  ASSERT_EQ(second.status, 0) << second.err;
  EXPECT_EQ(second.err, "");
  for (const LayerBlob& l : image.spec.layers)
    EXPECT_EQ(image.reg.blob_gets("shared", digest(l)), 1) << "the second process read layer " << digest(l);
  EXPECT_EQ(nlohmann::json::parse(first.out), nlohmann::json::parse(second.out));
}

// A run of many images says in its summary which layers' facts came from the shared cache.
TEST(SharedCache, AFleetsSummarySaysWhichLayersRedisHeld) {
  SKIP_WITHOUT_REDIS();
  SKIP_WITHOUT_REGISTRY_TOOLS();
  PushedImage image("fleet:v1");
  write_layout(three_layers("v2"), image.tmp / "layout-v2");
  image.reg.push(image.tmp / "layout-v2", "v2", "fleet:v2");
  const std::string args = image.args(image.reg.host() + "/fleet:v2");

  CliRun first = imgaudit(image.tmp / "machine-a", args);
  ASSERT_EQ(first.status, 0) << first.err;
  nlohmann::json summary = nlohmann::json::parse(first.out)["summary"];
  EXPECT_EQ(summary["layers_read"], 4) << summary;  // two bases, two applications
  EXPECT_EQ(summary["layers_cached"], 0) << summary;

  CliRun second = imgaudit(image.tmp / "machine-b", args);
  ASSERT_EQ(second.status, 0) << second.err;
  summary = nlohmann::json::parse(second.out)["summary"];
  EXPECT_EQ(summary["layers_read"], 0) << summary;
  EXPECT_EQ(summary["layers_cached"], 4) << summary;
  EXPECT_EQ(summary["layers_shared"], 2) << summary << ": the second image takes the bases from the first";
}

// Shards started together: a layer one process is reading is not read by another, which waits for its
// facts. Process A reads the image from a pipe that stops halfway through its first layer, so A holds
// that layer's claim for as long as the test wants; B, given the same image from the registry, must
// not pull it.
TEST(SharedCache, AProcessWaitsForTheLayerAnotherIsReading) {
  SKIP_WITHOUT_REDIS();
  SKIP_WITHOUT_REGISTRY_TOOLS();
  RedisServer redis;
  LocalRegistry reg;
  TempDir tmp;
  ImageSpec spec;
  spec.tag = "v1";
  spec.layers = {random_layer(1 << 20, "opt/big.bin", Compression::Gzip), small_layer("etc/app", "app")};
  write_layout(spec, tmp / "layout");
  reg.push(tmp / "layout", "v1", "shared:v1");
  write_docker_archive(spec, tmp / "app.tar", false);
  const std::string bytes = read_file(tmp / "app.tar");
  const std::string big = digest(spec.layers[0]);
  size_t member = member_offset(bytes, big.substr(7));
  ASSERT_NE(member, std::string::npos);

  PipedRun a(tmp / "a", "--format json --fail-on never -j 1 --cache " + redis.url());
  a.write(bytes.substr(0, member + 512 + 4096));  // its header and 4 KiB of its bytes
  ASSERT_TRUE(wait_until([&] { return redis.cli("EXISTS " + claim_key(big)) == "1"; })) << "A did not claim it";

  std::atomic<bool> b_done{false};
  CliRun b;
  std::thread b_thread([&] {
    b = imgaudit(tmp / "b", "--format json --fail-on never --cache " + redis.url() + " " + reg.host() + "/shared:v1");
    b_done = true;
  });
  std::this_thread::sleep_for(std::chrono::seconds(2));
  EXPECT_FALSE(b_done) << "B did not wait: " << b.err;
  EXPECT_EQ(reg.blob_gets("shared", big), 0);
  a.write(bytes.substr(member + 512 + 4096));
  CliRun a_run = a.finish();
  b_thread.join();
  ASSERT_EQ(a_run.status, 0) << a_run.err;
  ASSERT_EQ(b.status, 0) << b.err;
  EXPECT_EQ(a_run.err, "");
  EXPECT_EQ(b.err, "");
  EXPECT_EQ(reg.blob_gets("shared", big), 0) << "B pulled the layer A was reading";
  EXPECT_EQ(redis.cli("EXISTS " + claim_key(big)), "0");
  auto first_layer = [](const std::string& out) { return nlohmann::json::parse(out)["image"]["layers"][0]; };
  EXPECT_EQ(first_layer(a_run.out)["digest"], big);
  EXPECT_EQ(first_layer(b.out)["digest"], big);
}

TEST(SharedCache, LocalImagesUseItToo) {
  SKIP_WITHOUT_REDIS();
  RedisServer redis;
  TempDir tmp;
  ImageSpec spec = three_layers("v1");
  write_layout(spec, tmp / "layout");
  CliRun r = imgaudit(tmp / "home", "-q --fail-on never --cache " + redis.url() + " oci:" + (tmp / "layout") + ":v1");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(redis.cli("DBSIZE"), "3");
  EXPECT_FALSE(std::filesystem::exists(tmp / "home/cache/imgaudit/layers"));
}

TEST(SharedCache, TheKeyExpiresAsCacheTtlSays) {
  SKIP_WITHOUT_REDIS();
  RedisServer redis;
  TempDir tmp;
  ImageSpec spec = three_layers("v1");
  write_layout(spec, tmp / "layout");
  std::string image = " -q --fail-on never oci:" + (tmp / "layout") + ":v1";
  const std::string key = facts_key(digest(spec.layers[0]));

  ASSERT_EQ(imgaudit(tmp / "home", "--cache " + redis.url() + image).status, 0);
  long long thirty_days = 30LL * 24 * 3600 * 1000;
  EXPECT_GT(std::stoll(redis.cli("PTTL " + key)), thirty_days - 60000) << "the default is 30 days";
  EXPECT_LE(std::stoll(redis.cli("PTTL " + key)), thirty_days);

  redis.cli("FLUSHALL");
  ASSERT_EQ(imgaudit(tmp / "home", "--cache-ttl 12h --cache " + redis.url() + image).status, 0);
  long long twelve_hours = 12LL * 3600 * 1000;
  EXPECT_GT(std::stoll(redis.cli("PTTL " + key)), twelve_hours - 60000);
  EXPECT_LE(std::stoll(redis.cli("PTTL " + key)), twelve_hours);
  // A hit keeps the value another TTL.
  redis.cli("PEXPIRE " + key + " 600000");
  ASSERT_EQ(imgaudit(tmp / "home", "--cache-ttl 90m --cache " + redis.url() + image).status, 0);
  EXPECT_GT(std::stoll(redis.cli("PTTL " + key)), 90LL * 60 * 1000 - 60000);

  redis.cli("FLUSHALL");
  ASSERT_EQ(imgaudit(tmp / "home", "--cache-ttl 1s --cache " + redis.url() + image).status, 0);
  EXPECT_EQ(redis.cli("EXISTS " + key), "1");
  EXPECT_TRUE(wait_until([&] { return redis.cli("EXISTS " + key) == "0"; }, 5000)) << "still there after 5 s";
}

TEST(SharedCache, BadValuesAreReadAgainAndOverwritten) {
  SKIP_WITHOUT_REDIS();
  SKIP_WITHOUT_REGISTRY_TOOLS();
  PushedImage image("bad:v1");
  std::string args = image.args();
  CliRun first = imgaudit(image.tmp / "home", args);
  ASSERT_EQ(first.status, 0) << first.err;

  std::string k0 = facts_key(digest(image.spec.layers[0])), k1 = facts_key(digest(image.spec.layers[1])),
              k2 = facts_key(digest(image.spec.layers[2]));
  std::string good0 = image.redis.cli("GET " + k0), good1 = image.redis.cli("GET " + k1), good2 = image.redis.cli("GET " + k2);
  ASSERT_FALSE(good0.empty());
  image.redis.set_raw(k0, good0.substr(0, good0.size() / 2));  // corrupt
  auto old = nlohmann::json::parse(good1);
  old["format_version"] = old["format_version"].get<int>() - 1;
  image.redis.set_raw(k1, old.dump());  // another format version
  image.redis.set_raw(k2, good0);       // another digest's facts

  CliRun second = imgaudit(image.tmp / "home", args);
  ASSERT_EQ(second.status, 0) << second.err;
  EXPECT_EQ(second.err, "");
  for (const LayerBlob& l : image.spec.layers) EXPECT_EQ(image.reg.blob_gets("bad", digest(l)), 2) << "not read again";
  EXPECT_EQ(nlohmann::json::parse(first.out), nlohmann::json::parse(second.out));
  EXPECT_EQ(image.redis.cli("GET " + k0), good0);
  EXPECT_EQ(image.redis.cli("GET " + k1), good1);
  EXPECT_EQ(image.redis.cli("GET " + k2), good2);
  EXPECT_GT(std::stoll(image.redis.cli("PTTL " + k2)), 0);
}

// Whoever can write the Redis but lacks --cache-key-file's key cannot change what the runs read: a value
// changed after it was sealed, or written without a seal, fails the check, is said, and the layer is read
// again; the report is the one the image gives.
TEST(SharedCache, SealedValuesThatFailTheirCheckAreReadAgain) {
  SKIP_WITHOUT_REDIS();
  SKIP_WITHOUT_REGISTRY_TOOLS();
  PushedImage image("sealed:v1");
  write_file(image.tmp / "key", std::string(64, 'k') + "\n");
  const std::string args = image.args("--cache-key-file " + image.tmp / "key");
  CliRun first = imgaudit(image.tmp / "home", args);
  ASSERT_EQ(first.status, 0) << first.err;
  EXPECT_EQ(first.err, "");
  std::vector<std::string> keys, values;
  for (const LayerBlob& l : image.spec.layers) {
    keys.push_back(facts_key(digest(l)));
    values.push_back(image.redis.cli("GET " + keys.back()));
    EXPECT_EQ(values.back().rfind("imgaudit-hmac-sha256:", 0), 0u) << values.back().substr(0, 80);
  }
  std::string poisoned = values[0];
  size_t at = poisoned.find("etc/base-one");
  ASSERT_NE(at, std::string::npos);
  poisoned.replace(at, 12, "etc/base-0ne");                          // the seal kept, the facts changed
  image.redis.set_raw(keys[0], poisoned);
  image.redis.set_raw(keys[1], values[1].substr(values[1].find('\n') + 1));  // the facts alone, unsealed

  CliRun second = imgaudit(image.tmp / "home", args);
  ASSERT_EQ(second.status, 0) << second.err;
  EXPECT_EQ(nlohmann::json::parse(first.out), nlohmann::json::parse(second.out));
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_NE(second.err.find("the facts of layer " + digest(image.spec.layers[i]) + " fail their HMAC check"), std::string::npos)
        << second.err;
    EXPECT_EQ(image.reg.blob_gets("sealed", digest(image.spec.layers[i])), 2) << "not read again";
    EXPECT_EQ(image.redis.cli("GET " + keys[i]), values[i]) << "not sealed again";
  }
  EXPECT_EQ(image.reg.blob_gets("sealed", digest(image.spec.layers[2])), 1);
  EXPECT_EQ(std::count(second.err.begin(), second.err.end(), '\n'), 2) << second.err;

  // Another key: every value fails; a key too short, or without --cache, is one line.
  write_file(image.tmp / "other", std::string(64, 'o'));
  CliRun other = imgaudit(image.tmp / "home", image.args("--cache-key-file " + image.tmp / "other"));
  EXPECT_EQ(std::count(other.err.begin(), other.err.end(), '\n'), 3) << other.err;
  write_file(image.tmp / "short", "secret\n");
  CliRun short_key = imgaudit(image.tmp / "home", image.args("--cache-key-file " + image.tmp / "short"));
  EXPECT_EQ(short_key.status, 2);
  EXPECT_EQ(short_key.err, "imgaudit: " + image.tmp / "short" +
                               ": a key of 6 bytes, fewer than 32 (kMinCacheKeyBytes): make one with openssl rand -hex 32\n");
  CliRun no_cache = imgaudit(image.tmp / "home", "--cache-key-file " + image.tmp / "key " + image.ref);
  EXPECT_EQ(no_cache.status, 2);
  EXPECT_EQ(no_cache.err, "imgaudit: --cache-key-file seals the values of the shared cache: name the Redis with --cache\n");
}

TEST(SharedCache, TheDatabaseOfTheUrl) {
  SKIP_WITHOUT_REDIS();
  RedisServer redis;
  TempDir tmp;
  ImageSpec spec = three_layers("v1");
  write_layout(spec, tmp / "layout");
  std::string image = " -q --fail-on never oci:" + (tmp / "layout") + ":v1";
  ASSERT_EQ(imgaudit(tmp / "home", "--cache " + redis.url() + "/3" + image).status, 0);
  EXPECT_EQ(redis.cli("-n 3 DBSIZE"), "3");
  EXPECT_EQ(redis.cli("-n 0 DBSIZE"), "0");

  CliRun out_of_range = imgaudit(tmp / "home", "--cache " + redis.url() + "/99" + image);
  EXPECT_EQ(out_of_range.status, 0) << out_of_range.err;
  EXPECT_EQ(out_of_range.err, "imgaudit: warning: " + redis.url() +
                                  ": SELECT 99 refused: ERR DB index is out of range: going on without the shared cache\n");
}

TEST(SharedCache, PasswordAndAclUser) {
  SKIP_WITHOUT_REDIS();
  TempDir tmp;
  ImageSpec spec = three_layers("v1");
  write_layout(spec, tmp / "layout");
  std::string image = " -q --fail-on never oci:" + (tmp / "layout") + ":v1";
  {
    RedisServer redis({{"--requirepass", "s3cret"}, "--pass s3cret"});
    CliRun r = imgaudit(tmp / "home", "--cache " + redis.url(":s3cret@") + image);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_EQ(redis.cli("DBSIZE"), "3");

    CliRun wrong = imgaudit(tmp / "home", "--cache " + redis.url(":hunter2@") + image);
    EXPECT_EQ(wrong.status, 0) << wrong.err;
    EXPECT_EQ(wrong.err, "imgaudit: warning: " + redis.url() +
                             ": AUTH refused: WRONGPASS invalid username-password pair or user is disabled.: going on "
                             "without the shared cache\n");
    CliRun none = imgaudit(tmp / "home", "--cache " + redis.url() + image);
    EXPECT_EQ(none.status, 0) << none.err;
    EXPECT_EQ(none.err, "imgaudit: warning: " + redis.url() +
                            ": GETRANGE refused: NOAUTH Authentication required.: going on without the shared cache\n");
  }
  {
    // Redis 6 ACLs: a user of its own, the password percent-encoded in the URL.
    RedisServer redis({{"--user", "alice", "on", ">p@ss:w/rd", "~imgaudit:*", "+@all", "--user", "default", "off"},
                       "--user alice --pass 'p@ss:w/rd'"});
    CliRun r = imgaudit(tmp / "home", "--cache " + redis.url("alice:p%40ss%3Aw%2Frd@") + image);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_EQ(redis.cli("DBSIZE"), "3");
    CliRun wrong = imgaudit(tmp / "home", "--cache " + redis.url("alice:hunter2@") + image);
    EXPECT_EQ(wrong.status, 0) << wrong.err;
    EXPECT_EQ(wrong.err.find("hunter2"), std::string::npos) << wrong.err;
    EXPECT_EQ(wrong.err, "imgaudit: warning: " + redis.url() +
                             ": AUTH refused: WRONGPASS invalid username-password pair or user is disabled.: going on "
                             "without the shared cache\n");
  }
}

TEST(SharedCache, Tls) {
  SKIP_WITHOUT_REDIS();
  if (python_with_crypto().empty()) GTEST_SKIP() << "python3-cryptography makes the test CA";
  RedisServer redis({{}, "", true});
  TempDir tmp;
  ImageSpec spec = three_layers("v1");
  write_layout(spec, tmp / "layout");
  std::string image = " -q --fail-on never oci:" + (tmp / "layout") + ":v1";
  ASSERT_EQ(redis.url().rfind("rediss://", 0), 0u);

  CliRun untrusted = imgaudit(tmp / "home", "--cache " + redis.url() + image);
  EXPECT_EQ(untrusted.status, 0) << untrusted.err;
  EXPECT_EQ(untrusted.err, "imgaudit: warning: " + redis.url() +
                               ": cannot connect: SSL certificate problem: self-signed certificate in certificate chain "
                               "(a private CA: --ca-cert FILE): going on without the shared cache\n");
  EXPECT_EQ(redis.cli("DBSIZE"), "0");

  CliRun trusted = imgaudit(tmp / "home", "--ca-cert " + shell_quoted(redis.ca_cert()) + " --cache " + redis.url() + image);
  ASSERT_EQ(trusted.status, 0) << trusted.err;
  EXPECT_EQ(trusted.err, "");
  EXPECT_EQ(redis.cli("DBSIZE"), "3");

  // Plain Redis to a TLS port, and TLS to a plain port: a warning, not a hang.
  CliRun plain = imgaudit(tmp / "home", "--cache redis://127.0.0.1:" + std::to_string(redis.port()) + image);
  EXPECT_EQ(plain.status, 0) << plain.err;
  EXPECT_EQ(plain.err, "imgaudit: warning: redis://127.0.0.1:" + std::to_string(redis.port()) +
                           ": the connection was closed: going on without the shared cache\n");
  RedisServer clear;
  CliRun tls_to_plain = imgaudit(tmp / "home", "--ca-cert " + shell_quoted(redis.ca_cert()) + " --cache rediss://127.0.0.1:" +
                                                   std::to_string(clear.port()) + image);
  EXPECT_EQ(tls_to_plain.status, 0) << tls_to_plain.err;
  // A plain Redis waits for the end of a line that the TLS hello never has: the connect timeout ends it.
  EXPECT_EQ(tls_to_plain.err, "imgaudit: warning: rediss://127.0.0.1:" + std::to_string(clear.port()) +
                                  ": cannot connect: SSL connection timeout: going on without the shared cache\n");
}

}  // namespace
}  // namespace imgaudit::test
