#pragma once
#include <ostream>
#include <string>

#include "report/report.h"

namespace imgaudit {

// What --fail-on counts in one report or a run's: the findings at or above its severity. With --baseline, the
// new ones only (a team adopts the gate on an image that has findings already), and beside them the unchanged
// and fixed ones at or above it, which the last line of the log says.
struct GateCount {
  size_t over = 0, unchanged = 0, fixed = 0;
  std::string baseline;  // the baseline report's file; "" without one
  GateCount& operator+=(const GateCount& other);
};

// `fail_on` is "error", "warning", "info" or "never".
GateCount gate_count(const std::string& fail_on, const AuditReport& report);

// The exit status for `count`, 0 or 1, and the line on `err` that says why (for 1), or with a baseline what it
// found (for 0 too, unless quiet).
int gate_status(const std::string& fail_on, const GateCount& count, bool quiet, std::ostream& err);

}  // namespace imgaudit
