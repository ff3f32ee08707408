#include "source/archive_filters.h"

#include <archive.h>

#include <vector>

namespace imgaudit {

namespace {

struct Filter {
  const char* name;
  int (*support)(struct archive*);
};

constexpr Filter kFilters[] = {
    {"gzip", archive_read_support_filter_gzip}, {"zstd", archive_read_support_filter_zstd},
    {"xz", archive_read_support_filter_xz},     {"lzma", archive_read_support_filter_lzma},
    {"bzip2", archive_read_support_filter_bzip2}, {"lz4", archive_read_support_filter_lz4},
};

// The filters that libarchive enables with ARCHIVE_OK: ARCHIVE_WARN says it would run an external program
// for that one ("Using external gzip program").
const std::vector<const Filter*>& builtin() {
  static const std::vector<const Filter*> filters = [] {
    std::vector<const Filter*> out;
    for (const Filter& f : kFilters) {
      struct archive* probe = archive_read_new();
      if (probe && f.support(probe) == ARCHIVE_OK) out.push_back(&f);
      archive_read_free(probe);
    }
    return out;
  }();
  return filters;
}

}  // namespace

void support_builtin_filters(struct archive* a) {
  for (const Filter* f : builtin()) f->support(a);
}

}  // namespace imgaudit
