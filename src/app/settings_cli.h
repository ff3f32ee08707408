#pragma once
#include <memory>
#include <ostream>
#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "app/settings_file.h"

namespace imgaudit {

// Makes every long flag of `app` (added before) settable from its IMGAUDIT_
// variable and from the settings file: --config FILE, else find_settings_file().
// Flags win over variables, variables over the file.
std::shared_ptr<SettingsFile> add_settings(CLI::App& app);

// The settings file read ("" when none).
std::string settings_file_read(const CLI::App& app);

// `imgaudit config`: every setting as a line of a settings file, "KEY: VALUE
// # ORIGIN" (a flag, a variable, the file, or the default).
void print_settings(std::ostream& out, const CLI::App& app, const SettingsFile& file, int argc, char** argv);

// `imgaudit config --schema`: the JSON Schema of the settings file, made
// from the flags themselves (schemas/imgaudit-config.schema.json holds it).
nlohmann::json settings_schema(const CLI::App& app);

}  // namespace imgaudit
