#include "util/bounded_json.h"

namespace imgaudit {

namespace {

struct TooDeep {};

}  // namespace

std::optional<nlohmann::json> parse_bounded_json(std::string_view text, std::string* problem) {
  // The parser itself keeps its state on the heap: the callback stops it before the value grows deep.
  auto depth_limit = [](int depth, nlohmann::json::parse_event_t event, nlohmann::json&) {
    if (depth >= kMaxJsonDepth && (event == nlohmann::json::parse_event_t::object_start ||
                                   event == nlohmann::json::parse_event_t::array_start))
      throw TooDeep{};
    return true;
  };
  try {
    return nlohmann::json::parse(text, depth_limit);
  } catch (const TooDeep&) {
    *problem = "JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels";
  } catch (const nlohmann::json::parse_error& e) {
    *problem = "malformed JSON at byte " + std::to_string(e.byte);
  } catch (const nlohmann::json::out_of_range&) {  // a number beyond a double: 1e999
    *problem = "JSON number out of range";
  }
  return std::nullopt;
}

nlohmann::json parse_bounded_json_or_discarded(std::string_view text) {
  std::string problem;
  auto j = parse_bounded_json(text, &problem);
  return j ? std::move(*j) : nlohmann::json(nlohmann::json::value_t::discarded);
}

}  // namespace imgaudit
