# Source files embedded in the star binary as strings (the compiled tier's headers: generated code
# is compiled at run time, from wherever star was copied to, so it carries what it includes).
#
#   star_embed_files(OUTPUT out.cpp FUNCTION name INCLUDE decl.h FILES a.h b.h ...)
# writes out.cpp defining `std::span<const star::EmbeddedFile> star::name()` (core/EmbeddedFile.h;
# declared in decl.h),
# the files by their paths relative to the repository root. Regenerated when any file changes.
function(star_embed_files)
  cmake_parse_arguments(E "" "OUTPUT;FUNCTION;INCLUDE" "FILES" ${ARGN})
  set(deps)
  foreach(f ${E_FILES})
    list(APPEND deps ${PROJECT_SOURCE_DIR}/${f})
  endforeach()
  add_custom_command(
    OUTPUT ${E_OUTPUT}
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${E_OUTPUT} -DFUNCTION=${E_FUNCTION} -DINCLUDE=${E_INCLUDE} -DROOT=${PROJECT_SOURCE_DIR}
            "-DFILES=${E_FILES}" -P ${PROJECT_SOURCE_DIR}/cmake/EmbedFilesScript.cmake
    DEPENDS ${deps} ${PROJECT_SOURCE_DIR}/cmake/EmbedFilesScript.cmake
    COMMENT "Embedding ${E_FUNCTION}'s files"
    VERBATIM)
endfunction()
