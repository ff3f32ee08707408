#include "local_registry.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <random>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "net/http_session.h"
#include "util/sha256.h"

namespace imgaudit::test {

namespace {

std::string here() { return std::string(IMGAUDIT_SOURCE_DIR) + "/tests/registry"; }


bool port_open(int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bool ok = connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  close(fd);
  return ok;
}

}  // namespace

int free_port() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t len = sizeof a;
  getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  close(fd);
  return ntohs(a.sin_port);
}

RegistryOptions offline_registry_options(const TempDir& tmp) {
  RegistryOptions options;
  options.docker_config = tmp / "no-docker-config.json";
  options.http.first_retry_wait_ms = 1;
  options.http.session = std::make_shared<HttpSession>();
  options.pings = std::make_shared<RegistryPings>();
  return options;
}

std::string python_with_crypto() { return python_with("jwt, cryptography"); }

LocalRegistry::LocalRegistry(RegistrySetup setup) : setup_(std::move(setup)) {
  port_ = free_port();
  std::filesystem::create_directories(dir_ / "certs");
  std::string config = "version: 0.1\nlog:\n  level: info\nstorage:\n  filesystem:\n    rootdirectory: " + storage() +
                       "\n  delete:\n    enabled: true\nhttp:\n  addr: 127.0.0.1:" + std::to_string(port_) + "\n";
  if (setup_.tls || !setup_.basic_user.empty()) {
    std::string py = python_with_crypto();
    if (py.empty() ||
        run(shell_quoted(py) + " " + shell_quoted(here() + "/make_certs.py") + " " + shell_quoted(dir_ / "certs")) != 0)
      throw std::runtime_error("cannot make the test certificates (python3-cryptography)");
    // skopeo's --dest-cert-dir takes every key in it for a client certificate: only the CA stays there.
    std::filesystem::create_directories(dir_ / "tls");
    for (const char* f : {"server.crt", "server.key"}) std::filesystem::rename(dir_ / ("certs/" + std::string(f)), dir_ / ("tls/" + std::string(f)));
    config += "  tls:\n    certificate: " + (dir_ / "tls/server.crt") + "\n    key: " + (dir_ / "tls/server.key") + "\n";
  }
  if (!setup_.basic_user.empty()) {
    std::string line;
    if (run(shell_quoted(python_with_crypto()) + " " + shell_quoted(here() + "/htpasswd.py") + " " +
                shell_quoted(setup_.basic_user) + " " + shell_quoted(setup_.basic_password),
            &line) != 0)
      throw std::runtime_error("htpasswd.py failed");
    write_file(dir_ / "htpasswd", line);
    config += "auth:\n  htpasswd:\n    realm: imgaudit-test\n    path: " + (dir_ / "htpasswd") + "\n";
  }
  if (setup_.token) {
    std::string py = python_with_crypto();
    if (py.empty()) throw std::runtime_error("no python3 with jwt and cryptography");
    token_server_ = std::make_unique<Background>(
        std::vector<std::string>{py, here() + "/token_server.py", dir_.path(), "imgaudit-test-issuer", setup_.token_user,
                                 setup_.token_password, std::to_string(setup_.token_expires_in)},
        dir_ / "token_server.log");
    if (!wait_until([&] { return std::filesystem::exists(dir_ / "token.port"); }))
      throw std::runtime_error("the token server did not start: " + read_file(dir_ / "token_server.log"));
    std::string token_port = read_file(dir_ / "token.port");
    config += "auth:\n  token:\n    realm: http://127.0.0.1:" + token_port +
              "/token\n    service: imgaudit-test-registry\n    issuer: imgaudit-test-issuer\n    rootcertbundle: " +
              (dir_ / "token.crt") + "\n";
  }
  write_file(dir_ / "config.yml", config);
  registry_ = std::make_unique<Background>(std::vector<std::string>{"docker-registry", "serve", dir_ / "config.yml"},
                                           dir_ / "registry.log");
  if (!wait_until([&] { return port_open(port_); }))
    throw std::runtime_error("docker-registry did not start: " + log());
}

LocalRegistry::~LocalRegistry() {
  registry_.reset();
  token_server_.reset();
}

void LocalRegistry::push(const std::string& layout, const std::string& tag, const std::string& name_tag,
                         const std::string& skopeo_options) {
  std::string dest = setup_.tls || !setup_.basic_user.empty() ? "--dest-cert-dir " + shell_quoted(dir_ / "certs")
                                                              : std::string("--dest-tls-verify=false");
  if (!setup_.basic_user.empty())
    dest += " --dest-creds " + shell_quoted(setup_.basic_user + ":" + setup_.basic_password);
  if (setup_.token) dest += " --dest-creds " + shell_quoted(setup_.token_user + ":" + setup_.token_password);
  std::string log;
  // A private auth file: skopeo must not use (or write) the user's.
  int rc = run("REGISTRY_AUTH_FILE=" + shell_quoted(dir_ / "skopeo-auth.json") + " skopeo copy --quiet --all " +
                   skopeo_options + " " + dest + " " + shell_quoted("oci:" + layout + ":" + tag) + " " +
                   shell_quoted("docker://" + host() + "/" + name_tag) + " 2>&1",
               &log);
  if (rc != 0) throw std::runtime_error("skopeo copy failed: " + log);
}

int LocalRegistry::blob_gets(const std::string& repository, const std::string& digest) const {
  std::string needle = "\"GET /v2/" + repository + "/blobs/" + digest;
  std::string text = log();
  int n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

std::string LocalRegistry::blob_file(const std::string& digest) const {
  std::string hex = digest.substr(7);
  return storage() + "/docker/registry/v2/blobs/sha256/" + hex.substr(0, 2) + "/" + hex + "/data";
}

std::string write_layout(const ImageSpec& spec, const std::string& dir) {
  write_oci_layout(spec, dir);
  auto index = nlohmann::json::parse(read_file(dir + "/index.json"));
  for (auto& m : index["manifests"])
    if (m["annotations"]["org.opencontainers.image.ref.name"] == spec.tag) return m["digest"];
  return "";
}

std::string make_index(const std::string& layout, const std::string& tag, const std::vector<std::string>& tags,
                       const std::string& attestation) {
  auto top = nlohmann::json::parse(read_file(layout + "/index.json"));
  nlohmann::json image_index = {{"schemaVersion", 2},
                                {"mediaType", "application/vnd.oci.image.index.v1+json"},
                                {"manifests", nlohmann::json::array()}};
  for (auto& m : top["manifests"]) {
    std::string ref = m["annotations"]["org.opencontainers.image.ref.name"];
    nlohmann::json entry = m;
    entry.erase("annotations");
    if (std::find(tags.begin(), tags.end(), ref) != tags.end()) {
      image_index["manifests"].push_back(entry);
    } else if (ref == attestation) {
      entry["platform"] = {{"os", "unknown"}, {"architecture", "unknown"}};
      entry["annotations"] = {{"vnd.docker.reference.type", "attestation-manifest"}};
      image_index["manifests"].push_back(entry);
    }
  }
  std::string bytes = image_index.dump();
  std::string digest = Sha256::of(bytes);
  write_file(layout + "/blobs/sha256/" + digest.substr(7), bytes);
  top["manifests"].push_back({{"mediaType", "application/vnd.oci.image.index.v1+json"},
                              {"digest", digest},
                              {"size", bytes.size()},
                              {"annotations", {{"org.opencontainers.image.ref.name", tag}}}});
  write_file(layout + "/index.json", top.dump());
  return digest;
}

CliRun imgaudit(const std::string& home, const std::string& args, const std::string& env, const std::string& stdin_text) {
  std::filesystem::create_directories(home + "/docker");
  std::string in = home + "/stdin", err = home + "/stderr";
  write_file(in, stdin_text);
  CliRun r;
  // Retries wait 1 ms, not 500: RetriesWaitLongerEachTime checks the waits themselves.
  r.status = run("env IMGAUDIT_RETRY_WAIT=1 XDG_CACHE_HOME=" + shell_quoted(home + "/cache") + " DOCKER_CONFIG=" +
                     shell_quoted(home + "/docker") + " " + env + " " + shell_quoted(imgaudit_binary()) +
                     " --image-src remote " + args + " <" + shell_quoted(in) + " 2>" + shell_quoted(err),
                 &r.out);
  r.err = read_file(err);
  return r;
}

LayerBlob random_layer(size_t size, const std::string& path, Compression compression) {
  std::mt19937_64 rng(size);
  std::string content(size, '\0');
  for (size_t i = 0; i + 8 <= size; i += 8) {
    uint64_t v = rng();
    std::memcpy(&content[i], &v, 8);
  }
  LayerBlob l;
  l.bytes = make_layer_blob({TarEntrySpec::file(path, content)}, compression);
  l.compression = compression;
  l.created_by = "COPY big " + path;
  return l;
}

LayerBlob small_layer(const std::string& path, const std::string& content) {
  LayerBlob l;
  l.bytes = make_layer_blob({TarEntrySpec::dir("etc"), TarEntrySpec::file(path, content)}, Compression::Gzip);
  l.compression = Compression::Gzip;
  l.created_by = "COPY " + path + " /" + path;
  return l;
}

}  // namespace imgaudit::test
