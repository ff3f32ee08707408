#pragma once
#include <string>
#include <vector>

namespace imgaudit {

// rules/tables/library-packages.json: which package provides a shared library, per distro id.
// What a user is told to install for the libraries a program lacks.
struct LibraryPackages {
  std::vector<std::string> packages;  // distinct, in the order of the libraries
  std::vector<std::string> unknown;   // libraries the table has no package (nor runtime) for
  std::string runtime;                // "swift" when one of them is a language runtime's own library
  std::string install;                // "RUN apk add --no-cache libstdc++ libgcc", "" when no package is known
  std::string lookup;                 // "apk search so:libfoo.so.1" for the first unknown library, else ""
};

// `distro` is the os-release ID ("alpine", "debian"); a distro the table does not know gives every
// library as unknown and no commands.
LibraryPackages packages_for_libraries(const std::string& distro, const std::vector<std::string>& sonames);

// The package of one soname, "" when the table has none.
std::string package_for_library(const std::string& distro, const std::string& soname);

// The language runtime whose own library `soname` is ("swift" for libswiftCore.so), "" for any other.
std::string runtime_of_library(const std::string& soname);

}  // namespace imgaudit
