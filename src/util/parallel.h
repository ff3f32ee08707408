#pragma once
#include <cstddef>
#include <functional>

namespace imgaudit {

// The one parallel loop: runs work(i) for each i in [0, count) on up to `threads` threads, the caller's
// among them, each taking the next i when it is done with one (callers order the items largest first).
// A thread that finds no item left runs `idle` (when given) and ends. The first exception work throws
// stops the handing out of items; the others finish theirs, and it is rethrown once all are joined.
void parallel_for(size_t count, unsigned threads, const std::function<void(size_t)>& work,
                  const std::function<void()>& idle = {});

}  // namespace imgaudit
