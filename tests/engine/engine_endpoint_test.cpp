// Where imgaudit looks for the Docker Engine and Podman, as the docker CLI and podman do: --docker-host,
// DOCKER_HOST (with DOCKER_TLS_VERIFY and DOCKER_CERT_PATH), docker contexts, the default sockets, and
// CONTAINER_HOST and XDG_RUNTIME_DIR for Podman. No engine is needed: the environment is a map, docker's
// config folder a temporary one.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include <nlohmann/json.hpp>

#include "engine/engine_endpoint.h"
#include "local_engine.h"
#include "test_support.h"
#include "util/error.h"
#include "util/sha256.h"

namespace imgaudit::test {
namespace {

// The InputError's text, or a note that none was thrown.
std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no InputError)";
}

void expect_endpoint(const EngineEndpoint& e, const std::string& host, const std::string& origin,
                     const std::string& unix_socket, const std::string& base_url) {
  EXPECT_EQ(e.host, host);
  EXPECT_EQ(e.origin, origin);
  EXPECT_EQ(e.unix_socket, unix_socket);
  EXPECT_EQ(e.base_url, base_url);
}

void expect_no_tls(const EngineEndpoint& e) {
  EXPECT_EQ(e.ca_cert, "");
  EXPECT_EQ(e.client_cert, "");
  EXPECT_EQ(e.client_key, "");
}

void expect_tls(const EngineEndpoint& e, const std::string& dir) {
  EXPECT_EQ(e.ca_cert, dir + "/ca.pem");
  EXPECT_EQ(e.client_cert, dir + "/cert.pem");
  EXPECT_EQ(e.client_key, dir + "/key.pem");
}

void write_pems(const std::string& dir) {
  std::filesystem::create_directories(dir);
  for (const char* f : {"ca.pem", "cert.pem", "key.pem"}) write_file(dir + "/" + f, "-----BEGIN CERTIFICATE-----\n");
}

// A fresh DOCKER_CONFIG and HOME, and an environment of nothing else unless a test adds to it.
class EngineEndpoints : public ::testing::Test {
 protected:
  void SetUp() override { vars_ = {{"DOCKER_CONFIG", config_.path()}, {"HOME", home_.path()}}; }

  Environment env() const {
    std::map<std::string, std::string> vars = vars_;
    return [vars](const std::string& name) {
      auto it = vars.find(name);
      return it == vars.end() ? std::string() : it->second;
    };
  }
  EngineEndpoint docker(const std::string& override_host = "") const { return docker_endpoint(override_host, env()); }
  std::string docker_error(const std::string& override_host = "") const {
    return error_of([&] { docker(override_host); });
  }

  // contexts/meta/<id>/meta.json as `docker context create NAME --docker host=HOST` writes it.
  static std::string context_id(const std::string& name) { return Sha256::of(name).substr(7); }
  void write_context(const std::string& name, const std::string& host, const std::string& config_dir = "") const {
    std::string dir = (config_dir.empty() ? config_.path() : config_dir) + "/contexts/meta/" + context_id(name);
    std::filesystem::create_directories(dir);
    nlohmann::json meta = {{"Name", name},
                           {"Metadata", nlohmann::json::object()},
                           {"Endpoints", {{"docker", {{"Host", host}, {"SkipTLSVerify", false}}}}}};
    write_file(dir + "/meta.json", meta.dump());
  }
  std::string context_tls_dir(const std::string& name) const {
    return config_ / "contexts/tls/" + context_id(name) + "/docker";
  }

  TempDir config_, home_;
  std::map<std::string, std::string> vars_;
};

TEST_F(EngineEndpoints, ContextIdIsTheSha256OfTheName) {
  // As the docker CLI names the folder of context "ci" (echo -n ci | sha256sum).
  EXPECT_EQ(context_id("ci"), "1b158839f8aa339e89bb50b1603e90ec68e0fd5565fe10a7cb32729fddf7070a");
}

TEST_F(EngineEndpoints, NothingSetIsTheDefaultSocket) {
  expect_endpoint(docker(), "unix:///var/run/docker.sock", "the default socket", "/var/run/docker.sock",
                  "http://localhost");
  expect_no_tls(docker());
}

TEST_F(EngineEndpoints, DockerHostOptionWinsOverDockerHost) {
  vars_["DOCKER_HOST"] = "tcp://127.0.0.1:2375";
  expect_endpoint(docker("unix:///run/override.sock"), "unix:///run/override.sock", "--docker-host",
                  "/run/override.sock", "http://localhost");
  expect_endpoint(docker("tcp://127.0.0.1:12375"), "tcp://127.0.0.1:12375", "--docker-host", "",
                  "http://127.0.0.1:12375");
  write_context("ci", "unix:///x.sock");
  vars_["DOCKER_CONTEXT"] = "ci";
  expect_endpoint(docker("/run/o.sock"), "unix:///run/o.sock", "--docker-host", "/run/o.sock", "http://localhost");
}

TEST_F(EngineEndpoints, DockerHostUnixSocket) {
  vars_["DOCKER_HOST"] = "unix:///run/user/1000/docker.sock";
  expect_endpoint(docker(), "unix:///run/user/1000/docker.sock", "DOCKER_HOST", "/run/user/1000/docker.sock",
                  "http://localhost");
  expect_no_tls(docker());
}

TEST_F(EngineEndpoints, DockerHostBarePathIsASocket) {
  vars_["DOCKER_HOST"] = "/srv/docker.sock";
  expect_endpoint(docker(), "unix:///srv/docker.sock", "DOCKER_HOST", "/srv/docker.sock", "http://localhost");
}

TEST_F(EngineEndpoints, DockerHostTcp) {
  vars_["DOCKER_HOST"] = "tcp://127.0.0.1:2375";
  expect_endpoint(docker(), "tcp://127.0.0.1:2375", "DOCKER_HOST", "", "http://127.0.0.1:2375");
  expect_no_tls(docker());
  // DOCKER_CERT_PATH alone does not turn TLS on (nor does it for the docker CLI).
  write_pems(home_ / "certs");
  vars_["DOCKER_CERT_PATH"] = home_ / "certs";
  expect_endpoint(docker(), "tcp://127.0.0.1:2375", "DOCKER_HOST", "", "http://127.0.0.1:2375");
  expect_no_tls(docker());
}

TEST_F(EngineEndpoints, TlsPortDefaultAndTlsForTheOption) {
  write_pems(home_ / "certs");
  vars_["DOCKER_TLS_VERIFY"] = "1";
  vars_["DOCKER_CERT_PATH"] = home_ / "certs";
  vars_["DOCKER_HOST"] = "tcp://engine.example";
  expect_endpoint(docker(), "tcp://engine.example", "DOCKER_HOST", "", "https://engine.example:2376");
  expect_tls(docker(), home_ / "certs");
  expect_endpoint(docker("tcp://127.0.0.1:2390"), "tcp://127.0.0.1:2390", "--docker-host", "", "https://127.0.0.1:2390");
  expect_tls(docker("tcp://127.0.0.1:2390"), home_ / "certs");
  vars_.erase("DOCKER_TLS_VERIFY");
  vars_["DOCKER_TLS"] = "1";
  expect_endpoint(docker(), "tcp://engine.example", "DOCKER_HOST", "", "https://engine.example:2376");
}

TEST_F(EngineEndpoints, AContextThatSkipsVerificationIsRefused) {
  std::string dir = config_ / ("contexts/meta/" + context_id("lax"));
  std::filesystem::create_directories(dir);
  write_file(dir + "/meta.json",
             R"({"Name":"lax","Endpoints":{"docker":{"Host":"tcp://engine.example:2376","SkipTLSVerify":true}}})");
  vars_["DOCKER_CONTEXT"] = "lax";
  EXPECT_EQ(docker_error(), "docker context \"lax\": asks to skip TLS verification, which imgaudit never does: give "
                            "the context the engine's CA (docker context update --docker ca=...)");
}

TEST_F(EngineEndpoints, AContextWithNoConfigFolderToFindItIn) {
  vars_ = {{"DOCKER_CONTEXT", "ci"}};
  EXPECT_EQ(docker_error(), "docker context \"ci\": no docker config folder to find it in (neither DOCKER_CONFIG nor "
                            "HOME is set)");
}

TEST_F(EngineEndpoints, DockerHostWinsOverTheContext) {
  write_context("ci", "unix:///x.sock");
  write_file(config_ / "config.json", R"({"currentContext":"ci"})");
  vars_["DOCKER_CONTEXT"] = "ci";
  vars_["DOCKER_HOST"] = "unix:///run/host.sock";
  expect_endpoint(docker(), "unix:///run/host.sock", "DOCKER_HOST", "/run/host.sock", "http://localhost");
}

TEST_F(EngineEndpoints, TlsVerifyWithCertPath) {
  std::string certs = home_ / "certs";
  write_pems(certs);
  vars_["DOCKER_HOST"] = "tcp://127.0.0.1:2376";
  vars_["DOCKER_TLS_VERIFY"] = "1";
  vars_["DOCKER_CERT_PATH"] = certs;
  EngineEndpoint e = docker();
  expect_endpoint(e, "tcp://127.0.0.1:2376", "DOCKER_HOST", "", "https://127.0.0.1:2376");
  expect_tls(e, certs);
}

TEST_F(EngineEndpoints, TlsVerifyWithoutCertPathReadsDockerConfig) {
  write_pems(config_.path());
  vars_["DOCKER_HOST"] = "tcp://127.0.0.1:2376";
  vars_["DOCKER_TLS_VERIFY"] = "1";
  EngineEndpoint e = docker();
  expect_endpoint(e, "tcp://127.0.0.1:2376", "DOCKER_HOST", "", "https://127.0.0.1:2376");
  expect_tls(e, config_.path());
}

TEST_F(EngineEndpoints, TlsVerifyWithoutCertPathOrDockerConfigReadsHomeDotDocker) {
  write_pems(home_ / ".docker");
  vars_.erase("DOCKER_CONFIG");
  vars_["DOCKER_HOST"] = "tcp://127.0.0.1:2376";
  vars_["DOCKER_TLS_VERIFY"] = "1";
  expect_tls(docker(), home_ / ".docker");
}

TEST_F(EngineEndpoints, TlsVerifyWithAFileMissingNamesIt) {
  std::string certs = home_ / "certs";
  write_pems(certs);
  std::filesystem::remove(certs + "/key.pem");
  vars_["DOCKER_HOST"] = "tcp://127.0.0.1:2376";
  vars_["DOCKER_TLS_VERIFY"] = "1";
  vars_["DOCKER_CERT_PATH"] = certs;
  EXPECT_EQ(docker_error(), "DOCKER_TLS_VERIFY: TLS is asked for but " + certs + "/key.pem is missing");
  std::filesystem::remove(certs + "/ca.pem");
  EXPECT_EQ(docker_error(), "DOCKER_TLS_VERIFY: TLS is asked for but " + certs + "/ca.pem is missing");
  vars_["DOCKER_CERT_PATH"] = home_ / "nowhere";
  EXPECT_EQ(docker_error(), "DOCKER_TLS_VERIFY: TLS is asked for but " + home_ / "nowhere/ca.pem is missing");
}

TEST_F(EngineEndpoints, TlsVerifyDoesNotApplyToASocket) {
  vars_["DOCKER_HOST"] = "unix:///run/docker.sock";
  vars_["DOCKER_TLS_VERIFY"] = "1";
  vars_["DOCKER_CERT_PATH"] = home_ / "nowhere";
  EngineEndpoint e = docker();
  expect_endpoint(e, "unix:///run/docker.sock", "DOCKER_HOST", "/run/docker.sock", "http://localhost");
  expect_no_tls(e);
}

TEST_F(EngineEndpoints, DockerContextVariable) {
  write_context("ci", "unix:///x.sock");
  vars_["DOCKER_CONTEXT"] = "ci";
  EngineEndpoint e = docker();
  expect_endpoint(e, "unix:///x.sock", "docker context \"ci\"", "/x.sock", "http://localhost");
  expect_no_tls(e);
}

TEST_F(EngineEndpoints, CurrentContextOfConfigJson) {
  write_context("ci", "unix:///x.sock");
  write_file(config_ / "config.json", R"({"auths":{},"currentContext":"ci"})");
  expect_endpoint(docker(), "unix:///x.sock", "docker context \"ci\"", "/x.sock", "http://localhost");
}

TEST_F(EngineEndpoints, CurrentContextOfHomeDotDocker) {
  vars_.erase("DOCKER_CONFIG");
  write_context("ci", "unix:///home.sock", home_ / ".docker");
  write_file(home_ / ".docker/config.json", R"({"currentContext":"ci"})");
  expect_endpoint(docker(), "unix:///home.sock", "docker context \"ci\"", "/home.sock", "http://localhost");
}

TEST_F(EngineEndpoints, DockerContextVariableWinsOverConfigJson) {
  write_context("ci", "unix:///x.sock");
  write_context("other", "unix:///other.sock");
  write_file(config_ / "config.json", R"({"currentContext":"other"})");
  vars_["DOCKER_CONTEXT"] = "ci";
  expect_endpoint(docker(), "unix:///x.sock", "docker context \"ci\"", "/x.sock", "http://localhost");
}

TEST_F(EngineEndpoints, TcpContextWithTlsMaterial) {
  write_context("remote", "tcp://127.0.0.1:2376");
  vars_["DOCKER_CONTEXT"] = "remote";
  EngineEndpoint plain = docker();
  expect_endpoint(plain, "tcp://127.0.0.1:2376", "docker context \"remote\"", "", "http://127.0.0.1:2376");
  expect_no_tls(plain);

  write_pems(context_tls_dir("remote"));
  EngineEndpoint tls = docker();
  expect_endpoint(tls, "tcp://127.0.0.1:2376", "docker context \"remote\"", "", "https://127.0.0.1:2376");
  expect_tls(tls, context_tls_dir("remote"));

  std::filesystem::remove(context_tls_dir("remote") + "/cert.pem");
  EXPECT_EQ(docker_error(), "docker context \"remote\": TLS is asked for but " + context_tls_dir("remote") +
                                "/cert.pem is missing");
}

TEST_F(EngineEndpoints, DefaultContextIsTheDefaultSocket) {
  write_context("ci", "unix:///x.sock");
  vars_["DOCKER_CONTEXT"] = "default";
  write_file(config_ / "config.json", R"({"currentContext":"ci"})");
  expect_endpoint(docker(), "unix:///var/run/docker.sock", "the default socket", "/var/run/docker.sock",
                  "http://localhost");
  vars_.erase("DOCKER_CONTEXT");
  write_file(config_ / "config.json", R"({"currentContext":"default"})");
  expect_endpoint(docker(), "unix:///var/run/docker.sock", "the default socket", "/var/run/docker.sock",
                  "http://localhost");
  write_file(config_ / "config.json", R"({"auths":{}})");
  expect_endpoint(docker(), "unix:///var/run/docker.sock", "the default socket", "/var/run/docker.sock",
                  "http://localhost");
}

TEST_F(EngineEndpoints, ContextThatIsNotThere) {
  vars_["DOCKER_CONTEXT"] = "nope";
  EXPECT_EQ(docker_error(), "docker context \"nope\": no such context in " + config_.path() +
                                "/contexts (docker context ls lists them)");
  vars_.erase("DOCKER_CONTEXT");
  write_file(config_ / "config.json", R"({"currentContext":"gone"})");
  EXPECT_EQ(docker_error(), "docker context \"gone\": no such context in " + config_.path() +
                                "/contexts (docker context ls lists them)");
  // A meta.json without a docker endpoint is no context imgaudit can use either.
  std::string dir = config_ / "contexts/meta/" + context_id("gone");
  std::filesystem::create_directories(dir);
  write_file(dir + "/meta.json", R"({"Name":"gone","Endpoints":{"kubernetes":{}}})");
  EXPECT_EQ(docker_error(), "docker context \"gone\": no such context in " + config_.path() +
                                "/contexts (docker context ls lists them)");
}

TEST_F(EngineEndpoints, MalformedConfigFiles) {
  write_file(config_ / "config.json", "{\"currentContext\":");
  EXPECT_EQ(docker_error(), config_ / "config.json: malformed JSON at byte 19");
  write_file(config_ / "config.json", R"({"currentContext":"ci"})");
  std::string dir = config_ / "contexts/meta/" + context_id("ci");
  std::filesystem::create_directories(dir);
  write_file(dir + "/meta.json", "{]");
  EXPECT_EQ(docker_error(), dir + "/meta.json: malformed JSON at byte 2");
}

TEST_F(EngineEndpoints, SshIsNotSupportedAndDockerSaveIsTheWayOut) {
  const std::string rest =
      "engine hosts of the form ssh:// are not supported (unix:// and tcp:// are): `docker save IMAGE | imgaudit -` "
      "reads any engine";
  vars_["DOCKER_HOST"] = "ssh://me@build-host";
  EXPECT_EQ(docker_error(), "DOCKER_HOST: " + rest);
  EXPECT_EQ(docker_error("ssh://me@build-host:22"), "--docker-host: " + rest);
  vars_.erase("DOCKER_HOST");
  write_context("remote", "ssh://me@build-host");
  vars_["DOCKER_CONTEXT"] = "remote";
  EXPECT_EQ(docker_error(), "docker context \"remote\": " + rest);
  EXPECT_EQ(error_of([] { parse_engine_host("npipe:////./pipe/docker_engine", "DOCKER_HOST"); }),
            "DOCKER_HOST: engine hosts of the form npipe:// are not supported (unix:// and tcp:// are): `docker save "
            "IMAGE | imgaudit -` reads any engine");
}

TEST(ParseEngineHost, Forms) {
  expect_endpoint(parse_engine_host("unix:///var/run/docker.sock", "o"), "unix:///var/run/docker.sock", "o",
                  "/var/run/docker.sock", "http://localhost");
  expect_endpoint(parse_engine_host("/var/run/docker.sock", "o"), "unix:///var/run/docker.sock", "o",
                  "/var/run/docker.sock", "http://localhost");
  expect_endpoint(parse_engine_host("tcp://127.0.0.1:2375", "o"), "tcp://127.0.0.1:2375", "o", "",
                  "http://127.0.0.1:2375");
  expect_endpoint(parse_engine_host("tcp://127.0.0.1:2375/", "o"), "tcp://127.0.0.1:2375/", "o", "",
                  "http://127.0.0.1:2375");
  expect_endpoint(parse_engine_host("http://localhost:2375", "o"), "http://localhost:2375", "o", "",
                  "http://localhost:2375");
  expect_endpoint(parse_engine_host("tcp://[::1]:2375", "o"), "tcp://[::1]:2375", "o", "", "http://[::1]:2375");
  expect_no_tls(parse_engine_host("tcp://127.0.0.1:2376", "o"));
  // The docker CLI's defaults: port 2375, and the local host for ":PORT".
  expect_endpoint(parse_engine_host("tcp://127.0.0.1", "o"), "tcp://127.0.0.1", "o", "", "http://127.0.0.1:2375");
  expect_endpoint(parse_engine_host("tcp://[::1]", "o"), "tcp://[::1]", "o", "", "http://[::1]:2375");
  expect_endpoint(parse_engine_host("tcp://:2380", "o"), "tcp://:2380", "o", "", "http://localhost:2380");
}

TEST(ParseEngineHost, Errors) {
  auto error = [](const std::string& host) { return error_of([&] { parse_engine_host(host, "--docker-host"); }); };
  EXPECT_EQ(error("unix://"), "--docker-host: \"unix://\" names no socket");
  EXPECT_EQ(error("tcp://"), "--docker-host: \"tcp://\" is not tcp://HOST:PORT");
  EXPECT_EQ(error("tcp://127.0.0.1:2375/v1.41"), "--docker-host: \"tcp://127.0.0.1:2375/v1.41\" is not tcp://HOST:PORT");
  EXPECT_EQ(error("tcp://me@127.0.0.1:2375"), "--docker-host: \"tcp://me@127.0.0.1:2375\" is not tcp://HOST:PORT");
  EXPECT_EQ(error("127.0.0.1:2375"), "--docker-host: \"127.0.0.1:2375\" is not unix://PATH or tcp://HOST:PORT");
  EXPECT_EQ(error("docker.sock"), "--docker-host: \"docker.sock\" is not unix://PATH or tcp://HOST:PORT");
  EXPECT_EQ(error("ssh://me@host"),
            "--docker-host: engine hosts of the form ssh:// are not supported (unix:// and tcp:// are): `docker save "
            "IMAGE | imgaudit -` reads any engine");
}

TEST_F(EngineEndpoints, PodmanContainerHostOnly) {
  vars_["CONTAINER_HOST"] = "unix:///run/user/1000/podman/podman.sock";
  vars_["XDG_RUNTIME_DIR"] = "/run/user/1000";
  vars_["DOCKER_HOST"] = "unix:///run/docker.sock";
  std::vector<EngineEndpoint> e = podman_endpoints(env());
  ASSERT_EQ(e.size(), 1u);
  expect_endpoint(e[0], "unix:///run/user/1000/podman/podman.sock", "CONTAINER_HOST",
                  "/run/user/1000/podman/podman.sock", "http://localhost");
  vars_["CONTAINER_HOST"] = "tcp://127.0.0.1:8888";
  e = podman_endpoints(env());
  ASSERT_EQ(e.size(), 1u);
  expect_endpoint(e[0], "tcp://127.0.0.1:8888", "CONTAINER_HOST", "", "http://127.0.0.1:8888");
  vars_["CONTAINER_HOST"] = "ssh://core@127.0.0.1:2222/run/podman/podman.sock";
  EXPECT_EQ(error_of([&] { podman_endpoints(env()); }),
            "CONTAINER_HOST: engine hosts of the form ssh:// are not supported (unix:// and tcp:// are): `docker "
            "save IMAGE | imgaudit -` reads any engine");
}

TEST_F(EngineEndpoints, PodmanRuntimeDirThenTheRootSocket) {
  vars_["XDG_RUNTIME_DIR"] = "/run/user/1000";
  std::vector<EngineEndpoint> e = podman_endpoints(env());
  ASSERT_EQ(e.size(), 2u);
  expect_endpoint(e[0], "unix:///run/user/1000/podman/podman.sock", "XDG_RUNTIME_DIR",
                  "/run/user/1000/podman/podman.sock", "http://localhost");
  expect_endpoint(e[1], "unix:///run/podman/podman.sock", "the default socket", "/run/podman/podman.sock",
                  "http://localhost");
}

TEST_F(EngineEndpoints, PodmanRootSocketAlone) {
  std::vector<EngineEndpoint> e = podman_endpoints(env());
  ASSERT_EQ(e.size(), 1u);
  expect_endpoint(e[0], "unix:///run/podman/podman.sock", "the default socket", "/run/podman/podman.sock",
                  "http://localhost");
  expect_no_tls(e[0]);
}

// The layout the endpoint reads is the one the docker CLI writes: contexts made by `docker context create`.
TEST_F(EngineEndpoints, ContextsWrittenByTheDockerCli) {
  if (!have_tool("docker")) GTEST_SKIP() << "the docker CLI is not on PATH (Debian package docker.io)";
  if (!have_tool("openssl")) GTEST_SKIP() << "openssl is not on PATH: the docker CLI takes only real certificates";
  std::string certs = home_ / "certs";
  make_engine_certs(home_ / "ca", certs);
  std::string docker = "env -u DOCKER_HOST -u DOCKER_CONTEXT DOCKER_CONFIG='" + config_.path() + "' HOME='" +
                       home_.path() + "' docker context create ";
  std::string out;
  ASSERT_EQ(run(docker + "ci --docker host=unix:///x.sock 2>&1", &out), 0) << out;
  ASSERT_EQ(run(docker + "remote --docker 'host=tcp://127.0.0.1:2376,ca=" + certs + "/ca.pem,cert=" + certs +
                    "/cert.pem,key=" + certs + "/key.pem' 2>&1",
                &out),
            0)
      << out;
  vars_["DOCKER_CONTEXT"] = "ci";
  expect_endpoint(docker_endpoint("", env()), "unix:///x.sock", "docker context \"ci\"", "/x.sock", "http://localhost");
  vars_["DOCKER_CONTEXT"] = "remote";
  EngineEndpoint e = docker_endpoint("", env());
  expect_endpoint(e, "tcp://127.0.0.1:2376", "docker context \"remote\"", "", "https://127.0.0.1:2376");
  expect_tls(e, context_tls_dir("remote"));
}

}  // namespace
}  // namespace imgaudit::test
