#include "test_support.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace imgaudit::test {

TempDir::TempDir() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "imgaudit-test-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
  path_ = tmpl;
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

int run(const std::string& command, std::string* out) {
  FILE* p = popen(command.c_str(), "r");
  if (!p) return -1;
  std::array<char, 4096> buf;
  size_t n;
  std::string captured;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) captured.append(buf.data(), n);
  int status = pclose(p);
  if (out) *out = captured;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

bool compile_c(const std::string& compiler, const std::string& source, const std::string& output,
               const std::string& flags) {
  std::string src = output + ".c";
  write_file(src, source);
  std::string log;
  int rc = run(compiler + " -O1 -o '" + output + "' '" + src + "' " + flags + " 2>&1", &log);
  EXPECT_EQ(rc, 0) << compiler << " " << flags << ":\n" << log;
  return rc == 0;
}

bool have_tool(const std::string& name) { return run("command -v '" + name + "' >/dev/null 2>&1") == 0; }

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

void write_file(const std::string& path, const std::string& content, unsigned mode) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f << content;
  }
  chmod(path.c_str(), mode);
}

std::string alpine_minirootfs(const std::string& arch) {
  std::string p = std::string(IMGAUDIT_SOURCE_DIR) + "/../shared/rootfs/alpine-minirootfs-3.20.3-" + arch + ".tar.gz";
  return std::filesystem::exists(p) ? p : "";
}

std::string imgaudit_binary() { return IMGAUDIT_BINARY; }
std::string mkimage_binary() { return IMGAUDIT_MKIMAGE_BINARY; }

const char* const kHelloC = R"(#include <stdio.h>
int main(void) { puts("hello"); return 0; }
)";

const char* const kThreadsC = R"(#include <pthread.h>
#include <stdio.h>
static void* work(void* arg) { return arg; }
int main(void) {
  pthread_t t;
  if (pthread_create(&t, NULL, work, NULL)) return 1;
  pthread_join(t, NULL);
  puts("joined");
  return 0;
}
)";

const char* const kLibFooC = "int foo(void) { return 42; }\n";

const char* const kUsesFooC = R"(#include <stdio.h>
int foo(void);
int main(void) { printf("%d\n", foo()); return 0; }
)";

}  // namespace imgaudit::test
