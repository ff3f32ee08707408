#include "util/lossless_json.h"

#include "util/strings.h"

namespace imgaudit {

namespace {

nlohmann::json encoded(const nlohmann::json& j) {
  if (j.is_string()) return lossless_utf8(j.get_ref<const std::string&>());
  if (j.is_array()) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& e : j) out.push_back(encoded(e));
    return out;
  }
  if (j.is_object()) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [key, value] : j.items()) out[lossless_utf8(key)] = encoded(value);
    return out;
  }
  return j;
}

// `dumped` (JSON text, well-formed UTF-8) with DEL and the C1 controls (U+0080..U+009F, UTF-8 C2 80..C2 9F)
// escaped as \u007f and \u0080..\u009f, which nlohmann's dump prints raw: some terminals take U+009B for
// CSI. Outside strings JSON is ASCII without DEL, so these bytes are always inside a string.
std::string escape_del_and_c1(std::string dumped) {
  static const char hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(dumped.size());
  for (size_t i = 0; i < dumped.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(dumped[i]);
    unsigned code = 0;
    if (c == 0x7f) {
      code = 0x7f;
    } else if (c == 0xc2 && i + 1 < dumped.size() && (static_cast<unsigned char>(dumped[i + 1]) & 0xe0) == 0x80) {
      code = static_cast<unsigned char>(dumped[++i]);
    } else {
      out += dumped[i];
      continue;
    }
    out += "\\u00";
    out += hex[code >> 4];
    out += hex[code & 15];
  }
  return out;
}

}  // namespace

std::string dump_lossless(const nlohmann::json& j, int indent) { return escape_del_and_c1(encoded(j).dump(indent)); }

}  // namespace imgaudit
