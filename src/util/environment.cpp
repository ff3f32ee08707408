#include "util/environment.h"

#include <cstdlib>

#include "util/bounded_file.h"
#include "util/bounded_json.h"
#include "util/error.h"
#include "util/limits.h"

namespace imgaudit {

Environment process_environment() {
  return [](const std::string& name) {
    const char* v = std::getenv(name.c_str());
    return std::string(v ? v : "");
  };
}

std::string docker_config_dir(const Environment& env) {
  std::string dir = env("DOCKER_CONFIG");
  if (!dir.empty()) return dir;
  std::string home = env("HOME");
  return home.empty() ? "" : home + "/.docker";
}

nlohmann::json read_docker_config_file(const std::string& path) {
  std::optional<std::string> bytes = read_bounded_file(path, {kMaxDockerConfigFile, "kMaxDockerConfigFile", true});
  if (!bytes || bytes->empty()) return nullptr;
  std::string problem;
  if (auto j = parse_bounded_json(*bytes, &problem)) return std::move(*j);
  throw InputError(path + ": " + problem);
}

}  // namespace imgaudit
