#pragma once
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "facts/image_facts.h"
#include "rules/finding.h"

namespace imgaudit {

// What the user told imgaudit to accept: ignores (with a reason in a config
// file or a Dockerfile pragma) and severity overrides, from the config file,
// --ignore and `# imgaudit ignore=` lines of the --dockerfile.
struct IgnoreRule {
  std::string id;
  std::string path_glob;  // "" ignores the rule everywhere; else fnmatch on "/usr/bin/x"
  std::string reason;
  std::string origin;      // the config file's path, "--ignore" or "Dockerfile:12" (the pragma's line), for messages
  std::string image_glob;  // "" applies to every image; else fnmatch over image_names()
  std::string expires;     // "" never expires; else YYYY-MM-DD, the last day it applies
  // A Dockerfile pragma applies only to the findings attributed to the
  // instruction that starts at dockerfile:dockerfile_line; 0 for other ignores.
  std::string dockerfile;
  int dockerfile_line = 0;
};

struct Policy {
  std::vector<IgnoreRule> ignores;
  std::map<std::string, Severity> severity;
};

// The keys of a config document that are the policy's: "ignore", "severity".
const std::vector<std::string>& policy_keys();

// The "ignore" and "severity" keys of a config document (YAML read as JSON);
// its other keys are left to the caller:
//   {"ignore": [{"id": "...", "path": "glob", "image": "glob", "expires": "2025-06-30", "reason": "..."}],
//    "severity": {"ID": "warning"}}
// Throws InputError starting with `origin` (the file's path) for a wrong type,
// an unknown key inside an ignore, a missing reason, a malformed date, an
// unknown rule id or severity.
Policy policy_from_json(const nlohmann::json& doc, const std::string& origin);

// A JSON file holding those two keys only; InputError also for malformed JSON
// and any other key.
Policy load_policy_file(const std::string& path);

// Adds "--ignore ID" or "--ignore ID:PATHGLOB"; throws InputError for an unknown id.
void add_ignore_option(Policy& policy, const std::string& spec);

// Adds a Dockerfile's `# imgaudit ignore=ID[,ID] reason` at `pragma_line`,
// for the instruction starting at `instruction_line`; InputError
// "DOCKERFILE:LINE: imgaudit ignore: unknown rule id 'x' ..." for an unknown id.
void add_pragma_ignore(Policy& policy, const std::string& dockerfile, int pragma_line, int instruction_line,
                       const std::vector<std::string>& ids, const std::string& reason);

// Whether `date` is a real day written YYYY-MM-DD.
bool is_iso_date(const std::string& date);
// Today's date, YYYY-MM-DD, in UTC: an ignore expires on the same day on every runner, whatever its time
// zone. The clock is read here and only here.
std::string utc_date_today();

// What an `image` glob is matched against: each of the image's repo tags
// ("docker.io/library/alpine:3.20", "myapp:1.0", an OCI layout's ref name),
// the source it was read from ("oci:build/img:latest", "docker-daemon:myapp:1.0"),
// each of these without its :tag or @digest ("myapp"), and Docker Hub names
// also as the docker CLI shortens them ("alpine:3.20", "alpine").
std::vector<std::string> image_names(const ImageInfo& image);

struct PolicyContext {
  std::string today;                     // YYYY-MM-DD: an ignore whose `expires` is earlier no longer applies
  std::vector<std::string> image_names;  // image_names() of the audited image; none: image-scoped ignores apply nowhere
};

struct Suppressed {
  Finding finding;     // as it would have been reported (only the ignored paths)
  std::string reason;
  std::string origin;  // of the ignore that suppressed it
};

struct PolicyOutcome {
  std::vector<Finding> kept;
  std::vector<Suppressed> suppressed;
  std::vector<IgnoreRule> unused;   // applied to this image and had not expired, yet matched no finding
  std::vector<IgnoreRule> expired;  // past their `expires` date, whether or not they would match
};

// Applies overrides, then the ignores that apply (not expired, the image in
// scope): a finding whose paths all match is dropped whole; one whose paths
// match in part keeps the rest. An ignore scoped to other images is neither
// applied nor listed as unused.
PolicyOutcome apply_policy(std::vector<Finding> findings, const Policy& policy, const PolicyContext& context);

// The same with today's date and no image names.
std::vector<Finding> apply_policy(std::vector<Finding> findings, const Policy& policy, std::vector<Suppressed>* suppressed);

}  // namespace imgaudit
