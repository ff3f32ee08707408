#include "source/image_sources.h"
#include "util/error.h"

namespace imgaudit {

namespace {

class RootfsSource : public ImageSource {
 public:
  RootfsSource(std::string dir, std::string description)
      : dir_(std::move(dir)), description_(std::move(description)) {}
  std::string describe() const override { return description_; }
  std::string manifest_digest() const override { return ""; }
  const nlohmann::json& config() const override { return config_; }
  std::vector<Descriptor> layers() const override { return {}; }
  std::unique_ptr<ByteStream> open_blob(const Descriptor&) const override {
    throw InputError::about(description_, "a root filesystem folder has no layer blobs");
  }
  ImageIdentity identity() const override { return {"rootfs", "", {}, {}, ""}; }
  std::optional<std::string> root_dir() const override { return dir_; }

 private:
  std::string dir_, description_;
  nlohmann::json config_ = nlohmann::json::object();
};

}  // namespace

std::unique_ptr<ImageSource> open_rootfs(const std::string& dir, std::string description) {
  return std::make_unique<RootfsSource>(dir, std::move(description));
}

}  // namespace imgaudit
