# A Debian package through CPack: `cpack -G DEB` in the build folder (or
# `cmake --build build --target package`) writes imgaudit_VERSION_ARCH.deb.
# Included from the top CMakeLists.txt after packaging/install.cmake.

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME imgaudit)
set(CPACK_PACKAGE_VENDOR "imgaudit")
set(CPACK_PACKAGE_CONTACT "imgaudit maintainers <imgaudit@users.noreply.github.com>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "finds what will break or run slowly in a container image")
# Lines of at most 80 columns in the control file (lintian's
# extended-description-line-too-long): each is written with a leading space.
set(CPACK_PACKAGE_DESCRIPTION
    "imgaudit reads OCI layouts, docker-save and OCI archives and root filesystem
folders, merges their layers without extracting them, and reports what will
fail or run slowly: missing ELF interpreters and shared libraries, glibc/musl
mismatches, too-old glibc, architecture mismatches, musl's malloc and thread
stacks, executable stacks, missing time zone data or CA bundles, build tools
left in the image, root users and mismatched Python wheels. Each finding comes
with advice for the image's libc and distribution. Reports are text, JSON,
SARIF, JUnit XML or GitLab Code Quality.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
# The package version is UPSTREAM-REVISION, both from the latest entry of
# packaging/deb/changelog (installed as /usr/share/doc/imgaudit/changelog.Debian.gz):
# the upstream part must be the project's version, and the revision counts
# packagings of that version. With a revision the package is not "native" for
# lintian, which then wants the changelog under the name changelog.Debian.gz.
file(STRINGS ${CMAKE_SOURCE_DIR}/packaging/deb/changelog imgaudit_changelog_top LIMIT_COUNT 1)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/packaging/deb/changelog)
if(NOT imgaudit_changelog_top MATCHES "^imgaudit \\(([^)-]+)-([^)-]+)\\) ")
  message(FATAL_ERROR "packaging/deb/changelog does not start with 'imgaudit (VERSION-REVISION) ...': "
                      "${imgaudit_changelog_top}")
endif()
set(CPACK_DEBIAN_PACKAGE_RELEASE ${CMAKE_MATCH_2})
if(NOT CMAKE_MATCH_1 STREQUAL PROJECT_VERSION)
  # Not fatal, so that a version bump still builds; the packaging.deb test fails.
  message(WARNING "packaging/deb/changelog's latest entry is for ${CMAKE_MATCH_1}, the project is "
                  "${PROJECT_VERSION}: add an entry 'imgaudit (${PROJECT_VERSION}-1)' (dch -v ${PROJECT_VERSION}-1)")
endif()
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${CPACK_PACKAGE_CONTACT}")
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# Depends: computed from the binary by dpkg-shlibdeps (dpkg-dev), so it always
# names the libraries the binary really links: on Debian 12 libarchive13,
# libelf1, libssl3, libcurl4 (once registry pulls link it), libstdc++6, libgcc-s1, libc6.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The release's static binary (cmake/static_link.cmake) needs no shared library: no Depends. A cross build
# names the target's architecture, not the build machine's.
if(IMGAUDIT_STATIC)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS OFF)
endif()
if(CMAKE_CROSSCOMPILING)
  if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64)$")
    set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE arm64)
  elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|amd64)$")
    set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE amd64)
  endif()
endif()
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "jq, bash-completion")

include(CPack)
