// The index, manifest and config parsers: the manifest walker from a root document to an image,
// the platform it is asked for, and the ImageInfo its config gives. Sections (NUL-separated):
// the platform asked ("" for the host's), the tag asked, the root document, then the documents
// the walker asks for, served in the order it asks (digests are not verified here, so that the
// fuzzer reaches past them).
#include "facts/image_facts.h"
#include "fuzz_input.h"
#include "layer/layer_facts.h"
#include "source/json_blobs.h"
#include "source/manifest_walker.h"
#include "util/error.h"

namespace {

using namespace imgaudit;

class DocumentsInOrder : public ManifestStore {
 public:
  explicit DocumentsInOrder(std::vector<std::string> docs) : docs_(std::move(docs)) {}
  nlohmann::json manifest(const nlohmann::json& d, const std::string& what) override { return next(d, what); }
  nlohmann::json config(const nlohmann::json& d, const std::string& what) override { return next(d, what); }

 private:
  nlohmann::json next(const nlohmann::json& d, const std::string& what) {
    descriptor_digest(d, what);
    if (next_ == docs_.size()) throw InputError(what + ": missing blob");
    return parse_json(docs_[next_++], what);
  }
  std::vector<std::string> docs_;
  size_t next_ = 0;
};

class ResolvedImage : public ImageSource {
 public:
  explicit ResolvedImage(const ResolvedManifest& m) : m_(m) {}
  std::string describe() const override { return "fuzz"; }
  std::string manifest_digest() const override { return m_.digest; }
  const nlohmann::json& config() const override { return m_.config; }
  std::vector<Descriptor> layers() const override { return m_.layers; }
  std::unique_ptr<ByteStream> open_blob(const Descriptor&) const override { throw InputError("no blobs"); }

 private:
  const ResolvedManifest& m_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  constexpr size_t kDocuments = 8;
  std::vector<std::string> s = fuzz::sections(data, size, 3 + kDocuments);
  try {
    std::optional<Platform> platform;
    if (!s[0].empty()) platform = Platform::parse(s[0]);
    nlohmann::json root = parse_json(s[2], "index.json");
    DocumentsInOrder store({s.begin() + 3, s.end()});
    ResolvedManifest m = walk_to_image(store, root, string_field(root, "mediaType"), "", "fuzz", s[1], platform);
    config_platform(m.config);
    ResolvedImage image(m);
    std::vector<LayerFacts> layers(std::min<size_t>(m.layers.size(), 128));
    make_image_info(image, layers);
  } catch (const InputError&) {
  }
  return 0;
}
