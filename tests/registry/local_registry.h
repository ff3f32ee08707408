#pragma once
// A reference registry (docker-registry) on 127.0.0.1 for the tests, with
// its own config and storage, images pushed to it with skopeo, and the
// imgaudit binary run against it.
#include <memory>
#include <string>
#include <vector>

#include "registry/registry_options.h"
#include "test_support.h"
#include "writer/image_writer.h"

namespace imgaudit::test {

// A python3 on PATH that imports jwt and cryptography (Debian's python3-jwt and python3-cryptography); "" when none.
std::string python_with_crypto();

// Options for imgaudit's registry client in a test: never this machine's Docker config, retries without a wait, and
// an HTTP session and pings of their own (a run's).
RegistryOptions offline_registry_options(const TempDir& tmp);

struct RegistrySetup {
  bool tls = false;                      // HTTPS with a certificate from a CA made for the test
  std::string basic_user, basic_password; // htpasswd (bcrypt) basic auth when set
  bool token = false;                    // `auth: token`, with token_server.py
  std::string token_user = "alice", token_password = "wonderland";
  int token_expires_in = 300;
};

class LocalRegistry {
 public:
  // Starts the registry and waits until /v2/ answers; throws std::runtime_error when it cannot.
  explicit LocalRegistry(RegistrySetup setup = {});
  ~LocalRegistry();

  std::string host() const { return "127.0.0.1:" + std::to_string(port_); }
  std::string ca_cert() const { return dir_ / "certs/ca.crt"; }
  std::string storage() const { return dir_ / "data"; }
  std::string dir() const { return dir_.path(); }
  // skopeo copy of an OCI layout's tag (all of its platforms) to NAME:TAG.
  void push(const std::string& layout, const std::string& tag, const std::string& name_tag,
            const std::string& skopeo_options = "");
  // GET requests for blobs of `repository` so far, from the registry's access log.
  int blob_gets(const std::string& repository, const std::string& digest = "") const;
  std::string log() const { return read_file(dir_ / "registry.log"); }
  std::string token_log() const { return read_file(dir_ / "tokens.log"); }
  // The file holding the blob's bytes in the registry's storage.
  std::string blob_file(const std::string& digest) const;
  Background& process() { return *registry_; }
  void stop() { registry_->kill_now(); }

 private:
  RegistrySetup setup_;
  TempDir dir_;
  int port_ = 0;
  std::unique_ptr<Background> token_server_;
  std::unique_ptr<Background> registry_;
};

// Writes `spec` as an OCI layout in `dir` tagged spec.tag; returns the manifest digest.
std::string write_layout(const ImageSpec& spec, const std::string& dir);

// Makes the layout's `tag` a multi-platform index of the images tagged `tags`
// (each with its platform), plus an attestation entry (unknown/unknown)
// pointing at the image tagged `attestation` when not empty. Returns the index digest.
std::string make_index(const std::string& layout, const std::string& tag, const std::vector<std::string>& tags,
                       const std::string& attestation);

// A TCP port on 127.0.0.1 that was free a moment ago (a server started on it may still lose it to another).
int free_port();

struct CliRun {
  int status = -1;
  std::string out, err;
};

// Runs imgaudit with `args`, with the cache and docker's config inside `home`
// (XDG_CACHE_HOME=home/cache, DOCKER_CONFIG=home/docker) and `env` ("K=V ...") and `stdin_text`.
// Bare names go to the registry only (--image-src remote): an engine on this machine plays no part.
CliRun imgaudit(const std::string& home, const std::string& args, const std::string& env = "",
             const std::string& stdin_text = "");

// A layer of random bytes (incompressible) of `size` bytes, stored uncompressed unless told (skopeo
// compresses an uncompressed layer it pushes, so that the registry holds it under another digest).
LayerBlob random_layer(size_t size, const std::string& path, Compression compression = Compression::None);

LayerBlob small_layer(const std::string& path, const std::string& content);

}  // namespace imgaudit::test

#define SKIP_WITHOUT_REGISTRY_TOOLS()                                                                       \
  if (!::imgaudit::test::have_tool("docker-registry") || !::imgaudit::test::have_tool("skopeo"))           \
  GTEST_SKIP() << "docker-registry and skopeo (Debian packages docker-registry and skopeo) are needed"
