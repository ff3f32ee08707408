#pragma once
#include <memory>
#include <string>

#include "source/source.h"

struct archive;

namespace imgaudit {

// A file on disk.
class FileStream : public ByteStream {
 public:
  explicit FileStream(const std::string& path);  // throws InputError
  ~FileStream() override;
  size_t read(void* buf, size_t n) override;

 private:
  std::string path_;
  int fd_;
};

// The data of the current entry of a libarchive reader, which it owns.
class ArchiveEntryStream : public ByteStream {
 public:
  ArchiveEntryStream(struct archive* a, std::string name) : a_(a), name_(std::move(name)) {}
  ~ArchiveEntryStream() override;
  size_t read(void* buf, size_t n) override;

 private:
  struct archive* a_;
  std::string name_;
};

// A stream over bytes already in memory.
class StringStream : public ByteStream {
 public:
  explicit StringStream(std::string bytes) : bytes_(std::move(bytes)) {}
  size_t read(void* buf, size_t n) override;

 private:
  std::string bytes_;
  size_t pos_ = 0;
};

}  // namespace imgaudit
