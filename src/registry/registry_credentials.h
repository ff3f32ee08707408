#pragma once
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "registry/credentials.h"

namespace imgaudit {

struct RegistryOptions;

// The credentials of each registry a run talks to, found once: docker's config read and its helper run
// for the first image of a registry, not for each one (a run of 10,000 images on one registry ran
// `docker-credential-NAME get` 10,000 times). What the lookup threw (a broken config or helper) is kept
// too, and thrown again for the next image. Thread-safe: the images of a run are opened several at once,
// and one lookup at a time runs, so two images of a registry never run its helper twice.
class RegistryCredentials {
 public:
  std::optional<Credentials> of(const std::string& registry, const std::string& config_path, long timeout_seconds);

 private:
  struct Found {
    std::optional<Credentials> credentials;
    std::string error;  // the InputError's message, when the lookup failed
  };
  std::mutex mutex_;
  std::map<std::string, Found> found_;  // by config path and registry
};

// The credentials for `registry`: --username's, else docker's config's (looked up once a run through
// options.found_credentials when the run has it).
std::optional<Credentials> credentials_for(const std::string& registry, const RegistryOptions& options);

}  // namespace imgaudit
