#include "elf_test_support.h"

namespace imgaudit::test {
namespace {

const char* const kGoTlsTzdata = R"(package main

import (
	"crypto/tls"
	"fmt"
	"time"
	_ "time/tzdata"
)

func main() { fmt.Println(time.Now(), tls.VersionTLS13) }
)";

const char* const kGoPlain = R"(package main

import "fmt"

func main() { fmt.Println("hello") }
)";

const char* const kGoCgo = R"(package main

// int answer(void) { return 42; }
import "C"
import "fmt"

func main() { fmt.Println(C.answer()) }
)";

class ElfGoBuildInfo : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::string problem = toolchain_problem("go"); !problem.empty()) GTEST_SKIP() << problem << " (Debian golang-go)";
  }
  // Builds `source` offline with its own caches under the temp folder.
  std::string go_build(const std::string& source, const std::string& name, const std::string& env,
                       const std::string& flags = "") {
    std::string src = dir_ / (name + ".go"), out = dir_ / name, log;
    write_file(src, source);
    std::string cmd = "cd '" + dir_.path() + "' && env " + go_env(dir_.path()) + " " + env + " go build " + flags +
                      " -o '" + out + "' '" + src + "' 2>&1";
    int rc = run(cmd, &log);
    EXPECT_EQ(rc, 0) << log;
    return rc == 0 ? out : "";
  }
  std::string go_version() {
    std::string v;
    run("go env GOVERSION", &v);
    return v.substr(0, v.find('\n'));
  }
  TempDir dir_;
};

TEST_F(ElfGoBuildInfo, StaticWithoutCgo) {
  std::string bin = go_build(kGoTlsTzdata, "tls", "CGO_ENABLED=0");
  ASSERT_FALSE(bin.empty());
  std::string stripped = go_build(kGoTlsTzdata, "tls-stripped", "CGO_ENABLED=0", "-ldflags='-s -w'");
  ASSERT_FALSE(stripped.empty());
  for (const std::string& path : {bin, stripped, sectionless_copy(stripped)}) {
    SCOPED_TRACE(path);
    ElfFacts f = facts_of_file(path);
    EXPECT_EQ(f.go_version, go_version());
    EXPECT_EQ(f.go_cgo, std::optional<bool>(false));
    EXPECT_EQ(f.linkage, Linkage::Static);
    EXPECT_EQ(f.libc, LibcKind::None);
    EXPECT_EQ(f.threads, std::optional<bool>(true));
    EXPECT_TRUE(f.go_tzdata);
    EXPECT_TRUE(f.uses_tls);
    EXPECT_FALSE(f.rust);
  }
  std::string plain = go_build(kGoPlain, "plain", "CGO_ENABLED=0");
  ASSERT_FALSE(plain.empty());
  ElfFacts p = facts_of_file(plain);
  EXPECT_EQ(p.go_version, go_version());
  EXPECT_FALSE(p.go_tzdata);
  EXPECT_FALSE(p.uses_tls);
}

TEST_F(ElfGoBuildInfo, DynamicWithCgo) {
  if (!have_tool("gcc")) GTEST_SKIP() << "cgo needs gcc";
  std::string bin = go_build(kGoCgo, "cgo", "CGO_ENABLED=1");
  ASSERT_FALSE(bin.empty());
  ElfFacts f = facts_of_file(bin);
  EXPECT_EQ(f.go_version, go_version());
  EXPECT_EQ(f.go_cgo, std::optional<bool>(true));
  EXPECT_EQ(f.linkage, Linkage::Dynamic);
  EXPECT_EQ(f.libc, LibcKind::Glibc);
  EXPECT_EQ(f.threads, std::optional<bool>(true));

  std::string plain = go_build(kGoPlain, "plain-cgo-setting", "CGO_ENABLED=1");
  ASSERT_FALSE(plain.empty());
  EXPECT_EQ(facts_of_file(plain).go_cgo, std::optional<bool>(true));  // the build setting, whether or not cgo is used
}

}  // namespace
}  // namespace imgaudit::test
