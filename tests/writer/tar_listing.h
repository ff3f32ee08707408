#pragma once
#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <string>

namespace imgaudit::test {

// One member of a tar stream, with what a layer must not leak from the machine that built it.
struct TarMember {
  int type = 0;  // AE_IFREG, AE_IFDIR ...
  std::string content;
  std::string link;  // a symlink's or hard link's target
  unsigned mode = 0;
  int64_t uid = -1, gid = -1, mtime = -1;
  std::string uname, gname;
};

// Every member of a tar stream (compressed or not), by path, through libarchive.
inline std::map<std::string, TarMember> list_tar_members(const std::string& bytes) {
  std::map<std::string, TarMember> out;
  struct archive* a = archive_read_new();
  archive_read_support_filter_all(a);
  archive_read_support_format_tar(a);
  EXPECT_EQ(archive_read_open_memory(a, bytes.data(), bytes.size()), ARCHIVE_OK);
  struct archive_entry* e;
  while (archive_read_next_header(a, &e) == ARCHIVE_OK) {
    TarMember m;
    m.type = static_cast<int>(archive_entry_filetype(e));
    m.mode = archive_entry_perm(e);
    m.uid = archive_entry_uid(e);
    m.gid = archive_entry_gid(e);
    m.mtime = archive_entry_mtime(e);
    if (archive_entry_symlink(e)) m.link = archive_entry_symlink(e);
    if (archive_entry_hardlink(e)) m.link = archive_entry_hardlink(e);
    if (archive_entry_uname(e)) m.uname = archive_entry_uname(e);
    if (archive_entry_gname(e)) m.gname = archive_entry_gname(e);
    char buf[65536];
    la_ssize_t n;
    while ((n = archive_read_data(a, buf, sizeof buf)) > 0) m.content.append(buf, static_cast<size_t>(n));
    out[archive_entry_pathname(e)] = m;
  }
  archive_read_free(a);
  return out;
}

}  // namespace imgaudit::test
