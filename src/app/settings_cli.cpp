#include "app/settings_cli.h"

#include <cstdlib>
#include <set>

#include "cache/redis_url.h"
#include "policy/policy.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

// The flags that are settings: not --help, --version, --config, nor IMAGE.
bool is_setting(const CLI::Option* o) {
  const std::string name = option_long_name(o);
  return !name.empty() && name != "help" && name != "version" && name != "config";
}

// The flags given on the command line, by long name.
std::set<std::string> flags_given(const CLI::App& app, int argc, char** argv) {
  std::set<std::string> given;
  for (int i = 1; i < argc; ++i) {
    std::string token = argv[i];
    if (token == "--") break;
    for (const CLI::Option* o : app.get_options()) {
      if (!is_setting(o)) continue;
      bool long_form = starts_with(token, "--") && o->check_lname(token.substr(2, token.find('=') - 2));
      bool short_form = token.size() >= 2 && token[0] == '-' && token[1] != '-' && o->check_sname(token.substr(1, 1));
      if (long_form || short_form) given.insert(option_long_name(o));
    }
  }
  return given;
}

std::string value_text(const CLI::Option* o) {
  if (option_is_flag(o)) return o->count() > 0 && o->as<bool>() ? "true" : "false";
  std::vector<std::string> values = o->count() > 0 ? o->as<std::vector<std::string>>() : std::vector<std::string>{};
  if (o->count() == 0) {
    std::string d = o->get_default_str();
    return d.empty() ? "\"\"" : d;
  }
  if (o->get_items_expected_max() > 1) return "[" + join(values, ", ") + "]";
  return values.empty() ? "\"\"" : values.back();
}

}  // namespace

std::shared_ptr<SettingsFile> add_settings(CLI::App& app) {
  auto file = std::make_shared<SettingsFile>(&app);
  app.config_formatter(file);
  app.set_config("--config", find_settings_file(),
                 "settings file, YAML or JSON: every long flag a key, and ignore and severity (default: ./.imgaudit.yaml, "
                 "./.imgaudit.json, $XDG_CONFIG_HOME/imgaudit/config.yaml; IMGAUDIT_CONFIG)");
  for (CLI::Option* o : app.get_options())
    if (is_setting(o)) o->envname(settings_variable(option_long_name(o)))->capture_default_str();
  return file;
}

std::string settings_file_read(const CLI::App& app) {
  const CLI::Option* config = app.get_config_ptr();
  if (!config) return "";
  auto files = config->as<std::vector<std::string>>();  // the default when --config is not given
  return files.empty() ? "" : files.front();
}

void print_settings(std::ostream& out, const CLI::App& app, const SettingsFile& file, int argc, char** argv) {
  std::string read = settings_file_read(app);
  out << "# settings file: " << (read.empty() ? "none" : read) << '\n';
  std::set<std::string> given = flags_given(app, argc, argv);
  for (const CLI::Option* o : app.get_options()) {
    if (!is_setting(o)) continue;
    std::string name = option_long_name(o);
    const char* var = std::getenv(settings_variable(name).c_str());
    std::string origin = given.count(name)                ? "--" + name
                         : var && *var && o->count() > 0 ? settings_variable(name)
                         : file.flags_set().count(name)  ? read
                                                          : "default";
    std::string value = value_text(o);
    if (name == "cache" && o->count() > 0) value = redis_url_for_display(value);  // its password is never shown
    out << name << ": " << printable(value) << "  # " << printable(origin) << '\n';
  }
  for (const std::string& key : policy_keys())
    if (file.document().contains(key)) out << "# " << key << ": from " << read << '\n';
}

nlohmann::json settings_schema(const CLI::App& app) {
  nlohmann::json properties = nlohmann::json::object();
  for (const CLI::Option* o : app.get_options()) {
    if (!is_setting(o)) continue;
    nlohmann::json p = {{"description", o->get_description()}};
    std::vector<std::string> choices = option_choices(o);
    nlohmann::json scalar = option_is_flag(o)      ? nlohmann::json{{"type", "boolean"}}
                            : option_is_integer(o) ? nlohmann::json{{"type", "integer"}}
                            : !choices.empty() ? nlohmann::json{{"type", "string"}, {"enum", choices}}
                                               : nlohmann::json{{"type", "string"}};
    if (o->get_items_expected_max() > 1)
      p["oneOf"] = {scalar, {{"type", "array"}, {"items", scalar}}};
    else
      p.update(scalar);
    properties[option_long_name(o)] = p;
  }
  properties["ignore"] = {
      {"description", "findings to accept: a rule, on some paths, in some images, until a date"},
      {"type", "array"},
      {"items",
       {{"type", "object"},
        {"required", {"id", "reason"}},
        {"additionalProperties", false},
        {"properties",
         {{"id", {{"type", "string"}, {"description", "a rule id, as imgaudit rules lists them"}}},
          {"path", {{"type", "string"}, {"description", "a glob over the paths in the image (/usr/bin/*)"}}},
          {"image", {{"type", "string"}, {"description", "a glob over the image's repository or tag"}}},
          {"expires", {{"type", "string"}, {"pattern", "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"},
                       {"description", "YYYY-MM-DD: after this day the ignore no longer applies"}}},
          {"reason", {{"type", "string"}, {"minLength", 1}, {"description", "why it is accepted"}}}}}}}};
  properties["severity"] = {{"description", "a rule's severity changed: {rule id: error, warning or info}"},
                            {"type", "object"},
                            {"additionalProperties", {{"type", "string"}, {"enum", {"error", "warning", "info"}}}}};
  return {{"$schema", "https://json-schema.org/draft/2020-12/schema"},
          {"$id", "imgaudit-config.schema.json"},
          {"title", "imgaudit settings file"},
          {"description", "Every key is a long flag of imgaudit (fail-on: warning); IMGAUDIT_<FLAG> variables and "
                          "flags override it."},
          {"type", "object"},
          {"additionalProperties", false},
          {"properties", properties}};
}

}  // namespace imgaudit
