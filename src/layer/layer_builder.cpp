#include "layer/layer_builder.h"

#include <archive.h>
#include <archive_entry.h>

#include "util/error.h"
#include "util/paths.h"

namespace imgaudit {

namespace {

constexpr uint64_t kMaxElfSize = uint64_t(1) << 30;
constexpr uint64_t kMaxTextSize = uint64_t(64) << 20;
constexpr uint64_t kMaxBlobSize = uint64_t(64) << 20;
constexpr std::string_view kWhiteoutPrefix = ".wh.";
constexpr std::string_view kOpaqueMarker = ".wh..wh..opq";

[[noreturn]] void throw_archive_error(archive* a, const std::string& what) {
  const char* reason = archive_error_string(a);
  throw InputError(what + ": " + (reason ? reason : "unreadable data"));
}

// Reads up to `n` bytes of the current entry; returns how many, 0 at its end.
size_t read_some(archive* a, char* buf, size_t n, const std::string& path) {
  la_ssize_t got = archive_read_data(a, buf, n);
  if (got < 0) throw_archive_error(a, "cannot read " + display_path(path));
  return size_t(got);
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
  if (base.compare(0, kWhiteoutPrefix.size(), kWhiteoutPrefix) == 0) {
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
  out_.entries.push_back(entry);  // first: a folder's unreadable file is still a file
  if (entry.type == EntryType::File) read_content(a, entry.path, entry.size);
}

void LayerBuilder::read_content(archive* a, const std::string& path, uint64_t size) {
  char buf[1 << 16];
  size_t head = read_some(a, buf, 4, path);
  bool elf = looks_like_elf(std::string_view(buf, head));
  bool text = !elf && is_text_worth_reading(path);
  bool blob = !elf && !text && is_blob_worth_reading(path);
  if (!elf && !text && !blob) return;  // the next header skips the rest without buffering

  uint64_t cap = elf ? kMaxElfSize : text ? kMaxTextSize : kMaxBlobSize;
  // An ELF file is never dropped: one too large to inspect is reported as such (elf-unreadable).
  auto over_cap = [&](const std::string& why) {
    if (elf) out_.elf_errors[path] = "not inspected: " + why;
    else out_.warnings.push_back("skipped content of " + display_path(path) + ": " + why);
  };
  if (size > cap) {
    over_cap(std::to_string(size) + " bytes is over the limit of " + std::to_string(cap));
    return;
  }
  std::string bytes;
  bytes.reserve(size_t(size));  // appends below stay within it: memory is the file's size
  bytes.append(buf, head);
  while (size_t n = read_some(a, buf, sizeof buf, path)) {
    if (bytes.size() + n > cap) {
      over_cap("over the limit of " + std::to_string(cap) + " bytes");
      return;
    }
    bytes.append(buf, n);
  }
  if (text || blob) {
    (text ? out_.texts : out_.blobs)[path] = std::move(bytes);
    return;
  }
  ElfResult r = inspect_elf(bytes);
  if (r.facts && is_elf_blob_worth_keeping(*r.facts)) out_.blobs[path] = bytes;
  if (r.facts)
    out_.elves[path] = std::move(*r.facts);
  else
    out_.elf_errors[path] = r.error ? r.error->message : "unreadable ELF file";
}

}  // namespace imgaudit
