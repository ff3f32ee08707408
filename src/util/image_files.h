#pragma once

namespace imgaudit {

// Files inside an image that more than one part of imgaudit reads: the layer reader keeps their text or
// bytes, the inspectors parse them. Relative to the image's root, as util/paths.h keeps paths.
namespace image_file {
inline constexpr const char* kOsRelease = "etc/os-release";
inline constexpr const char* kUsrLibOsRelease = "usr/lib/os-release";  // read when etc/os-release is absent
inline constexpr const char* kAlpineRelease = "etc/alpine-release";
inline constexpr const char* kDebianVersion = "etc/debian_version";
inline constexpr const char* kApkInstalled = "lib/apk/db/installed";
inline constexpr const char* kUsrLibApkInstalled = "usr/lib/apk/db/installed";  // read when lib/apk's is absent
inline constexpr const char* kDpkgStatus = "var/lib/dpkg/status";
inline constexpr const char* kDpkgStatusDir = "var/lib/dpkg/status.d";  // distroless: one file per package
inline constexpr const char* kLdSoConf = "etc/ld.so.conf";
inline constexpr const char* kLdSoCache = "etc/ld.so.cache";
}  // namespace image_file

}  // namespace imgaudit
