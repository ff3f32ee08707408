#include <archive.h>
#include <archive_entry.h>

#include <cerrno>
#include <algorithm>
#include <cstring>
#include <exception>

#include "source/archive_filters.h"
#include "source/blob_store.h"
#include "source/byte_streams.h"
#include "source/json_blobs.h"
#include "source/media_types.h"
#include "util/error.h"
#include "util/human_size.h"
#include "util/paths.h"
#include "util/sha256.h"
#include "util/limits.h"

namespace imgaudit {

namespace {

// Manifests and configs are small: keep them from the scan, so that reading
// them does not walk the archive again.
constexpr uint64_t kCachedMemberMax = 1 << 20;
constexpr uint64_t kCacheBudget = 64 << 20;

struct archive* open_reader(const std::string& file) {
  struct archive* a = archive_read_new();
  support_builtin_filters(a);
  archive_read_support_format_tar(a);
  if (archive_read_open_filename(a, file.c_str(), 1 << 16) != ARCHIVE_OK) {
    std::string msg = archive_error_string(a) ? archive_error_string(a) : "cannot open";
    archive_read_free(a);
    FileStream readable(file);  // throws the system's reason when the file itself cannot be read
    throw NotATarArchive("not a tar archive (" + msg + ")");
  }
  return a;
}

std::string error_of(struct archive* a) {
  const char* msg = archive_error_string(a);
  return msg ? msg : "read error";
}

// The outer stream of a one-pass read, as libarchive pulls it.
struct StreamInput {
  ByteStream* in;
  char buf[1 << 16];
  // What the stream threw, an InputError: every error after it (libarchive's words for it, a layer's reader
  // cut short) is a consequence, and this is the one to report.
  std::exception_ptr failure;
};

la_ssize_t read_input(struct archive* a, void* ctx, const void** out) {
  auto* s = static_cast<StreamInput*>(ctx);
  try {
    *out = s->buf;
    return static_cast<la_ssize_t>(s->in->read(s->buf, sizeof s->buf));
  } catch (const InputError& e) {
    s->failure = std::current_exception();
    archive_set_error(a, EIO, "%s", e.what());
  } catch (const std::exception& e) {
    s->failure = std::make_exception_ptr(InputError(e.what()));
    archive_set_error(a, EIO, "%s", e.what());
  }
  return -1;
}

// The current member's data, after the bytes already peeked at.
class MemberStream : public ByteStream {
 public:
  MemberStream(struct archive* a, std::string peeked, std::string name)
      : a_(a), peeked_(std::move(peeked)), name_(std::move(name)) {}
  size_t read(void* buf, size_t n) override {
    if (pos_ < peeked_.size()) {
      n = std::min(n, peeked_.size() - pos_);
      std::memcpy(buf, peeked_.data() + pos_, n);
      pos_ += n;
      return n;
    }
    la_ssize_t r = archive_read_data(a_, buf, n);
    if (r < 0) throw InputError("truncated or corrupt archive: " + name_ + ": " + error_of(a_));
    return static_cast<size_t>(r);
  }

 private:
  struct archive* a_;
  std::string peeked_;
  size_t pos_ = 0;
  std::string name_;
};

// Up to `n` bytes of the current member's data.
std::string read_up_to(struct archive* a, size_t n, const std::string& name) {
  std::string data;
  char buf[65536];
  while (data.size() < n) {
    la_ssize_t got = archive_read_data(a, buf, std::min(sizeof buf, n - data.size()));
    if (got < 0) throw InputError("truncated or corrupt archive: " + name + ": " + error_of(a));
    if (got == 0) break;
    data.append(buf, static_cast<size_t>(got));
  }
  return data;
}

// What a layer blob starts with: a compressor's magic, a tar header, or the
// zero blocks of an empty tar. Anything else is kept as a small file.
bool looks_like_layer(const std::string& head) {
  if (!compression_of(head).empty()) return true;
  if (head.size() >= 262 && head.compare(257, 5, "ustar") == 0) return true;
  return head.size() >= 512 && head.find_first_not_of('\0', 0) >= 512;
}

// An archive's own documents: past kMaxJsonBlob they are refused when their header is read, instead of
// after their bytes were skipped (an Engine export's manifest.json that claims 8 GiB would take minutes).
bool is_archive_document(const std::string& name) {
  return name == "manifest.json" || name == "index.json" || name == "oci-layout" || name == "repositories";
}

// A regular member's claimed size, checked against the bounds before any of its bytes is read.
void check_claimed(const std::string& name, uint64_t size, uint64_t& claimed) {
  if (is_archive_document(name) && size > kMaxJsonBlob)
    throw InputError(name + ": " + std::to_string(size) + " bytes, over the limit of " + human_size(kMaxJsonBlob) +
                     " (kMaxJsonBlob)");
  claimed += std::min(size, kMaxArchiveBytes + 1);
  if (claimed > kMaxArchiveBytes)
    throw InputError(name + ": the archive's members claim more than " + human_size(kMaxArchiveBytes) +
                     " in all (kMaxArchiveBytes)");
}

}  // namespace

TarStore::TarStore(std::string file) : file_(std::move(file)) {
  struct archive* a = open_reader(file_);
  try {
    scan(a, nullptr);
  } catch (...) {
    archive_read_free(a);
    throw;
  }
  archive_read_free(a);
}

TarStore::TarStore(ByteStream& in, const StreamedBlobReader& read_blob) {
  struct archive* a = archive_read_new();
  support_builtin_filters(a);
  archive_read_support_format_tar(a);
  auto input = std::make_unique<StreamInput>();
  input->in = &in;
  try {
    if (archive_read_open(a, input.get(), nullptr, read_input, nullptr) != ARCHIVE_OK)
      throw NotATarArchive("not a tar archive (" + error_of(a) + ")");
    scan(a, &read_blob);
  } catch (const InputError&) {
    archive_read_free(a);
    if (input->failure) std::rethrow_exception(input->failure);
    throw;
  }
  archive_read_free(a);
}

void TarStore::scan(struct archive* a, const StreamedBlobReader* read_blob) {
  struct archive_entry* e;
  uint64_t cached = 0, claimed = 0;
  size_t ordinal = 0;
  int r;
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
      check_claimed(*name, m.size, claimed);
      if (read_blob) {
        std::string peeked = read_up_to(a, 512, *name);
        m.head = peeked.substr(0, 8);
        if (looks_like_layer(peeked)) {
          MemberStream rest(a, std::move(peeked), *name);
          try {
            m.digest = (*read_blob)(*name, digest_of_blob_path(*name), m.size, rest);
          } catch (const InputError& err) {
            throw InputError(*name + ": " + err.what());
          }
        } else if (m.size <= kMaxJsonBlob) {
          if (cached + m.size > kMaxStreamKeptBytes)
            throw InputError("more than " + std::to_string(kMaxStreamKeptBytes >> 20) +
                             " MiB of files that are no layer blobs (at " + *name + ")");
          m.content = peeked + read_up_to(a, kMaxJsonBlob, *name);
          cached += m.content->size();
        }  // else: neither a layer nor a manifest; refused by open() and read() if an image names it
      } else {
        bool keep = m.size <= kCachedMemberMax && cached + m.size <= kCacheBudget;
        std::string data = read_up_to(a, keep ? kCachedMemberMax : 8, *name);
        m.head = data.substr(0, 8);
        if (keep) {
          cached += data.size();
          m.content = std::move(data);
        }
      }
    }
    members_[*name] = std::move(m);
  }
  if (r != ARCHIVE_EOF) {
    if (ordinal == 0) throw NotATarArchive("not a tar archive (" + error_of(a) + ")");
    throw InputError("truncated or corrupt archive: " + error_of(a));
  }
}

const TarStore::Member* TarStore::find_file(const std::string& path) const {
  std::string name = path;
  for (int hop = 0; hop <= kMaxArchiveLinkHops; ++hop) {
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

std::string TarStore::why_not_kept(const Member& m) {
  if (!m.digest.empty())
    return "read from the stream as a layer blob (" + m.digest + ") and not kept: a stream is read once";
  return "a " + std::to_string(m.size) + "-byte file that is no layer blob, too large to keep from a stream";
}

std::optional<std::string> TarStore::known_digest(const std::string& path) const {
  const Member& m = resolve(path);
  if (!m.digest.empty()) return m.digest;
  if (m.content) return Sha256::of(*m.content);
  return std::nullopt;
}

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
  if (file_.empty()) throw InputError(path + ": " + why_not_kept(m));
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
