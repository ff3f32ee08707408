#include <gtest/gtest.h>

#include "util/paths.h"
#include "util/sha256.h"

using namespace imgaudit;

TEST(Paths, NormalisesTarNames) {
  EXPECT_EQ(normalize_entry_path("./usr//bin/"), "usr/bin");
  EXPECT_EQ(normalize_entry_path("/etc/passwd"), "etc/passwd");
  EXPECT_EQ(normalize_entry_path("a/./b/../c"), "a/c");
  EXPECT_EQ(normalize_entry_path("."), "");
  EXPECT_EQ(normalize_entry_path("../etc/shadow"), std::nullopt);
  EXPECT_EQ(normalize_entry_path("a/../../x"), std::nullopt);
}

TEST(Paths, JoinsInsideTheImageWithTheRootAsFloor) {
  EXPECT_EQ(join_in_image("usr/lib", "../../../../etc/x"), "etc/x");
  EXPECT_EQ(join_in_image("usr/lib", "/lib/ld.so"), "lib/ld.so");
  EXPECT_EQ(join_in_image("usr/lib", "libc.so"), "usr/lib/libc.so");
  EXPECT_EQ(parent_dir("usr/bin/env"), "usr/bin");
  EXPECT_EQ(parent_dir("env"), "");
  EXPECT_EQ(base_name("usr/bin/env"), "env");
  EXPECT_TRUE(is_within("usr/bin/env", "usr"));
  EXPECT_FALSE(is_within("usrx/bin", "usr"));
  EXPECT_TRUE(is_within("anything", ""));
}

TEST(Sha256, KnownVectors) {
  EXPECT_EQ(Sha256::of(""), "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Sha256::of("abc"), "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_TRUE(is_sha256_digest(Sha256::of("x")));
  EXPECT_FALSE(is_sha256_digest("sha256:XYZ"));
}

#include "util/strings.h"

TEST(Strings, SplitTrimAndLines) {
  EXPECT_EQ(split("dir::gzip::RUN a::b", "::"), (std::vector<std::string>{"dir", "gzip", "RUN a", "b"}));
  EXPECT_EQ(split("linux/arm64", "/"), (std::vector<std::string>{"linux", "arm64"}));
  EXPECT_EQ(split("", "/"), (std::vector<std::string>{""}));
  EXPECT_EQ(trim(" \tx y \t"), "x y");
  std::vector<std::string> lines;
  for_each_line("a\r\nb\n\nc", [&](std::string_view l) { lines.emplace_back(l); });
  EXPECT_EQ(lines, (std::vector<std::string>{"a", "b", "", "c"}));
  lines.clear();
  for_each_line("head\n\nbody", [&](std::string_view l) {
    if (l.empty()) return false;
    lines.emplace_back(l);
    return true;
  });
  EXPECT_EQ(lines, (std::vector<std::string>{"head"}));
}
