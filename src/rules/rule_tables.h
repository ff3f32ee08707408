// The tables the rules read, rules/tables/*.json, compiled in (cmake/embed_files.cmake), each parsed once.
#pragma once
#include <nlohmann/json_fwd.hpp>

namespace imgaudit {

// The table of that file name ("library-packages.json"); std::logic_error when none is compiled in.
const nlohmann::json& rule_table(const char* file);

}  // namespace imgaudit
