#include "layer/layer_builder.h"

#include <archive.h>
#include <archive_entry.h>

#include <optional>
#include <utility>
#include <vector>

#include "elf/elf_capture.h"
#include "util/error.h"
#include "util/human_size.h"
#include "util/limits.h"
#include "util/paths.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

constexpr std::string_view kWhiteoutPrefix = ".wh.";
constexpr std::string_view kOpaqueMarker = ".wh..wh..opq";

[[noreturn]] void throw_archive_error(archive* a, const std::string& what) {
  const char* reason = archive_error_string(a);
  throw InputError(what + ": " + (reason ? reason : "unreadable data"));
}

// A piece of an entry's data at its offset in the file; a gap before it is a hole of zeros.
struct DataBlock {
  uint64_t offset;
  std::string_view bytes;
};

// The entry's next block of data as libarchive holds it (no copy); nullopt at its end.
std::optional<DataBlock> next_block(archive* a, const std::string& path) {
  const void* data;
  size_t n;
  la_int64_t offset;
  int r = archive_read_data_block(a, &data, &n, &offset);
  if (r == ARCHIVE_EOF) return std::nullopt;
  if (r < ARCHIVE_OK) throw_archive_error(a, "cannot read " + display_path(path));
  return DataBlock{uint64_t(offset), std::string_view(static_cast<const char*>(data), n)};
}

EntryType classify(archive_entry* e, const char* hardlink) {
  if (hardlink) return EntryType::Hardlink;
  switch (archive_entry_filetype(e)) {
    case AE_IFREG: return EntryType::File;
    case AE_IFDIR: return EntryType::Dir;
    case AE_IFLNK: return EntryType::Symlink;
    default: return EntryType::Other;
  }
}

}  // namespace

void LayerBuilder::add(archive* a, archive_entry* e, const std::string& name, const char* hardlink) {
  auto path = normalize_entry_path(name);
  if (!path) {
    out_.warnings.push_back("skipped entry '" + name + "': it escapes the image root");
    return;
  }
  if (path->empty()) return;  // the root itself

  std::string base = base_name(*path);
  if (starts_with(base, kWhiteoutPrefix)) {
    std::string dir = parent_dir(*path);
    if (base == kOpaqueMarker) {
      out_.opaque_dirs.push_back(dir);
      return;
    }
    std::string hidden = base.substr(kWhiteoutPrefix.size());
    if (hidden.empty() || hidden == "." || hidden == "..") {
      out_.warnings.push_back("skipped whiteout '" + name + "': it names no file");
      return;
    }
    out_.whiteouts.push_back(dir.empty() ? hidden : dir + "/" + hidden);
    return;
  }

  Entry entry;
  entry.path = *path;
  entry.type = classify(e, hardlink);
  entry.mode = archive_entry_perm(e);
  entry.uid = uint64_t(archive_entry_uid(e));
  entry.gid = uint64_t(archive_entry_gid(e));
  // Only a regular file's size means the same in a tar and on disk.
  if (entry.type == EntryType::File && archive_entry_size_is_set(e)) entry.size = uint64_t(archive_entry_size(e));
  if (entry.type == EntryType::Hardlink) {
    auto target = normalize_entry_path(hardlink);
    if (!target || target->empty()) {
      out_.warnings.push_back("skipped hard link '" + name + "' to '" + hardlink + "': it escapes the image root");
      return;
    }
    entry.link = *target;
  } else if (entry.type == EntryType::Symlink) {
    const char* target = archive_entry_symlink(e);
    entry.link = target ? target : "";
  }
  // A later entry of the same path replaces what an earlier one left.
  out_.elves.erase(entry.path);
  out_.elf_errors.erase(entry.path);
  out_.texts.erase(entry.path);
  out_.blobs.erase(entry.path);
  out_.script_heads.erase(entry.path);
  out_.entries.push_back(entry);  // first: a folder's unreadable file is still a file
  if (entry.type == EntryType::File) read_content(a, entry.path, entry.size, entry.mode);
}

template <typename EachBlock>
void LayerBuilder::read_elf(const std::string& path, uint64_t size, std::string_view head, EachBlock&& each_block) {
  std::optional<ElfCapture> kept;
  try {
    kept.emplace(size);
  } catch (const std::length_error& e) {
    out_.elf_errors[path] = {"not inspected: " + std::to_string(size) + " bytes is " + e.what(), elf_identity(head)};
    return;
  } catch (const std::bad_alloc&) {
    out_.elf_errors[path] = {"not inspected: no memory to map its " + human_size(size), elf_identity(head)};
    return;
  }
  each_block([&](uint64_t offset, std::string_view piece) {
    kept->add(offset, piece);
    return true;
  });
  kept->finish();
  ElfResult r = inspect_elf(*kept);
  if (r.facts && kept->whole() && is_elf_blob_worth_keeping(*r.facts)) out_.blobs[path] = std::string(kept->bytes());
  if (r.facts)
    out_.elves[path] = std::make_shared<const ElfFacts>(std::move(*r.facts));
  else
    out_.elf_errors[path] = r.error ? *r.error : ElfError{"unreadable ELF file", std::nullopt};
}

// The content goes by block, as libarchive gives it: the holes of a sparse entry cost neither
// time nor memory. (archive_read_data would zero-fill them, and it cannot be mixed with blocks.)
void LayerBuilder::read_content(archive* a, const std::string& path, uint64_t size, uint32_t mode) {
  // The first blocks, until the ELF magic can be told (a block may be shorter than it). The last one
  // read stays in libarchive's buffer; only those before it, under 4 bytes each, are copied.
  std::vector<std::pair<uint64_t, std::string>> early;
  std::optional<DataBlock> last;
  std::string head;
  while (head.size() < 4) {
    if (last) early.emplace_back(last->offset, std::string(last->bytes));  // before the next read moves it
    last = next_block(a, path);
    if (!last) break;
    if (last->offset != head.size()) break;  // a hole: zeros are no magic
    head.append(last->bytes.substr(0, 4 - head.size()));
  }
  bool elf = looks_like_elf(head);
  bool text = !elf && is_text_worth_reading(path);
  bool blob = !elf && !text && is_blob_worth_reading(path);
  // The start checks follow "#!" lines of what can be executed: no x bit, no exec, for root too.
  bool script = !elf && (mode & 0111) && starts_with(head, "#!");
  if (!elf && !text && !blob && !script) return;  // the next header skips the rest without buffering
  auto each_block = [&](auto&& take) {
    for (const auto& [offset, bytes] : early)
      if (!take(offset, std::string_view(bytes))) return;
    if (last && !take(last->offset, last->bytes)) return;
    while (auto block = next_block(a, path))
      if (!take(block->offset, block->bytes)) return;
  };
  if (elf) return read_elf(path, size, early.empty() ? last->bytes : std::string_view(early.front().second), each_block);

  if (script && !text && !blob) {
    std::string first;
    each_block([&](uint64_t offset, std::string_view piece) {
      if (offset >= kShebangBufferBytes) return false;
      first.resize(size_t(offset));  // zeros for a hole before it
      first.append(piece.substr(0, kShebangBufferBytes - first.size()));
      return first.size() < kShebangBufferBytes && first.find('\n') == std::string::npos;
    });
    out_.script_heads[path] = script_head(first);
    return;
  }
  uint64_t cap = text ? kMaxTextSize : kMaxBlobSize;
  auto over_cap = [&](const std::string& why) {
    out_.warnings.push_back("skipped content of " + display_path(path) + ": " + why);
  };
  if (size > cap) {
    over_cap(std::to_string(size) + " bytes is over the limit of " + std::to_string(cap));
    return;
  }
  std::string bytes;
  bytes.reserve(size_t(size));  // appends below stay within it: memory is the file's size
  bool over = false;
  each_block([&](uint64_t offset, std::string_view piece) {
    if (offset > cap || piece.size() > cap - offset) {
      over = true;
      return false;
    }
    bytes.resize(size_t(offset));  // zeros for a hole before it
    bytes.append(piece);
    return true;
  });
  if (over) {
    over_cap("over the limit of " + std::to_string(cap) + " bytes");
    return;
  }
  if (script) out_.script_heads[path] = script_head(bytes);
  (text ? out_.texts : out_.blobs)[path] = std::move(bytes);
}

}  // namespace imgaudit
