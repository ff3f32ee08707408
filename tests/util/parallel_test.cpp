#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "util/parallel.h"

namespace imgaudit {
namespace {

TEST(ParallelFor, EachItemOnceOnAtMostTheThreadsAllowed) {
  for (unsigned threads : {1u, 2u, 4u, 16u}) {
    std::vector<std::atomic<int>> seen(100);
    std::mutex mutex;
    std::set<std::thread::id> ids;
    std::atomic<int> idle{0};
    parallel_for(
        seen.size(), threads,
        [&](size_t i) {
          ++seen[i];
          std::lock_guard<std::mutex> lock(mutex);
          ids.insert(std::this_thread::get_id());
        },
        [&] { ++idle; });
    for (size_t i = 0; i < seen.size(); ++i) EXPECT_EQ(seen[i], 1) << "item " << i << ", " << threads << " threads";
    EXPECT_LE(ids.size(), threads);
    EXPECT_EQ(idle, int(std::min<size_t>(threads, seen.size()))) << "idle runs once a thread";
  }
}

TEST(ParallelFor, NoItemsRunNothingButTheCallersIdle) {
  int idle = 0;
  parallel_for(0, 4, [](size_t) { FAIL(); }, [&] { ++idle; });
  EXPECT_EQ(idle, 1);
}

TEST(ParallelFor, TheFirstErrorStopsTheHandingOutAndIsRethrownAfterTheJoin) {
  std::atomic<int> ran{0};
  std::atomic<bool> started4{false}, finished4{false};
  try {
    parallel_for(1000, 2, [&](size_t i) {
      ++ran;
      if (i == 3) throw std::runtime_error("item 3");
      if (i == 4) {  // may be in flight on the other thread when 3 fails: it finishes before the rethrow
        started4 = true;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        finished4 = true;
      }
    });
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "item 3");
    if (started4) {
      EXPECT_TRUE(finished4) << "rethrown before the other thread was joined";
    }
  }
  EXPECT_LT(ran, 1000) << "items were handed out after the error";
}

}  // namespace
}  // namespace imgaudit
