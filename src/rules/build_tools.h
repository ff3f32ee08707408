// What build-tools-in-image counts as a build tool: rules/tables/build-tools.json.
#pragma once
#include <string>

namespace imgaudit {

// Whether an apk or dpkg package of this name is a compiler, a build system or development files.
bool is_build_tool_package(const std::string& name);
// The toolchain ("gcc", "clang", "go") an ELF file at this image path belongs to by its name and place;
// "" for any other file.
std::string toolchain_of_program(const std::string& path);

}  // namespace imgaudit
