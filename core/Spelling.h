// Typo correction, one rule for every "did you mean": the command line's commands and options
// and the checker's names. Case-insensitive; a swap of two adjacent letters is one edit.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace star {

// Damerau-Levenshtein distance (optimal string alignment: insert, delete, replace, or swap two
// adjacent characters, each one edit), bounded: limit + 1 as soon as it must exceed limit.
std::size_t editDistance(std::string_view a, std::string_view b, std::size_t limit = static_cast<std::size_t>(-1));

// The candidate closest to word within (length + 2) / 3 edits (clang's rule for typos) and fewer
// edits than word has letters, ignoring case (and leading dashes when ignoreDashes); "" when none.
std::string closestWord(std::string_view word, const std::vector<std::string>& candidates, bool ignoreDashes = false);

}  // namespace star
