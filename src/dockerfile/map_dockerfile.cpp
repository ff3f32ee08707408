#include <algorithm>
#include <deque>

#include <nlohmann/json.hpp>

#include "dockerfile/dockerfile_map.h"
#include "dockerfile/history_step.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

// The stages the last one is built FROM, root first: `FROM build AS final`
// carries the build stage's layers.
std::deque<size_t> stage_chain(const Dockerfile& df) {
  std::deque<size_t> chain;
  size_t s = df.stages.size() - 1;
  for (;;) {
    chain.push_front(s);
    std::string base = ascii_lower(df.stages[s].base);
    std::optional<size_t> parent;
    for (size_t p = 0; p < s; ++p)
      if ((!df.stages[p].name.empty() && df.stages[p].name == base) || std::to_string(p) == base) parent = p;
    if (!parent) return chain;
    s = *parent;
  }
}

bool is_empty_layer(const nlohmann::json& entry) {
  auto it = entry.find("empty_layer");
  return it != entry.end() && it->is_boolean() && it->get<bool>();
}

std::string created_by(const nlohmann::json& entry) {
  auto it = entry.find("created_by");
  return it != entry.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The longest in-order matching of history entries to instructions; among
// equally long ones, the one that matches the latest entries, since the base
// image's entries come first and may look like this Dockerfile's (`CMD`, `WORKDIR /app`).
std::vector<long> align(const std::vector<HistoryStep>& steps, const std::vector<const Instruction*>& ins) {
  const size_t n = steps.size(), m = ins.size();
  std::vector<std::vector<int>> best(n + 1, std::vector<int>(m + 1, 0));
  for (size_t i = 1; i <= n; ++i)
    for (size_t j = 1; j <= m; ++j) {
      best[i][j] = std::max(best[i - 1][j], best[i][j - 1]);
      if (step_matches(*ins[j - 1], steps[i - 1])) best[i][j] = std::max(best[i][j], best[i - 1][j - 1] + 1);
    }
  std::vector<long> matched(n, -1);
  for (size_t i = n, j = m; i > 0 && j > 0;) {
    if (best[i][j] == best[i - 1][j - 1] + 1 && step_matches(*ins[j - 1], steps[i - 1])) {
      matched[i - 1] = static_cast<long>(j - 1);
      --i, --j;
    } else if (best[i - 1][j] >= best[i][j - 1]) {
      --i;
    } else {
      --j;
    }
  }
  return matched;
}

}  // namespace

void to_json(nlohmann::json& j, const DockerfileLocation& l) {
  j = {{"path", l.path},       {"first_line", l.first_line},   {"last_line", l.last_line},
       {"stage", l.stage},     {"stage_index", l.stage_index}, {"instruction", l.instruction}};
}

DockerfileMap::DockerfileMap(Dockerfile dockerfile, const ImageInfo& image) : dockerfile_(std::move(dockerfile)) {
  const Dockerfile& df = dockerfile_;
  std::deque<size_t> stages = stage_chain(df);
  base_from_ = df.stages[stages.front()].from;
  for (size_t s : stages)
    for (size_t i = df.stages[s].from + 1; i < df.instructions.size() && df.instructions[i].stage == static_cast<int>(s); ++i)
      chain_.push_back(i);

  std::vector<HistoryStep> steps;
  if (image.history.is_array())
    for (auto& entry : image.history) steps.push_back(parse_created_by(created_by(entry)));
  std::vector<const Instruction*> ins;
  for (size_t i : chain_) ins.push_back(&df.instructions[i]);
  std::vector<long> matched = align(steps, ins);

  auto first = std::find_if(matched.begin(), matched.end(), [](long m) { return m >= 0; });
  // Nothing matched: a Dockerfile of a FROM line alone made nothing of its
  // own; any other is not the one that built this image.
  bool base_only = first == matched.end() && chain_.empty();
  const size_t first_entry = static_cast<size_t>(first - matched.begin());
  // Entries before the first matched one are the base image's, but for as
  // many as there are instructions before the first matched instruction:
  // those entries, right before it, are taken to be what these instructions
  // made before they were changed; they match no instruction.
  size_t base_entries = 0;
  if (first != matched.end()) base_entries = first_entry - std::min(static_cast<size_t>(*first), first_entry);
  for (size_t e = 0; e < matched.size(); ++e) {
    long at = -1;
    if (matched[e] >= 0) at = static_cast<long>(chain_[matched[e]]);
    else if (base_only || e < base_entries) at = static_cast<long>(base_from_);
    history_.push_back(at);
  }
  if (first == matched.end() && !base_only) std::fill(history_.begin(), history_.end(), -1);

  unrelated_ = first == matched.end() && !base_only && !steps.empty();
  if (unrelated_) {
    mismatches_.push_back(df.path + " does not match the image's history: none of its " + std::to_string(steps.size()) +
                          " steps comes from an instruction there, so findings carry no Dockerfile line");
  } else if (first != matched.end()) {
    for (size_t e = base_entries; e < matched.size(); ++e)
      if (matched[e] < 0)
        mismatches_.push_back(df.path + " does not match the image's history: step " + std::to_string(e + 1) + " of " +
                              std::to_string(steps.size()) + " `" +
                              printable(collapse_whitespace(created_by(image.history[e])), 120) +
                              "` has no instruction there (findings from it carry no Dockerfile line)");
  }

  size_t entry = 0;
  if (image.history.is_array())
    for (auto& h : image.history) {
      if (!is_empty_layer(h) && layers_.size() < image.layers.size()) layers_.push_back(history_[entry]);
      ++entry;
    }
  layers_.resize(image.layers.size(), -1);

  for (auto& e : image.env) image_env_.insert(e.substr(0, e.find('=')));
}

DockerfileLocation DockerfileMap::location(size_t instruction) const {
  const Instruction& in = dockerfile_.instructions[instruction];
  DockerfileLocation l;
  l.path = dockerfile_.path;
  l.first_line = in.first_line;
  l.last_line = in.last_line;
  l.stage_index = in.stage;
  if (in.stage >= 0) {
    const std::string& name = dockerfile_.stages[in.stage].name;
    l.stage = name.empty() ? std::to_string(in.stage) : name;
  }
  l.instruction = in.text();
  return l;
}

std::optional<DockerfileLocation> DockerfileMap::for_history(size_t entry) const {
  if (entry >= history_.size() || history_[entry] < 0) return std::nullopt;
  return location(static_cast<size_t>(history_[entry]));
}

std::optional<DockerfileLocation> DockerfileMap::for_layer(int layer) const {
  if (layer < 0 || static_cast<size_t>(layer) >= layers_.size() || layers_[layer] < 0) return std::nullopt;
  return location(static_cast<size_t>(layers_[layer]));
}

std::optional<DockerfileLocation> DockerfileMap::for_env(const std::string& key) const {
  for (auto it = chain_.rbegin(); it != chain_.rend(); ++it) {
    const Instruction& in = dockerfile_.instructions[*it];
    if (in.keyword == "ENV" && env_names(in).count(key)) return location(*it);
  }
  if (image_env_.count(key)) return location(base_from_);
  return std::nullopt;
}

bool DockerfileMap::has_user_instruction() const {
  return std::any_of(chain_.begin(), chain_.end(),
                     [&](size_t i) { return dockerfile_.instructions[i].keyword == "USER"; });
}

std::optional<DockerfileLocation> DockerfileMap::for_last(const std::vector<std::string>& keywords,
                                                          bool from_base) const {
  for (auto it = chain_.rbegin(); it != chain_.rend(); ++it)
    if (std::find(keywords.begin(), keywords.end(), dockerfile_.instructions[*it].keyword) != keywords.end())
      return location(*it);
  if (from_base) return location(base_from_);
  return std::nullopt;
}

std::optional<DockerfileLocation> DockerfileMap::for_end() const {
  return location(chain_.empty() ? base_from_ : chain_.back());
}

std::optional<DockerfileLocation> DockerfileMap::for_user() const {
  for (auto it = chain_.rbegin(); it != chain_.rend(); ++it)
    if (dockerfile_.instructions[*it].keyword == "USER") return location(*it);
  return for_end();
}

DockerfileMap map_dockerfile(const std::string& path, const ImageInfo& image) {
  return DockerfileMap(read_dockerfile(path), image);
}

}  // namespace imgaudit
