// imgaudit against a Docker Engine on TCP with TLS (--tlsverify: client certificates required), found
// through DOCKER_HOST, DOCKER_TLS_VERIFY and DOCKER_CERT_PATH, and through a docker context, as the docker
// CLI finds it; and what it says when the TLS side is wrong. The engine is a private one of this file's
// tests alone (not shared_dockerd()), holding the Alpine minirootfs as one image.
#include <curl/curl.h>
#include <gtest/gtest.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <iostream>

#include "image_fixture.h"
#include "local_engine.h"
#include "util/sha256.h"
#include "util/strings.h"

namespace imgaudit::test {
namespace {

const char* const kImage = "tls-test:1";
const std::string kWayOut = " (podman:NAME, --image-src, or `docker save NAME | imgaudit -`)";

class EngineTls : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    std::string rootfs = host_minirootfs();
    if (rootfs.empty()) {
      skip_ = "../shared/rootfs/ has no Alpine minirootfs for this machine's architecture";
      return;
    }
    if (geteuid() != 0) {
      skip_ = "a private dockerd needs root";
      return;
    }
    DockerdOptions options;
    options.tcp_tls = true;
    std::string why;
    engine_ = LocalDockerd::start_or_skip_reason(&why, options).release();
    if (!engine_) {
      skip_ = "no private Docker Engine on TCP with TLS here: " + why;
      return;
    }
    std::string out;
    if (engine_->docker("import '" + rootfs + "' " + kImage + " 2>&1", &out) != 0) {
      skip_ = "docker import failed: " + out;
      return;
    }
    engine_->docker(std::string("image inspect --format '{{.Id}}' ") + kImage, &id_);
    while (!id_.empty() && id_.back() == '\n') id_.pop_back();
  }
  static void TearDownTestSuite() {
    delete engine_;  // dockerd and containerd stopped, the folder removed
    engine_ = nullptr;
  }
  void SetUp() override {
    if (!skip_.empty()) GTEST_SKIP() << skip_;
    ASSERT_TRUE(starts_with(id_, "sha256:")) << id_;
  }

  // imgaudit with only `env` of the engine variables (a HOME of its own, no Podman).
  static CliResult audit(const std::string& env, const std::string& args) {
    TempDir tmp;
    CliResult r;
    r.status = run("env -u DOCKER_HOST -u DOCKER_CONTEXT -u DOCKER_TLS_VERIFY -u DOCKER_CERT_PATH -u DOCKER_CONFIG"
                   " HOME='" + tmp.path() + "' CONTAINER_HOST=unix:///nonexistent/podman.sock CONTAINERD_ADDRESS=/nonexistent/containerd.sock " + env + " " +
                       imgaudit_binary() + " " + args + " 2>'" + tmp / "stderr" + "'",
                   &r.out);
    r.err = read_file(tmp / "stderr");
    return r;
  }
  static CliResult audit_image(const std::string& env, const std::string& options = "") {
    return audit(env, options + std::string(" --format json --fail-on never docker-daemon:") + kImage);
  }
  static void expect_audited(const CliResult& r, const std::string& engine_host) {
    ASSERT_EQ(r.status, 0) << r.err;
    nlohmann::json report = r.json();
    EXPECT_EQ(report["image"]["transport"], "docker");
    EXPECT_EQ(report["image"]["id"], id_);
    EXPECT_EQ(report["image"]["repo_tags"], nlohmann::json::array({kImage}));
    EXPECT_EQ(report["image"]["engine"], engine_host);
    EXPECT_EQ(report["distro"]["id"], "alpine");
  }
  static std::string tls_env(const std::string& cert_dir) {
    return "DOCKER_HOST=" + engine_->tcp_host() + " DOCKER_TLS_VERIFY=1 DOCKER_CERT_PATH='" + cert_dir + "'";
  }
  // "https://127.0.0.1:PORT/images/tls-test:1/json", as the errors name the request.
  static std::string inspect_url(const std::string& scheme) {
    return scheme + "://127.0.0.1:" + engine_->tcp_host().substr(engine_->tcp_host().rfind(':') + 1) + "/images/" +
           kImage + "/json";
  }

  // DOCKER_CONFIG=`config` with config.json's currentContext "ci", whose endpoint is `host`.
  static void write_ci_context(const std::string& config, const std::string& host) {
    std::string id = Sha256::of("ci").substr(7);
    std::filesystem::create_directories(config + "/contexts/meta/" + id);
    write_file(config + "/config.json", R"({"currentContext":"ci"})");
    write_file(config + "/contexts/meta/" + id + "/meta.json",
               R"({"Name":"ci","Metadata":{},"Endpoints":{"docker":{"Host":")" + host + R"(","SkipTLSVerify":false}}})");
  }
  static std::string context_tls_dir(const std::string& config) {
    return config + "/contexts/tls/" + Sha256::of("ci").substr(7) + "/docker";
  }

  static LocalDockerd* engine_;
  static std::string id_, skip_;
};
LocalDockerd* EngineTls::engine_ = nullptr;
std::string EngineTls::id_, EngineTls::skip_;

size_t lines(const std::string& s) { return static_cast<size_t>(std::count(s.begin(), s.end(), '\n')); }

TEST_F(EngineTls, TheDockerCliReachesItWithTheClientCertificate) {
  // The harness's certificates are right: the docker CLI itself speaks to the TCP port with them.
  std::string out;
  ASSERT_EQ(run("env -u DOCKER_CONTEXT DOCKER_CONFIG='" + engine_->dir() + "/client' " +
                    tls_env(engine_->client_cert_dir()) + " docker image inspect --format '{{.Id}}' " + kImage + " 2>&1",
                &out),
            0)
      << out;
  EXPECT_EQ(out, id_ + "\n");
}

TEST_F(EngineTls, DockerHostWithTlsVerifyAndCertPath) {
  CliResult r = audit_image(tls_env(engine_->client_cert_dir()));
  expect_audited(r, engine_->tcp_host());
  EXPECT_EQ(r.err, "");
  nlohmann::json report = r.json();
  EXPECT_EQ(report["image"]["source"], std::string("docker-daemon:") + kImage);

  CliResult text = audit(tls_env(engine_->client_cert_dir()), std::string("--fail-on never docker-daemon:") + kImage);
  EXPECT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("the local Docker Engine at " + engine_->tcp_host()), std::string::npos) << text.out;
}

TEST_F(EngineTls, PlainHttpToTheTlsPort) {
  CliResult r = audit_image("DOCKER_HOST=" + engine_->tcp_host());
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_TRUE(starts_with(r.err, std::string("imgaudit: docker-daemon:") + kImage + ": ")) << r.err;
  // dockerd answers a plain request on its TLS port with HTTP 400 and a text body (Go's): shown, with the way out.
  EXPECT_EQ(r.err, std::string("imgaudit: docker-daemon:") + kImage + ": the Docker Engine at " + engine_->tcp_host() +
                       " (DOCKER_HOST): inspecting " + kImage +
                       ": the engine answered HTTP 400: Client sent an HTTP request to an HTTPS server. (if the engine "
                       "speaks TLS: DOCKER_TLS_VERIFY=1 and DOCKER_CERT_PATH)\n");
  CliResult option = audit_image("DOCKER_HOST=unix:///nonexistent DOCKER_TLS_VERIFY=1 DOCKER_CERT_PATH='" +
                                     engine_->client_cert_dir() + "'",
                                 "--docker-host " + engine_->tcp_host());
  EXPECT_EQ(option.status, 0) << "DOCKER_TLS_VERIFY applies to --docker-host too: " << option.err;
}

TEST_F(EngineTls, ClientCertificateOfAnotherCa) {
  TempDir other;
  make_engine_certs(other / "ca", other / "client", "another test CA");
  // All of it from another CA: imgaudit does not trust the engine's certificate.
  CliResult r = audit_image(tls_env(other / "client"));
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_EQ(r.err, std::string("imgaudit: docker-daemon:") + kImage + ": the Docker Engine at " + engine_->tcp_host() +
                       " (DOCKER_HOST): " + inspect_url("https") +
                       ": TLS error: SSL certificate problem: unable to get local issuer certificate (the engine's "
                       "certificate is checked against " + other / "client/ca.pem)" + kWayOut + "\n");
}

TEST_F(EngineTls, ClientCertificateOfAnotherCaWithTheEnginesCa) {
  TempDir other;
  make_engine_certs(other / "ca", other / "client", "another test CA");
  // The engine's CA, so imgaudit trusts the engine; a client certificate the engine does not trust.
  std::filesystem::copy_file(engine_->client_cert_dir() + "/ca.pem", other / "client/ca.pem",
                             std::filesystem::copy_options::overwrite_existing);
  CliResult r = audit_image(tls_env(other / "client"));
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  // The engine refuses the certificate after the handshake (TLS 1.3): libcurl sees it on its first read, as
  // the alert; when the engine has closed the connection before, as a failed getpeername(), or as a reset on
  // its first write (seen under ASan). Which of libcurl's texts comes is a race, so any one line of libcurl's
  // passes; imgaudit's own part is exact: the certificate may be refused, and the way out.
  const std::string prefix = std::string("imgaudit: docker-daemon:") + kImage + ": the Docker Engine at " +
                             engine_->tcp_host() + " (DOCKER_HOST): " + inspect_url("https") + ": connection lost: ";
  const std::string alert = std::string("OpenSSL SSL_read: ") + curl_version_info(CURLVERSION_NOW)->ssl_version +
                            ": error:0A000412:SSL routines::sslv3 alert bad certificate, errno 0";
  const std::string closed = "getpeername() failed with errno 107: Transport endpoint is not connected";
  const std::string reset = "Send failure: Connection reset by peer";
  const std::string hint = " (the engine may not accept the client certificate " + other / "client/cert.pem)";
  const std::string end = hint + kWayOut + "\n";
  ASSERT_GE(r.err.size(), prefix.size() + end.size()) << r.err;
  EXPECT_EQ(r.err.substr(0, prefix.size()), prefix);
  EXPECT_EQ(r.err.substr(r.err.size() - end.size()), end);
  const std::string curl_text = r.err.substr(prefix.size(), r.err.size() - prefix.size() - end.size());
  EXPECT_FALSE(curl_text.empty());
  EXPECT_EQ(curl_text.find('\n'), std::string::npos);
  // The texts seen so far; a new one is worth knowing of, not a failure.
  if (curl_text != alert && curl_text != closed && curl_text != reset)
    std::cerr << "libcurl said something new: " << curl_text << "\n";
}

TEST_F(EngineTls, TlsVerifyWithoutTheKey) {
  TempDir certs;
  for (const char* f : {"ca.pem", "cert.pem"})
    std::filesystem::copy_file(engine_->client_cert_dir() + "/" + f, certs / f);
  CliResult r = audit_image(tls_env(certs.path()));
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, std::string("imgaudit: docker-daemon:") + kImage + ": DOCKER_TLS_VERIFY: TLS is asked for but " +
                       certs / "key.pem is missing\n");
}

TEST_F(EngineTls, DockerContextOnTheUnixSocket) {
  TempDir config;
  write_ci_context(config.path(), engine_->host());
  CliResult r = audit_image("DOCKER_CONFIG='" + config.path() + "'");
  expect_audited(r, engine_->host());
  // DOCKER_CONTEXT names it as well, and wins over config.json's currentContext.
  write_file(config / "config.json", R"({"currentContext":"gone"})");
  expect_audited(audit_image("DOCKER_CONFIG='" + config.path() + "' DOCKER_CONTEXT=ci"), engine_->host());
  CliResult gone = audit_image("DOCKER_CONFIG='" + config.path() + "'");
  EXPECT_EQ(gone.status, 2);
  EXPECT_EQ(gone.err, std::string("imgaudit: docker-daemon:") + kImage + ": docker context \"gone\": no such context in " +
                          config.path() + "/contexts (docker context ls lists them)\n");
}

TEST_F(EngineTls, DockerContextOnTheTlsPort) {
  TempDir config;
  write_ci_context(config.path(), engine_->tcp_host());
  std::string tls = context_tls_dir(config.path());
  std::filesystem::create_directories(tls);
  for (const char* f : {"ca.pem", "cert.pem", "key.pem"})
    std::filesystem::copy_file(engine_->client_cert_dir() + "/" + f, tls + "/" + f);
  // The docker CLI takes the same context (the layout is its own).
  std::string out;
  ASSERT_EQ(run("env -u DOCKER_HOST -u DOCKER_CONTEXT -u DOCKER_TLS_VERIFY -u DOCKER_CERT_PATH DOCKER_CONFIG='" +
                    config.path() + "' docker image inspect --format '{{.Id}}' " + kImage + " 2>&1",
                &out),
            0)
      << out;
  EXPECT_EQ(out, id_ + "\n");
  expect_audited(audit_image("DOCKER_CONFIG='" + config.path() + "'"), engine_->tcp_host());
}

}  // namespace
}  // namespace imgaudit::test
