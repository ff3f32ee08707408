#pragma once
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "dockerfile/dockerfile.h"
#include "facts/image_facts.h"

namespace imgaudit {

// Where in the Dockerfile something of the image comes from.
struct DockerfileLocation {
  std::string path;
  int first_line = 0, last_line = 0;
  int stage_index = 0;
  std::string stage;        // the stage's `AS` name, or its index when unnamed ("0", "1")
  std::string instruction;  // "RUN apk add --no-cache tzdata", whitespace collapsed
};

void to_json(nlohmann::json& j, const DockerfileLocation& l);

// The image's history entries and layers matched to the Dockerfile that built
// it: to the instructions of its last stage (and of the earlier stages that
// stage is built FROM); what the base image brought maps to the FROM line;
// steps no instruction matches (a Dockerfile changed since the build) map to
// nothing, and mismatches() names them.
class DockerfileMap {
 public:
  DockerfileMap(Dockerfile dockerfile, const ImageInfo& image);

  std::optional<DockerfileLocation> for_history(size_t entry) const;  // index into ImageInfo::history
  std::optional<DockerfileLocation> for_layer(int layer) const;       // index into ImageInfo::layers
  // The ENV instruction that set `key` last; the FROM line when the image has
  // it but the Dockerfile never sets it (the base image did).
  std::optional<DockerfileLocation> for_env(const std::string& key) const;
  // The last USER instruction; without one, the last instruction of the last
  // stage: the place to add one.
  std::optional<DockerfileLocation> for_user() const;
  bool has_user_instruction() const;
  // The last instruction of the image's chain with one of these keywords ("ENTRYPOINT", "CMD",
  // "HEALTHCHECK"); without one, the FROM line (the base image set it) when `from_base`, else nullopt.
  std::optional<DockerfileLocation> for_last(const std::vector<std::string>& keywords, bool from_base) const;
  // The last instruction of the last stage: where one that is missing goes.
  std::optional<DockerfileLocation> for_end() const;

  const Dockerfile& dockerfile() const { return dockerfile_; }

  // Which of the image's history steps match no instruction, one line each
  // ("Dockerfile does not match the image's history: step 3 of 5 `RUN ...`
  // has no instruction there ..."), or one line when none matches at all.
  // Those steps' layers map to nothing: for_layer and for_history say nullopt.
  const std::vector<std::string>& mismatches() const { return mismatches_; }
  // No step matches: the Dockerfile did not build this image (a FROM line
  // alone, or an image without history, is no mismatch).
  bool matches_nothing() const { return unrelated_; }

 private:
  DockerfileLocation location(size_t instruction) const;

  Dockerfile dockerfile_;
  std::vector<size_t> chain_;         // instructions that built the image, FROM lines left out, in order
  size_t base_from_ = 0;              // the FROM naming the base image
  std::vector<long> history_;         // instruction per history entry, -1 for none
  std::vector<long> layers_;          // instruction per layer, -1 for none
  std::set<std::string> image_env_;   // names in the image's Env
  std::vector<std::string> mismatches_;
  bool unrelated_ = false;
};

// Reads the Dockerfile at `path` (InputError when unreadable or malformed)
// and matches it to the image.
DockerfileMap map_dockerfile(const std::string& path, const ImageInfo& image);

}  // namespace imgaudit
