#include "app/image_list.h"

#include <unistd.h>

#include <set>
#include <sstream>

#include "util/bounded_file.h"
#include "util/error.h"
#include "util/limits.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

void check_count(size_t count) {
  if (count > kMaxImagesPerRun)
    throw InputError("more than " + std::to_string(kMaxImagesPerRun) + " images in one run: split the list");
}

}  // namespace

std::vector<std::string> parse_image_list(const std::string& text, const std::string& name) {
  std::vector<std::string> images;
  std::istringstream in(text);
  std::string line;
  for (size_t number = 1; std::getline(in, line); ++number) {
    const std::string where = name + ":" + std::to_string(number);
    if (line.size() > kMaxImageListLine)
      throw InputError(where + ": a line longer than " + std::to_string(kMaxImageListLine) + " bytes");
    size_t start = line.find_first_not_of(" \t");
    size_t end = line.find_last_not_of(" \t\r");
    if (start == std::string::npos || line[start] == '#') continue;
    std::string image = line.substr(start, end - start + 1);
    for (unsigned char c : image)
      if (c < 0x20 || c == 0x7f)
        throw InputError(where + ": a control character in \"" + printable(image, 80) + "\"");
    images.push_back(std::move(image));
    check_count(images.size());
  }
  return images;
}

std::vector<std::string> read_image_list(const std::string& file) {
  const FileBound bound{kMaxImageListBytes, "kMaxImageListBytes"};
  if (file == "-") {
    const std::string name = "standard input (--images-from -)";
    return parse_image_list(read_bounded_fd(STDIN_FILENO, name, bound), name);
  }
  std::optional<std::string> text = read_bounded_file(file, bound);
  if (!text) throw InputError(file + ": cannot read the image list (--images-from)");
  return parse_image_list(*text, file);
}

std::vector<std::string> unique_images(const std::vector<std::string>& images) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const std::string& image : images)
    if (seen.insert(image).second) out.push_back(image);
  check_count(out.size());
  return out;
}

}  // namespace imgaudit
