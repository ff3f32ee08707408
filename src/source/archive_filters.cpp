#include "source/archive_filters.h"

#include <archive.h>

#include <vector>

namespace imgaudit {

namespace {

using SupportFilter = int (*)(struct archive*);

// gzip, zstd, xz, lzma, bzip2, lz4.
constexpr SupportFilter kFilters[] = {archive_read_support_filter_gzip,  archive_read_support_filter_zstd,
                                      archive_read_support_filter_xz,    archive_read_support_filter_lzma,
                                      archive_read_support_filter_bzip2, archive_read_support_filter_lz4};

// The filters that libarchive enables with ARCHIVE_OK: ARCHIVE_WARN says it would run an external program
// for that one ("Using external gzip program").
const std::vector<SupportFilter>& builtin() {
  static const std::vector<SupportFilter> filters = [] {
    std::vector<SupportFilter> out;
    for (SupportFilter support : kFilters) {
      struct archive* probe = archive_read_new();
      if (probe && support(probe) == ARCHIVE_OK) out.push_back(support);
      archive_read_free(probe);
    }
    return out;
  }();
  return filters;
}

}  // namespace

void support_builtin_filters(struct archive* a) {
  for (SupportFilter support : builtin()) support(a);
}

}  // namespace imgaudit
