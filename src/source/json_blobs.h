#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "source/blob_store.h"
#include "source/manifest_walker.h"
#include "util/limits.h"

namespace imgaudit {

// Parses `bytes`; InputError "<what>: malformed JSON at byte N" otherwise.
nlohmann::json parse_json(const std::string& bytes, const std::string& what);

// The digest of descriptor `d` ("sha256:<64 hex>"), or InputError: a digest
// is never trusted to be a path before this check.
std::string descriptor_digest(const nlohmann::json& d, const std::string& what);

// "sha256:<hex>" -> "blobs/sha256/<hex>" (after descriptor_digest's check).
std::string blob_path_of(const std::string& digest);
// "blobs/sha256/<hex>" -> "sha256:<hex>": the digest a blob's path names; "" for any other path.
std::string digest_of_blob_path(const std::string& path);

// Reads the blob `d` describes from an OCI layout, checking its sha256 and
// its size when given, and parses it as JSON.
nlohmann::json read_json_blob(const BlobStore& store, const nlohmann::json& d, const std::string& what);

// The manifests and configs of a layout or archive, as the walker reads them.
class BlobStoreManifests : public ManifestStore {
 public:
  explicit BlobStoreManifests(const BlobStore& store) : store_(store) {}
  nlohmann::json manifest(const nlohmann::json& d, const std::string& what) override { return read_json_blob(store_, d, what); }
  nlohmann::json config(const nlohmann::json& d, const std::string& what) override { return read_json_blob(store_, d, what); }
  bool has(const std::string& digest) override { return store_.exists(blob_path_of(digest)); }

 private:
  const BlobStore& store_;
};

// A string field of a JSON object, or "" when absent or not a string.
std::string string_field(const nlohmann::json& j, const char* key);

}  // namespace imgaudit
