#include "compare/size_growth.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "util/error.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

// The units a size may be given in, as `docker run --memory` and du take them: k, m, g (and KiB, MiB, GiB) are
// powers of 1024; kB, MB, GB powers of 1000. Compared without case.
const std::map<std::string, double>& size_units() {
  static const std::map<std::string, double> units = {
      {"", 1},         {"b", 1},           {"k", 1024},     {"kib", 1024},          {"kb", 1e3},
      {"m", 1 << 20},  {"mib", 1 << 20},   {"mb", 1e6},     {"g", 1 << 30},         {"gib", 1 << 30},
      {"gb", 1e9},     {"t", 1ull << 40},  {"tib", 1ull << 40}, {"tb", 1e12}};
  return units;
}

// A layer's identity across two builds: its uncompressed digest, or the blob's when a report had none.
std::string layer_identity(const std::string& diff_id, const std::string& digest) {
  return diff_id.empty() ? digest : diff_id;
}

std::vector<SizeGrowth::Layer> layers_grown(const ImageFacts& now, const BaselineImage& before) {
  std::set<std::string> had, has;
  for (const BaselineLayer& l : before.layers) had.insert(layer_identity(l.diff_id, l.digest));
  for (const LayerInfo& l : now.image.layers) has.insert(layer_identity(l.diff_id, l.digest));
  std::vector<SizeGrowth::Layer> grown;
  for (size_t i = 0; i < now.image.layers.size(); ++i) {
    const LayerInfo& l = now.image.layers[i];
    if (had.count(layer_identity(l.diff_id, l.digest))) continue;
    // A layer rebuilt in place (the same instruction, other bytes) grew by what it adds to the one it replaced.
    uint64_t replaced = 0;
    if (i < before.layers.size() && !has.count(layer_identity(before.layers[i].diff_id, before.layers[i].digest)))
      replaced = before.layers[i].uncompressed_size;
    if (l.uncompressed_size > replaced) grown.push_back({l.index, l.uncompressed_size - replaced, l.created_by});
  }
  std::stable_sort(grown.begin(), grown.end(), [](auto& a, auto& b) { return a.bytes > b.bytes; });
  return grown;
}

std::vector<SizeGrowth::Package> packages_grown(const ImageFacts& now, const BaselineImage& before) {
  std::map<std::pair<std::string, std::string>, uint64_t> had;
  for (const Package& p : before.packages) had[{p.manager, p.name}] = p.installed_size;
  std::vector<SizeGrowth::Package> grown;
  for (const Package& p : now.distro.packages) {
    auto it = had.find({p.manager, p.name});
    if (it == had.end()) {
      if (p.installed_size > 0) grown.push_back({p.name, p.installed_size, true});
    } else if (p.installed_size > it->second) {
      grown.push_back({p.name, p.installed_size - it->second, false});
    }
  }
  std::sort(grown.begin(), grown.end(), [](auto& a, auto& b) { return std::tie(b.bytes, a.name) < std::tie(a.bytes, b.name); });
  return grown;
}

}  // namespace

SizeGrowthLimit SizeGrowthLimit::parse(const std::string& text) {
  const InputError wrong("--max-size-growth: \"" + printable(text, 40) +
                         "\" is neither a percentage of the baseline image's size (10%) nor a size (50MiB, 20MB, 512k)");
  SizeGrowthLimit limit;
  limit.text = text;
  size_t number_end = 0;
  while (number_end < text.size() && (std::isdigit(static_cast<unsigned char>(text[number_end])) || text[number_end] == '.'))
    ++number_end;
  // from_chars would also take "inf", "nan", "-1" and "1e9": a limit is written in digits.
  if (number_end == 0 || !std::isdigit(static_cast<unsigned char>(text[0]))) throw wrong;
  auto [end, error] = std::from_chars(text.data(), text.data() + number_end, limit.amount);
  if (error != std::errc() || end != text.data() + number_end || !std::isfinite(limit.amount)) throw wrong;
  std::string unit = ascii_lower(text.substr(number_end));
  if (unit == "%") {
    limit.percent = true;
    return limit;
  }
  auto it = size_units().find(unit);
  if (it == size_units().end()) throw wrong;
  limit.amount *= it->second;
  return limit;
}

bool SizeGrowthLimit::exceeded(uint64_t before, uint64_t after) const {
  if (after <= before) return false;
  const double growth = static_cast<double>(after - before);
  if (!percent) return growth > amount;
  return growth * 100 > amount * static_cast<double>(before);
}

SizeGrowth size_growth(const ImageFacts& now, const BaselineImage& before) {
  SizeGrowth g;
  for (const BaselineLayer& l : before.layers) {
    g.before += l.uncompressed_size;
    g.compressed_before += l.compressed_size;
  }
  for (const LayerInfo& l : now.image.layers) {
    g.after += l.uncompressed_size;
    g.compressed_after += l.compressed_size;
  }
  g.layers = layers_grown(now, before);
  g.packages = packages_grown(now, before);
  return g;
}

}  // namespace imgaudit
