#include "writer/tar_builder.h"

#include <archive_entry.h>
#include <sys/stat.h>

#include <stdexcept>

namespace imgaudit {

namespace {

la_ssize_t append_to_string(struct archive*, void* client, const void* buf, size_t n) {
  static_cast<std::string*>(client)->append(static_cast<const char*>(buf), n);
  return static_cast<la_ssize_t>(n);
}

[[noreturn]] void fail(struct archive* a, const std::string& what) {
  const char* msg = archive_error_string(a);
  throw std::runtime_error("tar writer: " + what + ": " + (msg ? msg : "unknown error"));
}

}  // namespace

TarBuilder::TarBuilder(Compression c) : a_(archive_write_new()) {
  setup(c);
  if (archive_write_open2(a_, &out_, nullptr, append_to_string, nullptr, nullptr) != ARCHIVE_OK)
    fail(a_, "open");
}

TarBuilder::TarBuilder(Compression c, const std::string& path) : a_(archive_write_new()) {
  setup(c);
  if (archive_write_open_filename(a_, path.c_str()) != ARCHIVE_OK) fail(a_, path);
}

TarBuilder::~TarBuilder() {
  if (!finished_) archive_write_close(a_);
  archive_write_free(a_);
}

void TarBuilder::setup(Compression c) {
  if (archive_write_set_format_pax_restricted(a_) != ARCHIVE_OK) fail(a_, "format");
  // No zero padding after the compressed stream: zstd readers reject it.
  archive_write_set_bytes_in_last_block(a_, 1);
  int r = ARCHIVE_OK;
  if (c == Compression::Gzip) {
    r = archive_write_add_filter_gzip(a_);
    // No wall-clock time in the gzip header: identical input, identical blob.
    if (r == ARCHIVE_OK) archive_write_set_filter_option(a_, "gzip", "timestamp", nullptr);
  } else if (c == Compression::Zstd) {
    r = archive_write_add_filter_zstd(a_);
  }
  if (r != ARCHIVE_OK) fail(a_, "compression filter");
}

void TarBuilder::write_header(struct archive_entry* e, const std::string& content, uint32_t uid, uint32_t gid) {
  // Reproducible output: every entry carries the same timestamp, never the clock's.
  archive_entry_set_mtime(e, static_cast<time_t>(mtime_), 0);
  archive_entry_set_uid(e, uid);
  archive_entry_set_gid(e, gid);
  if (archive_write_header(a_, e) != ARCHIVE_OK) {
    std::string path = archive_entry_pathname(e) ? archive_entry_pathname(e) : "";
    archive_entry_free(e);
    fail(a_, path);
  }
  if (!content.empty() && archive_write_data(a_, content.data(), content.size()) < 0) {
    archive_entry_free(e);
    fail(a_, "data");
  }
  archive_entry_free(e);
}

void TarBuilder::add_file(const std::string& path, const std::string& content, uint32_t mode, uint32_t uid,
                          uint32_t gid) {
  struct archive_entry* e = archive_entry_new();
  archive_entry_set_pathname(e, path.c_str());
  archive_entry_set_filetype(e, AE_IFREG);
  archive_entry_set_perm(e, mode & 07777);
  archive_entry_set_size(e, static_cast<la_int64_t>(content.size()));
  write_header(e, content, uid, gid);
}

void TarBuilder::add_dir(const std::string& path, uint32_t mode, uint32_t uid, uint32_t gid) {
  struct archive_entry* e = archive_entry_new();
  archive_entry_set_pathname(e, path.c_str());
  archive_entry_set_filetype(e, AE_IFDIR);
  archive_entry_set_perm(e, mode & 07777);
  write_header(e, {}, uid, gid);
}

void TarBuilder::add_symlink(const std::string& path, const std::string& target) {
  struct archive_entry* e = archive_entry_new();
  archive_entry_set_pathname(e, path.c_str());
  archive_entry_set_filetype(e, AE_IFLNK);
  archive_entry_set_perm(e, 0777);
  archive_entry_set_symlink(e, target.c_str());
  write_header(e, {});
}

void TarBuilder::add_hardlink(const std::string& path, const std::string& target) {
  struct archive_entry* e = archive_entry_new();
  archive_entry_set_pathname(e, path.c_str());
  archive_entry_set_filetype(e, AE_IFREG);
  archive_entry_set_perm(e, 0644);
  archive_entry_set_hardlink(e, target.c_str());
  write_header(e, {});
}

void TarBuilder::add(const TarEntrySpec& s) {
  switch (s.kind) {
    case TarEntrySpec::File: add_file(s.path, s.content, s.mode, s.uid, s.gid); break;
    case TarEntrySpec::Dir: add_dir(s.path, s.mode == 0644 ? 0755 : s.mode, s.uid, s.gid); break;
    case TarEntrySpec::Symlink: add_symlink(s.path, s.link); break;
    case TarEntrySpec::Hardlink: add_hardlink(s.path, s.link); break;
  }
}

void TarBuilder::finish() {
  if (finished_) return;
  finished_ = true;
  if (archive_write_close(a_) != ARCHIVE_OK) fail(a_, "close");
}

}  // namespace imgaudit
