# A Debian package through CPack: `cpack -G DEB` in the build folder (or
# `cmake --build build --target package`) writes imgaudit_VERSION_ARCH.deb.
# Included from the top CMakeLists.txt after packaging/install.cmake.

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME imgaudit)
set(CPACK_PACKAGE_VENDOR "imgaudit")
set(CPACK_PACKAGE_CONTACT "imgaudit maintainers <imgaudit@users.noreply.github.com>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "finds what will break or run slowly in a container image")
set(CPACK_PACKAGE_DESCRIPTION
    "imgaudit reads OCI layouts, docker-save and OCI archives and root filesystem folders, merges
their layers without extracting them, and reports what will fail or run slowly: missing ELF
interpreters and shared libraries, glibc/musl mismatches, too-old glibc, architecture
mismatches, musl's malloc and thread stacks, executable stacks, missing time zone data or CA
bundles, build tools left in the image, root users and mismatched Python wheels. Each finding
comes with advice for the image's libc and distribution. Reports are text, JSON or SARIF.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${CPACK_PACKAGE_CONTACT}")
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# Depends: computed from the binary by dpkg-shlibdeps (dpkg-dev), so it always
# names the libraries the binary really links: on Debian 12 libarchive13,
# libelf1, libssl3, libcurl4 (once registry pulls link it), libstdc++6, libgcc-s1, libc6.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "jq, bash-completion")

include(CPack)
