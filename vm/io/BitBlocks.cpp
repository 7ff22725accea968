#include "vm/io/BitBlocks.h"

#include <bit>

namespace star {

std::uint64_t stepToFit(std::uint64_t n, std::uint64_t limit) {
  if (limit == 0) limit = 1;
  return n <= limit ? 1 : blockCount(n, limit);
}

std::uint64_t countOnes(const std::uint64_t* words, std::uint64_t begin, std::uint64_t end) {
  std::uint64_t count = 0;
  while (begin < end) {
    std::uint64_t w = begin / 64, lo = begin % 64;
    std::uint64_t hi = (w + 1) * 64 < end ? 64 : end - w * 64;  // bits [lo, hi) of word w
    std::uint64_t mask = (hi == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << hi) - 1) &
                         ~((std::uint64_t{1} << lo) - 1);
    count += static_cast<std::uint64_t>(std::popcount(words[w] & mask));
    begin = w * 64 + hi;
  }
  return count;
}

std::vector<double> blockRowDensities(const TableData& t, std::uint64_t blockRow,
                                      std::uint64_t rowStep, std::uint64_t colStep) {
  std::uint64_t first = blockRow * rowStep;
  std::uint64_t last = first + rowStep < t.rows ? first + rowStep : t.rows;
  std::uint64_t stride = blockCount(t.rows, 64);
  std::vector<double> ones(blockCount(t.cols, colStep), 0.0);
  if (last <= first) return ones;
  for (std::uint64_t j = 0; j < t.cols; ++j)
    ones[j / colStep] += static_cast<double>(countOnes(t.words.data() + j * stride, first, last));
  for (std::uint64_t b = 0; b < ones.size(); ++b) {
    std::uint64_t width = (b + 1) * colStep < t.cols ? colStep : t.cols - b * colStep;
    ones[b] /= static_cast<double>(width * (last - first));
  }
  return ones;
}

TableData sliceAsTable(std::uint64_t n, const std::vector<std::uint64_t>& words) {
  TableData t;
  t.reshape(n, n ? 1 : 0);
  for (std::size_t k = 0; k < t.words.size() && k < words.size(); ++k) t.words[k] = words[k];
  return t;
}

TableData wordAsTable(std::uint64_t n, const std::vector<std::uint64_t>& words) {
  TableData t;
  t.reshape(n ? 1 : 0, n);
  for (std::uint64_t j = 0; j < n; ++j)
    if ((words[j / 64] >> (j % 64)) & 1) t.set(0, j);
  return t;
}

}  // namespace star
