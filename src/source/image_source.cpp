#include "source/source.h"
#include "util/error.h"

namespace imgaudit {

std::unique_ptr<ImageSource> ImageSource::for_platform(const Platform& platform) const {
  if (!reopen_) throw InputError(describe() + ": holds one platform, not " + platform.str());
  return reopen_(platform);
}

void ImageSource::set_platforms(std::vector<Platform> platforms, Reopen reopen) {
  platforms_ = std::move(platforms);
  reopen_ = std::move(reopen);
}

}  // namespace imgaudit
