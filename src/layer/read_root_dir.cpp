#include <archive.h>
#include <archive_entry.h>

#include <filesystem>
#include <memory>

#include "layer/layer_bounds.h"
#include "layer/layer_builder.h"
#include "layer/layer_facts.h"
#include "util/error.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

// Strips "<root>/" from a path archive_read_disk gives; nullptr when outside.
const char* relative_to(const char* path, const std::string& prefix) {
  if (!path || !starts_with(path, prefix)) return nullptr;
  return path + prefix.size();
}

}  // namespace

LayerFacts read_root_dir(const std::string& dir) {
  std::error_code ec;
  std::string root = std::filesystem::canonical(dir, ec).string();
  if (ec || !std::filesystem::is_directory(root, ec))
    throw InputError("rootfs " + dir + ": not a readable folder");
  std::string prefix = root == "/" ? root : root + "/";

  std::unique_ptr<archive, decltype(&archive_read_free)> a(archive_read_disk_new(), archive_read_free);
  std::unique_ptr<archive_entry_linkresolver, decltype(&archive_entry_linkresolver_free)> links(
      archive_entry_linkresolver_new(), archive_entry_linkresolver_free);
  std::unique_ptr<archive_entry, decltype(&archive_entry_free)> entry(archive_entry_new(), archive_entry_free);
  if (!a || !links || !entry) throw std::bad_alloc();
  archive_entry_linkresolver_set_strategy(links.get(), ARCHIVE_FORMAT_TAR_USTAR);
  archive_read_disk_set_symlink_physical(a.get());
  archive_read_disk_set_behavior(a.get(), ARCHIVE_READDISK_NO_TRAVERSE_MOUNTS | ARCHIVE_READDISK_NO_XATTR |
                                              ARCHIVE_READDISK_NO_ACL | ARCHIVE_READDISK_NO_FFLAGS);

  auto fail = [&](const std::string& what) {
    const char* reason = archive_error_string(a.get());
    throw InputError("rootfs " + dir + ": " + what + (reason ? std::string(": ") + reason : ""));
  };
  if (archive_read_disk_open(a.get(), root.c_str()) != ARCHIVE_OK) fail("cannot open");

  LayerFacts facts;
  LayerBuilder builder(facts);
  LayerBounds bounds(facts);
  for (;;) {
    int r = archive_read_next_header2(a.get(), entry.get());
    if (r == ARCHIVE_EOF) break;
    if (r == ARCHIVE_FATAL) fail("cannot read");
    const char* rel = relative_to(archive_entry_pathname(entry.get()), prefix);
    if (r < ARCHIVE_WARN) {
      const char* reason = archive_error_string(a.get());
      facts.warnings.push_back("skipped " + std::string(rel ? rel : "an entry") + ": " +
                               (reason ? reason : "unreadable"));
      continue;
    }
    if (!rel) {  // the root itself
      archive_read_disk_descend(a.get());
      continue;
    }
    archive_entry* e = entry.get();
    archive_entry* spare = nullptr;
    archive_entry_linkify(links.get(), &e, &spare);
    const char* hardlink = relative_to(archive_entry_hardlink(e), prefix);
    // Not descended into when over a bound: a folder nested 50,000 deep costs one entry, not the walk.
    if (!bounds.check_entry(e, rel, hardlink)) continue;
    archive_read_disk_descend(a.get());
    try {
      builder.add(a.get(), e, rel, hardlink);
    } catch (const InputError& err) {
      facts.warnings.push_back(err.what());  // an unreadable file of a folder does not spoil the rest
    }
    bounds.count_content();
  }
  return facts;
}

}  // namespace imgaudit
