#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "registry/registry_options.h"

namespace imgaudit {

// Names asked for a page of the catalog and of a tags list: what Docker Hub and docker-registry accept.
inline constexpr size_t kRegistryListPageSize = 100;

struct RegistryQuery {
  std::string target;                         // HOST[/REPO-PREFIX]: "host:5000", "ghcr.io/org/team"
  std::vector<std::string> include, exclude;  // fnmatch globs over "REPO:TAG" ('*' crosses '/')
  size_t page_size = kRegistryListPageSize;   // asked with ?n=
};

struct RegistryListing {
  std::string registry;                 // HOST as the references name it
  std::string prefix;                   // REPO-PREFIX, "" for the whole registry
  std::vector<std::string> references;  // "HOST/REPO:TAG" selected, sorted, unique
  size_t repositories = 0;              // repositories under the prefix, tags or not
  size_t listed = 0;                    // their tagged references, before --include and --exclude
  std::vector<std::string> notes;       // one line each: a repository or name skipped, and why
};

// Lists what a registry holds: GET /v2/_catalog, then each repository's
// /v2/NAME/tags/list, both page by page (Link: <...>; rel="next"). With a
// prefix, only the repositories under it ("HOST/team": team, team/a, team/b/c;
// not teamx). Bearer tokens are asked for registry:catalog:* and
// repository:NAME:pull. A repository without tags, or whose tags are refused,
// is a note, not an error; so is a name that is no repository name or tag,
// which is skipped (kMaxSkippedNamesNoted are named, the rest counted).
// Throws InputError (one line) for a registry that does not serve its
// catalog, saying what to do instead, and for hostile answers past the
// bounds of util/limits.h (kMaxListPages, kMaxListPageBytes, kMaxListBytes,
// kMaxPageLinkBytes, kMaxRegistryRepositories, kMaxRepositoryTags,
// kMaxRegistryImages).
RegistryListing list_registry(const RegistryQuery& query, const RegistryOptions& options);

// Whether "REPO:TAG" matches one of `include` (all do when it is empty) and none of `exclude`.
bool selected(const std::string& repo_tag, const std::vector<std::string>& include, const std::vector<std::string>& exclude);

// Why the listing holds no reference, as one line ("" when it holds some):
// "HOST/team: no repository under team", "HOST: no tagged image", or
// "HOST: none of the 31 images listed matched --include/--exclude".
std::string why_empty(const RegistryListing& listing);

}  // namespace imgaudit
