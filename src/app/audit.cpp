#include "app/audit.h"

#include <thread>

#include "layer/read_layers.h"
#include "rules/evaluate.h"
#include "util/paths.h"

namespace imgaudit {

Audit::Audit(const AuditOptions& options) {
  auto source = open_image(options.image, options.platform);
  unsigned jobs = options.jobs ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
  layers_ = read_layers(*source, jobs);
  for (size_t i = 0; i < layers_.size(); ++i) {
    view_.apply(layers_[i], static_cast<int>(i));
    for (auto& w : layers_[i].warnings)
      report_.warnings.push_back(source->root_dir() ? w : "layer " + std::to_string(i) + ": " + w);
  }
  ImageInfo info = make_image_info(*source, layers_);
  if (source->root_dir()) info.layers.clear();  // a folder is no layer: findings name no layer
  report_.facts = collect_facts(std::move(info), view_);
  report_.findings = evaluate_rules(report_.facts);
}

}  // namespace imgaudit
