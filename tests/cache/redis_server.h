#pragma once
// A redis-server (Debian's) on 127.0.0.1 for the tests: its own folder, no persistence, started and
// stopped by PID, and redis-cli to look at what imgaudit left in it.
#include <memory>
#include <string>
#include <vector>

#include "local_registry.h"
#include "test_support.h"

namespace imgaudit::test {

struct RedisSetup {
  std::vector<std::string> arguments;  // more redis-server arguments: --requirepass X, --user ...
  std::string cli_login;               // redis-cli's own: "--user U --pass P" or "--pass P"
  bool tls = false;                    // TLS only, with a certificate from a CA made for the test (ca_cert())
};

class RedisServer {
 public:
  // Starts it on a free port and waits until it answers PING; throws std::runtime_error when it cannot.
  explicit RedisServer(RedisSetup setup = {});
  ~RedisServer();

  int port() const { return port_; }
  // redis://127.0.0.1:PORT (rediss:// with TLS), with `login` ("USER:PASSWORD@") when given.
  std::string url(const std::string& login = "") const;
  std::string ca_cert() const { return dir_ / "certs/ca.crt"; }
  // What redis-cli prints for `args` (already shell-quoted as needed), without the last newline.
  std::string cli(const std::string& args) const;
  // A value written from a file, as it is (redis-cli -x).
  void set_raw(const std::string& key, const std::string& value) const;
  std::string log() const { return read_file(dir_ / "redis.log"); }
  void pause() { server_->pause(); }  // SIGSTOP: it hangs, its port still accepts connections
  void resume();                       // SIGCONT
  void kill_now() { server_->kill_now(); }

 private:
  bool start_on(int port);  // false when another server answers on the port, or none
  RedisSetup setup_;
  TempDir dir_;
  int port_ = 0;
  std::unique_ptr<Background> server_;
};

// The imgaudit binary's layer-facts key for a layer digest, and the key of its claim while a process reads it.
std::string facts_key(const std::string& digest);
std::string claim_key(const std::string& digest);

}  // namespace imgaudit::test

#define SKIP_WITHOUT_REDIS()                                                                           \
  if (!::imgaudit::test::have_tool("redis-server") || !::imgaudit::test::have_tool("redis-cli"))      \
  GTEST_SKIP() << "redis-server and redis-cli (Debian packages redis-server and redis-tools) are needed"
