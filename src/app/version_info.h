#pragma once
#include <string>

namespace imgaudit {

// `imgaudit version` and --version: imgaudit's version, commit and build
// date, the rule catalog's, and the libraries in use (run-time versions where
// the library tells them, else the headers it was built with).
std::string version_text();

}  // namespace imgaudit
