#include "lsp/DocComment.h"

#include <algorithm>
#include <sstream>
#include <vector>

namespace star::lsp {
namespace {

constexpr std::size_t kMaxCommentBytes = 4000;

constexpr std::uint32_t kMaxCommentLines = 100;

// The text before `loc`: up to kMaxCommentLines lines and the start of its own line, at most
// twice kMaxCommentBytes (the end of it), so that the cost does not grow with the file.
std::string textBefore(const SourceManager& sources, SourceLoc loc) {
  std::string own = sources.line(loc.file, loc.line);
  std::size_t byte = 0;
  for (std::uint32_t column = 1; column < loc.col && byte < own.size(); ++column) {
    ++byte;
    while (byte < own.size() && (static_cast<unsigned char>(own[byte]) & 0xC0) == 0x80) ++byte;
  }
  std::string window = own.substr(0, byte);
  std::uint32_t first = loc.line > kMaxCommentLines ? loc.line - kMaxCommentLines : 1;
  for (std::uint32_t line = loc.line; line-- > first && window.size() < 2 * kMaxCommentBytes;)
    window = sources.line(loc.file, line) + "\n" + window;
  if (window.size() > 2 * kMaxCommentBytes) window.erase(0, window.size() - 2 * kMaxCommentBytes);
  return window;
}

bool isBlank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f';
}

// The text between `open` and the end of a block comment that ends just before `end`.
std::string blockComment(const std::string& text, std::size_t end, const std::string& open,
                         const std::string& close) {
  std::size_t closeAt = end - close.size();
  std::size_t openAt = text.rfind(open, closeAt);
  if (openAt == std::string::npos || closeAt - openAt > kMaxCommentBytes) return "";
  return text.substr(openAt + open.size(), closeAt - openAt - open.size());
}

// The `//` lines that end just before `end` (which is at the end of a line).
std::string lineComments(const std::string& text, std::size_t end) {
  std::vector<std::string> lines;
  std::size_t lineEnd = end;
  while (lineEnd > 0 && lines.size() < 100) {
    std::size_t lineStart = text.rfind('\n', lineEnd - 1);
    lineStart = lineStart == std::string::npos ? 0 : lineStart + 1;
    std::string line = text.substr(lineStart, lineEnd - lineStart);
    std::size_t first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line.compare(first, 2, "//") != 0) break;
    lines.push_back(line.substr(first + 2));
    if (lineStart == 0) break;
    lineEnd = lineStart - 1;  // the newline before this line
  }
  std::reverse(lines.begin(), lines.end());
  std::string out;
  for (auto& l : lines) out += l + "\n";
  return out;
}

// Drops blank lines at both ends and the indentation the lines share. The first line of a block
// comment follows its opening delimiter, so its indentation says nothing: `firstLineAligned` is
// false then, and it only loses its leading blanks.
std::string tidy(const std::string& raw, bool firstLineAligned) {
  std::vector<std::string> lines;
  std::istringstream in(raw);
  for (std::string line; std::getline(in, line);) {
    while (!line.empty() && isBlank(line.back())) line.pop_back();
    lines.push_back(line);
  }
  while (!lines.empty() && lines.back().empty()) lines.pop_back();
  while (!lines.empty() && lines.front().empty()) {
    lines.erase(lines.begin());
    firstLineAligned = true;  // the text starts on a line of its own
  }
  if (lines.empty()) return "";
  std::size_t indent = std::string::npos;
  for (std::size_t i = firstLineAligned ? 0 : 1; i < lines.size(); ++i)
    if (!lines[i].empty()) indent = std::min(indent, lines[i].find_first_not_of(" \t"));
  if (indent == std::string::npos) indent = 0;
  std::string out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::size_t cut = i == 0 && !firstLineAligned ? lines[0].find_first_not_of(" \t") : indent;
    if (i) out += "\n";
    out += lines[i].substr(std::min(cut, lines[i].size()));
  }
  return out;
}

}  // namespace

std::string commentBefore(const SourceManager& sources, SourceLoc declarationStart) {
  if (declarationStart.file >= sources.size() || !declarationStart.line) return "";
  std::string text = textBefore(sources, declarationStart);
  std::size_t end = text.size();
  int lineBreaks = 0;
  while (end > 0 && isBlank(text[end - 1])) {
    if (text[end - 1] == '\n') ++lineBreaks;
    --end;
  }
  if (lineBreaks > 1 || end == 0) return "";
  auto endsWith = [&](const char* s) {
    std::string_view suffix(s);
    return end >= suffix.size() && text.compare(end - suffix.size(), suffix.size(), suffix) == 0;
  };
  if (endsWith("*)")) return tidy(blockComment(text, end, "(*", "*)"), false);
  if (endsWith("*/")) return tidy(blockComment(text, end, "/*", "*/"), false);
  if (endsWith("}")) return tidy(blockComment(text, end, "{", "}"), false);
  return tidy(lineComments(text, end), true);
}

}  // namespace star::lsp
