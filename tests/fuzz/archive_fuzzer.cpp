// An image archive read in one pass: what `docker save` and the Engine API's image export give
// (GET /images/{id}/get), and standard input: docker-archive or OCI layout in a tar, its layer
// blobs hashed as they stream past, then the image it leads to.
#include "facts/image_facts.h"
#include "layer/layer_facts.h"
#include "source/byte_streams.h"
#include "source/image_sources.h"
#include "util/error.h"
#include "util/sha256.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace imgaudit;
  StringStream in(std::string(reinterpret_cast<const char*>(data), size));
  auto hash_blob = [](const std::string&, const std::string&, uint64_t, ByteStream& bytes) {
    Sha256 h;
    char buf[4096];
    while (size_t n = bytes.read(buf, sizeof buf)) h.update(buf, n);
    return h.digest();
  };
  try {
    std::unique_ptr<ImageSource> image =
        open_archive_stream(in, ImageIdentity{"docker", {}, {}, {}, {}}, "fuzz", "", "", std::nullopt, hash_blob);
    std::vector<LayerFacts> layers(std::min<size_t>(image->layers().size(), 128));
    make_image_info(*image, layers);
  } catch (const InputError&) {
  }
  return 0;
}
