// --cache's URL: parsed by libcurl's URL API; bad ones are one-line errors, exit 2, never showing the password.
#include <gtest/gtest.h>

#include "cache/redis_url.h"
#include "local_registry.h"
#include "redis_server.h"
#include "util/error.h"

namespace imgaudit::test {
namespace {

std::string url_error(const std::string& text) {
  try {
    parse_redis_url(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(RedisUrl, Parts) {
  RedisUrl u = parse_redis_url("redis://cache.example:6380/3");
  EXPECT_FALSE(u.tls);
  EXPECT_EQ(u.host, "cache.example");
  EXPECT_EQ(u.port, 6380);
  EXPECT_EQ(u.db, 3);
  EXPECT_EQ(u.user, "");
  EXPECT_EQ(u.password, "");
  EXPECT_EQ(u.endpoint(), "redis://cache.example:6380");

  RedisUrl d = parse_redis_url("rediss://cache.example");
  EXPECT_TRUE(d.tls);
  EXPECT_EQ(d.port, 6379);
  EXPECT_EQ(d.db, 0);
  EXPECT_EQ(d.endpoint(), "rediss://cache.example:6379");
  EXPECT_EQ(parse_redis_url("redis://h:1/").db, 0);
  EXPECT_EQ(parse_redis_url("REDIS://[::1]:7000").endpoint(), "redis://[::1]:7000");
}

TEST(RedisUrl, UserAndPasswordArePercentDecoded) {
  RedisUrl u = parse_redis_url("redis://al%69ce:p%40ss%3Aw%2Frd@127.0.0.1:6379");
  EXPECT_EQ(u.user, "alice");
  EXPECT_EQ(u.password, "p@ss:w/rd");
  RedisUrl p = parse_redis_url("redis://:s3cret@127.0.0.1:6379");
  EXPECT_EQ(p.user, "");
  EXPECT_EQ(p.password, "s3cret");
  EXPECT_EQ(p.endpoint(), "redis://127.0.0.1:6379");
}

TEST(RedisUrl, BadOnesSayWhatIsWrong) {
  const std::string form = "redis://[USER:PASSWORD@]HOST:PORT[/DB] or rediss://...";
  EXPECT_EQ(url_error("http://h:1"), "\"http://\" is no Redis URL: give " + form);
  EXPECT_EQ(url_error("unix:///tmp/redis.sock"), "\"unix://\" is no Redis URL: give " + form);
  EXPECT_EQ(url_error("/var/cache/imgaudit"), "not a URL: give " + form + " (a cache folder is --cache-dir)");
  EXPECT_EQ(url_error("redis://"), "the URL names no host (" + form + ")");
  EXPECT_EQ(url_error("redis://:pw@:6379"), "the URL names no host (" + form + ")");
  for (const char* port : {"abc", "0", "65536", "-1"})
    EXPECT_EQ(url_error("redis://h:" + std::string(port)), "the URL's port is not a number from 1 to 65535") << port;
  EXPECT_EQ(url_error("redis://h:1/abc"), "the database \"/abc\" is not a number (/0 is the first)");
  EXPECT_EQ(url_error("redis://h:1/-1"), "the database \"/-1\" is not a number (/0 is the first)");
  EXPECT_EQ(url_error("redis://h:1/99999999999"), "the database \"/99999999999\" is not a number (/0 is the first)");
  EXPECT_EQ(url_error("redis://alice@h:1"),
            "the URL names a user but no password (redis://USER:PASSWORD@HOST, or redis://:PASSWORD@HOST)");
  EXPECT_EQ(url_error("redis://h:1?db=2"), "the URL has a ?query or #fragment, which imgaudit does not read: give " + form);
}

TEST(RedisUrl, ErrorsNeverShowThePassword) {
  for (const char* text : {"redis://u:hunter2@h:abc", "redis://u:hunter2@h:1/x", "http://u:hunter2@h",
                           "redis://u:hunter2@h:1?x", "redis://u:hunter2@:1", "redis://u:hunter2@h h:1"})
    EXPECT_EQ(url_error(text).find("hunter2"), std::string::npos) << url_error(text);
}

TEST(RedisUrl, DisplayHidesThePassword) {
  EXPECT_EQ(redis_url_for_display("redis://alice:p%40ss@127.0.0.1:6379/2"), "redis://alice:***@127.0.0.1:6379/2");
  EXPECT_EQ(redis_url_for_display("redis://127.0.0.1:6379"), "redis://127.0.0.1:6379/");
  EXPECT_EQ(redis_url_for_display("redis://u:hunter2@h h"), "(not a URL, not shown)");
}

// The command line: exit 2 with one line; the settings file and variables are checked as the flag is.
TEST(RedisUrlCli, BadUrlsExitTwoWithOneLine) {
  TempDir tmp;
  struct Case {
    std::string url, error;
  } cases[] = {
      {"ftp://h:1", "imgaudit: --cache: \"ftp://\" is no Redis URL: give redis://[USER:PASSWORD@]HOST:PORT[/DB] or "
                    "rediss://... (see imgaudit --help)\n"},
      {"redis://", "imgaudit: --cache: the URL names no host (redis://[USER:PASSWORD@]HOST:PORT[/DB] or rediss://...) "
                   "(see imgaudit --help)\n"},
      {"redis://u:hunter2@h:port", "imgaudit: --cache: the URL's port is not a number from 1 to 65535 (see imgaudit --help)\n"},
      {"redis://h:6379/zero", "imgaudit: --cache: the database \"/zero\" is not a number (/0 is the first) (see imgaudit "
                              "--help)\n"},
  };
  for (const Case& c : cases) {
    CliRun r = imgaudit(tmp / "home", "--cache " + shell_quoted(c.url) + " oci:" + (tmp / "none"));
    EXPECT_EQ(r.status, 2) << c.url;
    EXPECT_EQ(r.err, c.error);
  }
  CliRun from_variable = imgaudit(tmp / "home", "oci:" + (tmp / "none"), "IMGAUDIT_CACHE=redis://h:1/x");
  EXPECT_EQ(from_variable.status, 2);
  EXPECT_EQ(from_variable.err,
            "imgaudit: --cache: the database \"/x\" is not a number (/0 is the first) (from IMGAUDIT_CACHE)\n");
}

TEST(RedisUrlCli, NoCacheAndCacheTogetherIsAnError) {
  TempDir tmp;
  CliRun r = imgaudit(tmp / "home", "--no-cache --cache redis://127.0.0.1:1 oci:" + (tmp / "none"));
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "imgaudit: --no-cache and --cache contradict each other: --no-cache reads and writes no cache, "
                   "--cache names one for the layer facts\n");
}

TEST(RedisUrlCli, BadTtlIsAnError) {
  TempDir tmp;
  for (const char* ttl : {"30", "1w", "0d", "3651d", "-5m"}) {
    CliRun r = imgaudit(tmp / "home", "--cache-ttl=" + std::string(ttl) + " oci:" + (tmp / "none"));
    EXPECT_EQ(r.status, 2) << ttl;
    EXPECT_EQ(r.err, "imgaudit: --cache-ttl: \"" + std::string(ttl) +
                         "\" is no duration: a whole number and a unit, s, m, h or d (30d, 12h, 90m, 3600s), up to "
                         "3650d (see imgaudit --help)\n");
  }
}

TEST(RedisUrlCli, ConfigNeverShowsThePassword) {
  TempDir tmp;
  CliRun r = imgaudit(tmp / "home", "--cache redis://alice:hunter2@127.0.0.1:6379/1 --cache-ttl 12h config");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\ncache: redis://alice:***@127.0.0.1:6379/1  # --cache\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\ncache-ttl: 12h  # --cache-ttl\n"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("hunter2"), std::string::npos);
  CliRun from_variable = imgaudit(tmp / "home", "config", "IMGAUDIT_CACHE=redis://:hunter2@127.0.0.1:6379");
  EXPECT_NE(from_variable.out.find("\ncache: redis://:***@127.0.0.1:6379/  # IMGAUDIT_CACHE\n"), std::string::npos)
      << from_variable.out;
}

}  // namespace
}  // namespace imgaudit::test
