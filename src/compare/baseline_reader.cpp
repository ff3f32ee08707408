#include "compare/baseline_reader.h"

#include <algorithm>
#include <map>
#include <string_view>

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

// The records kept of an image besides its findings: objects in a list at `at` under the image's document,
// with members of text and of counts (bytes). Their other members are read past.
enum class RecordKind { Layer, Package, Binary };
enum class FieldKind { Text, Count };
struct RecordField {
  std::string_view name;
  FieldKind kind;
};
struct RecordShape {
  RecordKind kind;
  const char* what;  // "a layer", as the reader names a malformed one
  std::vector<std::string_view> at;
  std::vector<RecordField> fields;
};

const std::vector<RecordShape>& record_shapes() {
  using F = FieldKind;
  static const std::vector<RecordShape> shapes = {
      {RecordKind::Layer,
       "a layer",
       {"image", "layers", "#"},
       {{"digest", F::Text},
        {"diff_id", F::Text},
        {"created_by", F::Text},
        {"compressed_size", F::Count},
        {"uncompressed_size", F::Count}}},
      {RecordKind::Package,
       "a package",
       {"distro", "packages", "#"},
       {{"manager", F::Text}, {"name", F::Text}, {"version", F::Text}, {"installed_size", F::Count}}},
      {RecordKind::Binary, "a binary", {"binaries", "#"}, {{"path", F::Text}, {"soname", F::Text}}},
  };
  return shapes;
}

// A record being read: its shape, and the values of its fields by name.
struct Record {
  const RecordShape* shape = nullptr;
  std::map<std::string_view, std::string> texts;
  std::map<std::string_view, uint64_t> counts;
};

// An image document being read: its name and platform, its findings and records, and the documents inside it
// (the platforms of a name), which take its name when they have none.
struct Document {
  size_t depth;  // of the document's members in Reader::at_
  std::string name, platform, os, architecture, variant;
  bool has_findings = false;
  std::vector<Finding> findings;
  std::vector<BaselineLayer> layers;
  std::vector<Package> packages;
  std::vector<BaselineLibrary> libraries;
  std::vector<size_t> inner;  // indices of the images read inside it
};

// A record read whole, kept in its document: a binary only when it is a library (has a soname). Whether it
// was kept.
bool keep_record(Document& d, Record& r) {
  switch (r.shape->kind) {
    case RecordKind::Layer:
      d.layers.push_back({r.texts["digest"], r.texts["diff_id"], r.texts["created_by"], r.counts["compressed_size"],
                          r.counts["uncompressed_size"]});
      return true;
    case RecordKind::Package:
      d.packages.push_back({r.texts["manager"], r.texts["name"], r.texts["version"], r.counts["installed_size"]});
      return true;
    case RecordKind::Binary:
      if (r.texts["soname"].empty()) return false;
      d.libraries.push_back({r.texts["path"], r.texts["soname"]});
      return true;
  }
  return false;
}

// nlohmann's SAX events turned into BaselineImages: only what comparing keeps is stored, so a report's values,
// history and the rest of its binaries' facts cost nothing but their parsing.
class Reader : public json::json_sax_t {
 public:
  explicit Reader(std::vector<BaselineImage>& images) : images_(images) {}
  std::string problem;

  bool null() override { return scalar("null"); }
  bool boolean(bool) override { return scalar("a boolean"); }
  bool number_integer(json::number_integer_t) override { return scalar("a negative number"); }
  bool number_unsigned(json::number_unsigned_t n) override;
  bool number_float(json::number_float_t, const std::string&) override { return scalar("a fraction"); }
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
    if (at_finding() || at_finding_string() || at_record_element() || record_field()) return scalar("a list");
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
  // Whether the value being read is at `keys` (then `extra` levels more) under the innermost image document.
  bool at_in_document(const std::vector<std::string_view>& keys, size_t extra = 0) const {
    if (docs_.empty()) return false;
    const size_t base = docs_.back().depth - 1;
    return at_.size() == base + keys.size() + extra && std::equal(keys.begin(), keys.end(), at_.begin() + base);
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
  // The shape of the record whose element is being read (a layer of image.layers), or null.
  const RecordShape* record_shape_here() const {
    for (const RecordShape& shape : record_shapes())
      if (at_in_document(shape.at)) return &shape;
    return nullptr;
  }
  bool at_record_element() const { return record_shape_here() != nullptr; }
  // The field of the record being read that is the value being read, or null.
  const RecordField* record_field() const {
    if (!record_.shape || !at_in_document(record_.shape->at, 1)) return nullptr;
    for (const RecordField& field : record_.shape->fields)
      if (at_.back() == field.name) return &field;
    return nullptr;
  }
  bool scalar(const std::string& what);
  bool finding_string(std::string& s);
  void document_string(std::string& s);
  bool end_finding();
  bool end_record();
  void end_document();

  std::vector<BaselineImage>& images_;
  std::vector<std::string> at_;  // the keys and "#" leading to the value being read
  std::vector<Document> docs_;
  bool reading_finding_ = false, severity_read_ = false;
  Finding finding_;
  Record record_;
  size_t paths_kept_ = 0, records_kept_ = 0;
};

// A value other than a string where the report has a list, an object or a string; other than a number where it
// has a count.
bool Reader::scalar(const std::string& what) {
  if (const RecordShape* shape = record_shape_here()) return fail(std::string(shape->what) + " is " + what + ", not an object");
  if (const RecordField* field = record_field())
    return fail(std::string(record_.shape->what) + "'s " + std::string(field->name) + " is " + what + ", not " +
                (field->kind == FieldKind::Count ? "a count" : "a string"));
  if (at_document_member("findings")) return fail("its findings are " + what + ", not a list");
  if (at_finding()) return fail("a finding is " + what + ", not an object");
  if (at_finding_member("paths")) return fail("a finding's paths are " + what + ", not a list");
  if (at_finding_string()) return fail("a finding's " + (at_finding_path() ? "path" : at_.back()) + " is " + what);
  return true;
}

bool Reader::number_unsigned(json::number_unsigned_t n) {
  const RecordField* field = record_field();
  if (!field || field->kind != FieldKind::Count) return scalar("a number");
  record_.counts[field->name] = n;
  return true;
}

bool Reader::string(std::string& text) {
  if (at_document_member("findings") || at_finding() || at_finding_member("paths")) return scalar("a string");
  const RecordField* field = record_field();
  if (at_record_element() || (field && field->kind != FieldKind::Text)) return scalar("a string");
  // The report wrote each string as lossless_utf8: a file name's bytes that are not UTF-8 as \xNN.
  std::optional<std::string> bytes = lossless_utf8_bytes(text);
  if (!bytes) return fail("\"" + printable(text, 40) + "\" is not a string as imgaudit writes them (a lone backslash)");
  if (field) {
    record_.texts[field->name] = std::move(*bytes);
    return true;
  }
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
  if (at_document_member("findings") || at_finding_member("paths") || at_finding_string() || record_field())
    return scalar("an object");
  if (document_position(at_)) {
    docs_.push_back({at_.size() + 1, "", "", "", "", "", false, {}, {}, {}, {}, {}});
  } else if (at_finding()) {
    reading_finding_ = true;
    severity_read_ = false;
    finding_ = Finding{};
  } else if (const RecordShape* shape = record_shape_here()) {
    record_ = Record{shape, {}, {}};
  }
  return push("");
}

bool Reader::end_object() {
  at_.pop_back();
  if (reading_finding_ && at_.size() == docs_.back().depth + 1) return end_finding();
  if (record_.shape && at_in_document(record_.shape->at)) return end_record();
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

bool Reader::end_record() {
  if (keep_record(docs_.back(), record_) && ++records_kept_ > kMaxBaselineRecords)
    return fail("more than " + std::to_string(kMaxBaselineRecords) +
                " layers, packages and libraries (kMaxBaselineRecords)");
  record_ = Record{};
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
  images_.push_back({d.name, platform, std::move(d.findings), std::move(d.layers), std::move(d.packages),
                     std::move(d.libraries)});
  if (!docs_.empty()) docs_.back().inner.push_back(images_.size() - 1);
}

}  // namespace

std::vector<BaselineImage> read_baseline_images(const std::string& text, std::string& problem) {
  std::vector<BaselineImage> images;
  Reader reader(images);
  if (!json::sax_parse(text, &reader) && reader.problem.empty()) reader.problem = "malformed JSON";
  problem = reader.problem;
  return images;
}

}  // namespace imgaudit
