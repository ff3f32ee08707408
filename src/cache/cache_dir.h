#pragma once
#include <string>

namespace imgaudit {

// $XDG_CACHE_HOME/imgaudit, else ~/.cache/imgaudit; "" when neither HOME nor XDG_CACHE_HOME is set.
std::string default_cache_dir();

// Writes `bytes` to `path` (under `dir`) through a temporary file in `dir`/tmp
// and a rename, so readers see the whole file or none, and two processes
// writing the same entry do not mix. Creates the folders. False on failure:
// a cache that cannot be written only makes the next run slower.
bool write_atomically(const std::string& dir, const std::string& path, const std::string& bytes);

// The whole file, or false when it cannot be read.
bool read_whole_file(const std::string& path, std::string& out);

}  // namespace imgaudit
