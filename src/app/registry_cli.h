#pragma once
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/audit.h"

namespace imgaudit {

struct RegistryCliOptions {
  std::string username;
  bool password_stdin = false;
  std::string ca_cert;
  std::vector<std::string> insecure_registries;
  long timeout_seconds = 30;
  long retry_wait_ms = 500;
  bool no_cache = false;
  std::string cache_dir;
  std::string cache;  // a redis:// or rediss:// URL for the layer facts
  std::string cache_ttl = "30d";
  std::string cache_key_file;  // the key that seals the Redis values
};

// --username, --password-stdin, --ca-cert, --insecure-registry, --timeout, --retry-wait, --no-cache, --cache-dir,
// --cache, --cache-ttl, --cache-key-file.
void add_registry_options(CLI::App& app, RegistryCliOptions& out);

// The check of a DURATION (--cache-ttl, cache clean --older-than): what parse_duration_ms reads, up to
// kMaxCacheTtlMs. Its message is one line naming the value.
CLI::Validator duration_check();

// Fills the registry and cache fields of `options`; reads the password from standard input for
// --password-stdin. Throws InputError.
void apply_registry_options(const RegistryCliOptions& cli, AuditOptions& options);

}  // namespace imgaudit
