#pragma once
// The one decoder setup of every libarchive reader in the project: the compressions layers and image
// archives use (gzip, zstd, xz, lzma, bzip2, lz4), and only where this libarchive decodes them itself.
// archive_read_support_filter_all would also enable lrzip, lzop, grzip and others, and any filter
// libarchive was built without, through an external program found on PATH: a crafted archive would then
// make imgaudit start a program.
struct archive;

namespace imgaudit {

// Enables on `a` each of those filters that this libarchive has built in; a filter it would run as an
// external program is left out (asked once a process, on a reader of its own).
void support_builtin_filters(struct archive* a);

}  // namespace imgaudit
