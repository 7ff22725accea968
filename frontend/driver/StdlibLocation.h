// Where `star` (its commands and `star lsp`) finds its standard library and the other unit
// directories: nothing about the build machine is compiled in, so that a binary runs from
// wherever it is copied (docs/CLI.md, "Where units are found").
#pragma once

#include <string>
#include <vector>

namespace star {

// The absolute path of the running executable (/proc/self/exe); "" when it cannot be read.
std::string executablePath();

// The standard library beside the executable: EXE_DIR/../share/star/stdlib, the layout of an
// installed tree (PREFIX/bin/star) and of the build tree (BUILD/bin/star, where
// BUILD/share/star/stdlib links to the source tree's stdlib/), links resolved. `dir` is "" when
// there is none; `looked` is the directory that was tried.
struct StdlibLocation {
  std::string dir;
  std::string looked;
};
StdlibLocation findStdlib();
// The same, for an executable at `exe` (for tests).
StdlibLocation findStdlibBeside(const std::string& exe);

// The directories of a colon-separated list such as $STAR_PATH, in order, empty entries left
// out. `value` may be null (the variable is not set).
std::vector<std::string> splitSearchPath(const char* value);

// Where `uses NAME` looks after the importing file's directory: the --stdlib-path directories
// (the last given first), then $STAR_PATH's, then the standard library.
std::vector<std::string> unitSearchPath(const std::vector<std::string>& stdlibPaths);

}  // namespace star
