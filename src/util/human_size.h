#pragma once
#include <cstdint>
#include <string>

namespace imgaudit {

// "512 B", "1.5 KiB", "87.7 MiB".
std::string human_size(uint64_t bytes);

}  // namespace imgaudit
