// A position in a Star source file: file index into the SourceManager, 1-based line and column.
#pragma once

#include <cstdint>

namespace star {

struct SourceLoc {
  std::uint32_t file = 0;
  std::uint32_t line = 0;  // 0 = unknown
  std::uint32_t col = 0;
};

}  // namespace star
