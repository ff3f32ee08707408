// The rules that compare an image with its baseline image: --max-size-growth's limit, what grew, the
// libraries that are gone, and the layers, packages and libraries a JSON report gives back to compare with.
#include <gtest/gtest.h>

#include <memory>
#include <sstream>

#include "../report/report_fixture.h"
#include "baseline_refused.h"
#include "compare/baseline.h"
#include "compare/baseline_rules.h"
#include "compare/size_growth.h"
#include "util/error.h"
#include "util/limits.h"

namespace imgaudit {
// Named, not anonymous: the unity build compiles this file with baseline_test.cpp, whose helpers share names.
namespace baseline_rules_test {

constexpr uint64_t kMiB = uint64_t(1) << 20;

LayerInfo layer_info(int index, const std::string& diff_id, uint64_t bytes, const std::string& created_by) {
  LayerInfo l;
  l.index = index;
  l.digest = "sha256:blob-" + diff_id;
  l.diff_id = diff_id;
  l.compressed_size = bytes / 2;
  l.uncompressed_size = bytes;
  l.created_by = created_by;
  return l;
}

BinaryFacts library(const std::string& path, const std::string& soname) {
  auto elf = std::make_shared<ElfFacts>();
  elf->soname = soname;
  BinaryFacts b;
  b.path = path;
  b.elf = elf;
  return b;
}

// Alpine with a base layer and an app layer, three packages and three libraries (one of them a program).
ImageFacts earlier_facts() {
  ImageFacts f;
  f.distro.id = "alpine";
  f.distro.version_id = "3.20.3";
  f.image.layers = {layer_info(0, "sha256:base", 10 * kMiB, "/bin/sh -c #(nop) ADD file:rootfs in / "),
                    layer_info(1, "sha256:app-1", 1 * kMiB, "/bin/sh -c make install")};
  f.distro.packages = {{"apk", "musl", "1.2.5-r0", 600000}, {"apk", "zlib", "1.3.1-r1", 100000}, {"apk", "busybox", "1", 900000}};
  f.binaries = {library("lib/libz.so.1.3.1", "libz.so.1"), library("usr/lib/libfoo.so.2", "libfoo.so.2"),
                library("lib/libbar.so.1", "libbar.so.1"), library("usr/bin/app", "")};
  return f;
}

std::string json_of(const AuditReport& r) {
  std::ostringstream out;
  write_json(out, r);
  return out.str();
}

BaselineImage baseline_of(const ImageFacts& facts) {
  AuditReport r = test::sample_report();
  r.facts = facts;
  return Baseline::parse(json_of(r), "main.json").images().front();
}

TEST(SizeGrowthLimit, TakesAPercentageOrASize) {
  SizeGrowthLimit l = SizeGrowthLimit::parse("10%");
  EXPECT_TRUE(l.percent);
  EXPECT_EQ(l.amount, 10);
  EXPECT_FALSE(l.exceeded(100, 110));
  EXPECT_TRUE(l.exceeded(100, 111));
  EXPECT_FALSE(l.exceeded(100, 50)) << "shrinking is no growth";
  EXPECT_TRUE(l.exceeded(0, 1)) << "any growth from nothing is past a percentage";
  const std::vector<std::pair<std::string, double>> sizes = {
      {"1048576", 1048576}, {"50MiB", 50.0 * kMiB}, {"20MB", 20e6}, {"512k", 524288}, {"1.5GiB", 1.5 * 1024 * kMiB},
      {"3m", 3.0 * kMiB},   {"7b", 7},              {"0", 0}};
  for (const auto& [text, bytes] : sizes) {
    l = SizeGrowthLimit::parse(text);
    EXPECT_FALSE(l.percent) << text;
    EXPECT_EQ(l.amount, bytes) << text;
    EXPECT_EQ(l.text, text);
  }
  l = SizeGrowthLimit::parse("1MiB");
  EXPECT_FALSE(l.exceeded(5 * kMiB, 6 * kMiB));
  EXPECT_TRUE(l.exceeded(5 * kMiB, 6 * kMiB + 1));
}

TEST(SizeGrowthLimit, AnythingElseIsOneLine) {
  for (const std::string text : {"", "%", "-5%", "ten", "1e9", "inf", "nan", "5 MiB", "5XB", "1.2.3", ".5%", "5%%",
                                 "12\x1b[2J"}) {
    try {
      SizeGrowthLimit::parse(text);
      ADD_FAILURE() << "took " << text;
    } catch (const InputError& e) {
      const std::string said = e.what();
      EXPECT_EQ(said.rfind("--max-size-growth: \"", 0), 0u) << said;
      EXPECT_NE(said.find("neither a percentage"), std::string::npos) << said;
      EXPECT_EQ(said.find('\x1b'), std::string::npos) << "shown escaped: " << said;
    }
  }
}

TEST(Baseline, KeepsTheLayersPackagesAndLibrariesItCompares) {
  ImageFacts facts = earlier_facts();
  facts.binaries.push_back(library("usr/lib/evil\x1b[2J\xff.so", "libevil.so"));
  const BaselineImage image = baseline_of(facts);
  ASSERT_EQ(image.layers.size(), 2u);
  EXPECT_EQ(image.layers[1].diff_id, "sha256:app-1");
  EXPECT_EQ(image.layers[1].digest, "sha256:blob-sha256:app-1");
  EXPECT_EQ(image.layers[1].uncompressed_size, 1 * kMiB);
  EXPECT_EQ(image.layers[1].compressed_size, kMiB / 2);
  EXPECT_EQ(image.layers[1].created_by, "/bin/sh -c make install");
  ASSERT_EQ(image.packages.size(), 3u);
  EXPECT_EQ(image.packages[1].name, "zlib");
  EXPECT_EQ(image.packages[1].manager, "apk");
  EXPECT_EQ(image.packages[1].installed_size, 100000u);
  ASSERT_EQ(image.libraries.size(), 4u) << "a program without a soname is no library";
  EXPECT_EQ(image.libraries[0].path, "/lib/libz.so.1.3.1");
  EXPECT_EQ(image.libraries[0].soname, "libz.so.1");
  EXPECT_EQ(image.libraries[3].path, "/usr/lib/evil\x1b[2J\xff.so") << "a hostile name is read back as its bytes";
}

const auto expect_refused = test::expect_baseline_refused;

TEST(BaselineHostileInput, RecordsOfAnotherShapeAreOneLine) {
  const std::string findings = "\"findings\": [], ";
  expect_refused("{" + findings + "\"image\": {\"layers\": [\"x\"]}}", "a layer is a string, not an object");
  expect_refused("{" + findings + "\"image\": {\"layers\": [{\"uncompressed_size\": \"9\"}]}}",
                 "a layer's uncompressed_size is a string, not a count");
  expect_refused("{" + findings + "\"image\": {\"layers\": [{\"compressed_size\": -1}]}}",
                 "a layer's compressed_size is a negative number, not a count");
  expect_refused("{" + findings + "\"image\": {\"layers\": [{\"compressed_size\": 1.5}]}}",
                 "a layer's compressed_size is a fraction, not a count");
  expect_refused("{" + findings + "\"image\": {\"layers\": [{\"digest\": [\"a\"]}]}}",
                 "a layer's digest is a list, not a string");
  expect_refused("{" + findings + "\"distro\": {\"packages\": [{\"name\": {}}]}}",
                 "a package's name is an object, not a string");
  expect_refused("{" + findings + "\"binaries\": [{\"soname\": 7}]}", "a binary's soname is a number, not a string");
  expect_refused("{" + findings + "\"binaries\": [null]}", "a binary is null, not an object");
  // Members a record does not keep are read past, whatever they hold.
  const Baseline b = Baseline::parse("{" + findings + "\"binaries\": [{\"soname\": \"libz.so.1\", \"path\": \"/l\", "
                                     "\"needed\": [1, {}], \"size\": \"big\"}]}", "base.json");
  ASSERT_EQ(b.images().front().libraries.size(), 1u);
}

TEST(BaselineHostileInput, RecordsPastTheBoundAreRefusedNotKept) {
  std::string text = "{\"findings\": [], \"binaries\": [{\"soname\": \"a\"}";
  text.reserve(text.size() + 16 * kMaxBaselineRecords + 64);
  for (size_t i = 0; i < kMaxBaselineRecords; ++i) text += ",{\"soname\":\"a\"}";
  text += "]}";
  expect_refused(text, "more than " + std::to_string(kMaxBaselineRecords) +
                           " layers, packages and libraries (kMaxBaselineRecords)");
}

TEST(SizeGrowth, NamesTheLayersAndPackagesThatGrew) {
  const BaselineImage earlier = baseline_of(earlier_facts());
  ImageFacts now = earlier_facts();
  // The app layer rebuilt larger, a new layer of build tools, and zlib grown.
  now.image.layers[1] = layer_info(1, "sha256:app-2", 2 * kMiB, "/bin/sh -c make install");
  now.image.layers.push_back(layer_info(2, "sha256:tools", 5 * kMiB, "/bin/sh -c apk add gcc"));
  now.distro.packages[1].installed_size = 150000;
  now.distro.packages.push_back({"apk", "gcc", "13.2.1", 4 * kMiB});
  const SizeGrowth g = size_growth(now, earlier);
  EXPECT_EQ(g.before, 11 * kMiB);
  EXPECT_EQ(g.after, 17 * kMiB);
  EXPECT_EQ(g.compressed_before, 11 * kMiB / 2);
  ASSERT_EQ(g.layers.size(), 2u);
  EXPECT_EQ(g.layers[0].index, 2);
  EXPECT_EQ(g.layers[0].bytes, 5 * kMiB);
  EXPECT_EQ(g.layers[1].index, 1);
  EXPECT_EQ(g.layers[1].bytes, 1 * kMiB) << "what the rebuilt layer adds to the one it replaced";
  ASSERT_EQ(g.packages.size(), 2u);
  EXPECT_EQ(g.packages[0].name, "gcc");
  EXPECT_TRUE(g.packages[0].added);
  EXPECT_EQ(g.packages[1].name, "zlib");
  EXPECT_EQ(g.packages[1].bytes, 50000u);
  EXPECT_FALSE(g.packages[1].added);
}

TEST(BaselineFindings, GrowthPastTheLimitIsAnErrorAtTheLayerThatGrewMost) {
  const BaselineImage earlier = baseline_of(earlier_facts());
  ImageFacts now = earlier_facts();
  now.image.layers.push_back(layer_info(2, "sha256:tools", 5 * kMiB, "/bin/sh -c apk add gcc"));
  now.distro.packages.push_back({"apk", "gcc", "13.2.1", 4 * kMiB});
  EXPECT_TRUE(baseline_findings(now, earlier, "main.json", SizeGrowthLimit::parse("50%")).empty()) << "+45% is within";
  EXPECT_TRUE(baseline_findings(now, earlier, "main.json", std::nullopt).empty()) << "no limit, no size gate";
  const std::vector<Finding> found = baseline_findings(now, earlier, "main.json", SizeGrowthLimit::parse("10%"));
  ASSERT_EQ(found.size(), 1u);
  const Finding& f = found.front();
  EXPECT_EQ(f.id, "size-growth");
  EXPECT_EQ(f.severity, Severity::Error);
  EXPECT_EQ(f.origin, FindingOrigin::Layer);
  EXPECT_EQ(f.layer, 2);
  EXPECT_EQ(f.message,
            "The image grew by 5.0 MiB (+45.5%), from 11.0 MiB to 16.0 MiB (5.5 MiB to 8.0 MiB compressed), more than "
            "--max-size-growth 10% allows against main.json; the layers that grew: layer 2, +5.0 MiB: 'apk add gcc'; "
            "the packages that grew: gcc +4.0 MiB (new).");
  EXPECT_NE(f.advice.find("apk add --no-cache"), std::string::npos) << f.advice;
}

TEST(BaselineFindings, ARootfsFolderHasNoLayersToMeasure) {
  const BaselineImage earlier = baseline_of(earlier_facts());
  ImageFacts folder = earlier_facts();
  folder.image.from_folder = true;
  folder.image.layers.clear();
  EXPECT_THROW(baseline_findings(folder, earlier, "main.json", SizeGrowthLimit::parse("1%")), InputError);
  EXPECT_NO_THROW(baseline_findings(folder, earlier, "main.json", std::nullopt)) << "libraries compare all the same";
}

TEST(BaselineFindings, ALibraryWithNoFileOfItsSonameOrPathIsLost) {
  const BaselineImage earlier = baseline_of(earlier_facts());
  ImageFacts now = earlier_facts();
  now.binaries = {library("lib/libfoo.so.2.0", "libfoo.so.2"), library("usr/bin/app", "")};  // moved, still there
  now.unreadable_elves.push_back({"lib/libbar.so.1", 0, 10, "section header table past end of file", std::nullopt});
  const std::vector<Finding> found = baseline_findings(now, earlier, "main.json", std::nullopt);
  ASSERT_EQ(found.size(), 1u);
  const Finding& f = found.front();
  EXPECT_EQ(f.id, "lost-library");
  EXPECT_EQ(f.severity, Severity::Warning);
  EXPECT_EQ(f.paths, (std::vector<std::string>{"/lib/libz.so.1.3.1"}));
  EXPECT_EQ(f.message, "1 shared librar(y/ies) of the baseline image (main.json) are gone from this one: libz.so.1. "
                       "A program that loads one when it runs fails there.");
  EXPECT_NE(f.advice.find("apk add --no-cache so:libz.so.1 "), std::string::npos) << f.advice;
  EXPECT_TRUE(baseline_findings(earlier_facts(), earlier, "main.json", std::nullopt).empty()) << "the same image";
}

TEST(ApplyBaseline, AComparingFindingIsAlwaysNewAndNeverFixed) {
  AuditReport earlier_report = test::sample_report();
  earlier_report.findings.push_back(test::make_finding("size-growth", Severity::Error, {}, -1, "", "grew", ""));
  earlier_report.findings.push_back(test::make_finding("lost-library", Severity::Warning, {"/lib/a.so"}, -1, "", "", ""));
  const Baseline b = Baseline::parse(json_of(earlier_report), "base.json");
  AuditReport now = test::sample_report();
  now.findings.push_back(test::make_finding("size-growth", Severity::Error, {}, -1, "", "grew again", ""));
  apply_baseline(now, &b.images().front(), "base.json");
  EXPECT_EQ(now.findings.back().baseline, BaselineState::New) << "growth against this baseline, whatever the last had";
  ASSERT_TRUE(now.baseline);
  for (const Finding& f : now.baseline->fixed) EXPECT_NE(f.id, "lost-library") << "no library came back";
}

}  // namespace baseline_rules_test
}  // namespace imgaudit
