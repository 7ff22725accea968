# Debian ships the ANTLR 4.7.2 tool as separate jars that `java -jar` cannot run on their own
# (the tool jar's manifest names no class path). The antlr4-generator CMake package runs
# `java -jar ${ANTLR4_JAR_LOCATION}`, so we give it a tiny launcher jar whose manifest points at
# Debian's jars. Nothing third-party is vendored: the launcher holds only a manifest.
set(_star_antlr_jars stringtemplate4.jar antlr4.jar antlr4-runtime.jar antlr3-runtime.jar treelayout.jar)
set(_star_launcher_dir ${CMAKE_BINARY_DIR}/antlr-launcher)
set(_manifest "Manifest-Version: 1.0\nMain-Class: org.antlr.v4.Tool\nClass-Path: file:/usr/share/java/antlr4.jar")
foreach(jar IN LISTS _star_antlr_jars)
  if(NOT EXISTS /usr/share/java/${jar})
    message(FATAL_ERROR "ANTLR tool jar /usr/share/java/${jar} missing: run scripts/install-deps.sh")
  endif()
  # a continuation line starts with one space; the second space separates the entries
  string(APPEND _manifest "\n  file:/usr/share/java/${jar}")
endforeach()
string(APPEND _manifest "\n\n")
file(MAKE_DIRECTORY ${_star_launcher_dir}/META-INF)
file(WRITE ${_star_launcher_dir}/META-INF/MANIFEST.MF "${_manifest}")
execute_process(
  COMMAND ${CMAKE_COMMAND} -E tar cf ${_star_launcher_dir}/antlr4-launcher.jar --format=zip META-INF
  WORKING_DIRECTORY ${_star_launcher_dir} RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "could not build the ANTLR launcher jar")
endif()
set(ANTLR4_JAR_LOCATION ${_star_launcher_dir}/antlr4-launcher.jar)
