#include "util/environment.h"

#include <cstdlib>

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

}  // namespace imgaudit
