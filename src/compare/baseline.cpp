#include "compare/baseline.h"

#include <algorithm>

#include "compare/baseline_reader.h"
#include "compare/baseline_rules.h"
#include "compare/finding_match.h"
#include "util/bounded_file.h"
#include "util/error.h"
#include "util/limits.h"
#include "util/strings.h"

namespace imgaudit {

Baseline Baseline::read(const std::string& file) {
  std::optional<std::string> text = read_bounded_file(file, {kMaxBaselineBytes, "kMaxBaselineBytes"});
  if (!text) throw InputError(printable(file) + ": no such baseline report (--baseline)");
  return parse(*text, file);
}

Baseline Baseline::parse(const std::string& text, const std::string& file) {
  Baseline baseline;
  baseline.file_ = file;
  std::string problem;
  baseline.images_ = read_baseline_images(text, problem);
  const std::string what = printable(file) + ": not an imgaudit JSON report (--baseline): ";
  if (!problem.empty()) throw InputError(what + problem);
  if (baseline.images_.empty()) throw InputError(what + "it lists no image's findings");
  return baseline;
}

bool Baseline::of_one_image() const { return images_.size() == 1 && images_.front().name.empty(); }

const BaselineImage* Baseline::find(const std::string& name, const std::string& platform) const {
  if (of_one_image()) return &images_.front();
  for (const BaselineImage& image : images_)
    if (image.name == name && (platform.empty() || image.platform.empty() || image.platform == platform)) return &image;
  return nullptr;
}

void apply_baseline(AuditReport& report, const BaselineImage* earlier, const std::string& file) {
  BaselineOutcome outcome{file, earlier != nullptr, {}};
  if (!earlier) {
    for (Finding& f : report.findings) f.baseline = BaselineState::New;
    report.baseline = std::move(outcome);
    return;
  }
  const FindingMatch match = match_findings(earlier->findings, report.findings);
  for (size_t i : match.added) report.findings[i].baseline = BaselineState::New;
  for (size_t i : match.kept) report.findings[i].baseline = BaselineState::Unchanged;
  // A finding that compares with the baseline is new against each baseline it is found with.
  for (Finding& f : report.findings)
    if (compares_with_baseline(f.id)) f.baseline = BaselineState::New;
  // What the earlier report had and this one ignores now is not fixed: the ignore hides it.
  std::vector<Finding> ignored;
  for (const auto& [f, reason] : report.suppressed) ignored.push_back(f);
  std::vector<Finding> gone;
  for (size_t i : match.removed)
    if (!compares_with_baseline(earlier->findings[i].id)) gone.push_back(earlier->findings[i]);
  const FindingMatch still = match_findings(ignored, gone);
  for (size_t i : still.added) outcome.fixed.push_back(gone[i]);
  report.baseline = std::move(outcome);
}

}  // namespace imgaudit
