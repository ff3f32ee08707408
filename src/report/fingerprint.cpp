#include "report/report.h"
#include "util/sha256.h"

namespace imgaudit {

std::string finding_fingerprint(const Finding& finding) {
  std::string key = "imgaudit/1";
  key += '\0';
  key += finding.id;
  for (const std::string& path : finding.paths) {  // sorted already
    key += '\0';
    key += path;
  }
  return Sha256::of(key).substr(7, 32);
}

}  // namespace imgaudit
