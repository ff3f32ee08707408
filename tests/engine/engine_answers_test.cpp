// Engine API answers that are wrong or hostile (from fake_engine.py on a unix socket): each gives
// one line naming the engine and the cause, exit 2, and nothing raw on the terminal.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>

#include <nlohmann/json.hpp>

#include "image_fixture.h"
#include "util/strings.h"

namespace imgaudit::test {
namespace {

class FakeEngine {
 public:
  explicit FakeEngine(const nlohmann::json& script) {
    write_file(dir_ / "script.json", script.dump());
    server_ = std::make_unique<Background>(
        std::vector<std::string>{"python3", std::string(IMGAUDIT_SOURCE_DIR) + "/tests/engine/fake_engine.py", socket(),
                                 dir_ / "script.json"},
        dir_ / "server.log");
    struct stat st;
    ready_ = wait_until([&] { return stat(socket().c_str(), &st) == 0; });
  }
  ~FakeEngine() { server_->stop(2000); }
  bool ready() const { return ready_; }
  std::string socket() const { return dir_ / "e.sock"; }
  std::string dir() const { return dir_.path(); }
  std::string requests() const { return read_file(dir_ / "script.json.log"); }
  CliResult audit(const std::string& image) const {
    CliResult r;
    r.status = run("env HOME='" + dir_.path() + "' DOCKER_HOST=unix://" + socket() + " " + imgaudit_binary() +
                       " --format json --fail-on never " + image + " 2>'" + dir_ / "stderr" + "'",
                   &r.out);
    r.err = read_file(dir_ / "stderr");
    return r;
  }

 private:
  TempDir dir_;
  std::unique_ptr<Background> server_;
  bool ready_ = false;
};

const std::string kId = "sha256:" + std::string(64, 'a');

nlohmann::json inspected() {
  return {{"Id", kId}, {"RepoTags", {"app:1"}}, {"RepoDigests", nlohmann::json::array()}, {"Os", "linux"},
          {"Architecture", "amd64"}};
}

#define START(engine, script)                                          \
  if (!have_tool("python3")) GTEST_SKIP() << "python3 runs the fake engine"; \
  FakeEngine engine(script);                                           \
  ASSERT_TRUE(engine.ready()) << read_file(engine.dir() + "/server.log")

void expect_one_line(const CliResult& r, const std::string& starts, const std::string& contains) {
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_TRUE(starts_with(r.err, starts)) << r.err;
  EXPECT_NE(r.err.find(contains), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << "raw ESC on the terminal";
}

TEST(EngineAnswers, AServerErrorIsOneLineWithTheEnginesMessageEscaped) {
  START(engine, (nlohmann::json{{"/images/app:1/json", {{"status", 500}, {"body", "{\"message\":\"disk \\u001b[2J on fire\"}"}}}}));
  CliResult r = engine.audit("docker-daemon:app:1");
  expect_one_line(r, "imgaudit: docker-daemon:app:1: the Docker Engine at unix://" + engine.socket() + " (DOCKER_HOST): ",
                  "inspecting app:1: the engine answered HTTP 500: disk \\x1b[2J on fire");
}

TEST(EngineAnswers, MalformedOrIncompleteInspectAnswers) {
  START(engine, (nlohmann::json{{"/images/noid:1/json", {{"status", 200}, {"body", "{\"RepoTags\":[]}"}}},
                                {"/images/bad:1/json", {{"status", 200}, {"body", "{\"Id\": "}}},
                                {"/images/deep:1/json", {{"status", 200}, {"body", std::string(1000, '[')}}}}));
  expect_one_line(engine.audit("docker-daemon:noid:1"), "imgaudit: docker-daemon:noid:1: ", "the answer has no image Id");
  expect_one_line(engine.audit("docker-daemon:bad:1"), "imgaudit: docker-daemon:bad:1: ", "malformed JSON at byte");
  expect_one_line(engine.audit("docker-daemon:deep:1"), "imgaudit: docker-daemon:deep:1: ", "JSON nested deeper than 64 levels");
}

TEST(EngineAnswers, AnAnswerLargerThanTheBoundIsRefused) {
  TempDir tmp;
  write_file(tmp / "big.json", "{\"Id\": \"" + std::string(5 << 20, 'x') + "\"}");
  START(engine, (nlohmann::json{{"/images/big:1/json", {{"status", 200}, {"body_file", tmp / "big.json"}}}}));
  expect_one_line(engine.audit("docker-daemon:big:1"), "imgaudit: docker-daemon:big:1: ", "response larger than 4194304 bytes");
}

TEST(EngineAnswers, AnExportThatIsNoArchiveOrIsCutShort) {
  TempDir tmp;
  ImageSpec spec;
  spec.layers.push_back(layer({file("etc/os-release", "ID=x\n", 0644)}, "ADD / /", Compression::None));
  write_docker_archive(spec, tmp / "img.tar", true);
  write_file(tmp / "junk", "this is not a tar archive, it is a sentence that goes on for a while");
  nlohmann::json script = {{"/images/junk:1/json", {{"status", 200}, {"body", inspected().dump()}}},
                           {"/images/cut:1/json", {{"status", 200}, {"body", inspected().dump()}}},
                           {"/images/" + kId + "/get", {{"status", 200}, {"body_file", tmp / "junk"}}}};
  {
    START(engine, script);
    expect_one_line(engine.audit("docker-daemon:junk:1"),
                    "imgaudit: docker-daemon:junk:1: exported by the Docker Engine at unix://" + engine.socket(),
                    "not a tar archive");
    EXPECT_NE(engine.requests().find("/images/" + kId + "/get"), std::string::npos)
        << "the export is asked for by the ID the engine gave, so a tag that moves meanwhile changes nothing";
  }
  script["/images/" + kId + "/get"] = {{"status", 200}, {"body_file", tmp / "img.tar"}, {"cut_after", 3000}};
  START(engine, script);
  expect_one_line(engine.audit("docker-daemon:cut:1"), "imgaudit: docker-daemon:cut:1: exported by ", "");
}

// An export whose member claims more than any image holds, then sends zeros for ever, is refused when its
// header is read: it was hashed without end; a manifest.json that claims 8 GiB took 45 s to be skipped.
TEST(EngineAnswers, AMemberThatClaimsTooMuchIsRefusedAtItsHeader) {
  TempDir tmp;
  write_file(tmp / "huge-layer", tar_header("blobs/sha256/" + std::string(64, 'b'), uint64_t(1) << 62));
  write_file(tmp / "huge-manifest", tar_header("manifest.json", uint64_t(8) << 30));
  nlohmann::json script = {{"/images/layer:1/json", {{"status", 200}, {"body", inspected().dump()}}}};
  START(engine, script);
  for (const auto& [file, limit] : {std::pair<std::string, std::string>{"huge-layer", "(kMaxArchiveBytes)"},
                                    {"huge-manifest", "manifest.json: 8589934592 bytes, over the limit of 16.0 MiB (kMaxJsonBlob)"}}) {
    script["/images/" + kId + "/get"] = {{"status", 200}, {"body_file", tmp / file}, {"zeros_after", true}};
    write_file(engine.dir() + "/script.json", script.dump());
    auto start = std::chrono::steady_clock::now();
    expect_one_line(engine.audit("docker-daemon:layer:1"), "imgaudit: docker-daemon:layer:1: exported by ", limit);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20)) << file;
  }
}

TEST(EngineAnswers, AnExportOfTheRightImageIsAudited) {
  TempDir tmp;
  ImageSpec spec;
  spec.layers.push_back(layer({file("etc/os-release", "ID=fake\n", 0644)}, "ADD / /", Compression::None));
  spec.tag = "app:1";
  write_docker_archive(spec, tmp / "img.tar", true);
  START(engine, (nlohmann::json{{"/images/app:1/json", {{"status", 200}, {"body", inspected().dump()}}},
                                {"/images/" + kId + "/get", {{"status", 200}, {"body_file", tmp / "img.tar"}}}}));
  CliResult r = engine.audit("docker-daemon:app:1");
  ASSERT_EQ(r.status, 0) << r.err;
  nlohmann::json report = r.json();
  EXPECT_EQ(report["distro"]["id"], "fake");
  EXPECT_EQ(report["image"]["id"], kId) << "the engine's own word for its ID";
  EXPECT_EQ(report["image"]["repo_tags"], nlohmann::json::array({"app:1"}));
}

}  // namespace
}  // namespace imgaudit::test
