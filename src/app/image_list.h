#pragma once
#include <istream>
#include <string>
#include <vector>

namespace imgaudit {

// The references of an --images-from list: one a line, blank lines and lines starting with '#'
// skipped, spaces around a reference dropped. `name` is the file's name in errors ("standard input").
// Throws InputError on a line with control characters, a line or a file over the limits, or more than
// kMaxImagesPerRun references.
std::vector<std::string> read_image_list(std::istream& in, const std::string& name);

// `images` with each reference kept once, at its first place; throws InputError past kMaxImagesPerRun.
std::vector<std::string> unique_images(const std::vector<std::string>& images);

}  // namespace imgaudit
