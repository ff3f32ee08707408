#include "registry/reference.h"

#include <regex>

#include "util/error.h"
#include "util/sha256.h"
#include "util/limits.h"
#include "util/strings.h"

namespace imgaudit {

namespace {


// The grammar of github.com/distribution/reference.
const std::regex& component_re() {
  static const std::regex re("[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*");
  return re;
}
const std::regex& tag_re() {
  static const std::regex re("[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}");
  return re;
}
const std::regex& domain_re() {
  static const std::regex re(
      "(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*|\\[[0-9A-Fa-f:]+\\])"
      "(?::[0-9]+)?");
  return re;
}

}  // namespace

bool is_repository_name(const std::string& name) {
  // Before the regex, which recurses once a character.
  if (name.empty() || name.size() > kMaxRepositoryNameLength) return false;
  for (const std::string& component : split(name, "/"))
    if (!std::regex_match(component, component_re())) return false;
  return true;
}

bool is_tag(const std::string& tag) { return tag.size() <= 128 && std::regex_match(tag, tag_re()); }

std::string RegistryRef::str() const {
  std::string s = registry + "/" + repository;
  if (!digest.empty()) return s + "@" + digest;
  return s + ":" + tag;
}

std::string RegistryRef::host_name() const {
  if (!registry.empty() && registry[0] == '[') return registry.substr(0, registry.find(']') + 1);
  return registry.substr(0, registry.rfind(':'));
}

RegistryRef parse_registry_ref(const std::string& text) {
  auto bad = [&](const std::string& why) { return InputError("invalid image reference: " + why); };
  if (text.empty()) throw bad("empty");
  if (text.size() > kMaxReferenceLength) throw bad("longer than " + std::to_string(kMaxReferenceLength) + " characters");
  RegistryRef ref;
  std::string rest = text;

  if (size_t at = rest.find('@'); at != std::string::npos) {
    ref.digest = rest.substr(at + 1);
    rest = rest.substr(0, at);
    if (!starts_with(ref.digest, "sha256:"))
      throw bad("only sha256 digests are supported, got \"" + ref.digest.substr(0, 80) + "\"");
    if (!is_sha256_digest(ref.digest)) throw bad("malformed digest \"" + ref.digest.substr(0, 80) + "\" (expected sha256:<64 lowercase hex>)");
  }
  // A ':' after the last '/' starts the tag; one before it belongs to a port.
  size_t slash = rest.rfind('/');
  size_t colon = rest.rfind(':');
  if (colon != std::string::npos && (slash == std::string::npos || colon > slash)) {
    ref.tag = rest.substr(colon + 1);
    rest = rest.substr(0, colon);
    if (!std::regex_match(ref.tag, tag_re())) throw bad("malformed tag \"" + ref.tag.substr(0, 140) + "\"");
  }
  if (rest.empty()) throw bad("no repository name");

  size_t first = rest.find('/');
  std::string head = rest.substr(0, first);
  bool has_domain = first != std::string::npos &&
                    (head.find_first_of(".:") != std::string::npos || head == "localhost" || head[0] == '[');
  std::string path;
  if (has_domain) {
    if (!std::regex_match(head, domain_re())) throw bad("malformed registry host \"" + head + "\"");
    ref.registry = head;
    path = rest.substr(first + 1);
  } else {
    ref.registry = "docker.io";
    path = rest;
  }
  if (ref.registry == "index.docker.io" || ref.registry == "registry-1.docker.io") ref.registry = "docker.io";
  if (ref.registry == "docker.io" && path.find('/') == std::string::npos) path = "library/" + path;

  size_t start = 0;
  for (;;) {
    size_t end = path.find('/', start);
    std::string component = path.substr(start, end - start);
    if (component.empty()) throw bad("empty path component in \"" + path + "\"");
    if (!std::regex_match(component, component_re())) {
      for (char c : component)
        if (c >= 'A' && c <= 'Z') throw bad("repository name \"" + path + "\" must be lowercase");
      throw bad("malformed repository name \"" + path + "\" (lowercase letters, digits and separators . _ __ -)");
    }
    if (end == std::string::npos) break;
    start = end + 1;
  }
  if (ref.registry.size() + 1 + path.size() > kMaxRepositoryNameLength)
    throw bad("repository name longer than " + std::to_string(kMaxRepositoryNameLength) + " characters");
  ref.repository = path;
  ref.api_host = ref.registry == "docker.io" ? "registry-1.docker.io" : ref.registry;
  if (ref.tag.empty() && ref.digest.empty()) ref.tag = "latest";
  return ref;
}

}  // namespace imgaudit
