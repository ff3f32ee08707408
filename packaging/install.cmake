# What `cmake --install` and the .deb put where (paths relative to the prefix).
# Included from the top CMakeLists.txt, after the imgaudit target and testdata/.

set(IMGAUDIT_BASH_COMPLETION_DIR share/bash-completion/completions
    CACHE STRING "where the bash completion goes, relative to the install prefix")
# Debian's zsh reads packaged completions from /usr/share/zsh/vendor-completions;
# for a /usr/local install, share/zsh/site-functions is the folder zsh reads.
set(IMGAUDIT_ZSH_COMPLETION_DIR share/zsh/vendor-completions
    CACHE STRING "where the zsh completion goes, relative to the install prefix")

install(TARGETS imgaudit RUNTIME DESTINATION bin)
# The man page and the Debian changelog are installed gzip-compressed, as
# Debian policy wants (lintian's uncompressed-manual-page, no-changelog).
# `gzip -9n`: best compression and no name or time stamp in the header, so the
# same input always gives the same bytes (reproducible builds).
find_program(IMGAUDIT_GZIP gzip REQUIRED)
set(imgaudit_gzipped)
foreach(pair "man/imgaudit.1=imgaudit.1.gz" "packaging/deb/changelog=changelog.Debian.gz")
  string(REPLACE "=" ";" pair "${pair}")
  list(GET pair 0 in)
  list(GET pair 1 out)
  add_custom_command(
    OUTPUT ${CMAKE_BINARY_DIR}/packaging/${out}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/packaging
    COMMAND sh -c "\"$1\" -9n -c \"$2\" > \"$3.tmp\" && mv \"$3.tmp\" \"$3\"" gzip
            ${IMGAUDIT_GZIP} ${CMAKE_SOURCE_DIR}/${in} ${CMAKE_BINARY_DIR}/packaging/${out}
    DEPENDS ${CMAKE_SOURCE_DIR}/${in}
    COMMENT "gzip -9n ${in}"
    VERBATIM)
  list(APPEND imgaudit_gzipped ${CMAKE_BINARY_DIR}/packaging/${out})
endforeach()
add_custom_target(imgaudit_gzipped_docs ALL DEPENDS ${imgaudit_gzipped})

install(FILES ${CMAKE_BINARY_DIR}/packaging/imgaudit.1.gz DESTINATION share/man/man1)
# /usr/share/doc/imgaudit: the copyright file (machine-readable DEP-5 format,
# Apache-2.0, pointing at /usr/share/common-licenses/Apache-2.0) and the
# changelog. The .deb's version is read from that changelog (packaging/cpack.cmake).
install(FILES ${CMAKE_SOURCE_DIR}/packaging/deb/copyright ${CMAKE_BINARY_DIR}/packaging/changelog.Debian.gz
        DESTINATION share/doc/imgaudit)
# The one lintian tag the .deb overrides, and why: in the file.
install(FILES ${CMAKE_SOURCE_DIR}/packaging/deb/lintian-overrides DESTINATION share/lintian/overrides
        RENAME imgaudit)
install(FILES ${CMAKE_SOURCE_DIR}/packaging/completions/imgaudit.bash
        DESTINATION ${IMGAUDIT_BASH_COMPLETION_DIR} RENAME imgaudit)
install(FILES ${CMAKE_SOURCE_DIR}/packaging/completions/_imgaudit DESTINATION ${IMGAUDIT_ZSH_COMPLETION_DIR})
# The bundled example image (an OCI layout built by testdata/), so that
# `imgaudit PREFIX/share/imgaudit/example` works after install.
if(IMGAUDIT_EXAMPLE)
  install(DIRECTORY ${CMAKE_BINARY_DIR}/testdata/example/ DESTINATION share/imgaudit/example)
endif()
