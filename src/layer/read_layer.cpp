#include <archive.h>
#include <archive_entry.h>

#include <cerrno>
#include <memory>
#include <vector>

#include "layer/layer_builder.h"
#include "layer/layer_facts.h"
#include "util/error.h"
#include "util/sha256.h"

namespace imgaudit {

namespace {

using ArchivePtr = std::unique_ptr<archive, decltype(&archive_read_free)>;

// The blob as stored, hashed and counted on its way into the decompressor.
struct StoredSide {
  StoredSide(ByteStream& b, int64_t size) : blob(&b), expected(size) {}
  ByteStream* blob;
  int64_t expected;  // the descriptor's size, -1 when unknown
  Sha256 hash;
  uint64_t count = 0;
  std::vector<char> buf = std::vector<char>(1 << 16);
  std::string error;  // what the ByteStream threw: libarchive replaces it with its own words

  // A blob longer than its descriptor says fails as soon as it passes that size, not at its end.
  size_t pull() {
    size_t n = blob->read(buf.data(), buf.size());
    hash.update(buf.data(), n);
    count += n;
    if (expected >= 0 && count > uint64_t(expected))
      throw InputError("blob is longer than the " + std::to_string(expected) + " bytes its descriptor says");
    return n;
  }
};

// The decompressed tar, hashed (diff_id) and counted on its way into the tar parser.
struct TarSide {
  explicit TarSide(archive* r) : raw(r) {}
  archive* raw;
  Sha256 hash;
  uint64_t count = 0;
  std::string error;  // why decompression failed, likewise

  // Next block of decompressed bytes; 0 at the end, -1 on error (in raw's error string).
  la_ssize_t pull(const void** out) {
    size_t size = 0;
    la_int64_t offset = 0;
    int r = archive_read_data_block(raw, out, &size, &offset);
    if (r == ARCHIVE_EOF) return 0;
    if (r < ARCHIVE_WARN) {
      const char* reason = archive_error_string(raw);
      error = reason ? reason : "the compressed stream is corrupt or cut short";
      return -1;
    }
    hash.update(*out, size);
    count += size;
    return la_ssize_t(size);
  }
};

la_ssize_t read_stored(archive* a, void* ctx, const void** out) {
  auto* s = static_cast<StoredSide*>(ctx);
  try {
    *out = s->buf.data();
    return la_ssize_t(s->pull());
  } catch (const std::exception& e) {
    s->error = e.what();
    archive_set_error(a, EIO, "%s", e.what());
    return -1;
  }
}

la_ssize_t read_tar(archive* a, void* ctx, const void** out) {
  auto* t = static_cast<TarSide*>(ctx);
  la_ssize_t n = t->pull(out);
  if (n < 0) archive_set_error(a, EIO, "%s", t->error.c_str());
  return n;
}

ArchivePtr new_reader() {
  ArchivePtr a(archive_read_new(), archive_read_free);
  if (!a) throw std::bad_alloc();
  return a;
}

// The first cause of a failure: the blob's stream, the decompressor, then `a`.
[[noreturn]] void throw_first_cause(const StoredSide& stored, const TarSide& tar, archive* a,
                                    const char* what) {
  if (!stored.error.empty()) throw InputError(stored.error);
  if (!tar.error.empty()) throw InputError(tar.error);
  const char* reason = archive_error_string(a);
  throw InputError(std::string(what) + (reason ? reason : "unreadable data"));
}

// Reads and hashes the whole blob; errors carry libarchive's reason only.
LayerFacts read_verbatim(ByteStream& blob, int64_t expected_size) {
  StoredSide stored(blob, expected_size);

  // Whatever the media type claims, the content decides the decompressor.
  // Only built-in decoders: none that would run an external program.
  ArchivePtr raw = new_reader();
  archive_read_support_filter_gzip(raw.get());
  archive_read_support_filter_zstd(raw.get());
  archive_read_support_filter_xz(raw.get());
  archive_read_support_filter_lzma(raw.get());
  archive_read_support_filter_bzip2(raw.get());
  archive_read_support_filter_lz4(raw.get());
  archive_read_support_format_raw(raw.get());
  TarSide tar_side(raw.get());
  auto fail = [&](archive* a) {
    if (a == raw.get() && stored.count == 0 && stored.error.empty()) throw InputError("the blob is empty");
    throw_first_cause(stored, tar_side, a, a == raw.get() ? "" : "not a valid tar stream: ");
  };
  if (archive_read_open(raw.get(), &stored, nullptr, read_stored, nullptr) != ARCHIVE_OK) fail(raw.get());
  archive_entry* e = nullptr;
  int r = archive_read_next_header(raw.get(), &e);
  if (r < ARCHIVE_WARN) fail(raw.get());
  // libarchive peels compression as long as it finds some; a runtime decompresses a layer once, and
  // then finds no tar in it. The last filter is the blob's own bytes ("none").
  if (int filters = archive_filter_count(raw.get()); filters > 2)
    throw InputError(std::string("compressed twice: ") + archive_filter_name(raw.get(), 0) + " inside " +
                     archive_filter_name(raw.get(), 1) + " (a runtime decompresses a layer once and finds no tar)");

  LayerFacts facts;
  if (r != ARCHIVE_EOF) {
    ArchivePtr tar = new_reader();
    archive_read_support_format_tar(tar.get());
    if (archive_read_open(tar.get(), &tar_side, nullptr, read_tar, nullptr) != ARCHIVE_OK) fail(tar.get());
    LayerBuilder builder(facts);
    while ((r = archive_read_next_header(tar.get(), &e)) != ARCHIVE_EOF) {
      // ARCHIVE_RETRY is a damaged header: libarchive would resynchronise, we refuse.
      if (r != ARCHIVE_OK && r != ARCHIVE_WARN) fail(tar.get());
      const char* path = archive_entry_pathname(e);
      if (r == ARCHIVE_WARN) {
        const char* reason = archive_error_string(tar.get());
        facts.warnings.push_back(std::string(path ? path : "") + ": " + (reason ? reason : "odd header"));
      }
      try {
        builder.add(tar.get(), e, path ? path : "", archive_entry_hardlink(e));
      } catch (const InputError&) {
        if (!stored.error.empty() || !tar_side.error.empty()) fail(tar.get());
        throw;
      }
    }
    // The tar end marker comes before the stream ends: the digests cover every byte.
    const void* block;
    la_ssize_t n;
    while ((n = tar_side.pull(&block)) > 0) {
    }
    if (n < 0) fail(raw.get());
  }
  while (stored.pull() > 0) {
  }

  facts.digest = stored.hash.digest();
  facts.diff_id = tar_side.hash.digest();
  facts.compressed_size = stored.count;
  facts.uncompressed_size = tar_side.count;
  return facts;
}

}  // namespace

LayerFacts read_layer(ByteStream& blob, const Descriptor& layer, const std::string& expected_diff_id) {
  std::string name = "layer " + (layer.digest.empty() ? std::string("(no digest)") : layer.digest);
  LayerFacts facts;
  try {
    facts = read_verbatim(blob, layer.size);
  } catch (const InputError& err) {
    throw InputError(name + ": " + err.what());
  }
  facts.media_type = layer.media_type;
  if (layer.size >= 0 && uint64_t(layer.size) != facts.compressed_size)
    throw InputError(name + ": blob is " + std::to_string(facts.compressed_size) + " bytes, its descriptor says " +
                     std::to_string(layer.size));
  if (!layer.digest.empty() && facts.digest != layer.digest)
    throw InputError(name + ": digest mismatch (got " + facts.digest + ")");
  if (!expected_diff_id.empty() && facts.diff_id != expected_diff_id)
    throw InputError(name + ": diff_id mismatch (expected " + expected_diff_id + ", got " + facts.diff_id + ")");
  return facts;
}

}  // namespace imgaudit
