// JUnit XML for CI test tabs (GitLab's `artifacts: reports: junit:`, Jenkins' `junit` step).
//
// Shape: one <testsuites>, one <testsuite name="imgaudit: IMAGE">, one <testcase classname="imgaudit"
// name="RULE-ID"> per catalog rule (the id alone, so GitLab's and Jenkins' history of a test case survives a
// reworded title), and in a rule's test case one <failure> per finding of severity error or warning.
//
// Choices:
// - An error or warning finding is a <failure>, its severity in `type` ("error", "warning"): something to fix.
//   An info finding is not: a green pipeline beside a red test widget (GitLab's merge request widget, Jenkins'
//   UNSTABLE) teaches people to ignore the widget. Its rule's test case passes and lists it in its
//   <system-out> ("info: MESSAGE", its paths); the suite's properties count it (findings.info). The mapping
//   does not follow --fail-on, which the exit status applies: the file does not depend on a threshold.
// - An ignored finding (report.suppressed) makes its rule's test case <skipped message="ignored: REASON"> only
//   when the rule has no other finding: Jenkins counts a test case holding any <skipped> as skipped, which
//   would hide the failures beside it. A failing rule lists its ignored findings in its <system-out>.
// - Jenkins shows only the first <failure> of a test case (GitLab joins them all), so a rule with several
//   findings also lists all of them, briefly, in its <system-out>.
// - Counts follow JUnit's meaning, in test cases: tests = test cases (the catalog's rules), failures = test
//   cases with at least one <failure>, skipped = test cases skipped, errors = 0 (no rule fails to run). The
//   number of findings and of ignored findings is in the suite's <properties>.
// - Text from the image (paths, history, Dockerfile lines) is untrusted: control characters, tab and newline
//   included, are shown as "\x1b" (as the text report does), and what XML 1.0 cannot carry or discourages
//   (other control characters, C1 controls, U+FFFE/U+FFFF, bytes that are not UTF-8) as "\xNN" per byte. The
//   five special characters are escaped everywhere, so "]]>" is harmless (no CDATA is written).
#include <algorithm>
#include <cstdint>
#include <map>
#include <sstream>
#include <string_view>

#include "report/report.h"
#include "rules/catalog.h"
#include "util/strings.h"
#include "version.h"

namespace imgaudit {

namespace {

// Length of the well-formed UTF-8 sequence starting at s[i] (RFC 3629: shortest form, no surrogates, at most
// U+10FFFF), its code point in *cp; 0 when the byte there does not start one.
size_t utf8_sequence(std::string_view s, size_t i, uint32_t* cp) {
  auto c = static_cast<unsigned char>(s[i]);
  if (c < 0x80) {
    *cp = c;
    return 1;
  }
  size_t n;
  uint32_t v;
  unsigned char lo = 0x80, hi = 0xBF;  // bounds of the second byte
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2, v = c & 0x1F;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3, v = c & 0x0F;
    if (c == 0xE0) lo = 0xA0;  // overlong
    if (c == 0xED) hi = 0x9F;  // surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4, v = c & 0x07;
    if (c == 0xF0) lo = 0x90;  // overlong
    if (c == 0xF4) hi = 0x8F;  // above U+10FFFF
  } else {
    return 0;
  }
  if (s.size() - i < n) return 0;
  for (size_t k = 1; k < n; ++k) {
    auto b = static_cast<unsigned char>(s[i + k]);
    if (b < (k == 1 ? lo : 0x80) || b > (k == 1 ? hi : 0xBF)) return 0;
    v = (v << 6) | (b & 0x3F);
  }
  *cp = v;
  return n;
}

// XML 1.0 §2.2 Char, less the control characters it discourages (DEL and C1, which terminals act on).
bool xml_char_wanted(uint32_t cp) {
  if (cp == 0x9 || cp == 0xA || cp == 0xD) return true;
  if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F)) return false;
  if (cp <= 0xD7FF) return true;
  if (cp >= 0xE000 && cp <= 0xFFFD) return true;
  return cp >= 0x10000 && cp <= 0x10FFFF;
}

void append_hex(std::string& out, std::string_view bytes) {
  static const char hex[] = "0123456789abcdef";
  for (unsigned char b : bytes) {
    out += "\\x";
    out += hex[b >> 4];
    out += hex[b & 15];
  }
}

// `s` as XML character data (attribute = false) or as an attribute value in double quotes. Tab, newline and
// carriage return are kept (as character references where XML would normalise them away); everything XML
// 1.0 cannot carry becomes "\xNN".
std::string xml_escape(std::string_view s, bool attribute) {
  std::string out;
  out.reserve(s.size() + s.size() / 8);
  for (size_t i = 0; i < s.size();) {
    uint32_t cp = 0;
    size_t n = utf8_sequence(s, i, &cp);
    if (n == 0) {
      append_hex(out, s.substr(i, 1));
      i += 1;
      continue;
    }
    if (!xml_char_wanted(cp)) {
      append_hex(out, s.substr(i, n));
      i += n;
      continue;
    }
    switch (cp) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      case '\t': out += attribute ? "&#9;" : "\t"; break;
      case '\n': out += attribute ? "&#10;" : "\n"; break;
      case '\r': out += "&#13;"; break;
      default: out.append(s.substr(i, n));
    }
    i += n;
  }
  return out;
}

std::string attr(std::string_view s) { return xml_escape(s, true); }
std::string text(std::string_view s) { return xml_escape(s, false); }

// Untrusted one-line values: a newline in a file name must not start a line of its own in the report.
std::string visible(std::string_view s) { return printable(s); }

// A finding as the body of its <failure>: the message first (GitLab shows the body, not the attribute).
std::string finding_body(const Finding& f) {
  std::string t = visible(f.message) + "\n";
  if (f.layer >= 0) {
    t += "layer " + std::to_string(f.layer);
    if (!f.created_by.empty()) t += ": " + visible(f.created_by);
    t += "\n";
  }
  if (f.dockerfile)
    t += visible(f.dockerfile->file) + ":" + std::to_string(f.dockerfile->start_line) + ": " +
         visible(f.dockerfile->instruction) + "\n";
  for (const std::string& p : f.paths) t += "  " + visible(p) + "\n";
  if (!f.advice.empty()) t += "fix: " + f.advice + "\n";  // the catalog's advice may hold newlines
  return t;
}

std::string paths_brief(const Finding& f) {
  std::string t;
  for (const std::string& p : f.paths) t += "    " + visible(p) + "\n";
  return t;
}

struct RuleCase {
  std::string id;
  std::vector<const Finding*> findings;
  std::vector<const std::pair<Finding, std::string>*> ignored;
};

bool fails(const Finding& f) { return f.severity != Severity::Info; }

// A rule's info findings, which do not fail it, as its <system-out> lists them.
std::string info_notes(const RuleCase& c) {
  std::string notes;
  for (const Finding* f : c.findings)
    if (!fails(*f)) {
      notes += "info: " + visible(f->message) + "\n" + paths_brief(*f);
      if (!f->advice.empty()) notes += "    fix: " + f->advice + "\n";
    }
  return notes;
}

void write_case(std::ostream& out, const RuleCase& c) {
  out << "    <testcase classname=\"imgaudit\" name=\"" << attr(visible(c.id)) << "\" time=\"0\"";
  if (c.findings.empty() && c.ignored.empty()) {
    out << "/>\n";
    return;
  }
  out << ">\n";
  std::vector<const Finding*> failing;
  for (const Finding* f : c.findings)
    if (fails(*f)) failing.push_back(f);
  for (const Finding* f : failing)
    out << "      <failure type=\"" << to_string(f->severity) << "\" message=\"" << attr(visible(f->message)) << "\">"
        << text(finding_body(*f)) << "</failure>\n";

  std::string ignored_text;
  std::vector<std::string> reasons;
  for (auto* s : c.ignored) {
    ignored_text += "ignored (" + visible(s->second) + "): " + visible(s->first.message) + "\n" + paths_brief(s->first);
    if (std::find(reasons.begin(), reasons.end(), visible(s->second)) == reasons.end())
      reasons.push_back(visible(s->second));
  }
  if (c.findings.empty()) {
    out << "      <skipped message=\"" << attr("ignored: " + join(reasons, "; ")) << "\">" << text(ignored_text)
        << "</skipped>\n";
  } else {
    std::string summary;
    if (failing.size() > 1) {
      summary += std::to_string(failing.size()) + " findings:\n";
      for (const Finding* f : failing)
        summary += std::string(to_string(f->severity)) + ": " + visible(f->message) + "\n" + paths_brief(*f);
    }
    summary += info_notes(c) + ignored_text;
    if (!summary.empty()) out << "      <system-out>" << text(summary) << "</system-out>\n";
  }
  out << "    </testcase>\n";
}

}  // namespace

JunitSuite junit_testsuite(const AuditReport& report, const std::string& name) {
  // One test case per catalog rule, in the catalog's order; a finding of a rule the catalog does not know
  // (none today) still gets a test case, after them.
  std::vector<RuleCase> cases;
  std::map<std::string, size_t> index;
  for (const Rule& r : Catalog::builtin().rules()) {
    index[r.id] = cases.size();
    cases.push_back({r.id, {}, {}});
  }
  auto case_for = [&](const std::string& id) -> RuleCase& {
    auto [it, added] = index.emplace(id, cases.size());
    if (added) cases.push_back({id, {}, {}});
    return cases[it->second];
  };
  for (const Finding& f : report.findings) case_for(f.id).findings.push_back(&f);
  for (const auto& s : report.suppressed) case_for(s.first.id).ignored.push_back(&s);

  JunitSuite suite;
  suite.tests = cases.size();
  size_t infos = 0;
  for (const RuleCase& c : cases) {
    if (std::any_of(c.findings.begin(), c.findings.end(), [](const Finding* f) { return fails(*f); }))
      ++suite.failures;
    else if (c.findings.empty() && !c.ignored.empty())
      ++suite.skipped;
    infos += std::count_if(c.findings.begin(), c.findings.end(), [](const Finding* f) { return !fails(*f); });
  }

  std::ostringstream out;
  out << "  <testsuite name=\"" << attr(visible("imgaudit: " + name)) << "\" " << suite.counts() << ">\n";
  out << "    <properties>\n";
  auto property = [&](const std::string& key, const std::string& value) {
    out << "      <property name=\"" << attr(key) << "\" value=\"" << attr(visible(value)) << "\"/>\n";
  };
  property("imgaudit.version", kImgauditVersion);
  property("image", report.facts.image.source);
  if (!report.facts.image.manifest_digest.empty()) property("image.digest", report.facts.image.manifest_digest);
  property("findings", std::to_string(report.findings.size()));
  property("findings.info", std::to_string(infos));
  property("ignored", std::to_string(report.suppressed.size()));
  out << "    </properties>\n";
  for (const RuleCase& c : cases) write_case(out, c);
  if (!report.warnings.empty()) {
    std::string notes;
    for (const std::string& w : report.warnings) notes += "note: " + visible(w) + "\n";
    out << "    <system-err>" << text(notes) << "</system-err>\n";
  }
  out << "  </testsuite>\n";
  suite.xml = out.str();
  return suite;
}

JunitSuite junit_unreadable_testsuite(const std::string& name, const std::string& error) {
  JunitSuite suite;
  suite.tests = 1;
  suite.errors = 1;
  suite.xml = "  <testsuite name=\"" + attr(visible("imgaudit: " + name)) + "\" " + suite.counts() + ">\n" +
              "    <testcase classname=\"imgaudit\" name=\"image\">\n      <error message=\"" +
              attr(visible(error)) + "\"/>\n    </testcase>\n  </testsuite>\n";
  return suite;
}

std::string JunitSuite::counts() const {
  return "tests=\"" + std::to_string(tests) + "\" failures=\"" + std::to_string(failures) + "\" errors=\"" +
         std::to_string(errors) + "\" skipped=\"" + std::to_string(skipped) + "\" time=\"0\"";
}

void write_junit_document(std::ostream& out, const std::vector<JunitSuite>& suites) {
  JunitSuite all;
  for (const JunitSuite& s : suites) {
    all.tests += s.tests;
    all.failures += s.failures;
    all.errors += s.errors;
    all.skipped += s.skipped;
  }
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << "<testsuites name=\"imgaudit\" " << all.counts() << ">\n";
  for (const JunitSuite& s : suites) out << s.xml;
  out << "</testsuites>\n";
}

void write_junit(std::ostream& out, const AuditReport& report) {
  write_junit_document(out, {junit_testsuite(report, report.facts.image.source)});
}

}  // namespace imgaudit
