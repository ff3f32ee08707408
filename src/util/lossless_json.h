#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace imgaudit {

// `j` printed (nlohmann's dump, `indent` as there) with every string and object key in lossless_utf8
// (util/strings.h): a file name that is not UTF-8 keeps its bytes, as "\xNN", instead of becoming U+FFFD.
// DEL and the C1 controls (U+0080..U+009F) come out escaped, \u007f and \u0080..\u009f, as nlohmann's
// dump escapes only those below U+0020. The JSON, SARIF and Code Quality outputs print through it.
std::string dump_lossless(const nlohmann::json& j, int indent = -1);

}  // namespace imgaudit
