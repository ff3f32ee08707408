#pragma once
// What the baseline tests expect of a file that is no imgaudit JSON report: one line naming the file (made
// printable: its name is hostile too) and the cause.
#include <gtest/gtest.h>

#include <string>

#include "compare/baseline.h"
#include "util/error.h"

namespace imgaudit::test {

inline void expect_baseline_refused(const std::string& text, const std::string& why) {
  try {
    Baseline::parse(text, "base\x1b.json");
    ADD_FAILURE() << "read: " << text.substr(0, 200);
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "base\\x1b.json: not an imgaudit JSON report (--baseline): " + why);
  }
}

}  // namespace imgaudit::test
