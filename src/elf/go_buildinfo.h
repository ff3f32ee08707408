#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "elf/elf_file.h"

namespace imgaudit {

inline constexpr std::string_view kGoBuildInfoMagic{"\xff Go buildinf:", 14};

struct GoBuildInfo {
  std::string version;      // "go1.22.1"
  std::optional<bool> cgo;  // CGO_ENABLED build setting (Go >= 1.18)
};

// Decodes the Go build info blob starting at file offset `offset` (the magic).
// Handles the inline varint format (Go >= 1.18) and the older pointer format.
// Returns nullopt when the blob does not decode.
std::optional<GoBuildInfo> decode_go_buildinfo(const ElfFile& file, size_t offset);

}  // namespace imgaudit
