#include "redis_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <stdexcept>

#include "layer/layer_facts.h"
#include "local_registry.h"

namespace imgaudit::test {

std::string facts_key(const std::string& digest) {
  return "imgaudit:layer-facts:v" + std::to_string(kLayerFactsFormatVersion) + ":" + digest;
}

std::string claim_key(const std::string& digest) {
  return "imgaudit:reading:v" + std::to_string(kLayerFactsFormatVersion) + ":" + digest;
}

RedisServer::RedisServer(RedisSetup setup) : setup_(std::move(setup)) {
  // A port found free may be taken by another test's server before this one binds it: the server that
  // answers must be this one (its process id), else it starts again on another port.
  for (int attempt = 0;; ++attempt) {
    if (start_on(free_port())) return;
    if (attempt == 4) throw std::runtime_error("redis-server did not start: " + log());
  }
}

bool RedisServer::start_on(int port) {
  port_ = port;
  std::vector<std::string> argv = {"redis-server", "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                                   "--dir", dir_.path()};
  if (setup_.tls) {
    std::filesystem::create_directories(dir_ / "certs");
    std::string py = python_with_crypto();
    std::string make_certs = std::string(IMGAUDIT_SOURCE_DIR) + "/tests/registry/make_certs.py";
    if (py.empty() || run(shell_quoted(py) + " " + shell_quoted(make_certs) + " " + shell_quoted(dir_ / "certs")) != 0)
      throw std::runtime_error("cannot make the test certificates (python3-cryptography)");
    argv.insert(argv.end(), {"--port", "0", "--tls-port", std::to_string(port_), "--tls-cert-file", dir_ / "certs/server.crt",
                             "--tls-key-file", dir_ / "certs/server.key", "--tls-ca-cert-file", ca_cert(),
                             "--tls-auth-clients", "no"});
  } else {
    argv.insert(argv.end(), {"--port", std::to_string(port_)});
  }
  argv.insert(argv.end(), setup_.arguments.begin(), setup_.arguments.end());
  server_ = std::make_unique<Background>(argv, dir_ / "redis.log");
  const std::string own = "process_id:" + std::to_string(server_->pid());
  if (wait_until([&] { return cli("INFO server").find(own) != std::string::npos; }, 10000)) return true;
  server_.reset();
  return false;
}

RedisServer::~RedisServer() { server_.reset(); }

void RedisServer::resume() { server_->resume(); }

std::string RedisServer::url(const std::string& login) const {
  return std::string(setup_.tls ? "rediss://" : "redis://") + login + "127.0.0.1:" + std::to_string(port_);
}

std::string RedisServer::cli(const std::string& args) const {
  std::string tls = setup_.tls ? " --tls --cacert " + shell_quoted(ca_cert()) : "";
  std::string out;
  run("redis-cli -h 127.0.0.1 -p " + std::to_string(port_) + tls + " " + setup_.cli_login + " --no-auth-warning " +
          args + " 2>/dev/null",
      &out);
  if (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

void RedisServer::set_raw(const std::string& key, const std::string& value) const {
  TempDir tmp;
  write_file(tmp / "value", value);
  cli("-x SET " + shell_quoted(key) + " <" + shell_quoted(tmp / "value"));
}

}  // namespace imgaudit::test
