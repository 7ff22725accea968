// The types of Star values. Sizes (slice/word length, table shape) are not part of the type:
// they are run-time values, checked statically where the checker can know them (see Shape).
#pragma once

#include <cstdint>
#include <string>

namespace star {

enum class Type : std::uint8_t { Error, Void, Integer, Boolean, String, Real, Slice, Word, Table };

const char* typeName(Type t);
inline bool isBits(Type t) { return t == Type::Slice || t == Type::Word; }
inline bool isVector(Type t) { return isBits(t) || t == Type::Table; }
inline bool isScalar(Type t) {
  return t == Type::Integer || t == Type::Boolean || t == Type::String || t == Type::Real;
}

// What the checker knows statically about the size of a value; -1 = unknown.
struct Shape {
  std::int64_t length = -1;  // slices and words
  std::int64_t rows = -1;    // tables
  std::int64_t cols = -1;
};

}  // namespace star
