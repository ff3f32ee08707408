// input-over-limit: entries and loader inputs left out at a bound, each listed, so that an image with one
// such entry is still audited and the gap is never silent.
#include "rules/input_rules.h"

namespace imgaudit {

void check_inputs(const ImageFacts& facts, FindingGroups& groups) {
  for (const LeftOut& l : facts.over_limit) {
    auto unlisted = facts.over_limit_unlisted.find(l.layer);
    const int64_t more = unlisted == facts.over_limit_unlisted.end() ? 0 : int64_t(unlisted->second);
    groups.add("input-over-limit", layer_source(facts, l.layer), l.entry.limit, l.entry.path,
               {{"limit", l.entry.limit}, {"unlisted", FindingValue::number(more)}});
  }
}

}  // namespace imgaudit
