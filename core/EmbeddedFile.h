// A source file carried inside the binary (cmake/EmbedFiles.cmake): its path relative to the
// repository root, and its text.
#pragma once

#include <span>
#include <string_view>

namespace star {

struct EmbeddedFile {
  std::string_view path;
  std::string_view text;
};

}  // namespace star
