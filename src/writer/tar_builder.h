#pragma once
#include <archive.h>

#include <cstdint>
#include <string>

#include "writer/image_writer.h"

namespace imgaudit {

// Writes a tar stream (pax restricted, root-owned unless told, one mtime for every entry) into memory
// or a file, through libarchive's filters.
class TarBuilder {
 public:
  // Into memory; see bytes().
  explicit TarBuilder(Compression c);
  // Into the file at `path`.
  TarBuilder(Compression c, const std::string& path);
  ~TarBuilder();
  TarBuilder(const TarBuilder&) = delete;
  TarBuilder& operator=(const TarBuilder&) = delete;

  void add_file(const std::string& path, const std::string& content, uint32_t mode = 0644, uint32_t uid = 0,
                uint32_t gid = 0);
  void add_dir(const std::string& path, uint32_t mode = 0755, uint32_t uid = 0, uint32_t gid = 0);
  void add_symlink(const std::string& path, const std::string& target);
  void add_hardlink(const std::string& path, const std::string& target);
  void add(const TarEntrySpec& e);
  // The mtime of the entries added from now on (kDefaultImageTime unless told).
  void set_mtime(int64_t seconds) { mtime_ = seconds; }
  // Flushes the end-of-archive blocks and the compressor.
  void finish();
  // The stream written in memory (valid after finish()).
  const std::string& bytes() const { return out_; }

 private:
  void setup(Compression c);
  void write_header(struct archive_entry* e, const std::string& content, uint32_t uid = 0, uint32_t gid = 0);

  struct archive* a_;
  std::string out_;
  bool finished_ = false;
  int64_t mtime_ = kDefaultImageTime;
};

}  // namespace imgaudit
