#pragma once
#include <string>
#include <vector>

namespace imgaudit::test {

// A fresh temporary folder, removed with its content when the object dies.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

// Runs a shell command; returns its exit status, stdout in *out when given.
int run(const std::string& command, std::string* out = nullptr);

// Compiles C source with `compiler` ("gcc", "musl-gcc") and flags into `output`.
// Fails the current test (and returns false) when compilation fails.
bool compile_c(const std::string& compiler, const std::string& source, const std::string& output,
               const std::string& flags = "");

bool have_tool(const std::string& name);  // on PATH

std::string read_file(const std::string& path);
void write_file(const std::string& path, const std::string& content, unsigned mode = 0644);

// ../shared/rootfs/alpine-minirootfs-3.20.3-<arch>.tar.gz beside the project, or "" when absent.
std::string alpine_minirootfs(const std::string& arch);  // "x86_64" or "aarch64"

// The imgaudit and imgaudit-mkimage binaries of this build.
std::string imgaudit_binary();
std::string mkimage_binary();

// Small C programs the tests compile.
extern const char* const kHelloC;     // prints hello
extern const char* const kThreadsC;   // starts a thread with default attributes
extern const char* const kLibFooC;    // int foo(void)
extern const char* const kUsesFooC;   // calls foo()

}  // namespace imgaudit::test
