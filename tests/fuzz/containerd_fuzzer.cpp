// What containerd's API answers where imgaudit reads it: the protobuf messages of an image record, a
// content record and a chunk of content, and any message field by field. The first byte chooses which.
#include <cstdint>
#include <string_view>

#include "containerd/containerd_messages.h"
#include "containerd/protobuf_wire.h"
#include "util/error.h"
#include "util/sha256.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace imgaudit;
  if (size == 0) return 0;
  std::string_view message(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    switch (data[0] % 4) {
      case 0: {
        ContainerdImage image = decode_get_image(message);
        if (!is_sha256_digest(image.target.digest)) __builtin_trap();  // the decoder checks it
        break;
      }
      case 1: {
        uint64_t content_size = decode_content_size(message);
        if (static_cast<int64_t>(content_size) < 0) __builtin_trap();
        break;
      }
      case 2: {
        std::string_view chunk = decode_read_data(message);
        if (chunk.size() > message.size()) __builtin_trap();
        break;
      }
      default: {
        ProtoReader reader(message, "message");
        for (ProtoField f; reader.next(&f);)
          if (f.number == 0 || f.bytes.size() > message.size()) __builtin_trap();
      }
    }
  } catch (const InputError&) {
  }
  return 0;
}
