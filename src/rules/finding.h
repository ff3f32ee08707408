#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace imgaudit {

enum class Severity { Info = 0, Warning = 1, Error = 2 };
const char* to_string(Severity s);                     // "info", "warning", "error"
std::optional<Severity> parse_severity(const std::string& s);

// Where in the user's Dockerfile the instruction behind a finding is (--dockerfile).
struct DockerfileLine {
  std::string file;
  int start_line = 0, end_line = 0;
  std::string instruction;  // "RUN apk add --no-cache build-base"
};
void to_json(nlohmann::json& j, const DockerfileLine& l);  // {file, start_line, end_line, instruction}

// What a finding is about comes from: files one layer brought, what the image config says (Env, User,
// Cmd), the merged image as a whole (no zone files at all), or a rootfs folder, which has no layers.
enum class FindingOrigin { Layer, Config, Image, Folder };
const char* to_string(FindingOrigin o);  // "layer", "config", "image", "folder"

// One value a finding shows, kept as a value so that each report renders it itself: text (a version, a
// user, an error), a number (how many files), a flag (whether the image was set up to run), or a list
// (libraries, packages, layers).
class FindingValue {
 public:
  FindingValue(std::string text) : value_(std::move(text)) {}  // NOLINT: values are given as literals
  FindingValue(const char* text) : value_(std::string(text)) {}  // NOLINT
  FindingValue(std::vector<std::string> list) : value_(std::move(list)) {}  // NOLINT
  static FindingValue number(int64_t n) { return FindingValue(Held(n)); }
  static FindingValue flag(bool on) { return FindingValue(Held(on)); }

  const std::vector<std::string>* list() const { return std::get_if<std::vector<std::string>>(&value_); }
  // What a catalog note's "when" reads as absent: "", an empty list, 0, false.
  bool empty() const;
  // As prose shows it: a list joined by `separator`, a number in decimal, a flag as yes or no.
  std::string shown(const std::string& separator = ", ") const;
  nlohmann::json json() const;
  bool operator==(const FindingValue& o) const { return value_ == o.value_; }
  bool operator!=(const FindingValue& o) const { return !(*this == o); }

 private:
  using Held = std::variant<std::string, std::vector<std::string>, int64_t, bool>;
  explicit FindingValue(Held v) : value_(std::move(v)) {}
  Held value_;
};

// A value as FindingValue::json() wrote it; nullopt for anything else (an object, null, a list of other
// than strings), as a report read back may hold anything.
std::optional<FindingValue> finding_value_from_json(const nlohmann::json& j);

// A finding's values by the name its rule's templates give them ("libs", "count", "image_libc").
using FindingValues = std::map<std::string, FindingValue>;

// Against an earlier report (--baseline): whether it had this finding, by its fingerprint (the rule and the
// paths). NotCompared when no baseline was given.
enum class BaselineState { NotCompared, New, Unchanged };
const char* to_string(BaselineState s);  // "", "new", "unchanged"

struct Finding;
// How many of `findings` a baseline marked New.
size_t new_findings(const std::vector<Finding>& findings);

// One problem, found in one or many files that one layer brought in.
struct Finding {
  std::string id;
  Severity severity = Severity::Error;
  std::vector<std::string> paths;  // "/usr/bin/app", sorted
  FindingOrigin origin = FindingOrigin::Image;
  int layer = -1;  // the layer's index when origin is Layer, else -1
  std::string layer_digest;
  std::string created_by;
  // What the message and advice say, as values: every placeholder of the rule's message, and those of
  // its advice that the finding knows. Every report renders from these (Catalog's render()).
  FindingValues values;
  std::string advice_key;  // which of the rule's advice templates fits ("default", "alpine", "packages"...)
  std::string message;     // the message and advice as the catalog's templates render `values`
  std::string advice;
  // The rule of another finding of the same files that this one follows from ("libc-mismatch" for the
  // glibc libraries a glibc program lacks on musl), "" when it stands on its own.
  std::string caused_by;
  std::optional<DockerfileLine> dockerfile;
  BaselineState baseline = BaselineState::NotCompared;
};

void to_json(nlohmann::json& j, const Finding& f);

}  // namespace imgaudit
