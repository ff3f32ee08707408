#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "elf/elf_facts.h"
#include "source/source.h"

namespace imgaudit {

enum class EntryType { File, Dir, Symlink, Hardlink, Other };
const char* to_string(EntryType t);  // "file", "dir", "symlink", "hardlink", "other"

struct Entry {
  std::string path;  // normalised (util/paths.h)
  EntryType type = EntryType::File;
  uint32_t mode = 0;
  uint64_t uid = 0, gid = 0;
  uint64_t size = 0;
  std::string link;  // symlink target as written, or the normalised hardlink target
};

// Bumped whenever LayerFacts' JSON (or what read_layer extracts) changes, so
// cached facts of an older format are read again.
inline constexpr int kLayerFactsFormatVersion = 9;

// What passes one of imgaudit's bounds and so was not read (an entry's path, an ld.so.conf line): a finding
// (input-over-limit) lists it, so that one such entry costs its own reading, not the whole image's.
struct OverLimit {
  std::string path;   // as shown: printable, its first bytes only when it is the long part
  std::string limit;  // which bound, as the finding says it: "paths longer than 4096 bytes (kMaxPathBytes)"
};

// Everything imgaudit keeps of one layer: a pure function of the layer's
// bytes, so layers can be read in parallel and cached by digest.
struct LayerFacts {
  std::string digest;   // of the blob as stored; "" for a rootfs folder
  std::string diff_id;  // sha256 of the uncompressed tar
  std::string media_type;
  uint64_t compressed_size = 0;
  uint64_t uncompressed_size = 0;
  std::vector<Entry> entries;           // tar order; whiteout markers are not entries
  std::vector<std::string> whiteouts;   // "a/b" for an entry "a/.wh.b"
  std::vector<std::string> opaque_dirs; // "a" for an entry "a/.wh..wh..opq"
  // path -> facts of each ELF file, shared (never changed) with the views and the image facts made of the layer,
  // which so hold their own
  std::map<std::string, std::shared_ptr<const ElfFacts>> elves;
  std::map<std::string, ElfError> elf_errors;  // path -> why its ELF could not be read, and what it is
  std::map<std::string, std::string> texts;     // path -> content of the small text files worth reading
  std::map<std::string, std::string> blobs;     // path -> bytes of the binary files the inspectors parse
  // path -> the first line of an executable file (any x bit) that starts with "#!", as the kernel reads it:
  // at most kShebangBufferBytes, cut after the first '\n' (no '\n': the line is longer, or the file ends).
  // An executable regular file in neither this, elves nor elf_errors is neither a script nor ELF. An empty
  // head: a script whose line was not kept (past the layer's content budget, kMaxLayerContentBytes).
  std::map<std::string, std::string> script_heads;
  std::vector<std::string> warnings;            // hostile or skipped entries
  // Entries over a bound, skipped: the first kMaxOverLimitListed, then only counted.
  std::vector<OverLimit> over_limit;
  uint64_t over_limit_unlisted = 0;
};

// True for the text files whose content the inspectors read: os-release,
// alpine-release, debian_version, apk and dpkg databases, ld.so.conf and its
// includes, ld-musl-*.path, passwd, *.dist-info/{WHEEL,METADATA}.
bool is_text_worth_reading(const std::string& path);

// True for the binary files whose bytes the inspectors parse: glibc's ld.so.cache.
bool is_blob_worth_reading(const std::string& path);

// True for the ELF files whose bytes are kept too: glibc's dynamic loader, whose
// built-in system directories are strings in it.
bool is_elf_blob_worth_keeping(const ElfFacts& facts);

// What of `first_bytes` (a file's first bytes, at least kShebangBufferBytes of them or the whole file)
// the kernel reads as a script's "#!" line: at most kShebangBufferBytes, cut after the first '\n'.
std::string script_head(std::string_view first_bytes);

struct LayerReadOptions {
  // Hash the uncompressed tar and check it against the config's diff_id; without, LayerFacts::diff_id
  // is empty. The blob's own digest is always verified.
  bool verify_diff_id = true;
  // Read, hash and decompress the blob on a thread of its own, beside the one that parses the tar.
  bool two_threads = false;
};

// Reads a layer blob through libarchive (tar, gzip, zstd, whatever the media
// type says), verifying its digest against `layer.digest` and, when not empty,
// the uncompressed tar's against `expected_diff_id`. Throws InputError saying
// what was wrong (a corrupt or truncated stream, a digest mismatch); the caller names the layer.
LayerFacts read_layer(ByteStream& blob, const Descriptor& layer, const std::string& expected_diff_id,
                      const LayerReadOptions& options = {});

// Reads a plain root filesystem folder as one layer (symlinks are not followed).
LayerFacts read_root_dir(const std::string& dir);

void to_json(nlohmann::json& j, const Entry& e);
void from_json(const nlohmann::json& j, Entry& e);
void to_json(nlohmann::json& j, const OverLimit& o);
void from_json(const nlohmann::json& j, OverLimit& o);
void to_json(nlohmann::json& j, const LayerFacts& l);
void from_json(const nlohmann::json& j, LayerFacts& l);

}  // namespace imgaudit
