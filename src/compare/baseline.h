#pragma once
#include <string>
#include <vector>

#include "report/report.h"

namespace imgaudit {

// A layer of the earlier image, as its report listed it.
struct BaselineLayer {
  std::string digest, diff_id, created_by;
  uint64_t compressed_size = 0, uncompressed_size = 0;
};

// A shared library of the earlier image: its file and the name programs load it by.
struct BaselineLibrary {
  std::string path, soname;
};

// One image in an earlier JSON report, as far as comparing with it needs: each finding's rule, severity, paths
// and message; the layers' sizes, the packages' (where a package database told) and the shared libraries.
struct BaselineImage {
  std::string name;      // as the earlier run named it ("" in a report of one image)
  std::string platform;  // "linux/arm64", from the report's image
  std::vector<Finding> findings;
  std::vector<BaselineLayer> layers;  // none for a rootfs folder
  std::vector<Package> packages;
  std::vector<BaselineLibrary> libraries;  // the binaries with a soname
};

// An earlier JSON report given with --baseline: one image's (imgaudit IMAGE --format json), a run's of many, or
// one image's platforms (--platform all). Read once, bounded (kMaxBaselineBytes, kMaxBaselinePaths), and only
// what matching needs is kept.
class Baseline {
 public:
  // Throws InputError "FILE: ..." for a file that is not such a report.
  static Baseline read(const std::string& file);
  static Baseline parse(const std::string& text, const std::string& file);

  // The earlier report of the image audited as `name` on `platform`: a report of one image is that image's
  // whatever the name (app:dev then app:pr-12); a run's, the one of that name and platform (either platform
  // empty matches). Null when there is none.
  const BaselineImage* find(const std::string& name, const std::string& platform) const;
  // The report of one image (`imgaudit IMAGE --format json`), not of a run: the baseline of one image audited,
  // and of no run of several, where each image would be measured against it.
  bool of_one_image() const;
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
