#include "app/fleet_cli.h"

#include <iostream>

#include "app/image_list.h"
#include "registry/catalog.h"
#include "util/error.h"
#include "util/strings.h"

namespace imgaudit {

void add_fleet_options(CLI::App& app, FleetCliOptions& out) {
  app.add_option("--images-from", out.images_from,
                 "FILE listing images to audit, one a line (# comments; - for standard input), after any IMAGE");
  app.add_option("--registry", out.registry,
                 "HOST[/REPO-PREFIX]: audit every tagged image the registry lists (/v2/_catalog), or those under the "
                 "prefix");
  app.add_option("--include", out.include, "with --registry: only REPO:TAG matching this glob; repeatable")
      ->allow_extra_args(false);
  app.add_option("--exclude", out.exclude, "with --registry: not REPO:TAG matching this glob; repeatable")
      ->allow_extra_args(false);
  app.add_option("--registry-page-size", out.page_size,
                 "with --registry: names asked for a page of the catalog and of a tags list (default 100)")
      ->check(CLI::Range(size_t(1), size_t(10000)));
  app.add_option("--shard", out.shard,
                 "K/N: audit only the K-th of N shares of the images, by digest, the same in every run (N processes "
                 "cover a list once); K may be I+1, as a Kubernetes Indexed Job writes $(JOB_COMPLETION_INDEX)+1/N");
}

std::vector<std::string> fleet_images(const std::vector<std::string>& arguments, const FleetCliOptions& cli,
                                      const RegistryOptions& registry, bool quiet) {
  if (cli.registry.empty() && (!cli.include.empty() || !cli.exclude.empty() || cli.page_size))
    throw InputError(std::string(!cli.include.empty() ? "--include" : !cli.exclude.empty() ? "--exclude" : "--registry-page-size") +
                     " selects what --registry lists: name the registry with --registry HOST[/REPO-PREFIX]");
  std::vector<std::string> images = arguments;
  if (!cli.images_from.empty()) {
    std::vector<std::string> listed = read_image_list(cli.images_from);
    images.insert(images.end(), listed.begin(), listed.end());
  }
  std::string why_none = cli.images_from.empty() ? "name one" : cli.images_from + " lists none";
  if (!cli.registry.empty()) {
    RegistryQuery query;
    query.target = cli.registry;
    query.include = cli.include;
    query.exclude = cli.exclude;
    if (cli.page_size) query.page_size = cli.page_size;
    RegistryListing listing = list_registry(query, registry);
    if (!quiet)
      for (const std::string& note : listing.notes) std::cerr << "imgaudit: note: " << printable(note) << '\n';
    images.insert(images.end(), listing.references.begin(), listing.references.end());
    if (listing.references.empty()) why_none = why_empty(listing);
  }
  if (images.empty()) throw InputError("no image to audit: " + why_none);
  return unique_images(images);
}

}  // namespace imgaudit
