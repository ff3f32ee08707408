#pragma once
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

namespace imgaudit {

// The environment as code reads it: getenv in the program, a map in tests.
using Environment = std::function<std::string(const std::string& name)>;
Environment process_environment();

// Docker's config folder, as the docker CLI finds it: $DOCKER_CONFIG, else
// ~/.docker; "" when neither DOCKER_CONFIG nor HOME is set.
std::string docker_config_dir(const Environment& env);

// A JSON file of docker's config folder (config.json, a context's meta.json), read alike for the
// registry's credentials and the Engine's endpoint: null when there is none or it is empty; a
// regular file of at most kMaxDockerConfigFile bytes, else InputError "PATH: ...".
nlohmann::json read_docker_config_file(const std::string& path);

}  // namespace imgaudit
