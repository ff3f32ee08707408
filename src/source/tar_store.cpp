#include <archive.h>
#include <archive_entry.h>

#include "source/blob_store.h"
#include "source/byte_streams.h"
#include "util/error.h"
#include "util/paths.h"

namespace imgaudit {

namespace {

// Manifests and configs are small: keep them from the scan, so that reading
// them does not walk the archive again.
constexpr uint64_t kCachedMemberMax = 1 << 20;
constexpr uint64_t kCacheBudget = 64 << 20;
constexpr int kMaxLinkHops = 16;

struct archive* open_reader(const std::string& file) {
  struct archive* a = archive_read_new();
  archive_read_support_filter_all(a);
  archive_read_support_format_tar(a);
  if (archive_read_open_filename(a, file.c_str(), 1 << 16) != ARCHIVE_OK) {
    std::string msg = archive_error_string(a) ? archive_error_string(a) : "cannot open";
    archive_read_free(a);
    FileStream readable(file);  // throws the system's reason when the file itself cannot be read
    throw InputError("not a tar archive (" + msg + ")");
  }
  return a;
}

std::string error_of(struct archive* a) {
  const char* msg = archive_error_string(a);
  return msg ? msg : "read error";
}

}  // namespace

TarStore::TarStore(std::string file) : file_(std::move(file)) {
  struct archive* a = open_reader(file_);
  struct archive_entry* e;
  uint64_t cached = 0;
  size_t ordinal = 0;
  int r;
  try {
    while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK || r == ARCHIVE_WARN) {
      size_t this_ordinal = ordinal++;
      const char* raw = archive_entry_pathname(e);
      std::optional<std::string> name = normalize_entry_path(raw ? raw : "");
      if (!name || name->empty()) continue;
      Member m;
      m.ordinal = this_ordinal;
      if (const char* hard = archive_entry_hardlink(e)) {
        m.type = Member::Hardlink;
        m.link = normalize_entry_path(hard).value_or("");
      } else if (archive_entry_filetype(e) == AE_IFLNK) {
        m.type = Member::Symlink;
        const char* target = archive_entry_symlink(e);
        m.link = join_in_image(parent_dir(*name), target ? target : "");
      } else if (archive_entry_filetype(e) == AE_IFREG) {
        m.type = Member::File;
        m.size = archive_entry_size(e) > 0 ? static_cast<uint64_t>(archive_entry_size(e)) : 0;
        bool keep = m.size <= kCachedMemberMax && cached + m.size <= kCacheBudget;
        std::string data;
        char buf[65536];
        la_ssize_t n;
        while ((n = archive_read_data(a, buf, keep ? sizeof buf : 8)) > 0) {
          data.append(buf, static_cast<size_t>(n));
          if (!keep) break;
        }
        if (n < 0) throw InputError("truncated or corrupt archive: " + *name + ": " + error_of(a));
        m.head = data.substr(0, 8);
        if (keep) {
          cached += data.size();
          m.content = std::move(data);
        }
      }
      members_[*name] = std::move(m);
    }
    if (r != ARCHIVE_EOF) {
      if (ordinal == 0) throw InputError("not a tar archive (" + error_of(a) + ")");
      throw InputError("truncated or corrupt archive: " + error_of(a));
    }
  } catch (...) {
    archive_read_free(a);
    throw;
  }
  archive_read_free(a);
}

const TarStore::Member* TarStore::find_file(const std::string& path) const {
  std::string name = path;
  for (int hop = 0; hop <= kMaxLinkHops; ++hop) {
    auto it = members_.find(name);
    if (it == members_.end()) return nullptr;
    const Member& m = it->second;
    if (m.type == Member::File) return &m;
    if (m.type == Member::Other) return nullptr;
    name = m.link;
  }
  return nullptr;
}

const TarStore::Member& TarStore::resolve(const std::string& path) const {
  std::optional<std::string> name = normalize_entry_path(path);
  const Member* m = name ? find_file(*name) : nullptr;
  if (!m) throw InputError(path + ": missing from the archive");
  return *m;
}

bool TarStore::exists(const std::string& path) const {
  std::optional<std::string> name = normalize_entry_path(path);
  return name && find_file(*name);
}

uint64_t TarStore::size(const std::string& path) const { return resolve(path).size; }

std::string TarStore::head(const std::string& path) const { return resolve(path).head; }

std::string TarStore::read(const std::string& path, uint64_t max_size) const {
  const Member& m = resolve(path);
  if (m.size > max_size) throw InputError(path + ": too large (over " + std::to_string(max_size) + " bytes)");
  if (m.content) return *m.content;
  std::unique_ptr<ByteStream> in = open(path);
  std::string out;
  char buf[65536];
  while (size_t n = in->read(buf, sizeof buf)) out.append(buf, n);
  return out;
}

std::unique_ptr<ByteStream> TarStore::open(const std::string& path) const {
  const Member& m = resolve(path);
  if (m.content) return std::make_unique<StringStream>(*m.content);
  struct archive* a = open_reader(file_);
  struct archive_entry* e;
  for (size_t ordinal = 0;; ++ordinal) {
    int r = archive_read_next_header(a, &e);
    if (r != ARCHIVE_OK && r != ARCHIVE_WARN) {
      std::string msg = error_of(a);
      archive_read_free(a);
      throw InputError(path + ": archive changed while reading: " + msg);
    }
    if (ordinal == m.ordinal) return std::make_unique<ArchiveEntryStream>(a, path);
  }
}

}  // namespace imgaudit
