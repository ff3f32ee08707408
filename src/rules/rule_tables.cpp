#include "rules/rule_tables.h"

#include <cstring>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace imgaudit {

extern const std::vector<std::pair<const char*, const char*>> kRuleTables;

const nlohmann::json& rule_table(const char* file) {
  static std::mutex lock;
  static std::map<std::string, nlohmann::json> parsed;  // never erased: the references handed out stay valid
  std::lock_guard<std::mutex> hold(lock);
  if (auto it = parsed.find(file); it != parsed.end()) return it->second;
  for (auto& [name, text] : kRuleTables)
    if (std::strcmp(name, file) == 0) return parsed.emplace(file, nlohmann::json::parse(text)).first->second;
  throw std::logic_error(std::string("rules/tables/") + file + " is not compiled in");
}

}  // namespace imgaudit
