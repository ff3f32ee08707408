#pragma once
#include <optional>
#include <string>

#include "report/report.h"
#include "source/source.h"

namespace imgaudit {

struct AuditOptions {
  std::string image;
  std::optional<Platform> platform;
  unsigned jobs = 0;  // 0: one worker per core
};

// The whole pipeline: source -> layers -> merged view -> facts -> rules.
// Throws InputError when the image cannot be read. The layers live in the
// returned Audit, as the facts point into them.
class Audit {
 public:
  explicit Audit(const AuditOptions& options);
  const AuditReport& report() const { return report_; }

 private:
  std::vector<LayerFacts> layers_;
  FsView view_;
  AuditReport report_;
};

}  // namespace imgaudit
