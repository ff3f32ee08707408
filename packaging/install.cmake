# What `cmake --install` and the .deb put where (paths relative to the prefix).
# Included from the top CMakeLists.txt, after the imgaudit target and testdata/.

set(IMGAUDIT_BASH_COMPLETION_DIR share/bash-completion/completions
    CACHE STRING "where the bash completion goes, relative to the install prefix")
# Debian's zsh reads packaged completions from /usr/share/zsh/vendor-completions;
# for a /usr/local install, share/zsh/site-functions is the folder zsh reads.
set(IMGAUDIT_ZSH_COMPLETION_DIR share/zsh/vendor-completions
    CACHE STRING "where the zsh completion goes, relative to the install prefix")

install(TARGETS imgaudit RUNTIME DESTINATION bin)
install(FILES ${CMAKE_SOURCE_DIR}/man/imgaudit.1 DESTINATION share/man/man1)
install(FILES ${CMAKE_SOURCE_DIR}/packaging/completions/imgaudit.bash
        DESTINATION ${IMGAUDIT_BASH_COMPLETION_DIR} RENAME imgaudit)
install(FILES ${CMAKE_SOURCE_DIR}/packaging/completions/_imgaudit DESTINATION ${IMGAUDIT_ZSH_COMPLETION_DIR})
# The bundled example image (an OCI layout built by testdata/), so that
# `imgaudit PREFIX/share/imgaudit/example` works after install.
install(DIRECTORY ${CMAKE_BINARY_DIR}/testdata/example/ DESTINATION share/imgaudit/example)
