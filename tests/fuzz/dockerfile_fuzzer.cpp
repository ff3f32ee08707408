// The Dockerfile parser and its match to an image's history. Sections (NUL-separated): the
// Dockerfile, the history's created_by lines (one step a line, "#" first for an empty layer),
// the image's Env lines.
#include <nlohmann/json.hpp>

#include "dockerfile/dockerfile.h"
#include "dockerfile/dockerfile_map.h"
#include "dockerfile/history_step.h"
#include "fuzz_input.h"
#include "util/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace imgaudit;
  std::vector<std::string> s = fuzz::sections(data, size, 3);
  Dockerfile df;
  try {
    df = parse_dockerfile(s[0], "Dockerfile");
  } catch (const InputError&) {
    return 0;
  }
  for (const Instruction& in : df.instructions) {
    in.text();
    in.flag("from");
    assigned_names(in.args);
    if (in.keyword == "ENV") env_names(in);
  }

  ImageInfo image;
  for (const std::string& line : fuzz::lines(s[1])) {
    bool empty = !line.empty() && line[0] == '#';
    image.history.push_back({{"created_by", empty ? line.substr(1) : line}, {"empty_layer", empty}});
    if (!empty) image.layers.emplace_back();
    HistoryStep step = parse_created_by(line);
    for (const Instruction& in : df.instructions) step_matches(in, step);
  }
  image.env = fuzz::lines(s[2]);

  DockerfileMap map(df, image);
  for (size_t i = 0; i < image.history.size(); ++i) map.for_history(i);
  for (size_t i = 0; i < image.layers.size(); ++i) map.for_layer(int(i));
  for (const std::string& e : image.env) map.for_env(e.substr(0, e.find('=')));
  map.for_user();
  map.mismatches();
  return 0;
}
