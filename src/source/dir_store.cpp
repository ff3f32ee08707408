#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "source/blob_store.h"
#include "source/byte_streams.h"
#include "util/error.h"

namespace imgaudit {

namespace {

class DirStore : public BlobStore {
 public:
  explicit DirStore(std::string dir) : dir_(std::move(dir)) {}

  bool exists(const std::string& path) const override {
    struct stat st;
    return stat(full(path).c_str(), &st) == 0 && S_ISREG(st.st_mode);
  }

  uint64_t size(const std::string& path) const override {
    struct stat st;
    if (stat(full(path).c_str(), &st) != 0) throw InputError(path + ": " + std::strerror(errno));
    return static_cast<uint64_t>(st.st_size);
  }

  std::string read(const std::string& path, uint64_t max_size) const override {
    if (!exists(path)) throw InputError(path + ": missing");
    if (size(path) > max_size) throw InputError(path + ": too large (over " + std::to_string(max_size) + " bytes)");
    FileStream in(full(path));
    std::string out;
    char buf[65536];
    while (size_t n = in.read(buf, sizeof buf)) {
      out.append(buf, n);
      if (out.size() > max_size) throw InputError(path + ": too large");
    }
    return out;
  }

  std::unique_ptr<ByteStream> open(const std::string& path) const override {
    if (!exists(path)) throw InputError(path + ": missing");
    return std::make_unique<FileStream>(full(path));
  }

 private:
  // Paths come from fixed names and validated digests only.
  std::string full(const std::string& path) const { return dir_ + "/" + path; }
  std::string dir_;
};

}  // namespace

std::unique_ptr<BlobStore> open_dir_store(const std::string& dir) { return std::make_unique<DirStore>(dir); }

}  // namespace imgaudit
