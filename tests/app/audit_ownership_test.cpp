// Who owns what in a run: each AuditSession its own HTTP session and registry pings, and each report all it
// holds, so that it outlives the Audit that made it and a fleet's visit keeps its reports after the run.
#include <gtest/gtest.h>

#include <mutex>
#include <optional>

#include <nlohmann/json.hpp>

#include "app/audit.h"
#include "app/fleet.h"
#include "native_target.h"
#include "test_support.h"
#include "writer/image_writer.h"

namespace imgaudit {
namespace {

using test::TempDir;

TEST(AuditSession, EachRunHasItsOwnConnectionsAndPings) {
  AuditOptions options;
  options.use_cache = false;
  const AuditSession one(options), other(options);
  ASSERT_TRUE(one.registry().http.session && one.registry().pings);
  EXPECT_EQ(one.engine().http.session, one.registry().http.session) << "the registry and the engine share a run's";
  EXPECT_NE(one.registry().http.session, other.registry().http.session);
  EXPECT_NE(one.registry().pings, other.registry().pings);
}

// This machine's glibc, its loader and a program compiled here, as an OCI layout at `dir` (tag "app"): an
// image of three ELF files.
std::string glibc_layout(const TempDir& tmp, const std::string& dir) {
  const test::NativeTarget& native = test::native_target();
  EXPECT_TRUE(test::compile_c("gcc", test::kHelloC, tmp / "hello"));
  ImageSpec spec;
  spec.platform = native.platform();
  std::vector<TarEntrySpec> files = {
      TarEntrySpec::file(native.glibc_libc_path, test::read_file(native.glibc_libc_file), 0755),
      TarEntrySpec::file(native.glibc_loader_path, test::read_file(native.glibc_loader_file), 0755),
      TarEntrySpec::file("usr/bin/hello", test::read_file(tmp / "hello"), 0755)};
  spec.layers.push_back({make_layer_blob(files, Compression::Gzip), Compression::Gzip, "COPY . /"});
  spec.tag = "app";
  write_oci_layout(spec, dir);
  return "oci:" + dir + ":app";
}

AuditOptions options_for(const std::string& image) {
  AuditOptions options;
  options.image = image;
  options.jobs = 1;
  options.use_cache = false;
  return options;
}

// Memory freed before is written over, so that facts still pointing into it would read something else.
std::vector<std::string> heap_churn() {
  std::vector<std::string> churn;
  for (size_t i = 0; i < 20000; ++i) churn.emplace_back(16 + i % 600, char('a' + i % 26));
  return churn;
}

void expect_elf_facts_of_every_binary(const AuditReport& report) {
  EXPECT_EQ(report.facts.binaries.size(), 3u);
  for (const BinaryFacts& b : report.facts.binaries) {
    ASSERT_TRUE(b.elf) << b.path;
    EXPECT_EQ(b.elf->machine, test::native_target().machine) << b.path;
  }
}

TEST(AuditReport, OutlivesItsAudit) {
  TempDir tmp;
  const std::string image = glibc_layout(tmp, tmp / "layout");
  std::optional<Audit> audit;
  audit.emplace(options_for(image));
  const AuditReport copied = audit->report();
  const nlohmann::json facts = copied.facts;
  audit.reset();
  const std::vector<std::string> churn = heap_churn();
  expect_elf_facts_of_every_binary(copied);
  EXPECT_EQ(nlohmann::json(copied.facts), facts) << "the facts read the same after their Audit went";

  const AuditReport taken = Audit(options_for(image)).report();
  expect_elf_facts_of_every_binary(taken);
  EXPECT_EQ(nlohmann::json(taken.facts), facts);
}

// One image named twice: each visit gets a report of its own, which it keeps after the run is over.
TEST(AuditReport, AFleetVisitKeepsItsReports) {
  TempDir tmp;
  const std::string image = glibc_layout(tmp, tmp / "layout");
  std::mutex mutex;
  std::vector<std::optional<AuditReport>> kept(2);
  {
    const AuditSession session(options_for(""));
    FleetStats stats =
        audit_fleet(session, {image, image}, std::nullopt,
                    [&](const FleetImage& name, std::optional<AuditReport> report, const std::string& error) {
                      EXPECT_EQ(error, "");
                      std::lock_guard<std::mutex> lock(mutex);
                      kept[name.index] = std::move(report);
                    });
    EXPECT_EQ(stats.distinct, 1u);
  }
  const std::vector<std::string> churn = heap_churn();
  for (const std::optional<AuditReport>& report : kept) {
    ASSERT_TRUE(report);
    expect_elf_facts_of_every_binary(*report);
  }
  EXPECT_EQ(nlohmann::json(kept[0]->facts), nlohmann::json(kept[1]->facts));
  EXPECT_NE(&kept[0]->facts.binaries, &kept[1]->facts.binaries);
}

}  // namespace
}  // namespace imgaudit
