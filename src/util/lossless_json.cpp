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

}  // namespace

std::string dump_lossless(const nlohmann::json& j, int indent) { return encoded(j).dump(indent); }

}  // namespace imgaudit
