#include "app/version_info.h"

#include <archive.h>
#include <curl/curl.h>
#include <elfutils/version.h>
#include <hiredis/hiredis.h>
#include <openssl/crypto.h>

#include <CLI/Version.hpp>
#include <nlohmann/json.hpp>

#include "layer/gzip_stream.h"
#include "rules/catalog.h"
#include "version.h"

namespace imgaudit {

std::string version_text() {
  std::string commit = *kImgauditCommit ? std::string(kImgauditCommit) : "unknown";
  return std::string("imgaudit ") + kImgauditVersion + " (commit " + commit + ", built " + kImgauditBuildDate + ")\n" +
         "rules: " + std::to_string(Catalog::builtin_size()) + ", catalog " + Catalog::builtin_version() + "\n" +
         archive_version_details() + "\n" +
         "gzip layers: " + inflater_version(fastest_inflater()) + "\n" +
         "libelf: elfutils 0." + std::to_string(_ELFUTILS_VERSION) + " (built with)\n" +
         "libcurl " + curl_version_info(CURLVERSION_NOW)->version + "\n" +
         "hiredis " + std::to_string(HIREDIS_MAJOR) + "." + std::to_string(HIREDIS_MINOR) + "." +
         std::to_string(HIREDIS_PATCH) + " (built with)\n" +
         OpenSSL_version(OPENSSL_VERSION) + "\n" +
         "nlohmann-json " + std::to_string(NLOHMANN_JSON_VERSION_MAJOR) + "." +
         std::to_string(NLOHMANN_JSON_VERSION_MINOR) + "." + std::to_string(NLOHMANN_JSON_VERSION_PATCH) + ", CLI11 " +
         CLI11_VERSION + " (built with)";
}

}  // namespace imgaudit
