// The imgaudit binary on an image built with the project's writer: config ignores that expire, are
// scoped to an image or match nothing; Dockerfile pragmas; a Dockerfile that no longer matches the image.
#include <gtest/gtest.h>

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "native_target.h"
#include "test_support.h"
#include "writer/image_writer.h"

namespace imgaudit {
namespace {

struct CliRun {
  int status = -1;
  std::string out, err;
  nlohmann::json json() const { return nlohmann::json::parse(out); }
  std::string last_err_line() const {
    std::string e = err;
    while (!e.empty() && e.back() == '\n') e.pop_back();
    return e.substr(e.rfind('\n') == std::string::npos ? 0 : e.rfind('\n') + 1);
  }
};

// imgaudit run in `dir`, with no settings but what the test writes there.
CliRun imgaudit_in(const test::TempDir& dir, const std::string& args) {
  CliRun r;
  std::string env = "env -u IMGAUDIT_CONFIG XDG_CONFIG_HOME='" + dir / "no-xdg" + "' NO_COLOR=1 ";
  r.status = test::run("cd '" + dir.path() + "' && " + env + test::imgaudit_binary() + " " + args + " 2>'" +
                           dir / "stderr" + "'",
                       &r.out);
  r.err = test::read_file(dir / "stderr");
  return r;
}

LayerBlob layer_with(const std::string& path, const std::string& content, const std::string& created_by) {
  return {make_layer_blob({TarEntrySpec::file(path, content, 0755)}, Compression::Gzip), Compression::Gzip, created_by};
}

// Two glibc programs without their loader (interpreter-missing each), TZ without tzdata, no USER:
//   layer 0  COPY hello /usr/local/bin/hello
//   layer 1  RUN make tool                      (/opt/tool)
bool write_image(const test::TempDir& tmp) {
  if (!test::compile_c("gcc", test::kHelloC, tmp / "hello")) return false;
  std::string hello = test::read_file(tmp / "hello");
  ImageSpec spec;
  spec.platform = test::native_target().platform();  // the programs are this machine's
  spec.layers = {layer_with("usr/local/bin/hello", hello, "COPY hello /usr/local/bin/hello # buildkit"),
                 layer_with("opt/tool", hello, "RUN /bin/sh -c make tool # buildkit")};
  spec.env = {"TZ=Europe/Paris"};
  spec.tag = "registry.example/team/app:1.4";
  write_oci_layout(spec, tmp / "img");
  return true;
}

std::vector<nlohmann::json> with_id(const nlohmann::json& list, const std::string& id) {
  std::vector<nlohmann::json> out;
  for (auto& f : list)
    if (f.at("id") == id) out.push_back(f);
  return out;
}

nlohmann::json ignore_entry(const std::string& id, const std::string& path, const std::string& image,
                            const std::string& expires, const std::string& origin, const std::string& reason) {
  return {{"id", id}, {"path", path}, {"image", image}, {"expires", expires}, {"origin", origin}, {"reason", reason}};
}

TEST(ReviewCli, ConfigIgnoresExpireAreScopedToImagesAndUnusedOnesAreListed) {
  test::TempDir tmp;
  ASSERT_TRUE(write_image(tmp));
  test::write_file(tmp / "c.json", R"({"ignore": [
    {"id": "interpreter-missing", "path": "/usr/local/bin/*", "image": "registry.example/team/app", "expires": "2999-12-31",
     "reason": "the runtime image mounts glibc"},
    {"id": "runs-as-root", "expires": "2000-01-01", "reason": "old exception"},
    {"id": "exec-stack", "reason": "legacy plugin"},
    {"id": "tz-env-without-tzdata", "image": "registry.example/other/*", "reason": "another team's image"}]})");

  CliRun r = imgaudit_in(tmp, "--format json --config c.json oci:img");
  ASSERT_EQ(r.status, 1) << r.err;
  auto j = r.json();
  auto missing = with_id(j["findings"], "interpreter-missing");
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0]["paths"], nlohmann::json::array({"/opt/tool"}));
  EXPECT_EQ(with_id(j["findings"], "runs-as-root").size(), 1u) << "its ignore expired in 2000";
  EXPECT_EQ(with_id(j["findings"], "tz-env-without-tzdata").size(), 1u) << "its ignore is for other images";
  ASSERT_EQ(j["suppressed"].size(), 1u);
  EXPECT_EQ(j["suppressed"][0]["paths"], nlohmann::json::array({"/usr/local/bin/hello"}));
  EXPECT_EQ(j["suppressed"][0]["reason"], "the runtime image mounts glibc");
  EXPECT_EQ(j["suppressed"][0]["origin"], "c.json");
  EXPECT_EQ(j["unused_ignores"], nlohmann::json::array({ignore_entry("exec-stack", "", "", "", "c.json", "legacy plugin")}));
  EXPECT_EQ(j["expired_ignores"],
            nlohmann::json::array({ignore_entry("runs-as-root", "", "", "2000-01-01", "c.json", "old exception")}));

  CliRun text = imgaudit_in(tmp, "--config c.json oci:img");
  EXPECT_NE(text.out.find("\nUnused ignores, they matched no finding:\n"
                          "  exec-stack (c.json: legacy plugin)\n"
                          "\n"
                          "Expired ignores, no longer applied:\n"
                          "  runs-as-root expired after 2000-01-01 (c.json: old exception)\n"
                          "\n"
                          "2 error(s), 1 warning(s), 1 info, 1 ignored\n"),  // the info: no-command
            std::string::npos)
      << text.out;

  // A glob over the tag; then one naming another repository: the finding stays, and the ignore is not "unused".
  test::write_file(tmp / "c.json", R"({"ignore": [
    {"id": "interpreter-missing", "image": "*:1.4", "reason": "all 1.4 images"}]})");
  EXPECT_EQ(with_id(imgaudit_in(tmp, "--format json --config c.json oci:img").json()["findings"], "interpreter-missing").size(),
            0u);
  test::write_file(tmp / "c.json", R"({"ignore": [
    {"id": "interpreter-missing", "image": "registry.example/team/other", "reason": "not this one"}]})");
  auto other = imgaudit_in(tmp, "--format json --config c.json oci:img").json();
  EXPECT_EQ(with_id(other["findings"], "interpreter-missing").size(), 2u);
  EXPECT_TRUE(other["suppressed"].empty());
  EXPECT_TRUE(other["unused_ignores"].empty());
  EXPECT_TRUE(other["expired_ignores"].empty());
}

TEST(ReviewCli, APragmaSuppressesOnlyTheFindingsOfTheInstructionBelowIt) {
  test::TempDir tmp;
  ASSERT_TRUE(write_image(tmp));
  test::write_file(tmp / "Dockerfile",
                   "FROM scratch\n"                                                             // 1
                   "# imgaudit ignore=interpreter-missing,exec-stack the runtime mounts glibc\n"  // 2
                   "COPY hello /usr/local/bin/hello\n"                                          // 3
                   "RUN make tool\n");                                                          // 4

  CliRun r = imgaudit_in(tmp, "--format json --dockerfile Dockerfile oci:img");
  ASSERT_EQ(r.status, 1) << r.err;
  auto j = r.json();
  auto missing = with_id(j["findings"], "interpreter-missing");
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0]["paths"], nlohmann::json::array({"/opt/tool"}));
  EXPECT_EQ(missing[0]["dockerfile"]["start_line"], 4);
  ASSERT_EQ(j["suppressed"].size(), 1u);
  EXPECT_EQ(j["suppressed"][0]["id"], "interpreter-missing");
  EXPECT_EQ(j["suppressed"][0]["paths"], nlohmann::json::array({"/usr/local/bin/hello"}));
  EXPECT_EQ(j["suppressed"][0]["dockerfile"]["start_line"], 3);
  EXPECT_EQ(j["suppressed"][0]["reason"], "the runtime mounts glibc");
  EXPECT_EQ(j["suppressed"][0]["origin"], "Dockerfile:2");
  EXPECT_EQ(j["unused_ignores"], nlohmann::json::array({ignore_entry("exec-stack", "", "", "", "Dockerfile:2",
                                                                     "the runtime mounts glibc")}));
  EXPECT_TRUE(j["warnings"].empty()) << j["warnings"];

  // Without --dockerfile the pragma is not read.
  auto plain = imgaudit_in(tmp, "--format json oci:img").json();
  EXPECT_EQ(with_id(plain["findings"], "interpreter-missing").size(), 2u);
  EXPECT_TRUE(plain["suppressed"].empty());
}

TEST(ReviewCli, APragmaWithoutAReasonOrWithAnUnknownIdIsAOneLineError) {
  test::TempDir tmp;
  ASSERT_TRUE(write_image(tmp));
  test::write_file(tmp / "Dockerfile", "FROM scratch\n# imgaudit ignore=interpreter-missing\nCOPY hello /usr/local/bin/hello\n");
  CliRun r = imgaudit_in(tmp, "--dockerfile Dockerfile oci:img");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.last_err_line(),
            "imgaudit: Dockerfile:2: imgaudit ignore=interpreter-missing needs a reason after the rule ids: # imgaudit "
            "ignore=ID[,ID] reason");

  test::write_file(tmp / "Dockerfile",
                   "FROM scratch\nCOPY hello /usr/local/bin/hello\n# imgaudit ignore=exec-stack,no-such-rule vendored\n"
                   "RUN make tool\n");
  r = imgaudit_in(tmp, "--dockerfile Dockerfile oci:img");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.last_err_line(),
            "imgaudit: Dockerfile:3: imgaudit ignore: unknown rule id 'no-such-rule' (imgaudit rules lists them)");
}

TEST(ReviewCli, AStaleDockerfileLeavesFindingsUnattributedAndSaysWhichStepsDidNotMatch) {
  test::TempDir tmp;
  ASSERT_TRUE(write_image(tmp));
  test::write_file(tmp / "Dockerfile", "FROM scratch\nCOPY hello /usr/local/bin/hello\nRUN make tool-v2\n");
  const std::string warning =
      "Dockerfile does not match the image's history: step 2 of 2 `RUN /bin/sh -c make tool # buildkit` has no "
      "instruction there (findings from it carry no Dockerfile line)";

  CliRun r = imgaudit_in(tmp, "--format json --dockerfile Dockerfile oci:img");
  ASSERT_EQ(r.status, 1) << r.err;
  auto j = r.json();
  auto missing = with_id(j["findings"], "interpreter-missing");
  ASSERT_EQ(missing.size(), 2u);
  EXPECT_EQ(missing[0]["paths"], nlohmann::json::array({"/usr/local/bin/hello"}));
  EXPECT_EQ(missing[0]["dockerfile"]["start_line"], 2);
  EXPECT_EQ(missing[1]["paths"], nlohmann::json::array({"/opt/tool"}));
  EXPECT_FALSE(missing[1].contains("dockerfile")) << "not the FROM line: " << missing[1];
  EXPECT_EQ(j["warnings"], nlohmann::json::array({warning}));

  CliRun text = imgaudit_in(tmp, "--dockerfile Dockerfile oci:img");
  EXPECT_NE(text.out.find("\nnote: " + warning + "\n"), std::string::npos) << text.out;

  // A Dockerfile that built some other image: no finding gets a line, and one note says so.
  test::write_file(tmp / "Other.Dockerfile", "FROM debian:12\nRUN apt-get install -y python3\n");
  auto other = imgaudit_in(tmp, "--format json --dockerfile Other.Dockerfile oci:img").json();
  for (auto& f : other["findings"]) EXPECT_FALSE(f.contains("dockerfile")) << f;
  EXPECT_EQ(other["warnings"], nlohmann::json::array({"Other.Dockerfile does not match the image's history: none of its 2 "
                                                      "steps comes from an instruction there, so findings carry no "
                                                      "Dockerfile line"}));
}

}  // namespace
}  // namespace imgaudit
