#include "cli/repl/BitPicture.h"

#include <algorithm>
#include <vector>

#include "vm/io/BitBlocks.h"

namespace star::repl {
namespace {

constexpr const char* kBlank = " ";
constexpr const char* kUpper = "\u2580";  // ▀
constexpr const char* kLower = "\u2584";  // ▄
constexpr const char* kFull = "\u2588";   // █

int digits(std::uint64_t n) {
  return static_cast<int>(std::to_string(n).size());
}

// The numbers above the picture: column 1, then every `step`-th column (1, 2, 5, 10, 20, 50, ...
// columns apart, the first step whose labels do not touch), each starting at its character.
std::string columnRuler(std::uint64_t cols, std::uint64_t f, std::size_t indent) {
  std::uint64_t room = static_cast<std::uint64_t>(digits(cols)) + 1;  // characters a label needs
  std::uint64_t step = 1;
  for (std::uint64_t base = 1;; base *= 10) {
    if (base * 1 / f >= room) {
      step = base;
      break;
    }
    if (base * 2 / f >= room) {
      step = base * 2;
      break;
    }
    if (base * 5 / f >= room) {
      step = base * 5;
      break;
    }
  }
  std::string line(indent, ' ');
  std::size_t end = 0;  // first free character after the last label
  for (std::uint64_t c = 1; c <= cols; c = c == 1 && step > 1 ? step : c + step) {
    std::size_t at = static_cast<std::size_t>((c - 1) / f);
    if (c != 1 && at < end + 1) continue;
    std::string label = std::to_string(c);
    line.resize(indent + at, ' ');
    line += label;
    end = at + label.size();
  }
  return line + "\n";
}

bool bit(const TableData& t, std::uint64_t i, std::uint64_t j) {
  return i < t.rows && j < t.cols && t.get(i, j);
}

}  // namespace

const char* shadeOf(double density) {
  if (density <= 0) return kBlank;
  if (density < 1.0 / 3) return "\u2591";  // ░
  if (density < 2.0 / 3) return "\u2592";  // ▒
  if (density < 1) return "\u2593";        // ▓
  return kFull;
}

std::string drawBits(const TableData& t, const std::string& title, int width, int maxLines) {
  if (t.rows == 0 || t.cols == 0) return title + "\n";
  int labelWidth = digits(t.rows);
  std::size_t indent = static_cast<std::size_t>(labelWidth) + 2;  // "NNN │"
  std::uint64_t room =
      width > static_cast<int>(indent) ? static_cast<std::uint64_t>(width) - indent : 1;
  std::uint64_t lines = static_cast<std::uint64_t>(std::max(maxLines, 1));
  std::uint64_t f = std::max(stepToFit(t.cols, room), stepToFit(t.rows, 2 * lines));
  std::uint64_t rowStep = 2 * f;

  std::string out = title;
  if (f > 1)
    out += " (1 character = " + std::to_string(f) + " x " + std::to_string(rowStep) +
           " bits, shaded \u2591 \u2592 \u2593 \u2588 by the share of 1s)";
  out += "\n" + columnRuler(t.cols, f, indent);
  std::uint64_t chars = blockCount(t.cols, f);
  for (std::uint64_t k = 0; k < blockCount(t.rows, rowStep); ++k) {
    std::string label = std::to_string(k * rowStep + 1);
    out +=
        std::string(static_cast<std::size_t>(labelWidth) - label.size(), ' ') + label + " \u2502";
    if (f == 1) {
      for (std::uint64_t j = 0; j < t.cols; ++j) {
        bool upper = bit(t, 2 * k, j), lower = bit(t, 2 * k + 1, j);
        out += upper ? (lower ? kFull : kUpper) : (lower ? kLower : kBlank);
      }
    } else {
      std::vector<double> density = blockRowDensities(t, k, rowStep, f);
      for (std::uint64_t c = 0; c < chars; ++c) out += shadeOf(density[c]);
    }
    while (out.size() > 1 && out.back() == ' ') out.pop_back();  // no trailing blanks
    out += "\n";
  }
  return out;
}

}  // namespace star::repl
