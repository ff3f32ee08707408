// A crafted archive never makes imgaudit start a program: compressions libarchive decodes only through an
// external program (lrzip, lzop, grzip) are refused with one line, and programs named like every decoder,
// placed first on PATH, are never started: not for a docker-archive file, not for a stream on standard
// input, not for a layer blob, not by the writer's tool.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "image_fixture.h"

namespace imgaudit::test {
namespace {

// The start of each stream libarchive's bidders would give to an external program.
const std::pair<const char*, std::string> kExternalOnly[] = {
    {"lrzip", std::string("LRZI\x00\x06", 6) + std::string(64, '\x01')},
    {"lzop", std::string("\x89LZO\x00\r\n\x1a\n\x10\x30\x20\x80\x09\x40", 15) + std::string(64, '\x01')},
    {"grzip", std::string("GRZipII\x00\x02\x04:)", 12) + std::string(64, '\x01')},
};

// Every decoder libarchive knows of as a program.
const char* const kDecoderPrograms[] = {"lrzip", "lzop", "grzip", "lzip", "lz4", "zstd", "xz", "lzma", "gzip",
                                        "gunzip", "bzip2", "bunzip2", "compress", "uncompress", "uudecode", "lzcat"};

class ExternalDecoders : public ::testing::Test {
 protected:
  void SetUp() override {
    run("mkdir -p " + shell_quoted(tmp_ / "bin") + " " + shell_quoted(tmp_ / "started"));
    for (const char* name : kDecoderPrograms) {
      std::string path = tmp_ / ("bin/" + std::string(name));
      write_file(path, "#!/bin/sh\ntouch " + shell_quoted(tmp_ / ("started/" + std::string(name))) + "\ncat >/dev/null\nexit 1\n");
      std::filesystem::permissions(path, std::filesystem::perms::owner_all);
    }
  }
  // Runs `command` with the fake decoders first on PATH; expects exit status 2 and one line naming the input.
  void expect_refused_and_nothing_started(const std::string& command, const std::string& what) {
    std::string out;
    int status = run("PATH=" + shell_quoted(tmp_ / "bin") + ":\"$PATH\" " + command + " 2>" + shell_quoted(tmp_ / "err"),
                     &out);
    std::string err = read_file(tmp_ / "err");
    EXPECT_EQ(status, 2) << what << ": " << err;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << what << ": " << err;
    EXPECT_EQ(err.rfind("imgaudit: ", 0), 0u) << what << ": " << err;
    for (auto& started : std::filesystem::directory_iterator(tmp_ / "started"))
      ADD_FAILURE() << what << " started " << started.path().filename();
  }
  TempDir tmp_;
};

TEST_F(ExternalDecoders, ADockerArchiveFileOrStream) {
  for (const auto& [name, head] : kExternalOnly) {
    std::string archive = tmp_ / (std::string(name) + ".tar");
    write_file(archive, head);
    expect_refused_and_nothing_started(imgaudit_binary() + " docker-archive:" + shell_quoted(archive),
                                       std::string("docker-archive in ") + name);
    expect_refused_and_nothing_started(imgaudit_binary() + " - <" + shell_quoted(archive),
                                       std::string("a stream in ") + name);
  }
}

TEST_F(ExternalDecoders, ALayerBlob) {
  for (const auto& [name, head] : kExternalOnly) {
    ImageSpec spec = native_image();
    spec.layers.push_back({head, Compression::None, "COPY x /"});
    std::string ref = write_oci(tmp_, spec, name);
    expect_refused_and_nothing_started(imgaudit_binary() + " " + ref, std::string("a layer in ") + name);
  }
}

TEST_F(ExternalDecoders, TheWritersLayerTar) {
  for (const auto& [name, head] : kExternalOnly) {
    std::string tar = tmp_ / (std::string(name) + "-layer.tar");
    write_file(tar, head);
    std::string out;
    run("PATH=" + shell_quoted(tmp_ / "bin") + ":\"$PATH\" " + mkimage_binary() + " --format oci -o " +
            shell_quoted(tmp_ / (std::string(name) + "-out")) + " --layer-tar " + shell_quoted(tar + "::ADD x /") +
            " 2>&1",
        &out);
    for (auto& started : std::filesystem::directory_iterator(tmp_ / "started"))
      ADD_FAILURE() << "imgaudit-mkimage on " << name << " started " << started.path().filename() << ": " << out;
  }
}

}  // namespace
}  // namespace imgaudit::test
