#pragma once
#include <sys/types.h>

#include <functional>
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

// Polls `ready` every 20 ms, at most `timeout_ms` (20 s unless told): a service that never comes up fails
// the test, it does not hang it.
bool wait_until(const std::function<bool()>& ready, int timeout_ms = 20000);

// A program running in the background, in its own process group, its output in a log file; killed when the
// object dies (and sent SIGTERM when the test program itself dies first). Only the process that started it
// stops it: a forked child (a death test) that exits leaves it alone.
class Background {
 public:
  Background(const std::vector<std::string>& argv, const std::string& log_file);
  ~Background();
  Background(const Background&) = delete;
  Background& operator=(const Background&) = delete;
  void kill_now();  // SIGKILL and reap
  void pause();     // SIGSTOP
  void resume();    // SIGCONT
  int wait();       // its exit status
  // SIGTERM, then at most `grace_ms` for it to end, then SIGKILL of its whole process group; reaps it.
  // Returns its exit status (128 + signal when killed), -1 when it had already been reaped.
  int stop(int grace_ms);
  bool running();  // not yet exited (does not reap it)
  pid_t pid() const { return pid_; }

 private:
  pid_t pid_ = -1;
  pid_t owner_ = -1;
};

// Runs a shell command; returns its exit status, stdout in *out when given.
int run(const std::string& command, std::string* out = nullptr);
// `s` as one word of a shell command line, in single quotes.
std::string shell_quoted(const std::string& s);

// The 512-byte tar header of a member NAME that claims SIZE bytes (base-256 past 8 GiB, as GNU tar writes
// it), made by Python's tarfile: for archives that lie about what follows.
std::string tar_header(const std::string& name, uint64_t size);

// Compiles C source with `compiler` ("gcc", "musl-gcc") and flags into `output`.
// Fails the current test (and returns false) when compilation fails.
bool compile_c(const std::string& compiler, const std::string& source, const std::string& output,
               const std::string& flags = "");

bool have_tool(const std::string& name);  // on PATH
// The first python3 on PATH that imports every one of `modules` ("jwt, cryptography"), or "": Debian's
// python3-* packages are in /usr/bin's python3, and a python3 earlier on PATH (a version manager's) may lack them.
std::string python_with(const std::string& modules);

// Why a command cannot be run on a pseudo-terminal here, for a test's GTEST_SKIP: "" when it can, else
// what is missing (script(1), or a terminal to open: a chroot without /dev/pts mounted).
std::string why_no_terminal();
// Runs a shell command on a pseudo-terminal through script(1); returns its exit status, what the terminal
// showed in *out when given.
int run_on_a_terminal(const std::string& command, std::string* out = nullptr);
#define SKIP_WITHOUT_TERMINAL()                                                                            \
  if (const std::string why_no_terminal = ::imgaudit::test::why_no_terminal(); !why_no_terminal.empty()) \
  GTEST_SKIP() << why_no_terminal

// Why `compiler` cannot build here, for a test's GTEST_SKIP: "" when it is on PATH and builds a trivial
// program with `flags`, else the tool's name and what it said. `compiler` is a C compiler with any fixed
// options ("aarch64-linux-gnu-gcc", "gcc -m32"), "go" (go build, offline, without cgo) or "rustc".
// Asked once per compiler and flags in a test program.
std::string toolchain_problem(const std::string& compiler, const std::string& flags = "");
// The environment of an offline `go build` in `dir` (GOPATH and HOME there), for a shell command line.
// Every test shares one build cache in the build folder: Go's standard library, built once for each
// GOARCH, took most of the Go tests' time when each test had a cache of its own.
std::string go_env(const std::string& dir);

std::string read_file(const std::string& path);
// `bytes` compressed by `command` ("zstd -q -c"), which reads the file named last.
std::string compressed_by(const std::string& command, const std::string& bytes);
// `bytes` as gzip writes them with `options` ("-n": no name or time, so the same bytes each run).
std::string gzip_of(const std::string& bytes, const std::string& options = "-n");
// The JSON Schema `schema` file's verdict on the JSON file `document` (python3-jsonschema): "valid", or
// the validator's complaint.
std::string schema_verdict(const std::string& schema, const std::string& document);
void write_file(const std::string& path, const std::string& content, unsigned mode = 0644);

// ../shared/rootfs/alpine-minirootfs-3.20.3-<arch>.tar.gz beside the project, or "" when absent.
std::string alpine_minirootfs(const std::string& arch);  // "x86_64" or "aarch64"

// The Debian mirror tests give debootstrap: IMGAUDIT_TEST_DEBIAN_MIRROR, else Debian's own.
std::string debian_mirror();

// Whether debootstrap's log says, in its own words, that it could not fetch the release or its packages
// (no mirror here): a test then skips. Any other failure (a chroot step, a package script) fails it.
bool debootstrap_could_not_download(const std::string& log);
// A file of Debian's archive ("pool/main/m/mimalloc/mimalloc_2.0.9+ds.orig.tar.xz"), fetched from
// debian_mirror() into folder `cache` once and checked against its `sha256` (the source package's .dsc
// lists it): its path there, or "" and why in *skip (the mirror unreachable) or *failure (a wrong checksum).
std::string cached_debian_file(const std::string& cache, const std::string& pool_path, const std::string& sha256,
                               std::string* skip, std::string* failure);

// The folder where tests keep what they fetch or make once (the build folder's test-cache).
std::string test_cache_dir();

// A Debian 13 root kept in test_cache_dir(), for what Debian 12 lacks: Docker Engine 26 with containerd's image
// store (docker.io, docker-cli) and musl 1.2.5's musl-gcc (musl-tools, gcc). "" and why in *skip or *failure.
std::string debian13_root(std::string* skip, std::string* failure);

// Compiles C `source` with `compiler` and `flags` inside `root` (chroot: the root's own toolchain and
// libraries) and returns the program's bytes; "" with the compiler's output in *log when it fails.
std::string compiled_in_root(const std::string& root, const std::string& compiler, const std::string& source,
                             const std::string& flags, std::string* log);

// A Debian root of `suite` (minbase, with `packages`) in folder `root`, made by debootstrap from debian_mirror()
// once for that list and kept (a stamp beside it names what it holds): built under a temporary name and renamed
// when complete, so that a killed run leaves no half root; package caches and docs removed. "" and why in
// *skip (no debootstrap, the mirror unreachable) or *failure.
std::string cached_debootstrap(const std::string& root, const std::string& suite,
                               const std::vector<std::string>& packages, std::string* skip, std::string* failure);

// A string of imgaudit's JSON outputs decoded as docs/json.md says a user would: "\\" is a
// backslash, "\xNN" the byte NN, everything else itself; the original bytes of a file name.
std::string decode_lossless_utf8(const std::string& s);

// The imgaudit and imgaudit-mkimage binaries of this build. In a cross-built tree (its unit tests run under
// qemu-user, which no binfmt registration may name), the emulator and the binary: a command for run().
std::string imgaudit_binary();
std::string mkimage_binary();

// Small C programs the tests compile.
extern const char* const kHelloC;     // prints hello
extern const char* const kThreadsC;   // starts a thread with default attributes
extern const char* const kLibFooC;    // int foo(void)
extern const char* const kUsesFooC;   // calls foo()

}  // namespace imgaudit::test
