#pragma once
#include <string>
#include <vector>

namespace imgaudit {

// The references of an --images-from list: one a line, blank lines and lines starting with '#'
// skipped, spaces around a reference dropped. `name` is the file's name in errors ("standard input").
// Throws InputError on a line with control characters, a line over kMaxImageListLine, or more than
// kMaxImagesPerRun references.
std::vector<std::string> parse_image_list(const std::string& text, const std::string& name);

// The list in FILE, or on standard input for "-", read through the bounded reader: at most
// kMaxImageListBytes, however the file or the pipe goes on.
std::vector<std::string> read_image_list(const std::string& file);

// `images` with each reference kept once, at its first place; throws InputError past kMaxImagesPerRun.
std::vector<std::string> unique_images(const std::vector<std::string>& images);

}  // namespace imgaudit
