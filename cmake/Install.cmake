# `cmake --install BUILD --prefix P` and CPack (docs/CLI.md, "Installing"). The layout is fixed,
# because star finds its standard library relative to its own executable (bin/../share/star):
#   P/bin/star
#   P/share/star/stdlib/*.star      the standard library units
#   P/share/star/examples/          the example programs, their inputs and expectation files
#   P/share/doc/star/               README.md and docs/
#   P/share/man/man1/star.1         the manual page
#   P/share/star/editors/           Vim files, the VS Code extension
install(TARGETS star RUNTIME DESTINATION bin)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/stdlib/ DESTINATION share/star/stdlib
        FILES_MATCHING PATTERN "*.star")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/examples/ DESTINATION share/star/examples
        PATTERN "*.starc" EXCLUDE PATTERN "*.png" EXCLUDE)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION share/doc/star)
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION share/doc/star)
# The manual page (written by the build from `star help`'s tables) and the editor files.
install(FILES ${PROJECT_BINARY_DIR}/share/man/man1/star.1 DESTINATION share/man/man1)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/editors/ DESTINATION share/star/editors)

# `cpack` in the build directory writes star-VERSION-Linux.tar.gz and star_VERSION_ARCH.deb.
set(CPACK_PACKAGE_NAME star)
set(CPACK_PACKAGE_VENDOR "The Star project")
set(CPACK_PACKAGE_CONTACT "The Star project <star@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Star: a language and virtual machine for the STAR associative processor")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_GENERATOR "DEB;TGZ")
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# The shared libraries star links (Debian 12 names), listed by hand so that building the package
# needs no dpkg-shlibdeps. A CUDA build links the CUDA runtime statically and opens the driver
# (libcuda) and NVRTC at run time where they exist: without them star runs on the CPU backend.
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "libc6, libstdc++6, libantlr4-runtime4.9, libedit2, libpng16-16")
include(CPack)
