#include "registry/catalog.h"

#include <fnmatch.h>

#include <algorithm>
#include <optional>
#include <set>

#include "registry/client.h"
#include "registry/credentials.h"
#include "registry/paged_list.h"
#include "registry/reference.h"
#include "util/error.h"
#include "util/limits.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

constexpr size_t kShownName = 100;
const char* const kNameThemInstead = "name the images as arguments or with --images-from FILE";

struct Target {
  RegistryRef base;    // the registry, no repository
  std::string prefix;  // "" for all repositories
};

Target parse_target(const std::string& text) {
  std::string t = text;
  while (!t.empty() && t.back() == '/') t.pop_back();
  size_t slash = t.find('/');
  std::string host = t.substr(0, slash);
  std::string prefix = slash == std::string::npos ? "" : t.substr(slash + 1);
  if (host.empty()) throw InputError("\"" + printable(text, kShownName) + "\": no registry host");
  // Else references to what it holds would be read as Docker Hub's.
  if (host.find_first_of(".:") == std::string::npos && host != "localhost" && host[0] != '[')
    throw InputError::about(printable(host, kShownName), "not a registry host (one with a '.' or a port, or localhost)");
  Target target;
  try {
    target.base = parse_registry_ref(host + "/x");
  } catch (const InputError&) {
    throw InputError::about(printable(host, kShownName), "malformed registry host");
  }
  if (!prefix.empty() && !is_repository_name(prefix))
    throw InputError::about(printable(text, kShownName), "\"" + printable(prefix, kShownName) +
                                                             "\" is not a repository name (lowercase letters and digits, "
                                                             "separators . _ __ - between them, parts split by /)");
  target.base.repository.clear();
  target.base.tag.clear();
  target.prefix = prefix;
  return target;
}

bool under(const std::string& name, const std::string& prefix) {
  return prefix.empty() || name == prefix || starts_with(name, prefix + "/");
}

// The names a listing skips, each in a note up to kMaxSkippedNamesNoted, the rest counted: a registry decides
// what its lists hold, and one name that is no name must not stop the scan of a whole fleet.
struct Skipped {
  std::vector<std::string>& notes;
  size_t count = 0;

  void add(const std::string& subject, const std::string& why) {
    if (++count <= kMaxSkippedNamesNoted) notes.push_back(subject + ": skipped " + why);
  }
  void note_the_rest(const std::string& registry) {
    if (count > kMaxSkippedNamesNoted)
      notes.push_back(registry + ": skipped " + std::to_string(count - kMaxSkippedNamesNoted) +
                      " more invalid names (only the first " + std::to_string(kMaxSkippedNamesNoted) + " are named)");
  }
};

// A catalog page's entry, checked as the distribution spec says a name is; nullptr, and a note, for one that
// is not. A name outside the prefix is no concern of this listing, whatever it holds.
const std::string* repository_name(const nlohmann::json& entry, const Target& target, const std::string& subject,
                                   Skipped& skipped) {
  if (!entry.is_string()) {
    skipped.add(subject, "a repository name that is not a string (" + std::string(entry.type_name()) + ")");
    return nullptr;
  }
  const std::string& name = entry.get_ref<const std::string&>();
  if (!under(name, target.prefix)) return nullptr;
  if (!is_repository_name(name)) {
    skipped.add(subject, "\"" + printable(name, kShownName) + "\": not a valid repository name");
    return nullptr;
  }
  if (target.base.registry.size() + 1 + name.size() > kMaxRepositoryNameLength) {
    skipped.add(subject, "repository name \"" + printable(name, kShownName) + "\": longer than " +
                             std::to_string(kMaxRepositoryNameLength) + " characters with its registry");
    return nullptr;
  }
  return &name;
}

// After GET /v2/_catalog answered `response` (not 200).
[[noreturn]] void catalog_refused(HttpStream& response, RegistryClient& client, const std::string& registry,
                                  bool has_credentials) {
  long status = response.status();
  std::string request = "GET /v2/_catalog: " + std::to_string(status);
  if ((status == 401 || status == 403) && !has_credentials)
    throw InputError(registry + ": the registry does not list its repositories to anonymous users (" + request +
                     "): log in with `docker login " + registry + "` or pass --username and --password-stdin, or " +
                     kNameThemInstead);
  if (status == 401 || status == 403 || status == 404 || status == 405 || status == 501)
    throw InputError(registry + ": the registry does not list its repositories (" + request + "): " + kNameThemInstead);
  try {
    client.fail(response, "GET /v2/_catalog");
  } catch (const InputError& e) {
    throw InputError(registry + ": " + e.what());
  }
}

std::set<std::string> list_repositories(RegistryClient& client, const Target& target, size_t page_size,
                                        bool has_credentials, Skipped& skipped) {
  const std::string& registry = target.base.registry;
  const std::string subject = registry + ": GET /v2/_catalog";
  std::set<std::string> names;
  size_t received = 0;
  auto refused = read_pages(client, "/v2/_catalog", page_size, subject, [&](const nlohmann::json& page) {
    auto list = page.find("repositories");
    if (list == page.end())
      throw InputError(registry + ": the registry does not list its repositories (GET /v2/_catalog: no \"repositories\" "
                       "in the answer): " + kNameThemInstead);
    if (list->is_null()) return;
    if (!list->is_array()) throw InputError(subject + ": \"repositories\" is not a list");
    for (const nlohmann::json& entry : *list) {
      if (++received > kMaxRegistryRepositories)
        throw InputError(registry + ": the catalog lists more than " + std::to_string(kMaxRegistryRepositories) +
                         " repositories");
      if (const std::string* name = repository_name(entry, target, subject, skipped)) names.insert(*name);
    }
  });
  if (refused) catalog_refused(*refused, client, registry, has_credentials);
  return names;
}

// The repository's tags, those that are no tags skipped; nullopt, with a note, when the registry refuses them.
std::optional<std::set<std::string>> list_tags(RegistryClient& client, size_t page_size, std::vector<std::string>& notes,
                                               Skipped& skipped) {
  const std::string& registry = client.ref().registry;
  const std::string& name = client.ref().repository;
  const std::string repo = registry + "/" + name;
  const std::string path = "/v2/" + name + "/tags/list";
  const std::string subject = registry + ": GET " + path;
  std::set<std::string> tags;
  size_t received = 0;
  auto refused = read_pages(client, path, page_size, subject, [&](const nlohmann::json& page) {
    auto list = page.find("tags");
    if (list == page.end() || list->is_null()) return;  // docker-registry's "tags": null, once every tag is deleted
    if (!list->is_array()) throw InputError(subject + ": \"tags\" is not a list");
    for (const nlohmann::json& entry : *list) {
      if (++received > kMaxRepositoryTags)
        throw InputError(repo + ": more than " + std::to_string(kMaxRepositoryTags) + " tags");
      if (!entry.is_string()) {
        skipped.add(subject, "a tag that is not a string (" + std::string(entry.type_name()) + ")");
        continue;
      }
      const std::string& tag = entry.get_ref<const std::string&>();
      if (is_tag(tag)) tags.insert(tag);
      else skipped.add(subject, "\"" + printable(tag, kShownName) + "\": not a valid tag");
    }
  });
  if (!refused) return tags;
  long status = refused->status();
  if (status == 401 || status == 403 || status == 404) {
    notes.push_back(repo + ": skipped: its tags could not be listed (GET " + path + ": " + std::to_string(status) + ")");
    return std::nullopt;
  }
  try {
    client.fail(*refused, "GET " + path);
  } catch (const InputError& e) {
    throw InputError(registry + ": " + e.what());
  }
}

}  // namespace

bool selected(const std::string& repo_tag, const std::vector<std::string>& include, const std::vector<std::string>& exclude) {
  auto matches = [&](const std::string& glob) { return fnmatch(glob.c_str(), repo_tag.c_str(), 0) == 0; };
  if (!include.empty() && std::none_of(include.begin(), include.end(), matches)) return false;
  return std::none_of(exclude.begin(), exclude.end(), matches);
}

RegistryListing list_registry(const RegistryQuery& query, const RegistryOptions& options) {
  Target target = parse_target(query.target);
  const std::string& registry = target.base.registry;
  std::optional<Credentials> credentials = credentials_for(registry, options);
  size_t page_size = std::max<size_t>(query.page_size, 1);

  RegistryListing listing;
  listing.registry = registry;
  listing.prefix = target.prefix;
  RegistryClient catalog(target.base, credentials, options, "registry:catalog:*");
  Skipped skipped{listing.notes};
  std::set<std::string> names = list_repositories(catalog, target, page_size, credentials.has_value(), skipped);
  listing.repositories = names.size();
  for (const std::string& name : names) {
    RegistryRef ref = target.base;
    ref.repository = name;
    RegistryClient client(ref, credentials, options);
    auto tags = list_tags(client, page_size, listing.notes, skipped);
    if (!tags) continue;
    if (tags->empty()) listing.notes.push_back(registry + "/" + name + ": no tags, skipped");
    for (const std::string& tag : *tags) {
      if (++listing.listed > kMaxRegistryImages)
        throw InputError(registry + ": more than " + std::to_string(kMaxRegistryImages) + " tagged images");
      if (selected(name + ":" + tag, query.include, query.exclude))
        listing.references.push_back(registry + "/" + name + ":" + tag);
    }
  }
  skipped.note_the_rest(registry);
  std::sort(listing.references.begin(), listing.references.end());
  listing.references.erase(std::unique(listing.references.begin(), listing.references.end()), listing.references.end());
  return listing;
}

std::string why_empty(const RegistryListing& listing) {
  if (!listing.references.empty()) return "";
  const std::string& registry = listing.registry;
  if (listing.repositories == 0)
    return listing.prefix.empty() ? registry + ": the catalog lists no repository"
                                  : registry + ": the catalog lists no repository under " + listing.prefix;
  if (listing.listed == 0)
    return registry + ": no tagged image in " + std::to_string(listing.repositories) +
           (listing.repositories == 1 ? " repository" : " repositories");
  return registry + ": none of the " + std::to_string(listing.listed) + " images listed matched --include/--exclude";
}

}  // namespace imgaudit
