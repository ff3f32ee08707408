#pragma once
#include <string>
#include <vector>

#include "report/report.h"

namespace imgaudit {

// One image's findings in an earlier JSON report, as far as matching and naming them needs: each finding's
// rule, severity, paths and message.
struct BaselineImage {
  std::string name;      // as the earlier run named it ("" in a report of one image)
  std::string platform;  // "linux/arm64", from the report's image
  std::vector<Finding> findings;
};

// An earlier JSON report given with --baseline: one image's (imgaudit IMAGE --format json), a run's of many, or
// one image's platforms (--platform all). Read once, bounded (kMaxBaselineBytes, kMaxBaselinePaths), and only
// what matching needs is kept.
class Baseline {
 public:
  // Throws InputError "FILE: ..." for a file that is not such a report.
  static Baseline read(const std::string& file);
  static Baseline parse(const std::string& text, const std::string& file);

  // The earlier report of the image audited as `name` on `platform`: a baseline of one image is that image's
  // whatever the name (app:dev then app:pr-12); else the one of that name and platform (either platform
  // empty matches). Null when there is none.
  const BaselineImage* find(const std::string& name, const std::string& platform) const;
  const std::string& file() const { return file_; }
  const std::vector<BaselineImage>& images() const { return images_; }

 private:
  std::string file_;
  std::vector<BaselineImage> images_;
};

// Marks each of the report's findings New or Unchanged against `earlier` (null: the baseline holds no report
// of this image, and every finding is new) and lists in report.baseline what the earlier report had that this
// one lacks; a finding now ignored is not fixed, and is not listed.
void apply_baseline(AuditReport& report, const BaselineImage* earlier, const std::string& file);

}  // namespace imgaudit
