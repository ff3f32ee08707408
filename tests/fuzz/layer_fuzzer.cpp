// One layer read: read_layer over a blob (tar, gzip, zstd, or anything else), then the merged view
// it gives and its facts through the cache's JSON. The first byte picks the media type claimed (bits 0
// and 1), whether the descriptor gives the size (bit 2), two threads (bit 3) and the diff_id hashed (bit 4).
#include <nlohmann/json.hpp>

#include "layer/fs_view.h"
#include "layer/layer_facts.h"
#include "source/byte_streams.h"
#include "util/error.h"
#include "util/sha256.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace imgaudit;
  if (size == 0) return 0;
  static const char* const media_types[] = {
      "application/vnd.oci.image.layer.v1.tar",
      "application/vnd.oci.image.layer.v1.tar+gzip",
      "application/vnd.oci.image.layer.v1.tar+zstd",
      "application/vnd.docker.image.rootfs.diff.tar.gzip",
  };
  std::string blob(reinterpret_cast<const char*>(data) + 1, size - 1);
  Descriptor layer{media_types[data[0] % 4], Sha256::of(blob), data[0] & 4 ? -1 : int64_t(blob.size())};
  StringStream in(blob);
  try {
    LayerFacts facts = read_layer(in, layer, "", LayerReadOptions{!(data[0] & 16), bool(data[0] & 8)});
    FsView view;
    view.apply(facts, 0);
    for (auto& [path, node] : view.nodes()) view.resolve(path);
    nlohmann::json j = facts;
    j.get<LayerFacts>();
  } catch (const InputError&) {
  }
  return 0;
}
