#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace imgaudit {

// `j` printed (nlohmann's dump, `indent` as there) with every string and object key in lossless_utf8
// (util/strings.h): a file name that is not UTF-8 keeps its bytes, as "\xNN", instead of becoming U+FFFD.
// The JSON, SARIF and Code Quality outputs print through it.
std::string dump_lossless(const nlohmann::json& j, int indent = -1);

}  // namespace imgaudit
