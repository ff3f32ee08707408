#pragma once
#include <functional>
#include <string>

namespace imgaudit {

// The environment as code reads it: getenv in the program, a map in tests.
using Environment = std::function<std::string(const std::string& name)>;
Environment process_environment();

// Docker's config folder, as the docker CLI finds it: $DOCKER_CONFIG, else
// ~/.docker; "" when neither DOCKER_CONFIG nor HOME is set.
std::string docker_config_dir(const Environment& env);

}  // namespace imgaudit
