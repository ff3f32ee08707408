// --dockerfile points findings at lines, in text, JSON and SARIF; compare puts two images side by side.
#include <gtest/gtest.h>

#include <filesystem>

#include "image_fixture.h"

using namespace imgaudit;
using namespace imgaudit::test;


TEST(Review, FindingsPointAtDockerfileLines) {
  SKIP_WITHOUT_ALPINE();
  TempDir tmp;
  ImageSpec spec = review_image(tmp);
  spec.empty_history.push_back({3, "ENV TZ=Asia/Ho_Chi_Minh"});
  spec.empty_history.push_back({3, "CMD [\"hello\"]"});
  write_oci_layout(spec, tmp / "img");
  write_file(tmp / "Dockerfile", kReviewDockerfile);

  auto r = run_imgaudit("--format json --dockerfile " + tmp / "Dockerfile " + tmp / "img");
  ASSERT_EQ(r.status, 1) << r.err;
  auto j = r.json();
  auto missing = findings(j, "interpreter-missing");
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0]["dockerfile"]["start_line"], 10);
  EXPECT_EQ(missing[0]["dockerfile"]["instruction"], "COPY --from=build /out/hello /usr/local/bin/hello");
  auto tz = findings(j, "tz-env-without-tzdata");
  ASSERT_EQ(tz.size(), 1u);
  EXPECT_EQ(tz[0]["dockerfile"]["start_line"], 11);
  auto root = findings(j, "runs-as-root");
  ASSERT_EQ(root.size(), 1u);
  EXPECT_EQ(root[0]["dockerfile"]["start_line"], 12) << "no USER: the last line is where to add one";

  auto text = run_imgaudit("--dockerfile " + tmp / "Dockerfile " + tmp / "img");
  EXPECT_NE(text.out.find("Dockerfile:10: COPY --from=build /out/hello /usr/local/bin/hello"), std::string::npos) << text.out;

  auto sarif = run_imgaudit("--format sarif --dockerfile " + tmp / "Dockerfile " + tmp / "img").json();
  bool found = false;
  for (auto& res : sarif["runs"][0]["results"])
    if (res["ruleId"] == "interpreter-missing") {
      auto& phys = res["locations"][0]["physicalLocation"];
      EXPECT_EQ(phys["artifactLocation"]["uri"], "file://" + tmp / "Dockerfile");  // an absolute path, as a file: URI
      EXPECT_EQ(phys["region"]["startLine"], 10);
      found = true;
    }
  EXPECT_TRUE(found);

  auto bad = run_imgaudit("--dockerfile " + tmp / "missing.Dockerfile " + tmp / "img");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("missing.Dockerfile"), std::string::npos) << bad.err;
}

// Every layer carries its instruction, not only those that brought a finding: the base's is the FROM line.
TEST(Review, EveryLayerCarriesItsDockerfileLine) {
  SKIP_WITHOUT_ALPINE();
  TempDir tmp;
  write_oci_layout(review_image(tmp), tmp / "img");
  write_file(tmp / "Dockerfile", kReviewDockerfile);
  auto j = run_imgaudit("--format json --dockerfile " + tmp / "Dockerfile " + tmp / "img").json();
  const auto& layers = j["image"]["layers"];
  ASSERT_EQ(layers.size(), 3u) << j.dump();
  EXPECT_EQ(layers[0]["dockerfile"]["instruction"], "FROM alpine:3.20");
  EXPECT_EQ(layers[1]["dockerfile"]["start_line"], 8);
  EXPECT_EQ(layers[1]["dockerfile"]["end_line"], 9);
  EXPECT_EQ(layers[1]["dockerfile"]["file"], tmp / "Dockerfile");
  for (auto& f : j["findings"])
    EXPECT_TRUE(f["layer"].is_null() || f["layer"]["index"] != 1) << "the layer under test brought a finding: " << f.dump();
  EXPECT_EQ(layers[2]["dockerfile"]["start_line"], 10);

  auto plain = run_imgaudit("--format json " + tmp / "img").json();
  for (auto& l : plain["image"]["layers"]) EXPECT_FALSE(l.contains("dockerfile")) << "no --dockerfile, no line";
}

TEST(Review, CompareAnswersAlpineOrSlim) {
  SKIP_WITHOUT_ALPINE();
  TempDir tmp;
  write_oci_layout(review_image(tmp), tmp / "alpine");
  const NativeTarget& native = native_target();
  ImageSpec slim = native_image();
  slim.layers.push_back(layer({file(native.glibc_libc_path, read_file(native.glibc_libc_file)),
                               file(NativeTarget::relative(native.glibc_interpreter), read_file(native.glibc_loader_file)),
                               file("etc/os-release", "ID=debian\nVERSION_ID=\"12\"\nPRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\n", 0644)},
                              "ADD rootfs.tar.xz /"));
  slim.layers.push_back(layer({file("usr/local/bin/hello", compiled(tmp, "gcc", kHelloC))}, "COPY /out/hello /usr/local/bin/hello # buildkit"));
  write_oci_layout(slim, tmp / "slim");

  auto r = run_imgaudit("compare " + tmp / "alpine " + tmp / "slim");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("libc"), std::string::npos);
  EXPECT_NE(r.out.find("musl 1.2.5"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("glibc 2."), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Verdict:"), std::string::npos);
  EXPECT_NE(r.out.find("interpreter-missing"), std::string::npos);

  auto j = run_imgaudit("compare --format json " + tmp / "alpine " + tmp / "slim").json();
  EXPECT_EQ(j["a"]["libc"]["family"], "musl");
  EXPECT_EQ(j["b"]["libc"]["family"], "glibc");
  EXPECT_EQ(j["a"]["findings_by_id"]["interpreter-missing"], 1);
  EXPECT_EQ(j["b"]["findings_by_id"]["interpreter-missing"], 0);
  EXPECT_EQ(run_imgaudit("compare " + tmp / "alpine").status, 2);
}
