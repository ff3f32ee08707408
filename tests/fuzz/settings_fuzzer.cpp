// A settings file as a pull request may write it (./.imgaudit.yaml is read by default): YAML with anchors
// and aliases, or JSON, read by SettingsFile for an app with a flag, a number, a choice and a list, as
// imgaudit's own are. Sections (NUL-separated): "json" or anything else, then the file.
#include <sstream>

#include "app/settings_cli.h"
#include "app/settings_file.h"
#include "fuzz_input.h"
#include "util/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace imgaudit;
  std::vector<std::string> s = fuzz::sections(data, size, 2);
  CLI::App app;
  bool quiet = false;
  long jobs = 0;
  std::string fail_on;
  std::vector<std::string> outputs;
  app.add_flag("--quiet", quiet);
  app.add_option("--jobs", jobs);
  app.add_option("--fail-on", fail_on)->check(CLI::IsMember({"error", "warning", "info", "never"}));
  app.add_option("--output", outputs);
  auto file = std::make_shared<SettingsFile>(&app);
  app.config_formatter(file);
  app.set_config("--config", s[0] == "json" ? "settings.json" : "settings.yaml");
  std::istringstream in(s[1]);
  try {
    file->from_config(in);
  } catch (const CLI::Error&) {
  }
  return 0;
}
