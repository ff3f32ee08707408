#include "layer/layer_bounds.h"

#include <archive_entry.h>

#include <algorithm>

#include "util/error.h"
#include "util/limits.h"
#include "util/paths.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

constexpr size_t kNameShown = 100;  // bytes of an over-long name a finding shows

}  // namespace

bool LayerBounds::over_limit(std::string_view name, const std::string& limit) {
  if (facts_.over_limit.size() < kMaxOverLimitListed)
    facts_.over_limit.push_back({printable(name, kNameShown), limit});
  else
    ++facts_.over_limit_unlisted;
  return false;
}

bool LayerBounds::check_entry(archive_entry* e, std::string_view name, const char* hardlink) {
  path_.reset();
  if (++entries_ > kMaxLayerEntries)
    throw InputError("more than " + std::to_string(kMaxLayerEntries) + " entries in one layer");
  const std::string bytes = std::to_string(kMaxPathBytes) + " bytes (kMaxPathBytes)";
  if (name.size() > kMaxPathBytes) return over_limit(name, "paths longer than " + bytes);
  if (hardlink && std::string_view(hardlink).size() > kMaxPathBytes)
    return over_limit(name, "hard links whose targets are longer than " + bytes);
  if (const char* target = archive_entry_symlink(e); target && std::string_view(target).size() > kMaxPathBytes)
    return over_limit(name, "symbolic links whose targets are longer than " + bytes);
  path_ = normalize_entry_path(name);
  if (!path_) return true;  // LayerBuilder skips it with a warning
  size_t depth = path_->empty() ? 0 : size_t(std::count(path_->begin(), path_->end(), '/')) + 1;
  if (depth > kMaxPathDepth) {
    path_.reset();
    return over_limit(name, "paths deeper than " + std::to_string(kMaxPathDepth) + " folders (kMaxPathDepth)");
  }
  return true;
}

void LayerBounds::count_content() {
  if (!path_) return;
  for (std::map<std::string, std::string>* kept : {&facts_.texts, &facts_.blobs, &facts_.script_heads}) {
    auto content = kept->find(*path_);
    if (content == kept->end()) continue;
    content_bytes_ += content->second.size();
    if (content_bytes_ <= kMaxLayerContentBytes) continue;
    if (kept == &facts_.script_heads)
      content->second.clear();  // an empty head: a script whose line was not kept (never "no script")
    else
      kept->erase(content);
    facts_.warnings.push_back("skipped content of " + display_path(*path_) +
                              ": the layer's text files and caches pass " + std::to_string(kMaxLayerContentBytes) +
                              " bytes in all");
  }
}

}  // namespace imgaudit
