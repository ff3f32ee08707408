#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "compare/image_summary.h"

namespace imgaudit {

// One image's side, as compare_json() writes it; `ids` are the rule ids of both images.
nlohmann::json summary_json(const ImageSummary& s, const std::string& name, const std::vector<std::string>& ids);

struct CompareRow {
  std::string label;
  std::string a, b;
};

// The text table's rows, without the header.
std::vector<CompareRow> compare_rows(const ImageSummary& a, const ImageSummary& b);

// Rule ids found in either image, errors first, then by id.
std::vector<std::string> finding_ids(const ImageSummary& a, const ImageSummary& b);

std::string human_size(uint64_t bytes);  // "3.4 MiB"

}  // namespace imgaudit
