#include "source/json_blobs.h"
#include "util/bounded_json.h"

#include "util/error.h"
#include "util/sha256.h"
#include "util/strings.h"

namespace imgaudit {

nlohmann::json parse_json(const std::string& bytes, const std::string& what) {
  std::string problem;
  if (auto j = parse_bounded_json(bytes, &problem)) return std::move(*j);
  throw InputError(what + ": " + problem);
}

std::string string_field(const nlohmann::json& j, const char* key) {
  if (!j.is_object()) return "";
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}

std::string descriptor_digest(const nlohmann::json& d, const std::string& what) {
  if (!d.is_object()) throw InputError(what + ": descriptor is not a JSON object");
  auto it = d.find("digest");
  if (it == d.end() || !it->is_string()) throw InputError(what + ": descriptor has no digest");
  std::string digest = it->get<std::string>();
  if (!is_sha256_digest(digest))
    throw InputError(what + ": unsupported or malformed digest \"" + digest.substr(0, 100) + "\" (expected sha256:<64 hex>)");
  return digest;
}

std::string blob_path_of(const std::string& digest) { return "blobs/sha256/" + digest.substr(7); }

std::string digest_of_blob_path(const std::string& path) {
  const std::string prefix = "blobs/sha256/";
  if (!starts_with(path, prefix)) return "";
  std::string digest = "sha256:" + path.substr(prefix.size());
  return is_sha256_digest(digest) ? digest : "";
}

nlohmann::json read_json_blob(const BlobStore& store, const nlohmann::json& d, const std::string& what) {
  std::string digest = descriptor_digest(d, what);
  std::string path = blob_path_of(digest);
  if (!store.exists(path)) throw InputError(what + ": missing blob " + digest);
  std::string bytes = store.read(path, kMaxJsonBlob);
  if (auto size = d.find("size"); size != d.end() && size->is_number_integer() &&
                                  size->get<int64_t>() != static_cast<int64_t>(bytes.size()))
    throw InputError(what + ": blob " + digest + " has " + std::to_string(bytes.size()) + " bytes, descriptor says " +
                     std::to_string(size->get<int64_t>()));
  std::string actual = Sha256::of(bytes);
  if (actual != digest) throw InputError(what + ": blob " + digest + " does not match its digest (content is " + actual + ")");
  return parse_json(bytes, what + " " + digest);
}

}  // namespace imgaudit
