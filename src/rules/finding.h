#pragma once
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace imgaudit {

enum class Severity { Info = 0, Warning = 1, Error = 2 };
const char* to_string(Severity s);                     // "info", "warning", "error"
std::optional<Severity> parse_severity(const std::string& s);

// Where in the user's Dockerfile the instruction behind a finding is (--dockerfile).
struct DockerfileLine {
  std::string file;
  int start_line = 0, end_line = 0;
  std::string instruction;  // "RUN apk add --no-cache build-base"
};

// One problem, found in one or many files that one layer brought in.
struct Finding {
  std::string id;
  Severity severity = Severity::Error;
  std::vector<std::string> paths;  // "/usr/bin/app", sorted
  int layer = -1;                  // -1 when the image has no layers (a rootfs folder)
  std::string layer_digest;
  std::string created_by;
  std::string message;
  std::string advice;
  // The rule of another finding of the same files that this one follows from ("libc-mismatch" for the
  // glibc libraries a glibc program lacks on musl), "" when it stands on its own.
  std::string caused_by;
  std::optional<DockerfileLine> dockerfile;
};

void to_json(nlohmann::json& j, const Finding& f);

}  // namespace imgaudit
