#include "core/Spelling.h"

#include <algorithm>
#include <cctype>

namespace star {

namespace {
std::string folded(std::string_view word, bool ignoreDashes) {
  if (ignoreDashes) {
    const std::size_t start = word.find_first_not_of('-');
    word = start == std::string_view::npos ? std::string_view{} : word.substr(start);
  }
  std::string out(word);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}
}  // namespace

std::size_t editDistance(std::string_view a, std::string_view b, std::size_t limit) {
  const std::size_t gap = a.size() > b.size() ? a.size() - b.size() : b.size() - a.size();
  if (gap > limit) return limit + 1;
  std::vector<std::size_t> before(b.size() + 1), previous(b.size() + 1), current(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    std::size_t rowBest = current[0];
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        current[j] = std::min(current[j], before[j - 2] + 1);
      rowBest = std::min(rowBest, current[j]);
    }
    // A swap reaches back two rows: stop only when this row and the one before exceed the limit.
    if (rowBest > limit && i > 1 && *std::min_element(previous.begin(), previous.end()) > limit) return limit + 1;
    std::swap(before, previous);
    std::swap(previous, current);
  }
  return std::min(previous[b.size()], limit + 1);
}

std::string closestWord(std::string_view word, const std::vector<std::string>& candidates, bool ignoreDashes) {
  const std::string w = folded(word, ignoreDashes);
  const std::size_t limit = std::min((w.size() + 2) / 3, w.size() == 0 ? 0 : w.size() - 1);
  std::string best;
  std::size_t bestDistance = limit + 1;
  for (const std::string& candidate : candidates) {
    const std::size_t d = editDistance(w, folded(candidate, ignoreDashes), bestDistance - 1);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

}  // namespace star
