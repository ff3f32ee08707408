# IMGAUDIT_STATIC: the release binaries (packaging/release.sh). Every executable is one static-pie file
# that needs no shared library and no file of the build machine at run time, so it runs on any Linux of its
# architecture, whatever its libc. Static glibc, not musl: Debian has no musl C++ toolchain or musl builds
# of the libraries, and glibc's allocator keeps imgaudit's parallel reads fast (docs/release-builds.md).
# libcurl and ISA-L come from CMAKE_PREFIX_PATH, built by packaging/release/deps.sh; the rest are Debian's
# static archives.
option(IMGAUDIT_STATIC "Link every executable as one self-contained static-pie file (the release build)" OFF)

if(IMGAUDIT_STATIC)
  # Every library found from here on is a static archive.
  set(CMAKE_FIND_LIBRARY_SUFFIXES .a)
  set(OPENSSL_USE_STATIC_LIBS TRUE)
  set(ZLIB_USE_STATIC_LIBS TRUE)
  set(CMAKE_POSITION_INDEPENDENT_CODE ON)
  # The link map names every archive a link took members from: the SBOM lists those (packaging/release).
  # --gc-sections: the sections no code reaches are left out (1 MB of 13.6).
  add_link_options(-static-pie "LINKER:-Map=$<TARGET_PROPERTY:NAME>.map" LINKER:--gc-sections)
  add_compile_definitions(IMGAUDIT_STATIC_BUILD)
endif()

# After the find_package and pkg_check_modules calls: pkg-config's imported targets name a module's own
# library only; a static link needs every archive it uses.
function(imgaudit_static_link_fixups)
  if(NOT IMGAUDIT_STATIC)
    return()
  endif()
  # Debian's libarchive.pc names -lxml2 after the compressors, which libxml2 uses too: its own list follows.
  pkg_check_modules(LIBXML2 REQUIRED libxml-2.0)
  list(APPEND LIBARCHIVE_STATIC_LDFLAGS ${LIBXML2_STATIC_LDFLAGS})
  foreach(module LIBARCHIVE LIBELF HIREDIS ISAL)
    if(TARGET PkgConfig::${module})
      set_property(TARGET PkgConfig::${module} APPEND PROPERTY INTERFACE_LINK_LIBRARIES ${${module}_STATIC_LDFLAGS})
    endif()
  endforeach()
  # yaml-cpp's CMake package names its shared library, and Debian's arm64 package cannot be installed beside
  # the amd64 one (not Multi-Arch: same): release.sh gives the archive of the other architecture itself.
  find_library(YAML_CPP_STATIC NAMES libyaml-cpp.a REQUIRED)
  add_library(yaml-cpp STATIC IMPORTED GLOBAL)
  set_property(TARGET yaml-cpp PROPERTY IMPORTED_LOCATION ${YAML_CPP_STATIC})
endfunction()
