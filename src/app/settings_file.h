#pragma once
#include <set>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "util/limits.h"

namespace imgaudit {

// The settings file read when --config is not given: ./.imgaudit.yaml,
// ./.imgaudit.yml, ./.imgaudit.json, then $XDG_CONFIG_HOME/imgaudit/config.yaml
// (~/.config when unset); "" when none exists. IMGAUDIT_CONFIG names one too.
std::string find_settings_file();

// "fail-on" -> "IMGAUDIT_FAIL_ON": every long flag has its variable.
std::string settings_variable(const std::string& flag);

// Reads a YAML (or JSON) settings file for CLI11: its keys are the long flags
// ("fail-on: warning"), plus "ignore" and "severity", kept whole for the
// policy. A key whose IMGAUDIT_ variable is set is left to the variable, so
// flags win over variables, and variables over the file.
class SettingsFile : public CLI::Config {
 public:
  explicit SettingsFile(const CLI::App* app) : app_(app) {}
  std::vector<CLI::ConfigItem> from_config(std::istream& in) const override;
  std::string to_config(const CLI::App*, bool, bool, std::string) const override { return ""; }

  // What the file said: the whole document (for ignore and severity) and the flags it set.
  const nlohmann::json& document() const { return document_; }
  const std::set<std::string>& flags_set() const { return flags_set_; }

 private:
  std::vector<CLI::ConfigItem> read(std::istream& in) const;
  bool from_work_folder() const;
  const CLI::App* app_;
  mutable nlohmann::json document_ = nlohmann::json::object();
  mutable std::set<std::string> flags_set_;
};

// A flag's first long name, without its dashes ("fail-on"); "" for one that has none (IMAGE).
std::string option_long_name(const CLI::Option* o);

// What a flag takes, as CLI11 knows it: nothing (a flag), a whole number, one of a set.
bool option_is_flag(const CLI::Option* o);
bool option_is_integer(const CLI::Option* o);
std::vector<std::string> option_choices(const CLI::Option* o);  // {} when any text goes

}  // namespace imgaudit
