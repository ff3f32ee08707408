#pragma once
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "report/report.h"

namespace imgaudit {

// `imgaudit compare A B`: two audited images side by side.

// {"a": {...}, "b": {...}, "verdict": "..."}; both sides have the same keys
// (findings_by_id lists every rule id found in either image).
nlohmann::json compare_json(const AuditReport& a, const AuditReport& b, const std::string& name_a,
                            const std::string& name_b);

// The names, a table with a header row ("", "A", "B") and aligned columns,
// then the verdict.
void write_compare_text(std::ostream& out, const AuditReport& a, const AuditReport& b, const std::string& name_a,
                        const std::string& name_b, bool color);

// One paragraph naming the differences that matter: errors and warnings one
// image has and the other does not (a rule on the same paths: match_findings),
// libc, CA bundle, tzdata, Python, size.
std::string compare_verdict(const AuditReport& a, const AuditReport& b);

}  // namespace imgaudit
