#include "source/source.h"
#include "util/error.h"

namespace imgaudit {

std::unique_ptr<ImageSource> open_image(const std::string& image, const std::optional<Platform>&) {
  throw InputError(image + ": not implemented yet");
}

}  // namespace imgaudit
