#pragma once
#include <string>

namespace imgaudit {

// A registry image reference, normalised as docker does.
struct RegistryRef {
  std::string registry;    // "docker.io", "ghcr.io", "localhost:5000"
  std::string api_host;    // where the API lives: "registry-1.docker.io" for docker.io
  std::string repository;  // "library/python"
  std::string tag;         // "latest" when neither tag nor digest is given
  std::string digest;      // "sha256:..." when given; then it, not the tag, is pulled

  // "docker.io/library/python:3.12-alpine", with "@sha256:..." when pulled by digest.
  std::string str() const;
  // The tag or the digest, as the manifests endpoint takes it.
  std::string manifest_reference() const { return digest.empty() ? tag : digest; }
  // The host without its port: "localhost", "127.0.0.1", "ghcr.io".
  std::string host_name() const;
};

// NAME[:TAG][@DIGEST]: the registry is the first component when it holds a
// '.' or ':' or is "localhost", else docker.io, where one-word names get
// "library/". Throws InputError saying what is malformed.
RegistryRef parse_registry_ref(const std::string& text);

// The distribution spec's grammar: a repository name (lowercase components
// split by '/', at most kMaxRepositoryNameLength characters) and a tag.
bool is_repository_name(const std::string& name);
bool is_tag(const std::string& tag);

}  // namespace imgaudit
