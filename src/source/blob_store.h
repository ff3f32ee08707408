#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "source/source.h"
#include "util/error.h"
#include "util/limits.h"

struct archive;

namespace imgaudit {

// The files of an OCI layout or of an image archive, by path relative to its
// root ("index.json", "blobs/sha256/<hex>"). Errors are InputErrors naming
// the file; callers add which image it was.
class BlobStore {
 public:
  virtual ~BlobStore() = default;
  virtual bool exists(const std::string& path) const = 0;
  // Size in bytes of an existing file.
  virtual uint64_t size(const std::string& path) const = 0;
  // The whole file, refused when larger than `max_size`.
  virtual std::string read(const std::string& path, uint64_t max_size) const = 0;
  virtual std::unique_ptr<ByteStream> open(const std::string& path) const = 0;
  // The first bytes of a file (up to 8), for sniffing its compression.
  virtual std::string head(const std::string& path) const;
  // The sha256 of a file when the store already knows it, without reading it again.
  virtual std::optional<std::string> known_digest(const std::string&) const { return std::nullopt; }
};

// A folder on disk.
std::unique_ptr<BlobStore> open_dir_store(const std::string& dir);

// What TarStore throws when its file or stream is no tar archive at all, rather than one cut short or corrupt.
class NotATarArchive : public InputError {
 public:
  using InputError::InputError;
};

// The members of a tar archive. Member symlinks and hardlinks resolve to
// their targets inside the archive. Throws NotATarArchive when it is not a tar,
// InputError when it is truncated or corrupt.
class TarStore : public BlobStore {
 public:
  // A file (any compression libarchive reads without an external program),
  // read in place: open() walks the archive again to the member, in its own reader.
  explicit TarStore(std::string file);
  // A stream (a pipe, the Docker Engine's answer) read once: what looks like
  // a layer blob goes to `read_blob` as it passes, and is known afterwards by
  // its digest only (open() refuses it); everything else is kept.
  TarStore(ByteStream& in, const StreamedBlobReader& read_blob);
  bool exists(const std::string& path) const override;
  uint64_t size(const std::string& path) const override;
  std::string read(const std::string& path, uint64_t max_size) const override;
  std::unique_ptr<ByteStream> open(const std::string& path) const override;
  std::string head(const std::string& path) const override;
  std::optional<std::string> known_digest(const std::string& path) const override;

 private:
  struct Member {
    enum Type { File, Symlink, Hardlink, Other } type = Other;
    std::string link;     // normalised target for links
    uint64_t size = 0;
    size_t ordinal = 0;   // header number in the archive
    std::string head;     // first bytes
    std::optional<std::string> content;  // kept for small files
    std::string digest;                   // of a blob handed to a StreamedBlobReader
  };
  void scan(struct archive* a, const StreamedBlobReader* read_blob);
  static std::string why_not_kept(const Member& m);
  // The regular-file member `path` names after following links.
  const Member& resolve(const std::string& path) const;
  const Member* find_file(const std::string& path) const;

  std::string file_;
  std::map<std::string, Member> members_;
};

}  // namespace imgaudit
