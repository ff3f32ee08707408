#include <archive.h>
#include <archive_entry.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "source/archive_filters.h"
#include "writer/image_writer.h"
#include "writer/tar_builder.h"

namespace imgaudit {

namespace fs = std::filesystem;

std::string make_layer_blob(const std::vector<TarEntrySpec>& entries, Compression c) {
  TarBuilder tar(c);
  for (const TarEntrySpec& e : entries) tar.add(e);
  tar.finish();
  return tar.bytes();
}

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  if (!f) throw std::runtime_error("cannot read " + p.string());
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// The mode a folder's entry is written with: as on disk, or canonical (see FolderLayerOptions).
uint32_t entry_mode(const struct stat& st, bool canonical) {
  if (!canonical) return st.st_mode & 07777;
  if (S_ISDIR(st.st_mode) || (st.st_mode & 0111) != 0) return 0755;
  return 0644;
}

struct FolderWalk {
  TarBuilder& tar;
  fs::path root;
  bool canonical_modes;
  std::map<std::pair<dev_t, ino_t>, std::string> seen_inodes;  // hard links: the first path of each inode
};

// Sorted walk, so the same folder always gives the same tar.
void add_tree(FolderWalk& walk, const fs::path& dir) {
  std::vector<fs::path> children;
  for (const fs::directory_entry& d : fs::directory_iterator(dir)) children.push_back(d.path());
  std::sort(children.begin(), children.end());
  for (const fs::path& p : children) {
    struct stat st;
    if (lstat(p.c_str(), &st) != 0) throw std::runtime_error("cannot stat " + p.string());
    std::string rel = p.lexically_relative(walk.root).generic_string();
    uint32_t perm = entry_mode(st, walk.canonical_modes);
    if (S_ISDIR(st.st_mode)) {
      walk.tar.add_dir(rel, perm);
      add_tree(walk, p);
    } else if (S_ISLNK(st.st_mode)) {
      walk.tar.add_symlink(rel, fs::read_symlink(p).string());
    } else if (S_ISREG(st.st_mode)) {
      auto key = std::make_pair(st.st_dev, st.st_ino);
      if (st.st_nlink > 1) {
        auto it = walk.seen_inodes.find(key);
        if (it != walk.seen_inodes.end()) {
          walk.tar.add_hardlink(rel, it->second);
          continue;
        }
        walk.seen_inodes.emplace(key, rel);
      }
      walk.tar.add_file(rel, slurp(p), perm);
    }
  }
}

}  // namespace

std::string make_layer_blob_from_dir(const std::string& dir, Compression c, const FolderLayerOptions& options) {
  if (!fs::is_directory(dir)) throw std::runtime_error(dir + ": not a directory");
  TarBuilder tar(c);
  tar.set_mtime(options.mtime);
  FolderWalk walk{tar, dir, options.canonical_modes, {}};
  add_tree(walk, dir);
  tar.finish();
  return tar.bytes();
}

std::string uncompressed_tar(const std::string& blob) {
  struct archive* a = archive_read_new();
  support_builtin_filters(a);
  archive_read_support_format_raw(a);
  std::string out;
  struct archive_entry* e;
  bool ok = archive_read_open_memory(a, blob.data(), blob.size()) == ARCHIVE_OK &&
            archive_read_next_header(a, &e) == ARCHIVE_OK;
  char buf[65536];
  la_ssize_t n = 0;
  while (ok && (n = archive_read_data(a, buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
  std::string err = archive_error_string(a) ? archive_error_string(a) : "";
  archive_read_free(a);
  if (!ok || n < 0) throw std::runtime_error("cannot decompress layer blob: " + err);
  return out;
}

}  // namespace imgaudit
