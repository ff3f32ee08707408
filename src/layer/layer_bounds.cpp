#include "layer/layer_bounds.h"

#include <archive_entry.h>

#include <algorithm>

#include "util/error.h"
#include "util/limits.h"
#include "util/paths.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

constexpr size_t kNameShown = 100;  // bytes of a refused name its error line shows

void check_length(std::string_view what, std::string_view path) {
  if (path.size() > kMaxPathBytes)
    throw InputError(std::string(what) + " of " + std::to_string(path.size()) + " bytes, longer than the limit of " +
                     std::to_string(kMaxPathBytes) + ": '" + printable(path, kNameShown) + "'");
}

}  // namespace

void LayerBounds::check_entry(archive_entry* e, std::string_view name, const char* hardlink) {
  path_.reset();
  if (++entries_ > kMaxLayerEntries)
    throw InputError("more than " + std::to_string(kMaxLayerEntries) + " entries in one layer");
  check_length("path", name);
  if (hardlink) check_length("hard link target", hardlink);
  if (const char* target = archive_entry_symlink(e)) check_length("symlink target", target);
  path_ = normalize_entry_path(name);
  if (!path_) return;  // LayerBuilder skips it with a warning
  size_t depth = path_->empty() ? 0 : size_t(std::count(path_->begin(), path_->end(), '/')) + 1;
  if (depth > kMaxPathDepth)
    throw InputError("path " + std::to_string(depth) + " folders deep, deeper than the limit of " +
                     std::to_string(kMaxPathDepth) + ": '" + printable(name, kNameShown) + "'");
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
