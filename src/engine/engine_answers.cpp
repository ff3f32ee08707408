#include "engine/engine_answers.h"

#include "source/json_blobs.h"
#include "util/bounded_json.h"
#include "util/error.h"

namespace imgaudit {

namespace {

std::vector<std::string> strings_of(const nlohmann::json& j, const char* key) {
  std::vector<std::string> out;
  auto it = j.find(key);
  if (it == j.end() || !it->is_array()) return out;
  for (const nlohmann::json& s : *it)
    if (s.is_string()) out.push_back(s.get<std::string>());
  return out;
}

}  // namespace

InspectedImage parse_inspect_answer(const std::string& body) {
  std::string problem;
  std::optional<nlohmann::json> j = parse_bounded_json(body, &problem);
  if (!j) throw InputError(problem);
  if (!j->is_object() || !j->contains("Id") || !(*j)["Id"].is_string()) throw InputError("the answer has no image Id");
  return {(*j)["Id"].get<std::string>(), strings_of(*j, "RepoTags"), strings_of(*j, "RepoDigests"),
          {string_field(*j, "Os"), string_field(*j, "Architecture"), string_field(*j, "Variant")}};
}

std::string engine_error_message(const std::string& body) {
  nlohmann::json j = parse_bounded_json_or_discarded(body);
  if (j.is_object() && j.contains("message") && j["message"].is_string()) return j["message"];
  if (!j.is_discarded()) return "";
  return body.substr(0, body.find('\n'));
}

}  // namespace imgaudit
