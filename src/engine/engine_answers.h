#pragma once
#include <string>
#include <vector>

#include "source/source.h"

namespace imgaudit {

// What imgaudit takes from an Engine's image inspect answer (GET /images/{name}/json).
struct InspectedImage {
  std::string id;  // as the engine says it: the config's digest, or the manifest's with containerd's store
  std::vector<std::string> repo_tags, repo_digests;
  Platform platform;  // empty fields where the engine says none
};

// The inspect answer `body`, within kMaxJsonDepth; InputError "malformed JSON ...", "the answer has no image
// Id" for anything else. Lists and fields of another type than expected are taken as absent.
InspectedImage parse_inspect_answer(const std::string& body);

// What an engine's error answer says: its JSON "message", else (dockerd answers some errors in plain text)
// its first line; not yet made printable.
std::string engine_error_message(const std::string& body);

}  // namespace imgaudit
