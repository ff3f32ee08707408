// read_bounded_file on pipes: a named FIFO and a pipe named by /dev/fd/N are read to their writer's end
// whenever the writer comes, writes and leaves, and never wait for a writer that has gone.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <future>
#include <thread>

#include "test_support.h"
#include "util/bounded_file.h"
#include "util/error.h"

namespace imgaudit {
namespace {

const FileBound kBound{1 << 20, "kTestBound"};

// The read on its own thread, so that a hang is a failure after `seconds`, not a stuck test.
std::optional<std::string> read_within(const std::string& path, int seconds) {
  auto reading = std::async(std::launch::async, [path] { return read_bounded_file(path, kBound); });
  if (reading.wait_for(std::chrono::seconds(seconds)) != std::future_status::ready) {
    ADD_FAILURE() << "no end to the read of " << path << " after " << seconds << " s";
    std::abort();  // the thread is stuck in read_bounded_file: nothing to join
  }
  return reading.get();
}

TEST(BoundedFilePipes, AWriterThatComesWritesAndLeavesIsReadWhenever) {
  test::TempDir tmp;
  for (int delay_ms : {0, 0, 0, 50, 300}) {
    const std::string fifo = tmp / ("fifo" + std::to_string(delay_ms) + "-" + std::to_string(rand()));
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    test::Background w({"sh", "-c", "sleep " + std::to_string(delay_ms / 1000.0) + "; printf 'FROM scratch\\n' > '" + fifo + "'"},
                       fifo + ".log");
    EXPECT_EQ(read_within(fifo, 20), std::optional<std::string>("FROM scratch\n")) << delay_ms;
  }
}

TEST(BoundedFilePipes, AWriterThatLeavesWithoutWritingIsAnEmptyFile) {
  test::TempDir tmp;
  const std::string fifo = tmp / "fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  test::Background w({"sh", "-c", "sleep 0.2; : > '" + fifo + "'"}, fifo + ".log");
  EXPECT_EQ(read_within(fifo, 20), std::optional<std::string>(""));
}

// What `--dockerfile <(printf ...)` hands over: a pipe whose writer may have finished before imgaudit opens it.
TEST(BoundedFilePipes, APipeWhoseWriterHasGoneIsReadToItsEnd) {
  int ends[2];
  ASSERT_EQ(pipe(ends), 0);
  ASSERT_EQ(write(ends[1], "FROM alpine\n", 12), 12);
  close(ends[1]);
  EXPECT_EQ(read_within("/dev/fd/" + std::to_string(ends[0]), 20), std::optional<std::string>("FROM alpine\n"));
  close(ends[0]);

  ASSERT_EQ(pipe(ends), 0);  // and one that was given nothing
  close(ends[1]);
  EXPECT_EQ(read_within("/dev/fd/" + std::to_string(ends[0]), 20), std::optional<std::string>(""));
  close(ends[0]);
}

TEST(BoundedFilePipes, APipeWhoseWriterIsStillThereIsWaitedFor) {
  int ends[2];
  ASSERT_EQ(pipe(ends), 0);
  std::thread late([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    EXPECT_EQ(write(ends[1], "FROM x\n", 7), 7);
    close(ends[1]);
  });
  EXPECT_EQ(read_within("/dev/fd/" + std::to_string(ends[0]), 20), std::optional<std::string>("FROM x\n"));
  late.join();
  close(ends[0]);
}

}  // namespace
}  // namespace imgaudit
