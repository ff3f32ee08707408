#include "app/settings_file.h"
#include "util/bounded_json.h"

#include <sys/stat.h>
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <cstdlib>
#include <iterator>

#include "app/report_outputs.h"
#include "policy/policy.h"
#include "util/error.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

bool is_file(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

// YAML to JSON: plain true/false, integers and null as themselves, every other scalar a string. `path`:
// the nodes above this one. An alias inside its own anchor (`a: &x [*x]`) makes the node its own child:
// followed, it would recurse until the stack ends.
nlohmann::json to_json(const YAML::Node& node, size_t& values, std::vector<YAML::Node>& path) {
  if (++values > kMaxSettingsValues)
    throw InputError("over " + std::to_string(kMaxSettingsValues) + " values (YAML aliases repeat what they name)");
  for (const YAML::Node& above : path)
    if (above.is(node))
      throw InputError("malformed YAML at line " + std::to_string(node.Mark().line + 1) +
                       ": an alias inside the anchor it names (the value would contain itself)");
  if (node.IsSequence() || node.IsMap()) path.push_back(node);
  struct Pop {
    std::vector<YAML::Node>& path;
    bool pushed;
    ~Pop() {
      if (pushed) path.pop_back();
    }
  } pop{path, node.IsSequence() || node.IsMap()};
  switch (node.Type()) {
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
      return nullptr;
    case YAML::NodeType::Scalar: {
      const std::string& text = node.Scalar();
      if (node.Tag() == "!") return text;  // quoted
      if (text == "true" || text == "false") return text == "true";
      if (!text.empty() && text.size() < 18 && text.find_first_not_of("0123456789", text[0] == '-') == std::string::npos &&
          text != "-")
        return std::stoll(text);
      return text;
    }
    case YAML::NodeType::Sequence: {
      nlohmann::json a = nlohmann::json::array();
      for (const YAML::Node& item : node) a.push_back(to_json(item, values, path));
      return a;
    }
    case YAML::NodeType::Map: {
      nlohmann::json o = nlohmann::json::object();
      for (const auto& kv : node) {
        if (!kv.first.IsScalar()) throw InputError("a key that is not a string");
        o[kv.first.Scalar()] = to_json(kv.second, values, path);
      }
      return o;
    }
  }
  return nullptr;
}

// A flag's value as CLI11 takes it from a file.
std::vector<std::string> inputs_of(const std::string& key, const nlohmann::json& value) {
  auto scalar = [&](const nlohmann::json& v) -> std::string {
    if (v.is_string()) return v.get<std::string>();
    if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
    if (v.is_number_integer()) return std::to_string(v.get<long long>());
    throw InputError("\"" + key + "\" is not a string, number or true/false");
  };
  if (!value.is_array()) return {scalar(value)};
  std::vector<std::string> out;
  for (const nlohmann::json& v : value) out.push_back(scalar(v));
  return out;
}

// The settings files found in the working folder: a pull request can add or change them.
const char* const kWorkFolderSettings[] = {".imgaudit.yaml", ".imgaudit.yml", ".imgaudit.json"};

// The keys whose values name files imgaudit writes (FORMAT=FILE or FILE for output).
bool names_written_path(const std::string& key) { return key == "output" || key == "cache-dir"; }

// A path written at the say of a settings file from the working folder stays inside that folder:
// relative, no "..", and no symbolic link on the way that leads out (report.json -> ~/.bashrc).
void check_inside_work_folder(const std::string& key, const std::string& value) {
  std::optional<OutputTarget> named = key == "output" ? format_and_file(value) : std::nullopt;
  const std::string path = named ? named->file : value;
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path here = fs::canonical(".", ec);
  fs::path resolved = fs::weakly_canonical(fs::absolute(path, ec), ec);
  bool inside = !path.empty() && path[0] != '/' && !ec;
  for (const fs::path& part : fs::path(path)) inside = inside && part != "..";
  auto [end, _] = std::mismatch(here.begin(), here.end(), resolved.begin(), resolved.end());
  if (!inside || end != here.end())
    throw InputError(key + ": \"" + printable(value, 80) +
                     "\" is outside the working folder: a settings file found there (a pull request can change it) "
                     "writes only inside it; name such a path with --" + key + ", IMGAUDIT_" +
                     (key == "output" ? std::string("OUTPUT") : std::string("CACHE_DIR")) + " or --config FILE");
}

// A value from the file is checked as its flag would check it, even when a
// flag or a variable overrides it: the file is wrong either way.
void check_value(const CLI::Option* o, const std::string& key, const std::string& value) {
  std::vector<std::string> choices = option_choices(o);
  if (!choices.empty() && std::find(choices.begin(), choices.end(), value) == choices.end())
    throw InputError(key + ": \"" + value.substr(0, 60) + "\" is none of " + join(choices, ", "));
  bool whole = !value.empty() && value.size() < 12 && value.find_first_not_of("0123456789") == std::string::npos;
  if (option_is_integer(o) && !whole) throw InputError(key + ": \"" + value.substr(0, 60) + "\" is not a whole number");
  if (option_is_flag(o) && value != "true" && value != "false") throw InputError(key + ": not true or false");
}

}  // namespace

std::string option_long_name(const CLI::Option* o) {
  return o->get_lnames().empty() ? "" : o->get_lnames().front();
}

bool option_is_flag(const CLI::Option* o) { return o->get_expected_max() == 0; }

bool option_is_integer(const CLI::Option* o) {
  const std::string type = o->get_type_name();
  return starts_with(type, "UINT") || starts_with(type, "INT");
}

// CLI11 writes a set's members into the type name: "TEXT:{error,warning,info,never}".
std::vector<std::string> option_choices(const CLI::Option* o) {
  std::string type = o->get_type_name();
  size_t open = type.find('{'), close = type.rfind('}');
  if (open == std::string::npos || close == std::string::npos || close < open) return {};
  return split(type.substr(open + 1, close - open - 1), ",");
}

std::string settings_variable(const std::string& flag) {
  std::string name = "IMGAUDIT_";
  for (char c : flag) name += c == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return name;
}

std::string find_settings_file() {
  std::string named = env("IMGAUDIT_CONFIG");
  if (!named.empty()) return named;
  for (const char* local : kWorkFolderSettings)
    if (is_file(local)) return local;
  std::string base = env("XDG_CONFIG_HOME");
  if (base.empty() || base[0] != '/') base = env("HOME").empty() ? "" : env("HOME") + "/.config";
  if (!base.empty() && is_file(base + "/imgaudit/config.yaml")) return base + "/imgaudit/config.yaml";
  return "";
}

// Found in the working folder, not named: no --config, no IMGAUDIT_CONFIG, one of its three names.
bool SettingsFile::from_work_folder() const {
  const CLI::Option* config = app_->get_config_ptr();
  if (!config || config->count() > 0 || !env("IMGAUDIT_CONFIG").empty()) return false;
  auto files = config->as<std::vector<std::string>>();
  return !files.empty() && std::find(std::begin(kWorkFolderSettings), std::end(kWorkFolderSettings), files.front()) !=
                               std::end(kWorkFolderSettings);
}

std::vector<CLI::ConfigItem> SettingsFile::from_config(std::istream& in) const {
  try {
    return read(in);
  } catch (const CLI::ConversionError& e) {
    auto files = app_->get_config_ptr()->as<std::vector<std::string>>();
    throw CLI::ConversionError((files.empty() ? std::string("settings file") : files.front()) + ": " + e.what());
  }
}

std::vector<CLI::ConfigItem> SettingsFile::read(std::istream& in) const {
  std::string text;
  char buf[65536];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    text.append(buf, static_cast<size_t>(in.gcount()));
    if (text.size() > kMaxSettingsFile)
      throw CLI::ConversionError("larger than " + std::to_string(kMaxSettingsFile >> 20) + " MiB");
  }
  nlohmann::json doc;
  auto files = app_->get_config_ptr()->as<std::vector<std::string>>();
  bool json = !files.empty() && ends_with(files.front(), ".json");
  try {
    // A .json file is read as JSON, to say where JSON is broken; anything else as YAML, which takes JSON too.
    std::string problem;
    size_t values = 0;
    std::vector<YAML::Node> path;
    std::optional<nlohmann::json> parsed =
        json ? parse_bounded_json(text, &problem) : to_json(YAML::Load(text), values, path);
    if (!parsed) throw CLI::ConversionError(problem);
    doc = std::move(*parsed);
  } catch (const YAML::DeepRecursion& e) {  // yaml-cpp's own bound, 2000 levels
    throw CLI::ConversionError("malformed YAML at line " + std::to_string(e.mark.line + 1) + ": nested too deep");
  } catch (const YAML::Exception& e) {
    throw CLI::ConversionError("malformed YAML at line " + std::to_string(e.mark.line + 1) + ": " + e.msg);
  } catch (const InputError& e) {
    throw CLI::ConversionError(e.what());
  }
  if (doc.is_null()) doc = nlohmann::json::object();
  if (!doc.is_object()) throw CLI::ConversionError("not a mapping of settings");
  std::vector<CLI::ConfigItem> items;
  for (auto& [key, value] : doc.items()) {
    if (std::find(policy_keys().begin(), policy_keys().end(), key) != policy_keys().end()) continue;
    const CLI::Option* option = app_->get_option_no_throw("--" + key);
    if (!option || key == "config" || key == "help" || key == "version")
      throw CLI::ConversionError("unknown key \"" + key.substr(0, 60) + "\" (imgaudit config --schema lists them)");
    std::vector<std::string> inputs;
    try {
      inputs = inputs_of(key, value);
      for (const std::string& input : inputs) check_value(option, key, input);
      if (from_work_folder() && names_written_path(key))
        for (const std::string& input : inputs) check_inside_work_folder(key, input);
    } catch (const InputError& e) {
      throw CLI::ConversionError(e.what());
    }
    if (!env(settings_variable(key).c_str()).empty()) continue;
    items.push_back({{}, key, inputs});
    flags_set_.insert(key);
  }
  document_ = std::move(doc);
  return items;
}

}  // namespace imgaudit
