#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "source/source.h"

namespace imgaudit {

// The messages of containerd's API that imgaudit sends and reads, by the field numbers of containerd's
// api/services/images/v1/images.proto, api/services/content/v1/content.proto and api/types/descriptor.proto
// (the same from containerd 1.5 to 2.x). Decoders throw InputError naming the message.

// images.v1.GetImageRequest {string name = 1}
std::string encode_get_image(const std::string& name);
// content.v1.InfoRequest {string digest = 1}
std::string encode_content_info(const std::string& digest);
// content.v1.ReadContentRequest {string digest = 1; int64 offset = 2; int64 size = 3}: `size` 0 reads to the end.
std::string encode_read_content(const std::string& digest, uint64_t offset, uint64_t size);

struct ContainerdImage {
  std::string name;
  Descriptor target;  // its digest checked as "sha256:<64 hex>"
};

// images.v1.GetImageResponse {Image image = 1}, Image {string name = 1; Descriptor target = 3},
// Descriptor {string media_type = 1; string digest = 2; int64 size = 3}.
ContainerdImage decode_get_image(std::string_view answer);
// content.v1.InfoResponse {Info info = 1}, Info {string digest = 1; int64 size = 2}: the size.
uint64_t decode_content_size(std::string_view answer);
// content.v1.ReadContentResponse {int64 offset = 1; bytes data = 2}: the data (a view into `answer`).
std::string_view decode_read_data(std::string_view answer);

}  // namespace imgaudit
