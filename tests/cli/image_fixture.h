#pragma once
// Builds test images with the project's writer and runs the imgaudit binary on them.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "test_support.h"
#include "writer/image_writer.h"

namespace imgaudit::test {

struct CliResult {
  int status = -1;
  std::string out;  // stdout
  std::string err;  // stderr
  nlohmann::json json() const { return nlohmann::json::parse(out); }
};

// Runs imgaudit with `args` (already shell-quoted as needed).
CliResult run_imgaudit(const std::string& args);
// The same, from the folder `dir`.
CliResult run_imgaudit_in(const std::string& dir, const std::string& args);

// A layer holding the given entries.
LayerBlob layer(std::vector<TarEntrySpec> entries, const std::string& created_by,
                Compression c = Compression::Gzip);
TarEntrySpec file(const std::string& path, const std::string& content, uint32_t mode = 0755);
TarEntrySpec symlink_entry(const std::string& path, const std::string& target);
TarEntrySpec dir(const std::string& path);

// The real Alpine minirootfs as a base layer; empty bytes when absent.
LayerBlob alpine_base(const std::string& arch = "x86_64");

// Compiles `source` and returns the binary's bytes.
std::string compiled(const TempDir& tmp, const std::string& compiler, const std::string& source,
                     const std::string& flags = "");

// All findings with this id in a JSON report.
std::vector<nlohmann::json> findings(const nlohmann::json& report, const std::string& id);
std::vector<nlohmann::json> errors(const nlohmann::json& report);  // findings of severity error
const nlohmann::json* binary(const nlohmann::json& report, const std::string& path);

}  // namespace imgaudit::test

#define SKIP_WITHOUT_ALPINE()                                                                  \
  if (::imgaudit::test::alpine_minirootfs("x86_64").empty())                                   \
  GTEST_SKIP() << "../shared/rootfs/alpine-minirootfs-3.20.3-x86_64.tar.gz is not beside the " \
                  "project: the Alpine base-layer tests need it"
