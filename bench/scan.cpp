// The content scan alone: every needle of content_scan looked for in each FILE the way a large ELF file's
// capture does (StreamScan, in pieces of the layer's block size), the files read into memory first. Prints
// the bytes scanned and the best of ROUNDS passes in GB/s. bench/run.sh does not run it: it is for work on
// the scan itself, two builds compared on the same files.
// Usage: imgaudit-bench-scan FILE...   (ROUNDS from the environment, 7 by default)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "elf/byte_scan.h"
#include "elf/content_scan.h"
#include "layer/block_pipe.h"

int main(int argc, char** argv) {
  using namespace imgaudit;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    std::ifstream in(argv[i], std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    if (!in) {
      std::fprintf(stderr, "imgaudit-bench-scan: %s: unreadable\n", argv[i]);
      return 2;
    }
    files.push_back(bytes.str());
  }
  const int rounds = std::getenv("ROUNDS") ? std::max(1, std::atoi(std::getenv("ROUNDS"))) : 7;
  double best = 1e300;
  size_t total = 0, found = 0;
  for (int round = 0; round < rounds; ++round) {
    auto start = std::chrono::steady_clock::now();
    total = found = 0;
    for (const std::string& file : files) {
      StreamScan scan(content_needles(kEveryNeedle));
      for (size_t at = 0; at < file.size(); at += kLayerBlockBytes)
        scan.feed(at, std::string_view(file).substr(at, kLayerBlockBytes));
      for (size_t offset : scan.found()) found += offset != std::string_view::npos;
      total += file.size();
    }
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::printf("%zu bytes, %zu needles found, best of %d: %.3f s, %.2f GB/s\n", total, found, rounds, best,
              double(total) / best / 1e9);
  return 0;
}
