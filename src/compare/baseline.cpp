#include "compare/baseline.h"

#include <algorithm>

#include "compare/finding_match.h"
#include "util/bounded_file.h"
#include "util/error.h"
#include "util/limits.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

using json = nlohmann::json;

// Where an image's document sits in a report: the whole report, an image of a run of many, or a platform of
// one image (alone or in a run). Each position is the keys and array elements ("#") leading to it.
bool document_position(const std::vector<std::string>& at) {
  static const std::vector<std::vector<std::string>> positions = {
      {}, {"images", "#"}, {"platforms", "#"}, {"images", "#", "platforms", "#"}};
  return std::find(positions.begin(), positions.end(), at) != positions.end();
}

// An image document being read: its name and platform, its findings, and the documents inside it (the
// platforms of a name), which take its name when they have none.
struct Document {
  size_t depth;  // of the document's members in Reader::at_
  std::string name, platform, os, architecture, variant;
  bool has_findings = false;
  std::vector<Finding> findings;
  std::vector<size_t> inner;  // indices of the images read inside it
};

// nlohmann's SAX events turned into BaselineImages: only what matching keeps is stored, so a report's binaries,
// layers and values cost nothing but their parsing.
class Reader : public json::json_sax_t {
 public:
  explicit Reader(std::vector<BaselineImage>& images) : images_(images) {}
  std::string problem;

  bool null() override { return scalar("null"); }
  bool boolean(bool) override { return scalar("a boolean"); }
  bool number_integer(json::number_integer_t) override { return scalar("a number"); }
  bool number_unsigned(json::number_unsigned_t) override { return scalar("a number"); }
  bool number_float(json::number_float_t, const std::string&) override { return scalar("a number"); }
  bool binary(json::binary_t&) override { return scalar("binary data"); }
  bool string(std::string& s) override;
  bool key(std::string& k) override {
    at_.back() = k;
    if (at_document_member("findings")) docs_.back().has_findings = true;
    return true;
  }
  bool start_object(std::size_t) override;
  bool end_object() override;
  bool start_array(std::size_t) override {
    if (at_finding() || at_finding_string()) return scalar("a list");
    return push("#");
  }
  bool end_array() override {
    at_.pop_back();
    return true;
  }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception&) override {
    return fail("malformed JSON at byte " + std::to_string(position));
  }

 private:
  bool fail(const std::string& why) {
    if (problem.empty()) problem = why;
    return false;
  }
  bool push(const std::string& entry) {
    if (at_.size() >= static_cast<size_t>(kMaxJsonDepth))
      return fail("JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
    at_.push_back(entry);
    return true;
  }
  // The member `name` of the innermost image document.
  bool at_document_member(const char* name) const {
    return !docs_.empty() && at_.size() == docs_.back().depth && at_.back() == name;
  }
  // An element of that document's findings.
  bool at_finding() const {
    return !docs_.empty() && at_.size() == docs_.back().depth + 1 && at_[at_.size() - 2] == "findings";
  }
  bool at_finding_member(const char* name) const {
    return reading_finding_ && at_.size() == docs_.back().depth + 2 && at_.back() == name;
  }
  bool at_finding_path() const {
    return reading_finding_ && at_.size() == docs_.back().depth + 3 && at_[at_.size() - 2] == "paths";
  }
  // A member of a finding that must be a string: its rule id, severity, message, or one of its paths.
  bool at_finding_string() const {
    return at_finding_member("id") || at_finding_member("severity") || at_finding_member("message") || at_finding_path();
  }
  // A value other than a string, where the report has a list, an object or a string.
  bool scalar(const std::string& what) {
    if (at_document_member("findings")) return fail("its findings are " + what + ", not a list");
    if (at_finding()) return fail("a finding is " + what + ", not an object");
    if (at_finding_member("paths")) return fail("a finding's paths are " + what + ", not a list");
    if (at_finding_string()) return fail("a finding's " + (at_finding_path() ? "path" : at_.back()) + " is " + what);
    return true;
  }
  bool finding_string(std::string& s);
  void document_string(std::string& s);
  bool end_finding();
  void end_document();

  std::vector<BaselineImage>& images_;
  std::vector<std::string> at_;  // the keys and "#" leading to the value being read
  std::vector<Document> docs_;
  bool reading_finding_ = false, severity_read_ = false;
  Finding finding_;
  size_t paths_kept_ = 0;
};

bool Reader::string(std::string& text) {
  if (at_document_member("findings") || at_finding() || at_finding_member("paths")) return scalar("a string");
  // The report wrote each string as lossless_utf8: a file name's bytes that are not UTF-8 as \xNN.
  std::optional<std::string> bytes = lossless_utf8_bytes(text);
  if (!bytes) return fail("\"" + printable(text, 40) + "\" is not a string as imgaudit writes them (a lone backslash)");
  if (reading_finding_) return finding_string(*bytes);
  document_string(*bytes);
  return true;
}

bool Reader::finding_string(std::string& s) {
  if (at_finding_path()) {
    if (++paths_kept_ > kMaxBaselinePaths)
      return fail("more than " + std::to_string(kMaxBaselinePaths) + " finding paths (kMaxBaselinePaths)");
    finding_.paths.push_back(std::move(s));
  } else if (at_finding_member("id")) {
    finding_.id = std::move(s);
  } else if (at_finding_member("message")) {
    finding_.message = std::move(s);
  } else if (at_finding_member("severity")) {
    auto severity = parse_severity(s);
    if (!severity) return fail("a finding's severity is \"" + printable(s, 40) + "\", not error, warning or info");
    finding_.severity = *severity;
    severity_read_ = true;
  }
  return true;
}

// The document's name and platform: "name" and "platform" in a run's report, image.platform in every image's.
void Reader::document_string(std::string& s) {
  if (at_document_member("name")) docs_.back().name = std::move(s);
  if (at_document_member("platform")) docs_.back().platform = std::move(s);
  if (docs_.empty() || at_.size() != docs_.back().depth + 2 || at_[at_.size() - 3] != "image" ||
      at_[at_.size() - 2] != "platform")
    return;
  Document& d = docs_.back();
  if (at_.back() == "os") d.os = std::move(s);
  if (at_.back() == "architecture") d.architecture = std::move(s);
  if (at_.back() == "variant") d.variant = std::move(s);
}

bool Reader::start_object(std::size_t) {
  if (at_document_member("findings") || at_finding_member("paths") || at_finding_string()) return scalar("an object");
  if (document_position(at_)) {
    docs_.push_back({at_.size() + 1, "", "", "", "", "", false, {}, {}});
  } else if (at_finding()) {
    reading_finding_ = true;
    severity_read_ = false;
    finding_ = Finding{};
  }
  return push("");
}

bool Reader::end_object() {
  at_.pop_back();
  if (reading_finding_ && at_.size() == docs_.back().depth + 1) return end_finding();
  if (!docs_.empty() && at_.size() + 1 == docs_.back().depth) end_document();
  return true;
}

bool Reader::end_finding() {
  reading_finding_ = false;
  if (finding_.id.empty()) return fail("a finding without a rule id");
  if (!severity_read_) return fail("a finding without a severity");
  std::sort(finding_.paths.begin(), finding_.paths.end());  // as the report's renderers keep them
  docs_.back().findings.push_back(std::move(finding_));
  return true;
}

void Reader::end_document() {
  Document d = std::move(docs_.back());
  docs_.pop_back();
  for (size_t i : d.inner)
    if (images_[i].name.empty()) images_[i].name = d.name;
  if (!d.has_findings) return;
  std::string platform = d.platform;
  if (!d.os.empty() && !d.architecture.empty())
    platform = d.os + "/" + d.architecture + (d.variant.empty() ? "" : "/" + d.variant);
  images_.push_back({d.name, platform, std::move(d.findings)});
  if (!docs_.empty()) docs_.back().inner.push_back(images_.size() - 1);
}

}  // namespace

Baseline Baseline::read(const std::string& file) {
  std::optional<std::string> text = read_bounded_file(file, {kMaxBaselineBytes, "kMaxBaselineBytes"});
  if (!text) throw InputError(printable(file) + ": no such baseline report (--baseline)");
  return parse(*text, file);
}

Baseline Baseline::parse(const std::string& text, const std::string& file) {
  Baseline baseline;
  baseline.file_ = file;
  Reader reader(baseline.images_);
  const std::string what = printable(file) + ": not an imgaudit JSON report (--baseline): ";
  if (!json::sax_parse(text, &reader) || !reader.problem.empty())
    throw InputError(what + (reader.problem.empty() ? "malformed JSON" : reader.problem));
  if (baseline.images_.empty()) throw InputError(what + "it lists no image's findings");
  return baseline;
}

const BaselineImage* Baseline::find(const std::string& name, const std::string& platform) const {
  if (images_.size() == 1) return &images_.front();
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
  // What the earlier report had and this one ignores now is not fixed: the ignore hides it.
  std::vector<Finding> ignored;
  for (const auto& [f, reason] : report.suppressed) ignored.push_back(f);
  std::vector<Finding> gone;
  for (size_t i : match.removed) gone.push_back(earlier->findings[i]);
  const FindingMatch still = match_findings(ignored, gone);
  for (size_t i : still.added) outcome.fixed.push_back(gone[i]);
  report.baseline = std::move(outcome);
}

}  // namespace imgaudit
