#include "cache/cache_entries.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

#include "cache/cache_layout.h"
#include "util/error.h"
#include "util/limits.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

// One kind of entry: where the caches keep it and the names they give it.
struct EntryFolder {
  const char* kind;
  const char* what;
  std::string folder;  // relative to the cache folder
  bool (*is_ours)(std::string_view name);
  bool temporary;  // written now, renamed in a moment: a young one may be in use
};

const std::vector<EntryFolder>& entry_folders() {
  static const std::vector<EntryFolder> folders = {
      {kBlobEntries.name, kBlobEntries.what, kBlobEntries.folder,
       [](std::string_view n) { return is_cache_entry_name(kBlobEntries, n); }, false},
      {kFactsEntries.name, kFactsEntries.what, kFactsEntries.folder,
       [](std::string_view n) { return is_cache_entry_name(kFactsEntries, n); }, false},
      {"temporary", "entries being written, or left by a run that died", kCacheTempFolder, is_cache_temp_name, true},
  };
  return folders;
}

// What one walk does with the entries it finds.
struct Walk {
  bool remove = false;
  std::optional<int64_t> older_than_seconds;
  std::time_t now = 0;
  uint64_t max_names = kMaxCacheNamesVisited;
  uint64_t visited = 0;  // names read so far
};

void note_foreign(CacheTally& tally, const std::string& path) {
  if (tally.foreign++ == 0) tally.first_foreign = path;
}

void note_failure(CacheTally& tally, const std::string& path, int error) {
  if (tally.failed++ == 0) tally.first_failure = path + ": " + std::strerror(error);
}

// The folder `path` ("blobs/sha256") below the open folder `top`, opened a name at a time, none of them
// through a symbolic link: a link in the caches' place may lead anywhere, and the caches never make one.
// -1 with errno when it cannot be.
int open_below(int top, const std::string& path) {
  int fd = top;
  for (const std::string& name : split(path, "/")) {
    int next = ::openat(fd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    int error = errno;
    if (fd != top) ::close(fd);
    if (next < 0) {
      errno = error;
      return -1;
    }
    fd = next;
  }
  return fd;
}

// Whether a removal keeps an entry last written at `mtime`.
bool keeps(const Walk& walk, const EntryFolder& folder, std::time_t mtime) {
  const int64_t age = int64_t(walk.now) - int64_t(mtime);
  if (folder.temporary && age < kCacheTempFileGraceSeconds) return true;
  return walk.older_than_seconds && age < *walk.older_than_seconds;
}

// Counts, keeps or removes the entry `name` of the open folder `fd`. An audit reading the entry keeps its
// open file whole when the name goes; one about to open it finds none and reads the blob or layer again.
void visit_entry(int fd, const char* name, const struct stat& st, const EntryFolder& folder, Walk& walk,
                 CacheKindTally& kind, CacheTally& tally) {
  const uint64_t bytes = static_cast<uint64_t>(st.st_size);
  if (walk.remove && keeps(walk, folder, st.st_mtime)) {
    ++tally.kept;
    tally.kept_bytes += bytes;
    return;
  }
  // An entry renamed into this name since fstatat is removed in its place: a cache entry all the same.
  if (walk.remove && ::unlinkat(fd, name, 0) != 0) {
    if (errno != ENOENT) note_failure(tally, folder.folder + "/" + name, errno);  // ENOENT: gone already
    return;
  }
  ++kind.entries;
  kind.bytes += bytes;
}

void walk_folder(int top, const EntryFolder& folder, Walk& walk, CacheKindTally& kind, CacheTally& tally) {
  int fd = open_below(top, folder.folder);
  if (fd < 0) {
    if (errno == ELOOP || errno == ENOTDIR) note_foreign(tally, folder.folder);
    else if (errno != ENOENT) note_failure(tally, folder.folder, errno);
    return;
  }
  std::unique_ptr<DIR, int (*)(DIR*)> dir(::fdopendir(fd), &::closedir);
  if (!dir) {
    note_failure(tally, folder.folder, errno);
    ::close(fd);
    return;
  }
  while (const struct dirent* e = ::readdir(dir.get())) {
    if (!std::strcmp(e->d_name, ".") || !std::strcmp(e->d_name, "..")) continue;
    if (walk.visited == walk.max_names) {
      tally.cut = true;
      return;
    }
    ++walk.visited;
    struct stat st;
    if (::fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;  // removed since readdir
    // The caches make each entry by one open(O_EXCL) and a rename: a regular file with a single name.
    if (!S_ISREG(st.st_mode) || st.st_nlink != 1 || !folder.is_ours(e->d_name)) {
      note_foreign(tally, folder.folder + "/" + e->d_name);
      continue;
    }
    visit_entry(fd, e->d_name, st, folder, walk, kind, tally);
  }
}

CacheTally walk_cache(const std::string& dir, Walk walk) {
  CacheTally tally;
  // The cache folder itself is the one the audits use, a link to it included (~/.cache on another disk).
  int top = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (top < 0 && errno != ENOENT)
    throw InputError::about(printable(dir), std::strerror(errno) + std::string(" (the cache folder)"));
  tally.folder_exists = top >= 0;
  for (const EntryFolder& folder : entry_folders()) {
    tally.kinds.push_back({folder.kind, folder.what});
    if (top >= 0 && !tally.cut) walk_folder(top, folder, walk, tally.kinds.back(), tally);
  }
  if (top >= 0) ::close(top);
  return tally;
}

}  // namespace

uint64_t CacheTally::entries() const {
  uint64_t n = 0;
  for (const CacheKindTally& k : kinds) n += k.entries;
  return n;
}

uint64_t CacheTally::bytes() const {
  uint64_t n = 0;
  for (const CacheKindTally& k : kinds) n += k.bytes;
  return n;
}

CacheTally count_cache_entries(const std::string& dir, uint64_t max_names) {
  Walk walk;
  walk.max_names = max_names;
  return walk_cache(dir, walk);
}

CacheTally remove_cache_entries(const std::string& dir, std::optional<int64_t> older_than_seconds, std::time_t now,
                                uint64_t max_names) {
  Walk walk;
  walk.max_names = max_names;
  walk.remove = true;
  walk.older_than_seconds = older_than_seconds;
  walk.now = now;
  return walk_cache(dir, walk);
}

}  // namespace imgaudit
