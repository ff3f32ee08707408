#include <archive.h>
#include <archive_entry.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>
#include <functional>
#include <string_view>
#include <utility>
#include <memory>
#include <vector>

#include "layer/block_pipe.h"
#include "layer/gzip_stream.h"
#include "layer/layer_bounds.h"
#include "layer/layer_builder.h"
#include "layer/layer_facts.h"
#include "source/archive_filters.h"
#include "source/media_types.h"
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
  std::vector<char> buf = std::vector<char>(kLayerBlockBytes);
  size_t pending = 0;  // bytes of buf peeked at and not handed on yet
  std::string error;  // what the ByteStream threw: libarchive replaces it with its own words

  // A blob longer than its descriptor says fails as soon as it passes that size, not at its end.
  size_t pull() {
    if (pending) return std::exchange(pending, 0);
    size_t n = blob->read(buf.data(), buf.size());
    hash.update(buf.data(), n);
    count += n;
    if (expected >= 0 && count > uint64_t(expected))
      throw InputError("blob is longer than the " + std::to_string(expected) + " bytes its descriptor says");
    return n;
  }
  // The first bytes, which pull() then hands on again.
  std::string_view peek() {
    try {
      pending = pull();
    } catch (const InputError&) {
      throw;
    } catch (const std::exception& e) {
      throw InputError(e.what());
    }
    return {buf.data(), pending};
  }
};

// The decompressed tar, hashed (diff_id) and counted on its way into the tar parser.
struct TarSide {
  // The next block of decompressed bytes, 0 at the end; throws when decompression or the blob fails.
  std::function<size_t(const void**)> next;
  bool hashed = true;  // false: the diff_id is not verified
  Sha256 hash;
  uint64_t count = 0;
  std::string error;  // why decompression failed: libarchive replaces it with its own words

  // Next block of decompressed bytes; 0 at the end, -1 on error (in `error`).
  la_ssize_t pull(const void** out) {
    try {
      size_t size = next(out);
      if (hashed) hash.update(*out, size);
      count += size;
      return la_ssize_t(size);
    } catch (const std::exception& e) {  // never through libarchive's C frames
      error = e.what();
      return -1;
    }
  }
};

[[noreturn]] void throw_compressed_twice(const std::string& inner, const std::string& outer) {
  throw InputError("compressed twice: " + inner + " inside " + outer +
                   " (a runtime decompresses a layer once and finds no tar)");
}

// What libarchive's filters decompress, for the formats imgaudit does not inflate itself.
std::function<size_t(const void**)> libarchive_blocks(archive* raw) {
  return [raw](const void** out) -> size_t {
    size_t size = 0;
    la_int64_t offset = 0;
    int r = archive_read_data_block(raw, out, &size, &offset);
    if (r == ARCHIVE_EOF) return 0;
    if (r < ARCHIVE_WARN) {
      const char* reason = archive_error_string(raw);
      throw InputError(reason ? reason : "the compressed stream is corrupt or cut short");
    }
    return size;
  };
}

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

// Copies what `blocks` gives (libarchive's filters: their own buffers) into the buffers of a BlockPipe.
BlockPipe::Fill copied_from(std::function<size_t(const void**)> blocks) {
  return [blocks = std::move(blocks), rest = std::string_view()](char* out, size_t cap) mutable -> size_t {
    if (rest.empty()) {
      const void* block = nullptr;
      size_t n = blocks(&block);
      rest = std::string_view(static_cast<const char*>(block), n);
    }
    size_t n = std::min(cap, rest.size());
    if (n == 0) return 0;  // the end: the filters give no block, and no pointer
    std::memcpy(out, rest.data(), n);
    rest.remove_prefix(n);
    return n;
  };
}

// gzip's inflation into a BlockPipe's buffers, a layer compressed once more inside refused at its first block.
BlockPipe::Fill inflating(GzipStream& gzip) {
  return [&gzip, first = true](char* out, size_t cap) mutable {
    size_t n = gzip.read(out, cap);
    if (std::exchange(first, false))
      if (auto inner = compression_inside_layer(std::string_view(out, n)); !inner.empty())
        throw_compressed_twice(std::string(inner), "gzip");
    return n;
  };
}

// The entries of the tar `tar` into `facts`, each through the layer's bounds. `fail` throws what went wrong
// (a damaged header); `check_below`, called when an entry's reading threw, throws the failure of the streams
// under the tar instead when there is one (a read error is the cause, not what the tar reader made of it).
void read_entries(archive* tar, LayerFacts& facts, const std::function<void()>& fail,
                  const std::function<void()>& check_below) {
  LayerBuilder builder(facts);
  LayerBounds bounds(facts);
  archive_entry* e = nullptr;
  int r;
  while ((r = archive_read_next_header(tar, &e)) != ARCHIVE_EOF) {
    // ARCHIVE_RETRY is a damaged header: libarchive would resynchronise, we refuse.
    if (r != ARCHIVE_OK && r != ARCHIVE_WARN) fail();
    const char* path = archive_entry_pathname(e);
    if (r == ARCHIVE_WARN) {
      const char* reason = archive_error_string(tar);
      facts.warnings.push_back(std::string(path ? path : "") + ": " + (reason ? reason : "odd header"));
    }
    try {
      if (!bounds.check_entry(e, path ? path : "", archive_entry_hardlink(e))) continue;  // its data is skipped
      builder.add(tar, e, path ? path : "", archive_entry_hardlink(e));
      bounds.count_content();
    } catch (const InputError&) {
      check_below();
      throw;
    }
  }
}

// The blob read to its end, then the digests and sizes of both sides: they cover every byte.
void set_digests(LayerFacts& facts, StoredSide& stored, TarSide& tar_side, bool verify_diff_id) {
  while (stored.pull() > 0) {
  }
  facts.digest = stored.hash.digest();
  if (verify_diff_id) facts.diff_id = tar_side.hash.digest();
  facts.compressed_size = stored.count;
  facts.uncompressed_size = tar_side.count;
}

// Reads and hashes the whole blob; errors carry libarchive's reason only.
LayerFacts read_verbatim(ByteStream& blob, int64_t expected_size, const LayerReadOptions& options) {
  StoredSide stored(blob, expected_size);
  TarSide tar_side;
  tar_side.hashed = options.verify_diff_id;
  // The pipe's thread writes `stored`: it is stopped before a failure reads what went wrong there.
  std::function<void()> stop_pipe = [] {};
  auto fail = [&](archive* a, bool decompressing) {
    stop_pipe();
    if (decompressing && stored.count == 0 && stored.error.empty()) throw InputError("the blob is empty");
    throw_first_cause(stored, tar_side, a, decompressing ? "" : "not a valid tar stream: ");
  };

  // gzip, nearly every layer, is inflated here with its checksums verified; the rest through
  // libarchive's filters. Whatever the media type claims, the content decides. Only built-in
  // decoders: none that would run an external program.
  ArchivePtr raw = new_reader();
  std::unique_ptr<GzipStream> gzip;
  std::vector<char> inflated;
  bool has_tar = true;
  BlockPipe::Fill decompress;  // with a pipe: what its thread runs
  if (looks_like_gzip(stored.peek())) {
    gzip = std::make_unique<GzipStream>([&](const char** data) {
      size_t n = stored.pull();
      *data = stored.buf.data();
      return n;
    });
    decompress = inflating(*gzip);
    if (!options.two_threads) {
      inflated.resize(kLayerBlockBytes);
      tar_side.next = [&](const void** out) {
        *out = inflated.data();
        return decompress(inflated.data(), inflated.size());
      };
    }
  } else {
    support_builtin_filters(raw.get());  // gzip too: inside another compression, it is refused below
    archive_read_support_format_raw(raw.get());
    if (archive_read_open(raw.get(), &stored, nullptr, read_stored, nullptr) != ARCHIVE_OK) fail(raw.get(), true);
    archive_entry* e = nullptr;
    int r = archive_read_next_header(raw.get(), &e);
    if (r < ARCHIVE_WARN) fail(raw.get(), true);
    has_tar = r != ARCHIVE_EOF;
    tar_side.next = libarchive_blocks(raw.get());
    if (options.two_threads) decompress = copied_from(std::move(tar_side.next));
  }
  // libarchive peels compression as long as it finds some; a runtime decompresses a layer once, and
  // then finds no tar in it. The last filter is the blob's own bytes ("none").
  if (!gzip && archive_filter_count(raw.get()) > 2)
    throw_compressed_twice(archive_filter_name(raw.get(), 0), archive_filter_name(raw.get(), 1));

  // Two threads: the blob read, hashed and decompressed on the pipe's; the rest here.
  std::optional<BlockPipe> pipe;
  if (options.two_threads && has_tar) {
    pipe.emplace(std::move(decompress));
    tar_side.next = [&](const void** out) { return pipe->next(out); };
    stop_pipe = [&] { pipe.reset(); };
  }

  LayerFacts facts;
  if (has_tar) {
    ArchivePtr tar = new_reader();
    archive_read_support_format_tar(tar.get());
    if (archive_read_open(tar.get(), &tar_side, nullptr, read_tar, nullptr) != ARCHIVE_OK) fail(tar.get(), false);
    read_entries(tar.get(), facts, [&] { fail(tar.get(), false); }, [&] {
      stop_pipe();
      if (!stored.error.empty() || !tar_side.error.empty()) fail(tar.get(), false);
    });
    // The tar end marker comes before the stream ends: the digests cover every byte.
    const void* block;
    la_ssize_t n;
    while ((n = tar_side.pull(&block)) > 0) {
    }
    if (n < 0) fail(raw.get(), true);
  }
  pipe.reset();  // its thread has ended: the blob is read here to its end, so its digest covers every byte
  set_digests(facts, stored, tar_side, options.verify_diff_id);
  return facts;
}

}  // namespace

LayerFacts read_layer(ByteStream& blob, const Descriptor& layer, const std::string& expected_diff_id,
                      const LayerReadOptions& options) {
  LayerFacts facts = read_verbatim(blob, layer.size, options);
  facts.media_type = layer.media_type;
  if (layer.size >= 0 && uint64_t(layer.size) != facts.compressed_size)
    throw InputError("blob is " + std::to_string(facts.compressed_size) + " bytes, its descriptor says " +
                     std::to_string(layer.size));
  if (!layer.digest.empty() && facts.digest != layer.digest)
    throw InputError("digest mismatch (got " + facts.digest + ")");
  if (options.verify_diff_id && !expected_diff_id.empty() && facts.diff_id != expected_diff_id)
    throw InputError("diff_id mismatch (expected " + expected_diff_id + ", got " + facts.diff_id + ")");
  return facts;
}

}  // namespace imgaudit
