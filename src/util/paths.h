#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace imgaudit {

// Paths inside an image are kept relative to its root, without a leading '/',
// with no "." or empty components: "usr/bin/env". The root itself is "".

// Normalises a tar entry name ("./usr//bin/", "/etc/x"). Returns nullopt when
// a ".." component would climb above the root: such entries are skipped.
std::optional<std::string> normalize_entry_path(std::string_view name);

// Lexically joins `base` (an image directory) and `rel`, resolving "." and
// ".." with the root as a floor, as the kernel does inside a chroot. An
// absolute `rel` starts again from the root.
std::string join_in_image(std::string_view base, std::string_view rel);

std::string parent_dir(std::string_view path);  // "usr/bin/env" -> "usr/bin"; "env" -> ""
std::string base_name(std::string_view path);   // "usr/bin/env" -> "env"

// True when `path` equals `dir` or lies under it ("" is the root: everything).
bool is_within(std::string_view path, std::string_view dir);

// "/" + path, for display.
std::string display_path(std::string_view path);

}  // namespace imgaudit
