#include <cctype>

#include "facts/image_facts.h"
#include "util/paths.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

// A POSIX TZ rule ("UTC0", "EST5EDT", "<+03>-3", "CET-1CEST,M3.5.0,M10.5.0/3") needs no zone file:
// a name of 3+ letters (or <quoted>) followed by an offset.
bool is_posix_tz(std::string_view s) {
  size_t i = 0;
  if (i < s.size() && s[i] == '<') {
    size_t close = s.find('>');
    if (close == std::string_view::npos || close < 4) return false;
    i = close + 1;
  } else {
    while (i < s.size() && std::isalpha(static_cast<unsigned char>(s[i]))) ++i;
    if (i < 3) return false;
  }
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  return i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]));
}

bool is_file(const FsView& view, const std::string& path) {
  const Node* n = view.lookup(path);
  return n && n->type == EntryType::File;
}

}  // namespace

TzFacts detect_tz(const FsView& view, const ImageInfo& image) {
  TzFacts tz;
  if (auto dir = view.resolve("usr/share/zoneinfo")) {
    // nodes() is sorted by path: the folder's subtree is one contiguous range.
    const auto& nodes = view.nodes();
    std::string prefix = *dir + "/";
    for (auto it = nodes.lower_bound(prefix); it != nodes.end() && starts_with(it->first, prefix);
         ++it)
      if (it->second.type == EntryType::File) ++tz.zone_count;
  }
  tz.has_zoneinfo = tz.zone_count > 0;

  tz.tz_env = image.env_value("TZ");
  if (tz.tz_env) {
    std::string value = *tz.tz_env;
    if (!value.empty() && value[0] == ':') value.erase(0, 1);
    if (value.empty()) {
      tz.tz_zone_present = true;  // an empty TZ means UTC
    } else if (value[0] == '/') {
      tz.tz_zone_present = is_file(view, join_in_image("", value));
    } else {
      tz.tz_zone_present = is_file(view, join_in_image("usr/share/zoneinfo", value)) ||
                           ((*tz.tz_env)[0] != ':' && is_posix_tz(value));
    }
  }
  return tz;
}

}  // namespace imgaudit
