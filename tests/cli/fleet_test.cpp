// Many images in one run: one report with a part an image, shared layers read once, the worst exit status.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>

#include "image_fixture.h"
#include "util/strings.h"

namespace imgaudit::test {
namespace {

LayerBlob base_layer() {
  return layer({file("etc/os-release", "ID=testbase\nVERSION_ID=1\n", 0644)}, "ADD base.tar /");
}

// An image on the shared base layer with one layer of its own.
ImageSpec on_base(const std::string& name) {
  ImageSpec spec = native_image();
  spec.layers = {base_layer(), layer({file("srv/" + name, name + "\n", 0644)}, "COPY " + name + " /srv/")};
  spec.tag = name;
  return spec;
}

std::vector<std::string> names_in(const nlohmann::json& report) {
  std::vector<std::string> names;
  for (const auto& image : report["images"]) names.push_back(image["name"]);
  return names;
}

TEST(Fleet, EachImageHasItsPartInTheOrderGivenAndSharedLayersAreReadOnce) {
  TempDir tmp;
  std::vector<std::string> refs;
  for (const char* name : {"c", "a", "b"}) refs.push_back(write_oci(tmp, on_base(name), name));
  auto r = run_imgaudit("--no-cache --format json --fail-on never " + join(refs, " "));
  ASSERT_EQ(r.status, 0) << r.err;
  nlohmann::json j = r.json();
  EXPECT_EQ(names_in(j), refs);
  for (const auto& image : j["images"]) {
    EXPECT_EQ(image["schema_version"], 1);
    EXPECT_EQ(image["image"]["layers"].size(), 2u) << image["name"];
  }
  // The base once, and one layer of each image.
  EXPECT_EQ(j["summary"]["layers_read"], 4);
  EXPECT_EQ(j["summary"]["layers_shared"], 2);
  EXPECT_EQ(j["summary"]["images"], 3);
  EXPECT_EQ(j["summary"]["distinct"], 3);
}

// A second run over the same cache folder reads no layer: the summary says where the facts came from.
TEST(Fleet, TheSummarySaysWhichLayersTheCacheHeld) {
  TempDir tmp;
  std::vector<std::string> refs;
  for (const char* name : {"a", "b", "c"}) refs.push_back(write_oci(tmp, on_base(name), name));
  const std::string run = "--cache-dir " + tmp / "cache" + " --fail-on never " + join(refs, " ");
  auto first = run_imgaudit("--format json " + run);
  ASSERT_EQ(first.status, 0) << first.err;
  EXPECT_EQ(first.json()["summary"]["layers_read"], 4);
  EXPECT_EQ(first.json()["summary"]["layers_cached"], 0);
  auto second = run_imgaudit("--format json " + run);
  ASSERT_EQ(second.status, 0) << second.err;
  EXPECT_EQ(second.json()["summary"]["layers_read"], 0);
  EXPECT_EQ(second.json()["summary"]["layers_cached"], 4) << "the base once, and each image's own layer";
  EXPECT_EQ(second.json()["summary"]["layers_shared"], 2);
  auto text = run_imgaudit(run);
  EXPECT_NE(text.out.find("3 images; 0 layers read, 2 taken from another image of the run, 4 found in the cache\n"),
            std::string::npos)
      << text.out;
}

TEST(Fleet, OneImageKeepsTheDocumentOfOne) {
  TempDir tmp;
  auto r = run_imgaudit("--no-cache --format json --fail-on never " + write_oci(tmp, on_base("a"), "a"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(r.json().contains("images"));
  EXPECT_EQ(r.json()["schema_version"], 1);
}

TEST(Fleet, AnImageThatCannotBeReadDoesNotStopTheOthers) {
  TempDir tmp;
  std::string a = write_oci(tmp, on_base("a"), "a"), b = write_oci(tmp, on_base("b"), "b");
  std::string missing = tmp / "missing";
  auto r = run_imgaudit("--no-cache --format json --fail-on never " + a + " " + missing + " " + b);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "imgaudit: " + missing + ": no such file or directory\n"
                   "imgaudit: exit status 2: 1 of 3 images could not be read\n");
  nlohmann::json j = r.json();
  ASSERT_EQ(names_in(j), (std::vector<std::string>{a, missing, b}));
  EXPECT_EQ(j["images"][1], (nlohmann::json{{"name", missing}, {"error", missing + ": no such file or directory"}}));
  EXPECT_TRUE(j["images"][0].contains("findings"));
  EXPECT_TRUE(j["images"][2].contains("findings"));
  EXPECT_EQ(j["summary"]["unreadable"], 1);

  auto text = run_imgaudit("--no-cache --fail-on never " + a + " " + missing + " " + b);
  EXPECT_EQ(text.status, 2);
  EXPECT_NE(text.out.find("=== " + missing + " ===\ncannot be read: " + missing + ": no such file or directory\n"),
            std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("=== summary ===\n"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find(missing + "  cannot be read\n"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("3 images, 1 could not be read; 3 layers read, 1 taken from another image of the run\n"),
            std::string::npos)
      << text.out;
}

TEST(Fleet, TheSameImageUnderTwoNamesIsAuditedOnceAndReportedUnderEach) {
  TempDir tmp;
  ImageSpec spec = on_base("a");
  spec.tag = "one";
  write_oci_layout(spec, tmp / "layout");
  spec.tag = "two";
  write_oci_layout(spec, tmp / "layout");
  std::string one = "oci:" + tmp / "layout" + ":one", two = "oci:" + tmp / "layout" + ":two";
  auto r = run_imgaudit("--no-cache --format json --fail-on never " + one + " " + two + " " + one);
  ASSERT_EQ(r.status, 0) << r.err;
  nlohmann::json j = r.json();
  EXPECT_EQ(names_in(j), (std::vector<std::string>{one, two}));  // a name given twice is one name
  EXPECT_EQ(j["images"][0]["findings"], j["images"][1]["findings"]);
  EXPECT_EQ(j["summary"]["images"], 2);
  EXPECT_EQ(j["summary"]["distinct"], 1);
  EXPECT_EQ(j["summary"]["layers_read"], 2);
}

TEST(Fleet, ExitStatusIsTheWorstOfTheImages) {
  TempDir tmp;
  ImageSpec rooted = on_base("a");  // runs as root: a warning
  ImageSpec user = on_base("b");
  user.user = "1000";
  std::string a = write_oci(tmp, rooted, "a"), b = write_oci(tmp, user, "b");
  auto clean = run_imgaudit("--no-cache -q --fail-on error " + a + " " + b);
  EXPECT_EQ(clean.status, 0) << clean.err;
  auto warned = run_imgaudit("--no-cache -q --fail-on warning " + b + " " + a);
  EXPECT_EQ(warned.status, 1) << warned.err;
  EXPECT_TRUE(ends_with(warned.err, " at or above --fail-on warning\n")) << warned.err;
  auto broken = run_imgaudit("--no-cache -q --fail-on warning " + a + " " + tmp / "missing");
  EXPECT_EQ(broken.status, 2) << broken.err;
}

TEST(Fleet, ImagesFromAFileOrStandardInput) {
  TempDir tmp;
  std::string a = write_oci(tmp, on_base("a"), "a"), b = write_oci(tmp, on_base("b"), "b");
  write_file(tmp / "list", "# the fleet\n\n  " + a + "  \n\t# b is next\n" + b + "\r\n" + a + "\n");
  auto r = run_imgaudit("--no-cache --format json --fail-on never --images-from " + tmp / "list");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(names_in(r.json()), (std::vector<std::string>{a, b}));
  auto piped = run_imgaudit("--no-cache --format json --fail-on never --images-from - " + b + " < " + tmp / "list");
  ASSERT_EQ(piped.status, 0) << piped.err;
  EXPECT_EQ(names_in(piped.json()), (std::vector<std::string>{b, a}));  // the arguments first
}

TEST(Fleet, BadImageListsAreOneLineErrors) {
  TempDir tmp;
  write_file(tmp / "control", "oci:x\n\noci:a\x01" "b\n");
  auto control = run_imgaudit("--images-from " + tmp / "control");
  EXPECT_EQ(control.status, 2);
  EXPECT_EQ(control.err, "imgaudit: " + tmp / "control" + ":3: a control character in \"oci:a\\x01b\"\n");
  write_file(tmp / "long", std::string(5000, 'a') + "\n");
  auto long_line = run_imgaudit("--images-from " + tmp / "long");
  EXPECT_EQ(long_line.err, "imgaudit: " + tmp / "long" + ":1: a line longer than 4096 bytes\n");
  auto missing = run_imgaudit("--images-from " + tmp / "nothing");
  EXPECT_EQ(missing.err, "imgaudit: " + tmp / "nothing" + ": cannot read the image list (--images-from)\n");
  write_file(tmp / "empty", "# nothing yet\n");
  auto empty = run_imgaudit("--images-from " + tmp / "empty");
  EXPECT_EQ(empty.status, 2);
  EXPECT_EQ(empty.err, "imgaudit: no image to audit: " + tmp / "empty" + " lists none\n");
  auto both = run_imgaudit("--username u --password-stdin --images-from - < /dev/null");
  EXPECT_EQ(both.err, "imgaudit: --password-stdin and --images-from - would both read standard input\n");
}

TEST(Fleet, ShardsCoverEveryImageOnceAndStayTheSame) {
  TempDir tmp;
  std::vector<std::string> refs;
  for (int i = 0; i < 9; ++i) refs.push_back(write_oci(tmp, on_base("s" + std::to_string(i)), "s" + std::to_string(i)));
  refs.push_back(tmp / "missing");  // an unreadable image falls in one shard too, by its name
  std::multiset<std::string> seen;
  std::vector<std::vector<std::string>> shards;
  for (int k = 1; k <= 3; ++k) {
    auto r = run_imgaudit("--no-cache --format json --fail-on never --shard " + std::to_string(k) + "/3 " + join(refs, " "));
    ASSERT_TRUE(r.status == 0 || r.status == 2) << r.err;
    shards.push_back(names_in(r.json()));
    seen.insert(shards.back().begin(), shards.back().end());
  }
  EXPECT_EQ(seen, std::multiset<std::string>(refs.begin(), refs.end()));
  EXPECT_GT(shards[0].size() * shards[1].size() * shards[2].size(), 0u) << "nine images, none in some shard";
  auto again = run_imgaudit("--no-cache --format json --fail-on never --shard 2/3 " + join(refs, " "));
  EXPECT_EQ(names_in(again.json()), shards[1]);
  // As a Kubernetes Indexed Job's pod of index 1 is given it: $(JOB_COMPLETION_INDEX)+1/3, expanded.
  auto from_index = run_imgaudit("--no-cache --format json --fail-on never --shard 1+1/3 " + join(refs, " "));
  EXPECT_EQ(names_in(from_index.json()), shards[1]);
  // In the order given, whatever the shard.
  std::vector<std::string> in_order = shards[1];
  std::sort(in_order.begin(), in_order.end(), [&](const std::string& x, const std::string& y) {
    return std::find(refs.begin(), refs.end(), x) < std::find(refs.begin(), refs.end(), y);
  });
  EXPECT_EQ(shards[1], in_order);
}

TEST(Fleet, BadShardsAreOneLineErrors) {
  for (auto [shard, why] : std::vector<std::pair<std::string, std::string>>{
           {"0/3", "K is 1 to N (a Job's JOB_COMPLETION_INDEX counts from 0: write $(JOB_COMPLETION_INDEX)+1/N)"},
           {"4/3", "K is 1 to N (a Job's JOB_COMPLETION_INDEX counts from 0: write $(JOB_COMPLETION_INDEX)+1/N)"},
           {"3+1/3", "K is 1 to N (a Job's JOB_COMPLETION_INDEX counts from 0: write $(JOB_COMPLETION_INDEX)+1/N)"},
           {"1/0", "N is 1 to 100000"},
           {"2", "not K/N or I+1/N (the K-th of N shards, as in 2/3 or 1+1/3)"},
           {"a/b", "not K/N or I+1/N (the K-th of N shards, as in 2/3 or 1+1/3)"},
           {"+1/3", "not K/N or I+1/N (the K-th of N shards, as in 2/3 or 1+1/3)"},
           {"1+2/3", "not K/N or I+1/N (the K-th of N shards, as in 2/3 or 1+1/3)"},
           {"$(JOB_COMPLETION_INDEX)+1/3", "not K/N or I+1/N (the K-th of N shards, as in 2/3 or 1+1/3)"},
           {"99999999999999999999+1/3", "not K/N or I+1/N (the K-th of N shards, as in 2/3 or 1+1/3)"},
           {"-1/3", "not K/N or I+1/N (the K-th of N shards, as in 2/3 or 1+1/3)"}}) {
    auto r = run_imgaudit("--shard '" + shard + "' oci:/nonexistent");
    EXPECT_EQ(r.status, 2) << shard;
    EXPECT_EQ(r.err, "imgaudit: --shard " + shard + ": " + why + "\n");
  }
}

TEST(Fleet, ADockerfileIsOneImages) {
  auto r = run_imgaudit("--dockerfile Dockerfile oci:/a oci:/b");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "imgaudit: --dockerfile is the Dockerfile of one image: audit that image on its own\n");
}

// The CI formats: each image's results in the one SARIF run, a JUnit suite and Code Quality issues of each
// image, none mistaken for another's.
TEST(Fleet, CiFormatsHaveAPartEachImage) {
  TempDir tmp;
  std::string a = write_oci(tmp, on_base("a"), "a"), b = write_oci(tmp, on_base("b"), "b");
  std::string missing = tmp / "missing";
  auto r = run_imgaudit("--no-cache --fail-on never --format sarif -o junit=" + tmp / "junit.xml" + " -o codequality=" +
                        tmp / "cq.json " + a + " " + b + " " + missing);
  EXPECT_EQ(r.status, 2) << r.err;
  nlohmann::json sarif = r.json();
  ASSERT_EQ(sarif["runs"].size(), 1u) << "GitHub takes at most 20 runs a file";
  const nlohmann::json& run = sarif["runs"][0];
  EXPECT_EQ(run["automationDetails"]["id"], "imgaudit/");
  ASSERT_EQ(run["properties"]["images"].size(), 3u);
  EXPECT_EQ(run["properties"]["images"][0]["name"], a);
  EXPECT_EQ(run["properties"]["images"][2]["name"], missing);
  std::map<std::string, size_t> results_of;
  std::set<std::string> result_fingerprints;
  for (const auto& result : run["results"]) {
    const std::string image = result["properties"]["image"];
    ++results_of[image];
    EXPECT_TRUE(starts_with(result["message"]["text"].get<std::string>(), image + ": ")) << result.dump();
    for (const auto& location : result["locations"]) EXPECT_EQ(location["properties"]["image"], image);
    result_fingerprints.insert(result["partialFingerprints"].begin().value().get<std::string>());
  }
  EXPECT_GT(results_of[a], 0u);
  EXPECT_EQ(results_of[a], results_of[b]);
  EXPECT_EQ(results_of.count(missing), 0u);
  EXPECT_EQ(result_fingerprints.size(), run["results"].size()) << "the same finding of two images is two results";
  ASSERT_EQ(run["invocations"].size(), 1u);
  EXPECT_EQ(run["invocations"][0]["executionSuccessful"], false);
  EXPECT_EQ(run["invocations"][0]["toolExecutionNotifications"][0]["message"]["text"],
            missing + ": no such file or directory");
  if (std::filesystem::exists(SARIF_SCHEMA)) {
    write_file(tmp / "r.sarif", r.out);
    EXPECT_EQ(schema_verdict(SARIF_SCHEMA, tmp / "r.sarif"), "valid");
  }

  std::string junit = read_file(tmp / "junit.xml");
  EXPECT_NE(junit.find("<testsuite name=\"imgaudit: " + a + "\""), std::string::npos) << junit;
  EXPECT_NE(junit.find("<testsuite name=\"imgaudit: " + b + "\""), std::string::npos) << junit;
  EXPECT_NE(junit.find("<testsuite name=\"imgaudit: " + missing + "\" tests=\"1\" failures=\"0\" errors=\"1\""),
            std::string::npos)
      << junit;
  EXPECT_NE(junit.find("<error message=\"" + missing + ": no such file or directory\"/>"), std::string::npos) << junit;

  nlohmann::json cq = nlohmann::json::parse(read_file(tmp / "cq.json"));
  std::set<std::string> fingerprints;
  size_t of_a = 0, of_b = 0;
  for (const auto& issue : cq) {
    fingerprints.insert(issue["fingerprint"].get<std::string>());
    std::string d = issue["description"];
    of_a += starts_with(d, a + ": ");
    of_b += starts_with(d, b + ": ");
  }
  EXPECT_EQ(fingerprints.size(), cq.size());  // GitLab keeps one issue a fingerprint
  EXPECT_GT(of_a, 0u);
  EXPECT_EQ(of_a, of_b);
  EXPECT_EQ(of_a + of_b, cq.size());
}

// Markdown of several images, as GitHub renders it: a table of their counts, then a section each.
TEST(Fleet, MarkdownHasACountsTableAndASectionEachImage) {
  if (!have_tool("cmark-gfm")) GTEST_SKIP() << "cmark-gfm renders the Markdown (packaging/install-deps.sh --tests)";
  TempDir tmp;
  std::string a = write_oci(tmp, on_base("a"), "a"), b = write_oci(tmp, on_base("b"), "b");
  std::string missing = tmp / "missing";
  auto r = run_imgaudit("--no-cache --fail-on never --format markdown " + a + " " + b + " " + missing);
  EXPECT_EQ(r.status, 2) << r.err;
  write_file(tmp / "r.md", r.out);
  std::string html;
  ASSERT_EQ(run("cmark-gfm -e table " + shell_quoted(tmp / "r.md"), &html), 0);
  EXPECT_NE(html.find("<h2>imgaudit: 3 images</h2>"), std::string::npos) << html;
  for (const std::string& image : {a, b}) {
    EXPECT_NE(html.find("<td>" + image + "</td>"), std::string::npos) << "a row of counts: " << image << "\n" << html;
    EXPECT_NE(html.find("<h3>" + image + "</h3>"), std::string::npos) << "a section: " << image;
  }
  EXPECT_NE(html.find("<td>" + missing + "</td>\n<td>cannot be read</td>"), std::string::npos) << html;
  EXPECT_NE(html.find("cannot be read: " + missing + ": no such file or directory"), std::string::npos) << html;
}

}  // namespace
}  // namespace imgaudit::test

namespace {

// GitHub takes at most 20 runs a SARIF file: 21 images are one run, each image's results its own and
// kept apart by their fingerprints, the file valid against the schema.
TEST(Fleet, SarifOfMoreImagesThanGitHubTakesRunsIsOneRun) {
  TempDir tmp;
  std::vector<std::string> refs;
  for (int i = 0; i < 21; ++i) refs.push_back(write_oci(tmp, on_base("i" + std::to_string(i)), "i" + std::to_string(i)));
  auto r = run_imgaudit("--no-cache --fail-on never --format sarif " + join(refs, " "));
  ASSERT_EQ(r.status, 0) << r.err;
  nlohmann::json sarif = r.json();
  ASSERT_EQ(sarif["runs"].size(), 1u);
  const nlohmann::json& run = sarif["runs"][0];
  ASSERT_EQ(run["properties"]["images"].size(), refs.size());
  std::set<std::string> images, fingerprints;
  for (const auto& result : run["results"]) {
    images.insert(result["properties"]["image"].get<std::string>());
    fingerprints.insert(result["partialFingerprints"].begin().value().get<std::string>());
  }
  EXPECT_EQ(images, std::set<std::string>(refs.begin(), refs.end()));
  EXPECT_EQ(fingerprints.size(), run["results"].size());
  if (std::filesystem::exists(SARIF_SCHEMA)) {
    write_file(tmp / "r.sarif", r.out);
    EXPECT_EQ(schema_verdict(SARIF_SCHEMA, tmp / "r.sarif"), "valid");
  }
}

}  // namespace
