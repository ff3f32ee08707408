#include "scripted_registry.h"

#include <filesystem>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace imgaudit::test {

ScriptedRegistry::ScriptedRegistry(const std::string& layout, const std::vector<std::string>& options) {
  std::vector<std::string> argv{"python3", std::string(IMGAUDIT_SOURCE_DIR) + "/tests/registry/scripted_registry.py",
                                layout, dir_.path()};
  argv.insert(argv.end(), options.begin(), options.end());
  server_ = std::make_unique<Background>(argv, dir_ / "server.log");
  if (!wait_until([&] { return std::filesystem::exists(dir_ / "port"); }))
    throw std::runtime_error("scripted_registry.py did not start: " + read_file(dir_ / "server.log"));
  port_ = read_file(dir_ / "port");
}

std::vector<LoggedRequest> ScriptedRegistry::requests() const {
  std::vector<LoggedRequest> out;
  std::istringstream lines(std::filesystem::exists(dir_ / "requests.log") ? read_file(dir_ / "requests.log") : "");
  for (std::string line; std::getline(lines, line);) {
    auto j = nlohmann::json::parse(line);
    out.push_back({j["method"], j["path"], j["range"], j["authorization"], j["status"], j["time"], j.value("peer", 0)});
  }
  return out;
}

std::vector<LoggedRequest> ScriptedRegistry::requests_to(const std::string& part) const {
  std::vector<LoggedRequest> out;
  for (const LoggedRequest& r : requests())
    if (r.path.find(part) != std::string::npos) out.push_back(r);
  return out;
}

std::string one_layer_layout(const TempDir& tmp) {
  ImageSpec spec;
  spec.tag = "v1";
  spec.layers = {small_layer("etc/hello", "hello")};
  return write_layout(spec, tmp / "layout");
}

}  // namespace imgaudit::test
