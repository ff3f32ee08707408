#pragma once
#include <optional>
#include <string>

namespace imgaudit {

std::string base64_encode(const std::string& bytes);
// Standard alphabet with padding; nullopt when malformed.
std::optional<std::string> base64_decode(const std::string& text);

}  // namespace imgaudit
