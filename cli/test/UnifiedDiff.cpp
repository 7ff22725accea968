#include "cli/test/UnifiedDiff.h"

#include <algorithm>
#include <cstdint>

namespace star::test {
namespace {

enum class Op : std::uint8_t { Same, Remove, Add };
struct Edit {
  Op op;
  std::size_t a, b;  // the line in expected (Same, Remove) and in actual (Same, Add)
};

// Beyond this many differing lines the diff is one replacement (Myers' search keeps O(D^2)).
constexpr std::ptrdiff_t kMaxEdits = 4000;

// Myers' O(ND) shortest edit script; empty when it needs more than kMaxEdits steps.
bool shortestEdit(const std::vector<std::string>& a, const std::vector<std::string>& b,
                  std::vector<Edit>& edits) {
  const auto n = static_cast<std::ptrdiff_t>(a.size()), m = static_cast<std::ptrdiff_t>(b.size());
  const std::ptrdiff_t max = std::min(n + m, kMaxEdits);
  // trace[d] holds x for diagonals k = -d..d (index k + d) after step d.
  std::vector<std::vector<std::ptrdiff_t>> trace;
  std::vector<std::ptrdiff_t> v(2 * static_cast<std::size_t>(max) + 3, 0);
  const std::ptrdiff_t off = max + 1;
  std::ptrdiff_t found = -1;
  for (std::ptrdiff_t d = 0; d <= max && found < 0; ++d) {
    for (std::ptrdiff_t k = -d; k <= d; k += 2) {
      std::ptrdiff_t x = (k == -d || (k != d && v[off + k - 1] < v[off + k + 1]))
                             ? v[off + k + 1]
                             : v[off + k - 1] + 1;
      std::ptrdiff_t y = x - k;
      while (x < n && y < m && a[static_cast<std::size_t>(x)] == b[static_cast<std::size_t>(y)]) {
        ++x;
        ++y;
      }
      v[off + k] = x;
      if (x >= n && y >= m) found = d;
    }
    trace.emplace_back(v.begin() + (off - d), v.begin() + (off + d + 1));
  }
  if (found < 0) return false;
  // Back from (n, m) through the steps.
  std::vector<Edit> reversed;
  std::ptrdiff_t x = n, y = m;
  for (std::ptrdiff_t d = found; d > 0; --d) {
    const std::vector<std::ptrdiff_t>& prev = trace[static_cast<std::size_t>(d - 1)];
    auto at = [&](std::ptrdiff_t k) { return prev[static_cast<std::size_t>(k + d - 1)]; };
    std::ptrdiff_t k = x - y;
    std::ptrdiff_t prevK = (k == -d || (k != d && at(k - 1) < at(k + 1))) ? k + 1 : k - 1;
    std::ptrdiff_t prevX = at(prevK), prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      --x;
      --y;
      reversed.push_back({Op::Same, static_cast<std::size_t>(x), static_cast<std::size_t>(y)});
    }
    if (x == prevX)
      reversed.push_back({Op::Add, static_cast<std::size_t>(x), static_cast<std::size_t>(--y)});
    else
      reversed.push_back({Op::Remove, static_cast<std::size_t>(--x), static_cast<std::size_t>(y)});
  }
  while (x > 0 && y > 0) {
    --x;
    --y;
    reversed.push_back({Op::Same, static_cast<std::size_t>(x), static_cast<std::size_t>(y)});
  }
  edits.assign(reversed.rbegin(), reversed.rend());
  return true;
}

std::vector<Edit> editScript(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::vector<Edit> edits;
  if (shortestEdit(a, b, edits)) return edits;
  for (std::size_t i = 0; i < a.size(); ++i) edits.push_back({Op::Remove, i, 0});
  for (std::size_t j = 0; j < b.size(); ++j) edits.push_back({Op::Add, a.size(), j});
  return edits;
}

std::string range(std::size_t first, std::size_t count) {
  // diff -u: "l,s", "l" when s is 1, and the line before when s is 0.
  if (count == 1) return std::to_string(first + 1);
  return std::to_string(count ? first + 1 : first) + "," + std::to_string(count);
}

}  // namespace

Lines splitLines(const std::string& text) {
  Lines out;
  std::size_t begin = 0;
  while (begin < text.size()) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string::npos) {
      out.lines.push_back(text.substr(begin));
      out.noFinalNewline = true;
      break;
    }
    out.lines.push_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  return out;
}

std::string unifiedDiff(const std::string& expected, const std::string& actual,
                        const std::string& expectedName, const std::string& actualName,
                        std::size_t context, std::size_t maxLines) {
  if (expected == actual) return "";
  Lines a = splitLines(expected), b = splitLines(actual);
  // A missing final newline makes the last line differ (diff marks it below the line).
  const std::string kNoNewline = "\n\\ No newline at end of file";
  if (a.noFinalNewline && !a.lines.empty()) a.lines.back() += kNoNewline;
  if (b.noFinalNewline && !b.lines.empty()) b.lines.back() += kNoNewline;
  std::vector<Edit> edits = editScript(a.lines, b.lines);

  std::string out = "--- " + expectedName + "\n+++ " + actualName + "\n";
  std::size_t written = 0, total = 0;
  auto emit = [&](const std::string& line) {
    ++total;
    if (written < maxLines) {
      out += line + "\n";
      ++written;
    }
  };
  std::size_t i = 0;
  while (i < edits.size()) {
    if (edits[i].op == Op::Same) {
      ++i;
      continue;
    }
    // A hunk: from `context` lines before this change to `context` lines after the last change
    // that is within 2 * context lines of the next.
    std::size_t start = i >= context ? i - context : 0;
    std::size_t end = i;
    for (;;) {
      while (end < edits.size() && edits[end].op != Op::Same) ++end;
      std::size_t same = end;
      while (same < edits.size() && edits[same].op == Op::Same) ++same;
      if (same < edits.size() && same - end <= 2 * context) {
        end = same;
        continue;
      }
      end = std::min(edits.size(), end + context);
      break;
    }
    std::size_t aFirst = edits[start].a, bFirst = edits[start].b, aCount = 0, bCount = 0;
    for (std::size_t e = start; e < end; ++e) {
      if (edits[e].op != Op::Add) ++aCount;
      if (edits[e].op != Op::Remove) ++bCount;
    }
    emit("@@ -" + range(aFirst, aCount) + " +" + range(bFirst, bCount) + " @@");
    for (std::size_t e = start; e < end; ++e) {
      const Edit& ed = edits[e];
      if (ed.op == Op::Same)
        emit(" " + a.lines[ed.a]);
      else if (ed.op == Op::Remove)
        emit("-" + a.lines[ed.a]);
      else
        emit("+" + b.lines[ed.b]);
    }
    i = end;
  }
  if (total > written) out += "... " + std::to_string(total - written) + " more lines of diff\n";
  return out;
}

}  // namespace star::test
